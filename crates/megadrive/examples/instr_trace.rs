//! Per-instruction trace for lining up against a reference emulator: for script frames A..=B
//! (one unnumbered lead frame first, as stable-retro counts), prints the PC of each
//! instruction about to run and the master clock since the frame started (an interrupt
//! entry shows as a line with the interrupted PC).
//! `instr_trace ROM A B [SCRIPT]`
use megadrive::machine::RunStop;
use megadrive::{Machine, Options, input_script};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rom = std::fs::read(&args[1]).expect("ROM");
    let a: usize = args[2].parse().unwrap();
    let b: usize = args[3].parse().unwrap();
    let input = match args.get(4) {
        Some(path) => input_script::parse(&std::fs::read_to_string(path).expect("script"))
            .expect("script parses"),
        None => Vec::new(),
    };
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
