//! Prints `frame,a,b,…` for RAM words/bytes after each frame, to diff against a reference.
//!
//! `cargo run --release -p megadrive --example ram_trace -- ROM SCRIPT FRAMES ADDR:u8|u16 …`

use megadrive::{Machine, Options, input_script};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rom = std::fs::read(&args[1]).expect("ROM");
    let input =
        input_script::parse(&std::fs::read_to_string(&args[2]).expect("script")).expect("parse");
    let frames: u64 = args[3].parse().expect("frames");
    let fields: Vec<(u32, bool)> = args[4..]
        .iter()
        .map(|s| {
            let (a, t) = s.split_once(':').expect("ADDR:TYPE");
            (u32::from_str_radix(a, 16).expect("hex"), t == "u16")
        })
        .collect();
    let mut m = Machine::new(rom, Options::default()).expect("machine");
    for f in 1..=frames {
        m.set_pad(0, input.get(f as usize - 1).copied().unwrap_or(0));
        m.run_frame();
        let vals: Vec<String> = fields
            .iter()
            .map(|&(a, w)| {
                if w {
                    m.read_u16(a).to_string()
                } else {
                    m.read_u8(a).to_string()
                }
            })
            .collect();
        println!("{f},{}", vals.join(","));
    }
}
