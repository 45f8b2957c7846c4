//! Runs a ROM in full mode for a number of frames of an input script and prints a hash of
//! every sound sample produced and of work RAM (to check that a change to the synthesis keeps
//! its output bit-identical).
//!
//! `audio_hash ROM SCRIPT FRAMES`
mod common;

use megadrive::{Machine, Mode, Options};

fn fnv(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

fn main() {
    let common::RomScriptFrames { rom, input, frames } = common::rom_script_frames("audio_hash");
    let mut m = Machine::new(rom, Options::default()).expect("machine");
    m.set_mode(Mode::Full);
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut samples = 0usize;
    let mut buf = Vec::new();
    for f in 0..frames {
        m.set_pad(0, input.get(f).copied().unwrap_or(0));
        m.run_frame();
        buf.clear();
        // What the sound thread has finished, as a frontend takes it; the rest at the end.
        if f + 1 < frames {
            m.take_audio_ready(&mut buf);
        } else {
            m.take_audio(&mut buf);
        }
        samples += buf.len();
        for s in &buf {
            h = fnv(h, &s.to_le_bytes());
        }
    }
    println!(
        "{samples} samples, audio {h:016x}, RAM {:016x}",
        fnv(0xcbf2_9ce4_8422_2325, &m.bus.sys.ram[..])
    );
}
