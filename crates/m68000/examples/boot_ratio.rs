//! The `sonic2_boot` benchmark's workload, one core at a time, for counting host instructions
//! (steadier than wall time on a loaded machine):
//!
//! ```sh
//! cargo build --release -p m68000 --example boot_ratio
//! valgrind --tool=callgrind target/release/examples/boot_ratio ours
//! valgrind --tool=callgrind target/release/examples/boot_ratio m68k
//! ```
//!
//! Without the ROM it says so and exits.

#[path = "../tests/support/sonic2_bus.rs"]
mod sonic2_bus;

use sonic2_bus::{REV_B, rom_path, run_ours, run_theirs};

const FRAMES: u64 = 120;

fn main() {
    let Some(path) = rom_path() else {
        eprintln!("boot_ratio: skipped: no Sonic 2 Rev B ROM ({REV_B}.bin) in the ROM store");
        return;
    };
    let rom = std::fs::read(&path).expect("readable ROM");
    let which = std::env::args().nth(1).unwrap_or_default();
    let t = std::time::Instant::now();
    let mut sum = 0;
    match which.as_str() {
        "ours" => drop(run_ours(&rom, FRAMES, |f, bus| {
            if f == FRAMES - 1 {
                sum = bus.ram_sum()
            }
        })),
        "m68k" => drop(run_theirs(&rom, FRAMES, |f, bus| {
            if f == FRAMES - 1 {
                sum = bus.ram_sum()
            }
        })),
        _ => {
            eprintln!("usage: boot_ratio ours|m68k");
            std::process::exit(2);
        }
    }
    println!(
        "{which}: {FRAMES} frames in {:?}, RAM checksum {sum:016x}",
        t.elapsed()
    );
}
