//! A play session: the console and everything the player can do to it between frames (pause,
//! frame advance, speed, resets, save slots, screenshots, recording and replay). It sees the
//! player only through [`Polled`] (pads and commands), so the window and a test drive it the
//! same way; pacing and drawing are the caller's.

use std::path::PathBuf;

use anyhow::Result;
use megadrive::{Machine, Options};
use s2harness::rom::{KnownRom, RomImage};

use super::bindings::{Bindings, Command};
use super::controls::Polled;
use super::overlay::Symbols;
use super::paths;
use super::recorder::{Recorder, SCRIPT_BITS};
use super::screenshot;
use super::slots::Slots;

/// Frames run per poll while fast-forwarding.
pub const FAST_FRAMES: u32 = 4;

/// What the caller should do after a poll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickOut {
    pub frames: u32,
    pub quit: bool,
    pub toggle_fullscreen: bool,
    pub toggle_aspect: bool,
}

/// Watches each frame: the machine after it and pad 1's input during it.
pub type FrameHook = Box<dyn FnMut(&Machine, u16)>;

struct Replay {
    frames: Vec<u16>,
    pos: usize,
}

pub struct Session {
    pub machine: Machine,
    rom: Vec<u8>,
    options: Options,
    rom_path: PathBuf,
    /// "Sonic The Hedgehog 2 (World) (Rev B), SHA-1 ...": for recordings' headers.
    rom_line: String,
    file_stem: String,
    pub symbols: Option<Symbols>,
    audio_rate: Option<u32>,
    pub paused: bool,
    pub fast_toggle: bool,
    pub fast_hold: bool,
    pub slow: bool,
    pub overlay: bool,
    pub slots: Slots,
    pub screenshots: PathBuf,
    pub recordings: PathBuf,
    recorder: Option<Recorder>,
    replay: Option<Replay>,
    /// Pad 1 during the last frame run.
    pub last_input: u16,
    bindings: Bindings,
    /// Called after every frame with the machine and pad 1's input (tests watch RAM here).
    pub on_frame: Option<FrameHook>,
    /// Messages for the player (the caller prints them).
    pub notices: Vec<String>,
}

impl Session {
    pub fn new(
        rom: Vec<u8>,
        rom_path: PathBuf,
        options: Options,
        bindings: Bindings,
    ) -> Result<Session> {
        let machine = Machine::new(rom.clone(), options)
            .map_err(|e| anyhow::anyhow!("{}: {e}", rom_path.display()))?;
        let image = RomImage::new(rom.clone()).ok();
        let sha1 = s2harness::rom::sha1_hex(&rom);
        let known: Option<&KnownRom> = image.as_ref().and_then(|i| i.known());
        let rom_line = match known {
            Some(k) => format!("{}, SHA-1 {sha1}", k.no_intro_name),
            None => format!("{}, SHA-1 {sha1}", rom_path.display()),
        };
        let file_stem = rom_path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "rom".into());
        let data = paths::data_dir();
        Ok(Session {
            machine,
            rom,
            options,
            rom_path,
            rom_line,
            file_stem,
            symbols: known.and_then(Symbols::resolve),
            audio_rate: None,
            paused: false,
            fast_toggle: false,
            fast_hold: false,
            slow: false,
            overlay: false,
            slots: Slots::new(data.join("states").join(&sha1)),
            screenshots: data.join("screenshots"),
            recordings: data.join("recordings"),
            recorder: None,
            replay: None,
            last_input: 0,
            bindings,
            on_frame: None,
            notices: Vec::new(),
        })
    }

    /// Sound on at `rate` (kept across hard resets).
    pub fn enable_audio(&mut self, rate: u32) {
        self.machine.enable_audio(rate);
        self.audio_rate = Some(rate);
    }

    pub fn fast(&self) -> bool {
        self.fast_hold || self.fast_toggle
    }

    #[cfg(test)]
    pub fn recording(&self) -> bool {
        self.recorder.is_some()
    }

    fn notice(&mut self, s: String) {
        self.notices.push(s);
    }

    /// Loads a state as the session's start (before any frame).
    pub fn load_start_state(&mut self, path: &std::path::Path, bytes: &[u8]) -> Result<()> {
        self.machine
            .load_state(bytes)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }

    /// Starts recording pad 1 to `script`: from power-on when no frame has run since it,
    /// else from the machine as it is now (its state is written beside the script).
    pub fn start_recording(&mut self, script: PathBuf, from_power_on: bool) {
        self.replay = None;
        let state = (!from_power_on).then(|| self.machine.save_state());
        let r = Recorder::new(script, state, self.rom_line.clone(), self.rom_path.clone());
        self.notice(format!(
            "recording pad 1 to {} from {} ({} stops)",
            r.script.display(),
            if from_power_on {
                "power-on".to_string()
            } else {
                format!("this frame (state {})", r.state_path().display())
            },
            self.bindings.keys_of(Command::Record)
        ));
        self.recorder = Some(r);
    }

    /// Ends the recording, if any, writing its files.
    pub fn stop_recording(&mut self) {
        if let Some(r) = self.recorder.take() {
            let (script, frames) = (r.script.clone(), r.frames());
            match r.finish() {
                Ok(cmd) => self.notice(format!(
                    "recorded {frames} frames to {}; replay headless: {cmd}",
                    script.display()
                )),
                Err(e) => self.notice(format!("recording not saved: {e:#}")),
            }
        }
    }

    /// Plays `frames` on pad 1 from the next frame on.
    pub fn start_replay(&mut self, frames: Vec<u16>) {
        self.stop_recording();
        self.replay = Some(Replay { frames, pos: 0 });
    }

    /// The window title's status: record/replay, pause, speed, slot.
    pub fn status(&self) -> String {
        let mut parts = Vec::new();
        if let Some(r) = &self.recorder {
            parts.push(format!("REC {}", r.frames()));
        }
        if let Some(r) = &self.replay {
            parts.push(format!("REPLAY {}/{}", r.pos, r.frames.len()));
        }
        if self.paused {
            parts.push("PAUSED".into());
        }
        if self.fast() {
            parts.push("FAST".into());
        }
        if self.slow {
            parts.push("SLOW".into());
        }
        parts.push(format!("frame {}", self.machine.frame_count));
        parts.push(format!("slot {}", self.slots.current));
        parts.join(" | ")
    }

    /// Acts on one poll: its commands, then the frames it calls for.
    pub fn tick(&mut self, p: &Polled) -> TickOut {
        let mut out = TickOut::default();
        self.fast_hold = p.fast_hold;
        let mut advance = false;
        for &c in &p.pressed {
            match c {
                Command::Quit => out.quit = true,
                Command::Pause => self.paused = !self.paused,
                Command::FrameAdvance => {
                    if self.paused {
                        advance = true;
                    } else {
                        self.paused = true;
                    }
                }
                Command::FastForwardHold => {}
                Command::FastForwardToggle => self.fast_toggle = !self.fast_toggle,
                Command::SlowMotion => self.slow = !self.slow,
                Command::SoftReset => {
                    self.end_input_streams("reset");
                    self.machine.soft_reset();
                    self.notice("reset (RESET button)".into());
                }
                Command::HardReset => self.hard_reset(),
                Command::SaveState => match self.slots.save(&self.machine) {
                    Ok(path) => self.notice(format!(
                        "saved frame {} to slot {} ({})",
                        self.machine.frame_count,
                        self.slots.current,
                        path.display()
                    )),
                    Err(e) => self.notice(format!("save failed: {e:#}")),
                },
                Command::LoadState => self.load_slot(),
                Command::NextSlot => self.select_slot(None, 1),
                Command::PrevSlot => self.select_slot(None, -1),
                Command::Slot(n) => self.select_slot(Some(n), 0),
                Command::Screenshot => self.screenshot(),
                Command::Fullscreen => out.toggle_fullscreen = true,
                Command::Aspect => out.toggle_aspect = true,
                Command::Overlay => self.overlay = !self.overlay,
                Command::Record => {
                    if self.recorder.is_some() {
                        self.stop_recording();
                    } else {
                        let name = format!("{}-{}.txt", self.file_stem, paths::unix_seconds());
                        let from_power_on = self.machine.frame_count == 0;
                        self.start_recording(self.recordings.join(name), from_power_on);
                    }
                }
            }
        }
        if out.quit {
            return out;
        }
        let frames = if self.paused {
            u32::from(advance)
        } else if self.fast() {
            FAST_FRAMES
        } else {
            1
        };
        for _ in 0..frames {
            self.step(p.pads);
        }
        out.frames = frames;
        out
    }

    /// Runs one frame with these pads (pad 1 from the replay while one runs).
    fn step(&mut self, live: [u16; 2]) {
        let mut pads = live;
        let mut ended = None;
        if let Some(r) = &mut self.replay {
            pads[0] = r.frames[r.pos];
            r.pos += 1;
            if r.pos == r.frames.len() {
                ended = Some(r.pos);
            }
        }
        if self.recorder.is_some() || self.replay.is_some() {
            // A script holds pad 1's three-button bits only: what it cannot replay is not
            // given to the game either, and pad 2 stays idle.
            pads = [pads[0] & SCRIPT_BITS, 0];
        }
        self.machine.set_pad(0, pads[0]);
        self.machine.set_pad(1, pads[1]);
        self.machine.run_frame();
        self.last_input = pads[0];
        if let Some(r) = &mut self.recorder {
            r.push(pads[0]);
        }
        if let Some(f) = &mut self.on_frame {
            f(&self.machine, pads[0]);
        }
        if let Some(n) = ended {
            self.replay = None;
            self.notice(format!(
                "replay ended after {n} frames (frame {}); pad 1 is yours",
                self.machine.frame_count
            ));
        }
    }

    /// A reset or a loaded state breaks a recording or replay: it ends here.
    fn end_input_streams(&mut self, why: &str) {
        if self.recorder.is_some() {
            self.notice(format!("{why}: the recording ends here"));
            self.stop_recording();
        }
        if self.replay.take().is_some() {
            self.notice(format!("{why}: the replay stops"));
        }
    }

    fn hard_reset(&mut self) {
        self.end_input_streams("power cycle");
        match Machine::new(self.rom.clone(), self.options) {
            Ok(m) => {
                self.machine = m;
                if let Some(rate) = self.audio_rate {
                    self.machine.enable_audio(rate);
                }
                self.notice("power off and on".into());
            }
            Err(e) => self.notice(format!("power cycle failed: {e}")),
        }
    }

    fn load_slot(&mut self) {
        // Load into a copy first: a refused state leaves the running game alone.
        let mut m = self.machine.clone();
        match self.slots.load(&mut m) {
            Ok(path) => {
                self.end_input_streams("state loaded");
                self.machine = m;
                self.notice(format!(
                    "loaded slot {} ({}), frame {}",
                    self.slots.current,
                    path.display(),
                    self.machine.frame_count
                ));
            }
            Err(e) => self.notice(format!("load failed: {e:#}")),
        }
    }

    fn select_slot(&mut self, slot: Option<u8>, step: i8) {
        match (slot, step) {
            (Some(n), _) => self.slots.select(n),
            (None, 1) => self.slots.next(),
            _ => self.slots.prev(),
        }
        let p = self.slots.path(self.slots.current);
        let what = if p.is_file() { "saved" } else { "empty" };
        self.notice(format!("slot {} ({what})", self.slots.current));
    }

    fn screenshot(&mut self) {
        let name = format!(
            "{}-frame{}-{}.png",
            self.file_stem,
            self.machine.frame_count,
            paths::unix_seconds()
        );
        let path = self.screenshots.join(name);
        let r = std::fs::create_dir_all(&self.screenshots)
            .map_err(anyhow::Error::from)
            .and_then(|_| screenshot::write_png(&self.machine.frame_buffer(), &path));
        match r {
            Ok(()) => self.notice(format!("screenshot {}", path.display())),
            Err(e) => self.notice(format!("screenshot failed: {e:#}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(rom: Vec<u8>, dir: &std::path::Path) -> Session {
        let mut s = Session::new(
            rom,
            PathBuf::from("t.bin"),
            Options::default(),
            Bindings::default(),
        )
        .unwrap();
        s.slots.dir = dir.to_path_buf();
        s
    }

    fn press(s: &mut Session, c: Command) -> TickOut {
        s.tick(&Polled {
            pressed: vec![c],
            ..Polled::default()
        })
    }

    #[test]
    fn slots_refuse_another_roms_or_versions_state_and_keep_the_game() {
        let dir = std::env::temp_dir().join(format!("s2lab-slots-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rom = testrom::rom().to_vec();
        let mut a = session(rom.clone(), &dir);
        press(&mut a, Command::Slot(3));
        press(&mut a, Command::SaveState);
        assert!(
            a.notices
                .iter()
                .any(|n| n.starts_with("saved frame 1 to slot 3")),
            "{:?}",
            a.notices
        );
        let mut other = rom.clone();
        other[0x8000] ^= 1;
        let mut b = session(other, &dir);
        for _ in 0..5 {
            press(&mut b, Command::Slot(3));
        }
        b.notices.clear();
        press(&mut b, Command::LoadState);
        assert_eq!(b.notices.len(), 1);
        assert!(
            b.notices[0].starts_with("load failed: slot 3 (")
                && b.notices[0].contains("slot-3.state): the save state was made with another ROM"),
            "{}",
            b.notices[0]
        );
        // Refused: the running game goes on from where it was (5 frames, then this poll's).
        assert_eq!(b.machine.frame_count, 6);
        // A state of another format version.
        let p = dir.join("slot-3.state");
        let mut bytes = std::fs::read(&p).unwrap();
        bytes[4..8].copy_from_slice(&4u32.to_le_bytes());
        std::fs::write(&p, bytes).unwrap();
        a.notices.clear();
        press(&mut a, Command::LoadState);
        assert!(
            a.notices[0].contains("save state version 4 was written by an older build"),
            "{}",
            a.notices[0]
        );
        press(&mut a, Command::Slot(7));
        press(&mut a, Command::LoadState);
        assert!(a.notices.last().unwrap().contains("slot 7 is empty"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn pause_advance_fast_and_resets() {
        let dir = std::env::temp_dir().join(format!("s2lab-pause-{}", std::process::id()));
        let mut s = session(testrom::rom().to_vec(), &dir);
        assert_eq!(press(&mut s, Command::Pause).frames, 0);
        assert_eq!(press(&mut s, Command::FrameAdvance).frames, 1);
        assert_eq!(s.tick(&Polled::default()).frames, 0);
        assert_eq!(press(&mut s, Command::FrameAdvance).frames, 1);
        assert_eq!(s.machine.frame_count, 2);
        assert!(s.status().contains("PAUSED | frame 2 |"), "{}", s.status());
        press(&mut s, Command::Pause);
        let fast = s.tick(&Polled {
            fast_hold: true,
            ..Polled::default()
        });
        assert_eq!(fast.frames, FAST_FRAMES);
        assert_eq!(
            press(&mut s, Command::FastForwardToggle).frames,
            FAST_FRAMES
        );
        press(&mut s, Command::FastForwardToggle);
        let before = s.machine.frame_count;
        press(&mut s, Command::SoftReset);
        // RESET keeps the frame count and RAM; power cycling starts over.
        assert_eq!(s.machine.frame_count, before + 1);
        press(&mut s, Command::HardReset);
        assert_eq!(s.machine.frame_count, 1);
        assert!(press(&mut s, Command::Quit).quit);
    }
}

#[cfg(test)]
mod sonic2_tests {
    use super::*;

    /// RESET on Sonic 2 (Rev B, from the ROM store; skipped without it): from Emerald Hill the
    /// game goes back to its SEGA screen (Game_Mode 0) and runs on, as after the button on a
    /// console, while power cycling starts from the cleared RAM.
    #[test]
    fn reset_in_a_level_returns_to_the_sega_screen() {
        let Ok(path) = s2harness::store::locate(None, "revb") else {
            eprintln!("skipped: no Sonic 2 Rev B ROM (s2lab rom import FILE)");
            return;
        };
        let rom = std::fs::read(path).unwrap();
        let known = RomImage::new(rom.clone()).unwrap().known().unwrap();
        let game_mode = known.symbol("Game_Mode").unwrap();
        let fourcc = known.symbol("Checksum_fourcc").unwrap();
        // The boot script's first line (shared/scripts/boot-to-ehz1.txt): Start on the SEGA
        // screen and twice on the title screen, then Emerald Hill Act 1 by frame 1000.
        let script = megadrive::input_script::parse(".*419 S*4 .*276 S*4 .*96 S*4 .*196").unwrap();
        let mut s = Session::new(
            rom,
            PathBuf::from("s2.bin"),
            Options::default(),
            Bindings::default(),
        )
        .unwrap();
        for &pad in script.iter().take(1000) {
            s.tick(&Polled {
                pads: [pad, 0],
                ..Polled::default()
            });
        }
        assert_eq!(s.machine.read_u8(game_mode), 0x0C, "in the level");
        let mark = s.machine.read_u32(fourcc);
        assert_ne!(mark, 0, "the game marks its RAM as initialised");
        s.tick(&Polled {
            pressed: vec![Command::SoftReset],
            ..Polled::default()
        });
        for _ in 0..30 {
            s.tick(&Polled::default());
        }
        assert_eq!(
            s.machine.read_u8(game_mode),
            0x00,
            "back on the SEGA screen"
        );
        assert_eq!(s.machine.read_u32(fourcc), mark);
        s.tick(&Polled {
            pressed: vec![Command::HardReset],
            ..Polled::default()
        });
        assert_eq!(s.machine.frame_count, 1);
    }
}
