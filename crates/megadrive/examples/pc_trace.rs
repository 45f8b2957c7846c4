//! Prints, after each frame: PC, how far the 68000 ran past the frame end (master clocks) and
//! Sonic 2's V-int counter, to line up against a reference emulator frame by frame.
//! `pc_trace ROM FRAMES` (env LEAD=n runs n frames first, unnumbered).
mod common;

use megadrive::{Machine, Options};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rom = common::rom(&args[1]);
    let frames: u64 = args[2].parse().unwrap();
    let lead: u64 = std::env::var("LEAD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut m = Machine::new(rom, Options::default()).expect("machine");
    for _ in 0..lead {
        m.run_frame();
    }
    for f in 1..=frames {
        m.run_frame();
        println!(
            "{f} {:06X} {} {}",
            m.cpu.pc(),
            m.bus.sys.now - m.line_start,
            m.read_u16(0xFFFE0E)
        );
    }
}
