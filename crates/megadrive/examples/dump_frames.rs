//! Runs a ROM with an input script and writes every frame to standard output, for
//! `tools/gpgx/compare_frames.py` to compare with Genesis Plus GX in lockstep.
//!
//! `dump_frames ROM SCRIPT FRAMES [hardware]` (`hardware`: the hardware timing profile,
//! `megadrive::Timing::HARDWARE`, instead of the default Genesis Plus GX 1.7 one)
//!
//! Frame numbering as stable-retro's: one frame runs with no input before frame 1 (its
//! `RetroEmulator` runs one when it loads a game), then script frame k drives frame k.
//! Per frame, little-endian: `u16 width, u16 height`, `width * height` RGB888 triples
//! (`megadrive::vdp::render::to_rgb888`, the widening stable-retro applies to Genesis Plus
//! GX's RGB565), then the 64 KiB of work RAM ($FF0000-$FFFFFF) in 68000 byte order.
mod common;

use megadrive::{Machine, Options, Timing};
use std::io::Write;

fn main() {
    let (common::RomScriptFrames { rom, input, frames }, hardware) =
        common::rom_script_frames_and_flag("dump_frames", Some("hardware"));
    let options = Options {
        timing: if hardware {
            Timing::HARDWARE
        } else {
            Timing::default()
        },
        ..Options::default()
    };
    let mut m = Machine::new(rom, options).expect("machine");
    m.run_frame();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
    let mut buf = Vec::new();
    for f in 1..=frames {
        m.set_pad(0, input.get(f - 1).copied().unwrap_or(0));
        m.run_frame();
        let view = m.frame_buffer();
        buf.clear();
        buf.extend_from_slice(&(view.width as u16).to_le_bytes());
        buf.extend_from_slice(&(view.height as u16).to_le_bytes());
        for p in view.to_rgb() {
            buf.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
        }
        buf.extend_from_slice(&m.bus.sys.ram[..]);
        if out.write_all(&buf).is_err() {
            return; // the reader stopped early
        }
    }
    let _ = out.flush();
}
