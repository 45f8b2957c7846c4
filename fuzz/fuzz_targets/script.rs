//! The input-script parser: any text parses or is refused with a position inside it; what
//! parses round-trips through the formatter.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match padscript::parse(text) {
        Ok(frames) => {
            assert!(frames.len() <= padscript::MAX_SCRIPT_FRAMES);
            assert_eq!(padscript::parse(&padscript::format(&frames)).unwrap(), frames);
        }
        Err(e) => {
            assert!(e.line >= 1 && e.line <= text.lines().count().max(1));
            assert!(e.col >= 1);
        }
    }
});
