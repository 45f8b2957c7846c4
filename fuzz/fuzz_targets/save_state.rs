//! Save-state loading: any bytes load or are refused (no panic); a state that loads runs on
//! for sixteen lines. The input is an edit of a real state of the machine below (a few kilobytes since
//! version 6 stores the large memories as runs): the first 4 bytes give the length to cut it
//! to (or to extend it to), then 5-byte edits (offset, value). An input starting with `!` is
//! loaded raw instead, so libFuzzer's own mutations reach the chunk structure too (the seed
//! `raw-state` is the whole state after a `!`).
#![no_main]

use std::sync::{Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use megadrive::clock::MCLK_PER_LINE;
use megadrive::{Machine, Options};

/// A tiny cartridge (vectors, then `bra.s *` at $200) after two frames, and its state. The
/// machine is kept without its two frame buffers (300 KB each): `load_state` sets them aside
/// and takes both from the state, so a machine loaded into never sees the ones it had, and
/// putting the base back after a run no longer copies them.
fn base() -> &'static (Machine, Vec<u8>) {
    static M: OnceLock<(Machine, Vec<u8>)> = OnceLock::new();
    M.get_or_init(|| {
        let mut rom = vec![0u8; 0x1000];
        rom[0..4].copy_from_slice(&0x00FF_FE00u32.to_be_bytes());
        rom[4..8].copy_from_slice(&0x0000_0200u32.to_be_bytes());
        rom[0x200..0x202].copy_from_slice(&[0x60, 0xFE]);
        let mut m = Machine::new(rom, Options::default()).unwrap();
        m.run_frame();
        m.run_frame();
        let state = m.save_state();
        m.bus.sys.vdp.frame = Vec::new();
        m.bus.sys.vdp.drawing = Vec::new();
        (m, state)
    })
}

fuzz_target!(|data: &[u8]| {
    let (machine, state) = base();
    let bytes = if let Some(raw) = data.strip_prefix(b"!") {
        raw.to_vec()
    } else {
        let mut s = state.clone();
        if data.len() >= 4 {
            let len = u32::from_le_bytes(data[0..4].try_into().unwrap()) as usize % (s.len() + 64);
            s.resize(len, 0xA5);
            if !s.is_empty() {
                for e in data[4..].chunks_exact(5) {
                    let at = u32::from_le_bytes(e[0..4].try_into().unwrap()) as usize % s.len();
                    s[at] = e[4];
                }
            }
        }
        s
    };
    // One machine reused: a refused state leaves it unchanged, a loaded one is put back after.
    static LOADED_INTO: Mutex<Option<Machine>> = Mutex::new(None);
    let mut slot = LOADED_INTO.lock().unwrap();
    let m = slot.get_or_insert_with(|| machine.clone());
    if m.load_state(&bytes).is_ok() {
        // Sixteen lines, not a whole frame (a frame made this target ten times slower): where
        // in the frame they are is the state's own (line, phase, counters), which the edits
        // reach, so every part of the frame is still run from fuzzed states.
        m.run(16 * MCLK_PER_LINE);
        *m = machine.clone();
    }
});
