//! A cartridge that crashes its 68000 costs no more than one that runs: a double bus fault
//! halts the CPU as on hardware (MC68000 User's Manual §6.3.9) while the VDP, Z80 and sound run
//! on, and exception storms and wild DMA run their frames at the normal pace.

use std::time::{Duration, Instant};

use megadrive::clock::MCLK_PER_LINE;
use megadrive::{Machine, Options};

const SSP: u32 = 0x00FF_FE00;

/// A cartridge with the given initial SSP and PC, `vectors` as (number, handler), and `code`
/// at $200; everything else is zero.
fn rom(ssp: u32, pc: u32, vectors: &[(usize, u32)], code: &[u16]) -> Vec<u8> {
    let mut rom = vec![0u8; 0x1000];
    rom[0..4].copy_from_slice(&ssp.to_be_bytes());
    rom[4..8].copy_from_slice(&pc.to_be_bytes());
    for &(n, handler) in vectors {
        rom[n * 4..n * 4 + 4].copy_from_slice(&handler.to_be_bytes());
    }
    for (i, w) in code.iter().enumerate() {
        rom[0x200 + 2 * i..0x202 + 2 * i].copy_from_slice(&w.to_be_bytes());
    }
    // An even, harmless handler for whoever needs one: `bra.s *` at $400.
    rom[0x400..0x402].copy_from_slice(&[0x60, 0xFE]);
    rom
}

/// Runs `frames` frames; returns the machine and the wall time.
fn run(rom: Vec<u8>, frames: u64) -> (Machine, Duration) {
    let mut m = Machine::new(rom, Options::default()).unwrap();
    let start = Instant::now();
    let clock0 = m.master_clock();
    for _ in 0..frames {
        m.run_frame();
    }
    let took = start.elapsed();
    eprintln!("{frames} frames in {took:?}");
    assert_eq!(m.frame_count, frames);
    // NTSC: 262 lines a frame, whatever the CPU did.
    let lines = (m.master_clock() - clock0) as f64 / MCLK_PER_LINE as f64;
    assert!(
        (lines - (frames * 262) as f64).abs() < 262.0,
        "{lines} lines for {frames} frames"
    );
    (m, took)
}

/// Generous: a frame of a healthy cartridge takes well under a millisecond in release.
const BOUND: Duration = Duration::from_secs(20);

#[test]
fn healthy_cartridge_for_comparison() {
    // `bra.s *` with display off: what the storms below are measured against.
    let (m, took) = run(rom(SSP, 0x400, &[], &[]), 60);
    assert!(!m.halted());
    assert!(took < BOUND, "{took:?}");
}

#[test]
fn odd_reset_pc_halts_at_once() {
    let m = Machine::new(rom(SSP, 0x201, &[], &[]), Options::default()).unwrap();
    assert!(m.halted());
    let (m, took) = run(rom(SSP, 0x201, &[], &[]), 120);
    assert!(m.halted());
    assert!(took < BOUND, "{took:?}");
}

#[test]
fn odd_address_error_vector_is_a_double_fault() {
    // jmp ($301).l: the fetch at an odd address faults, and so does the handler's first
    // prefetch at the odd vector. The pinned core looped here without time passing.
    let code = [0x4EF9, 0x0000, 0x0301];
    let (m, took) = run(rom(SSP, 0x200, &[(3, 0x301)], &code), 60);
    assert!(m.halted());
    assert!(took < BOUND, "{took:?}");
}

#[test]
fn address_error_with_an_odd_ssp_is_a_double_fault() {
    // move.w d0,($0001).w with SSP odd: stacking the address error frame faults.
    let code = [0x31C0, 0x0001];
    let (m, _) = run(rom(SSP | 1, 0x200, &[(3, 0x400)], &code), 2);
    assert!(m.halted());
    // The same fault with an even SSP is an ordinary address error: the handler runs.
    let (m, _) = run(rom(SSP, 0x200, &[(3, 0x400)], &code), 2);
    assert!(!m.halted());
    assert_eq!(m.cpu.pc() & !3, 0x400);
}

#[test]
fn a_halted_cpu_stays_halted_through_interrupts_and_state_round_trips() {
    let code = [0x4EF9, 0x0000, 0x0301];
    let (mut m, _) = run(rom(SSP, 0x200, &[(3, 0x301)], &code), 3);
    let state = m.save_state();
    let mut other =
        Machine::new(rom(SSP, 0x200, &[(3, 0x301)], &code), Options::default()).unwrap();
    assert!(!other.halted());
    other.load_state(&state).unwrap();
    assert!(other.halted());
    for _ in 0..3 {
        m.run_frame();
        other.run_frame();
    }
    assert_eq!(m.save_state(), other.save_state());
}

#[test]
fn address_error_storm_runs_at_normal_speed() {
    // The handler is the faulting instruction itself: an endless stream of address errors,
    // each stacking 14 bytes further down (the stack sweeps the whole map).
    let code = [0x31C0, 0x0001];
    let (m, took) = run(rom(SSP, 0x200, &[(3, 0x200)], &code), 60);
    assert!(!m.halted());
    assert!(took < BOUND, "{took:?}");
}

#[test]
fn illegal_instruction_storm_runs_at_normal_speed() {
    // ILLEGAL whose handler is itself; line A and line F likewise.
    for op in [0x4AFC, 0xA000, 0xF000] {
        let (m, took) = run(
            rom(SSP, 0x200, &[(4, 0x200), (10, 0x200), (11, 0x200)], &[op]),
            60,
        );
        assert!(!m.halted());
        assert!(took < BOUND, "{op:04X}: {took:?}");
    }
}

#[test]
fn wild_dma_runs_at_normal_speed() {
    // Endless 64 K-word DMAs of each kind: 68000 to VRAM (the CPU stalls), fill and copy.
    for reg23 in [0x9700u16, 0x9780, 0x97C0] {
        #[rustfmt::skip]
        let code = [
            0x41F9, 0x00C0, 0x0004, // lea ($C00004).l,a0
            0x30BC, 0x8174,         // move.w #$8174,(a0): display and DMA on
            0x30BC, 0x93FF,         // length $FFFF
            0x30BC, 0x94FF,
            0x30BC, 0x9500,         // source 0
            0x30BC, 0x9600,
            0x30BC, reg23,          // kind
            0x20BC, 0x4000, 0x0080, // move.l #$40000080,(a0): VRAM write, DMA
            0x317C, 0x1234, 0xFFFC, // move.w #$1234,-4(a0): the fill's data
            0x60DA,                 // bra.s back to the register writes
        ];
        let (m, took) = run(rom(SSP, 0x200, &[], &code), 60);
        assert!(!m.halted());
        assert!(took < BOUND, "{reg23:04X}: {took:?}");
    }
}
