//! Runs a ROM with an input script and prints the frames on which a RAM byte changes
//! (default: Sonic 2's Game_Mode at $FFF600) and two words at the end.
//!
//! `cargo run --release -p megadrive --example boot_trace -- ROM SCRIPT FRAMES [ADDR]`

use megadrive::{Machine, Options, input_script};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rom = std::fs::read(&args[1]).expect("ROM");
    let script = std::fs::read_to_string(&args[2]).expect("script");
    let frames: u64 = args[3].parse().expect("frames");
    let addr = args
        .get(4)
        .map(|a| u32::from_str_radix(a.trim_start_matches("0x"), 16).expect("addr"))
        .unwrap_or(0xFFF600);
    let input = input_script::parse(&script).expect("script parses");
    // LEAD=1: one frame without input before the script, as stable-retro's RetroEmulator
    // runs a frame when it loads the game; frame numbers are then printed minus one.
    let lead: u64 = std::env::var("LEAD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut opts = Options::default();
    if std::env::var("TIMING").as_deref() == Ok("2024") {
        opts.timing = megadrive::Timing::GPGX_2024;
    }
    let mut m = Machine::new(rom, opts).expect("machine");
    for _ in 0..lead {
        m.run_frame();
    }
    let mut last = m.read_u8(addr);
    let t = std::time::Instant::now();
    for f in 1..=frames {
        m.set_pad(0, input.get(f as usize - 1).copied().unwrap_or(0));
        m.run_frame();
        let v = m.read_u8(addr);
        if v != last {
            println!("frame {f}: ${addr:06X} {last:#04x} -> {v:#04x}");
            last = v;
        }
    }
    println!(
        "after frame {frames}: x {} y {} ({:?})",
        m.read_u16(0xFFB008),
        m.read_u16(0xFFB00C),
        t.elapsed()
    );
}
