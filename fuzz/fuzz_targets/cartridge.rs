//! The console running any cartridge image for two frames: no panic, no hang (libFuzzer's
//! -timeout), bounded memory (-rss_limit_mb). The image is the input, padded to hold the
//! vectors and header.
#![no_main]

use libfuzzer_sys::fuzz_target;
use megadrive::{Machine, Options};

fuzz_target!(|data: &[u8]| {
    let mut rom = data.to_vec();
    if rom.len() < 0x200 {
        rom.resize(0x200, 0);
    }
    let mut m = Machine::new(rom, Options::default()).unwrap();
    m.run_frame();
    m.run_frame();
    assert_eq!(m.frame_count, 2);
});
