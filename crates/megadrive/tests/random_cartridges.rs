//! 1,000 seeded random cartridge images each run 60 frames: no panic, no hang, and the whole
//! batch in bounded time (a crashed 68000 halts or storms at the normal pace; see `halt.rs`).

use std::time::{Duration, Instant};

use megadrive::{Machine, Options};
use testsupport::Rng;

/// A random image of 2 KiB to 512 KiB (odd sizes included).
fn image(rng: &mut Rng) -> Vec<u8> {
    let len = 2048 + (rng.next() % (512 * 1024 - 2048)) as usize;
    let mut rom = Vec::with_capacity(len + 8);
    while rom.len() < len {
        rom.extend_from_slice(&rng.next().to_le_bytes());
    }
    rom.truncate(len);
    rom
}

/// `S2LAB_RANDOM_CARTRIDGES=N,F` runs N images of F frames instead (the uninstrumented sweep of
/// docs/fuzzing.md: 100000,3).
fn batch() -> (u64, u64) {
    std::env::var("S2LAB_RANDOM_CARTRIDGES")
        .ok()
        .and_then(|v| {
            let (n, f) = v.split_once(',')?;
            Some((n.parse().ok()?, f.parse().ok()?))
        })
        .unwrap_or((1000, 60))
}

#[test]
fn random_cartridges_run_their_frames_in_bounded_time() {
    let (images, frames) = batch();
    let start = Instant::now();
    let mut halted = 0;
    let mut slowest = (Duration::ZERO, 0);
    for seed in 1..=images {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let t = Instant::now();
        let mut m = Machine::new(image(&mut rng), Options::default()).unwrap();
        for _ in 0..frames {
            m.run_frame();
        }
        assert_eq!(m.frame_count, frames, "seed {seed}");
        halted += m.halted() as u32;
        slowest = slowest.max((t.elapsed(), seed));
    }
    let took = start.elapsed();
    eprintln!(
        "{images} random cartridges x {frames} frames: {took:?}, {halted} halted, slowest seed {} \
         ({:?})",
        slowest.1, slowest.0
    );
    // A hang shows up as minutes; this bounds the batch far above its release time (42 s on a
    // loaded 2-core machine for 1,000 x 60 frames) without flaking.
    let bound = Duration::from_millis(10 * images * frames);
    assert!(took < bound, "{took:?}");
}
