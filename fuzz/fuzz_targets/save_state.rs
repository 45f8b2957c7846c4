//! Save-state loading: any bytes load or are refused (no panic); a state that loads runs a
//! frame. A real state is 755 KB, too big for libFuzzer to mutate usefully at speed, so the
//! input is an edit of a real state of the machine below: the first 4 bytes give the length
//! to cut it to (or to extend it to, with the input's bytes), then 5-byte edits (offset, value).
//! An input starting with `!` is loaded raw instead (magic, version and header paths).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use megadrive::{Machine, Options};

/// A tiny cartridge (vectors, then `bra.s *` at $200) after two frames, and its state.
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
    let mut m = machine.clone();
    if m.load_state(&bytes).is_ok() {
        m.run_frame();
    }
});
