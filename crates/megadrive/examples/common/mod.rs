//! The command lines the examples share: a ROM, an input script, frame counts. A wrong one
//! prints the example's usage and exits with code 2; an unreadable file stops it naming what.
#![allow(dead_code)] // each example uses part of this module

use megadrive::input_script;

/// What `NAME ROM SCRIPT FRAMES` gives: the ROM's bytes, the script (a pad word a frame) and
/// the frame count.
pub struct RomScriptFrames {
    pub rom: Vec<u8>,
    pub input: Vec<u16>,
    pub frames: usize,
}

/// The arguments `ROM SCRIPT FRAMES` of example `name`.
pub fn rom_script_frames(name: &str) -> RomScriptFrames {
    rom_script_frames_and_flag(name, None).0
}

/// The arguments `ROM SCRIPT FRAMES [FLAG]` of example `name`, and whether `flag` was given.
pub fn rom_script_frames_and_flag(name: &str, flag: Option<&str>) -> (RomScriptFrames, bool) {
    let args: Vec<String> = std::env::args().collect();
    let flagged = flag.is_some() && args.len() == 5 && Some(args[4].as_str()) == flag;
    if args.len() != 4 && !flagged {
        match flag {
            Some(f) => eprintln!("usage: {name} ROM SCRIPT FRAMES [{f}]"),
            None => eprintln!("usage: {name} ROM SCRIPT FRAMES"),
        }
        std::process::exit(2);
    }
    let parts = RomScriptFrames {
        rom: rom(&args[1]),
        input: script(&args[2]),
        frames: args[3].parse().expect("frames"),
    };
    (parts, flagged)
}

/// The ROM image at `path`.
pub fn rom(path: &str) -> Vec<u8> {
    std::fs::read(path).expect("ROM")
}

/// The input script at `path`, a pad word a frame.
pub fn script(path: &str) -> Vec<u16> {
    let text = std::fs::read_to_string(path).expect("script");
    input_script::parse(&text).expect("script parses")
}
