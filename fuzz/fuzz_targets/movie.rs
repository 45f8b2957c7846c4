//! The movie reader (`crates/movie`): any bytes, read as a `.bk2`, a `.gmv` or by their
//! signature, give a movie or an error with a message; what reads (up to 200 frames: the
//! writer's deflate tables would dominate the time otherwise) exports to a `.bk2` that reads
//! back to the same frames.
#![no_main]

use libfuzzer_sys::fuzz_target;
use movie::Format;

fuzz_target!(|data: &[u8]| {
    // The first byte picks how the rest is read, so every path sees every input.
    let Some((&how, bytes)) = data.split_first() else {
        return;
    };
    let format = match how % 3 {
        0 => None,
        1 => Some(Format::Bk2),
        _ => Some(Format::Gmv),
    };
    match movie::read(bytes, format) {
        Ok(m) => {
            assert!(m.frames.len() <= padscript::MAX_SCRIPT_FRAMES);
            if m.frames.len() > 200 {
                return;
            }
            let again = movie::bk2::write(&m.frames, &movie::bk2::ExportInfo::default());
            assert_eq!(movie::read(&again, None).unwrap().frames, m.frames);
        }
        Err(e) => assert!(!e.message.is_empty()),
    }
});
