//! What the console produces besides the game's own state: pictures and sound (`full`),
//! pictures only (`video`), or neither (`headless`).
//!
//! The mode never changes what the game can observe. Headless still evaluates every active
//! line's sprites for the status register's overflow and collision flags and the masking
//! state carried to the next line (`vdp::render::Renderer::evaluate_line`); the FIFO, DMA,
//! blanking flags, HV counter, interrupts, the Z80 and the YM2612's status and timers run as
//! in the other modes, only the chips' sample synthesis and the pixels are skipped.
//! `tests/modes.rs` (test ROM) and s2harness's `modes_sonic2` (Sonic 2) compare the modes
//! line by line.

use std::fmt;
use std::str::FromStr;

use crate::cpu::main_cpu::MainCpu;
use crate::machine::Machine;

/// Host sample rate [`Mode::Full`] starts sound at when it was off.
pub const FULL_MODE_AUDIO_RATE: u32 = 48_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Pictures and sound (the caller takes the sound with `Machine::take_audio`,
    /// `Machine::take_audio_ready` or `Machine::drain_audio` every frame or so, or it
    /// accumulates).
    Full,
    /// Pictures, no sound (a new machine's mode).
    Video,
    /// Neither: `Machine::frame_buffer` keeps the last picture drawn before the switch.
    Headless,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Full, Mode::Video, Mode::Headless];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::Video => "video",
            Mode::Headless => "headless",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown mode '{s}' (full, video, headless)"))
    }
}

impl Machine {
    /// Switches what the console produces; see [`Mode`]. Emulation is the same in every mode.
    pub fn set_mode(&mut self, mode: Mode) {
        self.bus.sys.vdp.draw = mode != Mode::Headless;
        match mode {
            Mode::Full => {
                if self.audio.is_none() {
                    self.enable_audio(FULL_MODE_AUDIO_RATE);
                }
            }
            Mode::Video | Mode::Headless => {
                if self.audio.is_some() {
                    self.disable_audio();
                }
            }
        }
    }

    /// The mode the console runs in.
    pub fn mode(&self) -> Mode {
        match (self.bus.sys.vdp.draw, self.audio.is_some()) {
            (false, _) => Mode::Headless,
            (true, true) => Mode::Full,
            (true, false) => Mode::Video,
        }
    }
}

/// What can change within a frame and is compared after every line by the mode tests: the
/// clock, the 68000's PC, the VDP status, pending interrupts and sprite masking.
pub fn line_difference(a: &Machine, b: &Machine) -> Option<String> {
    let key = |m: &Machine| {
        let v = &m.bus.sys.vdp;
        (
            m.bus.sys.now,
            m.cpu.pc(),
            v.status,
            v.vint_pending,
            v.hint_pending,
            v.renderer.clone(),
        )
    };
    let (x, y) = (key(a), key(b));
    (x != y).then(|| format!("clock, PC, VDP status, interrupts, masking: {x:?} vs {y:?}"))
}

/// The first difference between two machines in what a game can observe (for comparing
/// modes): the clock and the 68000, work RAM, the VDP's registers, memories, status, pending
/// interrupts, DMA and FIFO state and sprite masking, the Z80 and its RAM, the YM2612's
/// registers, status and timers. `None` when they agree.
pub fn observable_difference(a: &Machine, b: &Machine) -> Option<String> {
    fn differ<T: PartialEq + fmt::Debug>(what: &str, x: &T, y: &T) -> Option<String> {
        (x != y).then(|| format!("{what}: {x:?} vs {y:?}"))
    }
    fn first_byte(what: &str, x: &[u8], y: &[u8]) -> Option<String> {
        let i = x.iter().zip(y).position(|(p, q)| p != q)?;
        Some(format!(
            "{what} at ${i:04X}: ${:02X} vs ${:02X}",
            x[i], y[i]
        ))
    }
    let (sa, sb) = (&a.bus.sys, &b.bus.sys);
    let (va, vb) = (&sa.vdp, &sb.vdp);
    let (ya, yb) = (&sa.ym, &sb.ym);
    differ("master clock", &sa.now, &sb.now)
        .or_else(|| differ("position", &a.position(), &b.position()))
        .or_else(|| match (&a.cpu, &b.cpu) {
            (MainCpu::Ours(x), MainCpu::Ours(y)) => differ("68000", x, y),
            (MainCpu::M68k(x), MainCpu::M68k(y)) => {
                differ("68000", &x.save_state(), &y.save_state())
            }
            _ => Some("68000: different cores".to_string()),
        })
        .or_else(|| first_byte("work RAM", &sa.ram[..], &sb.ram[..]))
        .or_else(|| differ("VDP registers", &va.regs, &vb.regs))
        .or_else(|| differ("VDP status", &va.status, &vb.status))
        .or_else(|| {
            differ(
                "VDP interrupts, counters",
                &(
                    va.vint_pending,
                    va.hint_pending,
                    va.hint_counter,
                    va.v_counter,
                ),
                &(
                    vb.vint_pending,
                    vb.hint_pending,
                    vb.hint_counter,
                    vb.v_counter,
                ),
            )
        })
        .or_else(|| differ("VDP DMA", &va.dma, &vb.dma))
        .or_else(|| differ("VDP FIFO", &va.fifo, &vb.fifo))
        .or_else(|| differ("sprite masking", &va.renderer, &vb.renderer))
        .or_else(|| first_byte("VRAM", &va.vram, &vb.vram))
        .or_else(|| differ("CRAM", &va.cram, &vb.cram))
        .or_else(|| differ("VSRAM", &va.vsram, &vb.vsram))
        .or_else(|| first_byte("Z80 RAM", &sa.zbus.ram()[..], &sb.zbus.ram()[..]))
        .or_else(|| differ("Z80 bus", &sa.zbus, &sb.zbus))
        .or_else(|| differ("Z80", &a.bus.z80, &b.bus.z80))
        .or_else(|| differ("Z80 clock", &sa.z80_mclk, &sb.z80_mclk))
        .or_else(|| first_byte("YM2612 registers", &ya.regs, &yb.regs))
        .or_else(|| {
            differ(
                "YM2612 status and timers",
                &(
                    ya.status,
                    ya.mode,
                    ya.timer_a_count,
                    ya.timer_b_count,
                    ya.busy_until,
                ),
                &(
                    yb.status,
                    yb.mode,
                    yb.timer_a_count,
                    yb.timer_b_count,
                    yb.busy_until,
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::Mode;

    #[test]
    fn names_round_trip() {
        for m in Mode::ALL {
            assert_eq!(m.name().parse::<Mode>(), Ok(m));
        }
        assert!("fast".parse::<Mode>().is_err());
    }
}
