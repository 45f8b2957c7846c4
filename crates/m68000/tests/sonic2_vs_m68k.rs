//! Our 68000 and the pinned `m68k` 0.15.1 boot Sonic 2 (Rev B) on the same bus
//! (`support/sonic2_bus.rs`) and must leave work RAM and Z80 RAM identical after every one of
//! 300 frames (the SEGA screen and the title screen's set-up: decompression, DMA queueing,
//! the sound driver's upload, interrupts). `m68k` passes every vector's cycle count, so any
//! divergence is a fault of ours. Needs the ROM in the user's ROM store; says so and passes
//! without it.

mod support;

use support::sonic2_bus::{REV_B, rom_path, run_ours, run_theirs};

const FRAMES: u64 = 300;

#[test]
fn sonic2_boot_matches_m68k_frame_by_frame() {
    let Some(path) = rom_path() else {
        println!("skipped: no Sonic 2 Rev B ROM ({REV_B}.bin) in the ROM store");
        return;
    };
    let rom = std::fs::read(&path).expect("readable ROM");
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let cpu = run_ours(&rom, FRAMES, |_, bus| ours.push(bus.ram_sum()));
    let core = run_theirs(&rom, FRAMES, |_, bus| theirs.push(bus.ram_sum()));
    if let Some(f) = ours.iter().zip(&theirs).position(|(a, b)| a != b) {
        panic!("RAM differs after frame {f} (of {FRAMES})");
    }
    assert_eq!(
        cpu.regs[..8],
        core.dar[..8],
        "data registers after {FRAMES} frames"
    );
    assert_eq!(
        cpu.regs[8..15],
        core.dar[8..15],
        "address registers after {FRAMES} frames"
    );
}
