//! Runs a ROM for a fixed number of frames of an input script (for instruction-count profiling).
//!
//! `bench_frames ROM SCRIPT FRAMES`
mod common;

use megadrive::{Machine, Options};

fn main() {
    let common::RomScriptFrames { rom, input, frames } = common::rom_script_frames("bench_frames");
    let mut m = Machine::new(rom, Options::default()).expect("machine");
    let mut sum = 0u64;
    for f in 0..frames {
        m.set_pad(0, input.get(f).copied().unwrap_or(0));
        m.run_frame();
        sum = sum.wrapping_add(
            m.frame_buffer()
                .pixels
                .iter()
                .map(|&p| p as u64)
                .sum::<u64>(),
        );
    }
    println!(
        "{sum:x} {:x}",
        m.bus.sys.ram.iter().map(|&b| b as u64).sum::<u64>()
    );
}
