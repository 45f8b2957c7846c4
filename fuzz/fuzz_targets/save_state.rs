//! Save-state loading: any bytes load or are refused, leaving the machine unchanged; a state
//! that loads runs a frame without panicking. The seeds are real states of the machine below
//! (see docs/fuzzing.md), so mutations get past the magic, version and ROM check.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use megadrive::{Machine, Options};

/// A tiny cartridge: vectors, then `bra.s *` at $200.
fn machine() -> &'static Machine {
    static M: OnceLock<Machine> = OnceLock::new();
    M.get_or_init(|| {
        let mut rom = vec![0u8; 0x1000];
        rom[0..4].copy_from_slice(&0x00FF_FE00u32.to_be_bytes());
        rom[4..8].copy_from_slice(&0x0000_0200u32.to_be_bytes());
        rom[0x200..0x202].copy_from_slice(&[0x60, 0xFE]);
        Machine::new(rom, Options::default()).unwrap()
    })
}

fuzz_target!(|data: &[u8]| {
    let base = machine();
    let mut m = base.clone();
    match m.load_state(data) {
        Ok(()) => m.run_frame(),
        Err(_) => assert_eq!(m.save_state(), base.save_state()),
    }
});
