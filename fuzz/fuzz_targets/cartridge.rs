//! The console running any cartridge image for a frame: no panic, no hang (libFuzzer's
//! -timeout), bounded memory (-rss_limit_mb). The image is the input, padded to hold the
//! vectors and header. One frame in headless mode keeps the instrumented run near a hundred
//! images a second: the mode changes nothing the cartridge can observe (sprite evaluation,
//! status flags, DMA, interrupts all run; `megadrive::mode`), only pixels and sound samples are
//! skipped, and the frame takes the 68000 through reset, its program and the vertical-blank
//! interrupt. Longer runs of random images (60 frames, pictures drawn) are the uninstrumented
//! `megadrive/tests/random_cartridges.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use megadrive::{Machine, Mode, Options};

fuzz_target!(|data: &[u8]| {
    let mut rom = data.to_vec();
    if rom.len() < 0x200 {
        rom.resize(0x200, 0);
    }
    let mut m = Machine::new(rom, Options::default()).unwrap();
    m.set_mode(Mode::Headless);
    m.run_frame();
    assert_eq!(m.frame_count, 1);
});
