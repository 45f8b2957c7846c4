//! A `minifb` window showing the console's frames, and the keyboard as pad 1.

use anyhow::{Context, Result, bail};
use megadrive::buttons;
use megadrive::frontend::{FrameView, InputSource, VideoSink};
use minifb::{Key, KeyRepeat, Scale, ScaleMode, Window, WindowOptions};

/// The keyboard mapping, for `--help`.
pub const KEYS_HELP: &str = "\
Keys (pad 1): arrows = D-pad, A / S / D = A / B / C, Q / W / E = X / Y / Z,
Enter = Start, Right Shift = Mode.
F5 saves a state, F8 loads it; Esc (or closing the window) quits.";

const KEYMAP: [(Key, u16); 13] = [
    (Key::Up, buttons::UP),
    (Key::Down, buttons::DOWN),
    (Key::Left, buttons::LEFT),
    (Key::Right, buttons::RIGHT),
    (Key::A, buttons::A),
    (Key::S, buttons::B),
    (Key::D, buttons::C),
    (Key::Q, buttons::X),
    (Key::W, buttons::Y),
    (Key::E, buttons::Z),
    (Key::Enter, buttons::START),
    (Key::NumPadEnter, buttons::START),
    (Key::RightShift, buttons::MODE),
];

/// Hot keys the play loop acts on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HotKeys {
    pub quit: bool,
    pub save: bool,
    pub load: bool,
}

pub struct GameWindow {
    window: Window,
    buffer: Vec<u32>,
    scale: usize,
}

impl GameWindow {
    /// Opens a window for a 320x224 picture at an integer `scale` (1-6).
    pub fn open(title: &str, scale: u8) -> Result<GameWindow> {
        if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
            bail!(
                "no display: neither DISPLAY nor WAYLAND_DISPLAY is set (run under a desktop \
                 session or xvfb-run, or use --wav FILE --frames N for a headless run)"
            );
        }
        let scale = scale.clamp(1, 6) as usize;
        let opts = WindowOptions {
            scale: Scale::X1,
            scale_mode: ScaleMode::Stretch,
            resize: true,
            ..WindowOptions::default()
        };
        // minifb may panic on a broken display connection: report it as an error.
        let window =
            std::panic::catch_unwind(|| Window::new(title, 320 * scale, 224 * scale, opts))
                .map_err(|_| anyhow::anyhow!("the window system failed while opening a window"))?
                .map_err(|e| anyhow::anyhow!("{e}"))
                .context("could not open a window")?;
        Ok(GameWindow {
            window,
            buffer: Vec::new(),
            scale,
        })
    }

    pub fn is_open(&self) -> bool {
        self.window.is_open()
    }

    /// Hot keys pressed since the last update.
    pub fn hot_keys(&self) -> HotKeys {
        HotKeys {
            quit: self.window.is_key_down(Key::Escape)
                || self.window.is_key_pressed(Key::Escape, KeyRepeat::No),
            save: self.window.is_key_pressed(Key::F5, KeyRepeat::No),
            load: self.window.is_key_pressed(Key::F8, KeyRepeat::No),
        }
    }
}

impl VideoSink for GameWindow {
    fn frame(&mut self, frame: &FrameView<'_>) {
        if frame.width == 0 || frame.height == 0 {
            self.window.update();
            return;
        }
        // Nearest-neighbour upscale by the integer scale.
        let s = self.scale;
        let width = frame.width * s;
        self.buffer.clear();
        for y in 0..frame.height {
            let start = self.buffer.len();
            for &p in frame.row(y) {
                let rgb = megadrive::vdp::render::to_rgb888(p);
                self.buffer.extend(std::iter::repeat_n(rgb, s));
            }
            for _ in 1..s {
                self.buffer.extend_from_within(start..start + width);
            }
        }
        // A failed update (window closing) shows up as `is_open() == false`.
        let _ = self
            .window
            .update_with_buffer(&self.buffer, width, frame.height * s);
    }
}

impl InputSource for GameWindow {
    fn pads(&mut self, _frame: u64) -> [u16; 2] {
        let mut pad = 0;
        for (key, bit) in KEYMAP {
            if self.window.is_key_down(key) {
                pad |= bit;
            }
        }
        [pad, 0]
    }
}
