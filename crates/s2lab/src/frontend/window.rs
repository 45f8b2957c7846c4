//! A `minifb` window: shows pictures scaled by [`super::scale`] and reports the keys held.
//!
//! minifb has no fullscreen mode of its own; "fullscreen" is a borderless window, always on
//! top, the size of the screen at its top-left corner, with the picture at the largest whole
//! scale that fits, centred on black. minifb does not tell the screen's size, so it is asked of
//! the X server (`x11rb`); where that fails (Wayland without XWayland) the window is the picture
//! at the largest whole scale that fits the screen (minifb's `Scale::FitScreen`).

use anyhow::{Context, Result, bail};
use minifb::{Scale, ScaleMode, Window, WindowOptions};

use super::inputs::{Held, HostInput, Input, KeyId};
use super::scale;

pub struct GameWindow {
    window: Window,
    buffer: Vec<u32>,
    title: String,
    /// Windowed size, kept to return from fullscreen.
    windowed: (usize, usize),
    pub fullscreen: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Windowed,
    /// Borderless, on top, exactly `w` by `h` (the screen's size).
    Screen,
    /// Borderless, on top, `w` by `h` scaled to fit the screen by minifb.
    FitScreen,
}

/// The size in pixels of the X server's default screen, if there is one.
fn x_screen_size() -> Option<(usize, usize)> {
    let (conn, screen) = x11rb::connect(None).ok()?;
    let s = x11rb::connection::Connection::setup(&conn)
        .roots
        .get(screen)?;
    let size = (s.width_in_pixels as usize, s.height_in_pixels as usize);
    (size.0 > 0 && size.1 > 0).then_some(size)
}

fn open_window(title: &str, w: usize, h: usize, kind: Kind) -> Result<Window> {
    let opts = if kind != Kind::Windowed {
        WindowOptions {
            borderless: true,
            topmost: true,
            resize: false,
            scale: if kind == Kind::Screen {
                Scale::X1
            } else {
                Scale::FitScreen
            },
            scale_mode: ScaleMode::Stretch,
            ..WindowOptions::default()
        }
    } else {
        WindowOptions {
            resize: true,
            scale: Scale::X1,
            scale_mode: ScaleMode::Stretch,
            ..WindowOptions::default()
        }
    };
    // minifb may panic on a broken display connection: report it as an error.
    std::panic::catch_unwind(|| Window::new(title, w, h, opts))
        .map_err(|_| anyhow::anyhow!("the window system failed while opening a window"))?
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("could not open a window")
}

impl GameWindow {
    /// Opens a window of `size` window pixels.
    pub fn open(title: &str, size: (usize, usize)) -> Result<GameWindow> {
        if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
            bail!(
                "no display: neither DISPLAY nor WAYLAND_DISPLAY is set (run under a desktop \
                 session or xvfb-run, or use --wav FILE --frames N for a headless run)"
            );
        }
        let window = open_window(title, size.0, size.1, Kind::Windowed)?;
        Ok(GameWindow {
            window,
            buffer: Vec::new(),
            title: title.to_string(),
            windowed: size,
            fullscreen: false,
        })
    }

    pub fn is_open(&self) -> bool {
        self.window.is_open()
    }

    pub fn set_title(&mut self, title: &str) {
        if title != self.title {
            self.window.set_title(title);
            self.title = title.to_string();
        }
    }

    /// Switches between the window and fullscreen; `picture` is one scale-1 picture's size in
    /// window pixels (aspect applied).
    pub fn toggle_fullscreen(&mut self, picture: (usize, usize)) -> Result<()> {
        let full = !self.fullscreen;
        if full {
            self.windowed = self.window.get_size();
            self.window = match x_screen_size() {
                Some((w, h)) => {
                    let mut window = open_window(&self.title, w, h, Kind::Screen)?;
                    window.set_position(0, 0);
                    window
                }
                None => open_window(&self.title, picture.0, picture.1, Kind::FitScreen)?,
            };
        } else {
            let (w, h) = self.windowed;
            self.window = open_window(&self.title, w, h, Kind::Windowed)?;
        }
        self.fullscreen = full;
        Ok(())
    }

    /// Shows a picture (0x00RRGGBB, `w` by `h`) at the largest whole scale that fits.
    pub fn present(&mut self, rgb: &[u32], w: usize, h: usize, par: f64) {
        let (win_w, win_h) = self.window.get_size();
        if w == 0 || h == 0 || win_w == 0 || win_h == 0 {
            self.window.update();
            return;
        }
        let l = scale::layout(w, h, win_w, win_h, par);
        scale::blit(rgb, w, h, &mut self.buffer, win_w, win_h, &l);
        // A failed update (window closing) shows up as `is_open() == false`.
        let _ = self.window.update_with_buffer(&self.buffer, win_w, win_h);
    }
}

impl HostInput for GameWindow {
    fn held(&mut self, held: &mut Held) {
        for key in self.window.get_keys() {
            if let Some(k) = KeyId::of(key) {
                held.insert(Input::Key(k));
            }
        }
    }
}
