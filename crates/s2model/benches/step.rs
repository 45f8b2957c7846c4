//! Frames per second of `step` on flat ground with a running and jumping script.
//!
//! Run: `cargo bench -p s2model --bench step`. The throughput line reports elements (frames) per
//! second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use s2model::script::parse_script;
use s2model::{SonicState, Stage, step};
use std::hint::black_box;

fn bench_step(c: &mut Criterion) {
    // Flat floor along the whole act (top row 43 → y = 688 − 20 = 668), Sonic at x = 300.
    let stage = Stage::flat_floor(43, 0, 688, 2);
    // Run right, jump, run, roll, jump from a roll, turn, skid, run left: 1000 frames that stay on
    // the floor and never reach the level's ends.
    let script = parse_script(
        "R*60 RC*30 R*40 .*20 R*80 RB R*40 DR D*30 .*20 C*20 L*60 LA*25 L*80 R*40 \
         .*30 RC R*60 D*20 .*40 L*120 LB L*40 .*60",
    )
    .expect("script");
    let frames = script.len() as u64;
    let start = SonicState::at(300, 668, false);
    let mut g = c.benchmark_group("step");
    g.throughput(Throughput::Elements(frames));
    g.bench_function("flat_run_jump", |b| {
        b.iter(|| {
            let mut s = start.clone();
            for &held in &script {
                step(&mut s, &stage, black_box(held));
            }
            black_box(s)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_step);
criterion_main!(benches);
