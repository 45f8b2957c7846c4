//! Our 68000 against the pinned `m68k` 0.15.1 on the same bus (`tests/support/sonic2_bus.rs`):
//! the Sonic 2 (Rev B) boot from power-on, 120 frames, CPU only. Without the ROM it says so
//! and measures nothing.

use criterion::{Criterion, criterion_group, criterion_main};

#[path = "../tests/support/sonic2_bus.rs"]
mod sonic2_bus;

use sonic2_bus::{REV_B, rom_path, run_ours, run_theirs};

const FRAMES: u64 = 120;

fn bench(c: &mut Criterion) {
    let Some(path) = rom_path() else {
        eprintln!("sonic2_boot: skipped: no Sonic 2 Rev B ROM ({REV_B}.bin) in the ROM store");
        return;
    };
    let rom = std::fs::read(&path).expect("readable ROM");
    let (mut a, mut b) = (0, 0);
    run_ours(&rom, FRAMES, |f, bus| {
        if f == FRAMES - 1 {
            a = bus.ram_sum()
        }
    });
    run_theirs(&rom, FRAMES, |f, bus| {
        if f == FRAMES - 1 {
            b = bus.ram_sum()
        }
    });
    eprintln!(
        "sonic2_boot: {FRAMES} frames; RAM checksum ours {a:016x}, m68k {b:016x} ({})",
        if a == b { "identical" } else { "DIFFERENT" }
    );
    let mut g = c.benchmark_group("sonic2_boot_120_frames");
    g.sample_size(10);
    g.bench_function("m68000", |bch| {
        bch.iter(|| run_ours(&rom, FRAMES, |_, _| ()))
    });
    g.bench_function("m68k_0_15_1", |bch| {
        bch.iter(|| run_theirs(&rom, FRAMES, |_, _| ()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
