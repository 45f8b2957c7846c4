//! Console speed on our own test ROM (no commercial ROM needed): power on and run a fixed
//! number of frames with video.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use megadrive::{Machine, Options};
use std::hint::black_box;

/// Frames per measured run.
const FRAMES: u64 = 120;

fn frames(c: &mut Criterion) {
    let rom = testrom::rom().to_vec();
    let mut group = c.benchmark_group("testrom");
    group.throughput(Throughput::Elements(FRAMES));
    group.sample_size(20);
    group.bench_function("power_on_120_frames", |b| {
        b.iter(|| {
            let mut m = Machine::new(rom.clone(), Options::default()).expect("test ROM loads");
            for _ in 0..FRAMES {
                m.run_frame();
            }
            black_box(m.frame_buffer().pixels[0])
        })
    });
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
