//! Per-instruction trace for lining up against a reference emulator: for script frames A..=B
//! (one unnumbered lead frame first, as stable-retro counts), prints the PC of each
//! instruction about to run and the master clock since the frame started (an interrupt
//! entry shows as a line with the interrupted PC).
//! `instr_trace ROM A B [SCRIPT]`
mod common;

use megadrive::machine::RunStop;
use megadrive::{Machine, Options};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rom = common::rom(&args[1]);
    let a: usize = args[2].parse().unwrap();
    let b: usize = args[3].parse().unwrap();
    let input = args.get(4).map_or(Vec::new(), |path| common::script(path));
    let pad = |f: usize| input.get(f - 1).copied().unwrap_or(0);
    let mut m = Machine::new(rom, Options::default()).expect("machine");
    m.run_frame();
    for f in 1..a {
        m.set_pad(0, pad(f));
        m.run_frame();
    }
    for f in a..=b {
        m.set_pad(0, pad(f));
        let start = m.line_start;
        loop {
            println!("{:06X} {}", m.cpu.pc(), m.bus.sys.now - start);
            if m.run(1) == RunStop::FrameEnd {
                break;
            }
        }
    }
}
