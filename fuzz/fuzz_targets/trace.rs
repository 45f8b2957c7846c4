//! The trace reader: any bytes are a trace or an error naming the line; a trace read back
//! from its own writing is the same trace.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use s2model::Trace;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = Trace::read_from(data, Path::new("<fuzz>")) {
        let again = Trace::read_from(t.to_jsonl().as_bytes(), Path::new("<again>")).unwrap();
        assert_eq!(again.frames, t.frames);
    }
});
