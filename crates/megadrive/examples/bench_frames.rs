//! Runs a ROM for a fixed number of frames of an input script (for instruction-count profiling).
//!
//! `bench_frames ROM SCRIPT FRAMES`
use megadrive::{Machine, Options, input_script};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: bench_frames ROM SCRIPT FRAMES");
        std::process::exit(2);
    }
    let rom = std::fs::read(&args[1]).expect("ROM");
    let script = std::fs::read_to_string(&args[2]).expect("script");
    let frames: usize = args[3].parse().expect("frames");
    let input = input_script::parse(&script).expect("script parses");
    let mut m = Machine::new(rom, Options::default()).expect("machine");
    let mut sum = 0u64;
    for f in 0..frames {
        m.set_pad(0, input.get(f).copied().unwrap_or(0));
        m.run_frame();
        sum = sum.wrapping_add(
            m.frame_buffer()
                .pixels
                .iter()
                .map(|&p| p as u64)
                .sum::<u64>(),
        );
    }
    println!(
        "{sum:x} {:x}",
        m.bus.sys.ram.iter().map(|&b| b as u64).sum::<u64>()
    );
}
