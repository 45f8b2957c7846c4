//! Frame lines as the recorders write them, read without building a JSON tree.
//!
//! A trace's frame line is one flat object of integers and one string, written compactly in
//! the header's field order (`{"frame":0,"input":"R","x_pos":300,...}`); the general reader
//! parses it through `serde_json::Value` at about 57,000 host instructions a line, which made
//! reading the 54 reference traces cost three times the game's boot in a suite. This reader
//! takes only that plain form: no whitespace, no escapes, integers without fraction or
//! exponent, every key once, every field present and in range, the frame's number and input
//! good. Anything else is left to the general reader (`None`), which then gives the same
//! frame or the error it always gave, so a line reads the same either way.

use super::{Layer, TraceFrame, TraceHeader, has_layer};
use crate::state::{FIELD_COUNT, FIELD_SPECS, FieldType};

/// What a header's field is to a frame line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// A compared field: its index in [`FIELD_SPECS`].
    Value(usize),
    /// A layer field (the header names both): its index in [`Layer`].
    Layer(usize),
    /// A recorder's own field: any integer or plain string, not kept.
    Extra,
}

/// The header's fields as slots, worked out once per trace.
pub(super) struct Layout {
    names: Vec<String>,
    slots: Vec<Slot>,
    with_layer: bool,
    /// Bit i: header field i must be on every line (a compared or a layer field).
    required: u64,
}

impl Layout {
    /// `None` when the header has more fields than one line's bit set of seen keys holds
    /// (the general reader takes such traces).
    pub fn new(h: &TraceHeader) -> Option<Layout> {
        if h.fields.len() > 62 {
            return None;
        }
        let with_layer = has_layer(&h.fields);
        let slots = h
            .fields
            .iter()
            .map(|f| {
                if let Some(i) = FIELD_SPECS.iter().position(|(n, _)| n == f) {
                    Slot::Value(i)
                } else if let Some(i) = super::LAYER_FIELDS.iter().position(|n| n == f)
                    && with_layer
                {
                    Slot::Layer(i)
                } else {
                    Slot::Extra
                }
            })
            .collect::<Vec<_>>();
        let required = slots
            .iter()
            .enumerate()
            .filter(|(_, s)| **s != Slot::Extra)
            .fold(0, |m, (i, _)| m | 1 << i);
        Some(Layout {
            names: h.fields.clone(),
            slots,
            with_layer,
            required,
        })
    }

    /// Frame line `index` (from 0) if it is in the plain form and good; `None` otherwise.
    pub fn frame(&self, line: &str, index: usize) -> Option<TraceFrame> {
        let mut p = Parser {
            line,
            s: line.as_bytes(),
            at: 0,
        };
        p.eat(b'{')?;
        let mut frame = None;
        let mut input = None;
        let mut values = [0i32; FIELD_COUNT];
        let mut layer: Layer = [0; 2];
        // Bit i: header field i seen; bits 62 and 63: `frame` and `input`.
        let mut seen = 0u64;
        // The next header field a line in field order holds.
        let mut next = 0usize;
        loop {
            let key = p.bytes()?;
            p.eat(b':')?;
            match key {
                b"frame" => {
                    seen = once(seen, 62)?;
                    frame = Some(u64::try_from(p.integer()?).ok()?);
                }
                b"input" => {
                    seen = once(seen, 63)?;
                    input = Some(p.string()?);
                }
                _ => {
                    let i = if self.names.get(next).is_some_and(|n| n.as_bytes() == key) {
                        next
                    } else {
                        self.names.iter().position(|n| n.as_bytes() == key)?
                    };
                    next = i + 1;
                    seen = once(seen, i)?;
                    match self.slots[i] {
                        Slot::Value(v) => {
                            let n = p.integer()?;
                            let (lo, hi) = match FIELD_SPECS[v].1 {
                                FieldType::U8 => (0, 0xFF),
                                FieldType::U16 => (0, 0xFFFF),
                                FieldType::S16 => (-0x8000, 0x7FFF),
                            };
                            if n < lo || n > hi {
                                return None;
                            }
                            values[v] = n as i32;
                        }
                        Slot::Layer(l) => layer[l] = u8::try_from(p.integer()?).ok()?,
                        Slot::Extra => {
                            if p.peek()? == b'"' {
                                p.bytes()?;
                            } else {
                                p.integer()?;
                            }
                        }
                    }
                }
            }
            match p.next()? {
                b',' => {}
                b'}' => break,
                _ => return None,
            }
        }
        if p.at != p.s.len() {
            return None;
        }
        // Every compared field (and the layer's, when the header names them) was there.
        if seen & self.required != self.required {
            return None;
        }
        let (frame, input) = (frame?, input?);
        if frame != index as u64 || crate::script::parse_buttons_field(input).is_err() {
            return None;
        }
        Some(TraceFrame {
            frame,
            input: input.to_string(),
            values,
            layer: self.with_layer.then_some(layer),
        })
    }
}

/// `seen` with bit `bit` set, or `None` if it already was (a key given twice).
fn once(seen: u64, bit: usize) -> Option<u64> {
    let b = 1u64 << bit;
    (seen & b == 0).then_some(seen | b)
}

struct Parser<'a> {
    line: &'a str,
    s: &'a [u8],
    at: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    /// A string without escapes or control characters, as bytes.
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let (start, end) = self.span()?;
        Some(&self.s[start..end])
    }

    /// [`Parser::bytes`] as text.
    fn string(&mut self) -> Option<&'a str> {
        let (start, end) = self.span()?;
        // The line is text and the quotes are ASCII, so this is on character boundaries.
        self.line.get(start..end)
    }

    /// Where a string without escapes or control characters starts and ends (quotes
    /// excluded); the parser moves past it.
    fn span(&mut self) -> Option<(usize, usize)> {
        self.eat(b'"')?;
        let start = self.at;
        loop {
            match self.next()? {
                b'"' => break,
                b'\\' | 0..=0x1F => return None,
                _ => {}
            }
        }
        Some((start, self.at - 1))
    }

    /// An integer as JSON writes it (`-?(0|[1-9][0-9]*)`) that fits an `i64` and is not
    /// followed by a fraction or an exponent.
    fn integer(&mut self) -> Option<i64> {
        let negative = self.peek()? == b'-';
        if negative {
            self.at += 1;
        }
        let start = self.at;
        let mut n: i64 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            let d = (c - b'0') as i64;
            n = n.checked_mul(10)?;
            n = if negative {
                n.checked_sub(d)?
            } else {
                n.checked_add(d)?
            };
            self.at += 1;
        }
        let digits = self.at - start;
        // serde_json reads `-0` as a float, which no integer field takes.
        if digits == 0 || (digits > 1 && self.s[start] == b'0') || (negative && n == 0) {
            return None;
        }
        if matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        Some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Trace, TraceError};
    use std::path::Path;

    /// The general reader alone, as every line was read before this one.
    fn general(text: &str) -> Result<Trace, TraceError> {
        Trace::read_lines(text.as_bytes(), Path::new("x"), false)
    }

    fn both(text: &str) -> (String, String) {
        let quick = Trace::read_from(text.as_bytes(), Path::new("x"));
        (format!("{quick:?}"), format!("{:?}", general(text)))
    }

    /// A recorded trace's lines and every kind of line the plain form leaves to the general
    /// reader (each put in place of frame line 3) read the same with and without it.
    #[test]
    fn reads_every_line_as_the_general_reader_does() {
        let mut t = super::super::tests::sample();
        t.header.fields.push("level_frame".into());
        let text = t.to_jsonl();
        let (quick, gen_) = both(&text);
        assert!(gen_.starts_with("Ok"), "{gen_}");
        assert_eq!(quick, gen_);
        let lines: Vec<&str> = text.lines().collect();
        // The plain form is what this reader takes.
        let layout = super::Layout::new(&t.header).unwrap();
        for (i, line) in lines[1..].iter().enumerate() {
            assert_eq!(layout.frame(line, i).as_ref(), Some(&t.frames[i]));
        }
        let line3 = lines[4];
        let variants: Vec<String> = vec![
            line3.replacen("\"x_pos\":", " \"x_pos\" : ", 1),
            line3.replacen("\"x_pos\"", "\"x\\u005fpos\"", 1),
            line3.replacen("\"input\":\"", "\"input\":\"\\u0052", 1),
            line3.replacen("\"x_sub\":", "\"x_sub\":1.0,\"y_radius\":", 1),
            line3.replacen("\"x_vel\":", "\"x_vel\":1e2,\"x_radius\":", 1),
            line3.replacen("}", ",\"x_pos\":5}", 1),
            line3.replacen("}", ",\"frame\":3}", 1),
            line3.replacen("}", ",\"level_frame\":7}", 1),
            line3.replacen("}", ",\"level_frame\":\"a\\\"b\"}", 1),
            line3.replacen("}", ",\"level_frame\":[1,2]}", 1),
            line3.replacen("}", ",\"other\":1}", 1),
            line3.replacen("}", "} ", 1),
            line3.replacen("}", "}x", 1),
            line3.replacen(",\"y_pos\":", ",\"y_pos\":-0,\"angle\":", 1),
            line3.replacen(",\"y_pos\":", ",\"y_pos\":007,\"angle\":", 1),
            line3.replacen(
                ",\"y_pos\":",
                ",\"y_pos\":99999999999999999999,\"angle\":",
                1,
            ),
            line3.replacen(",\"y_pos\":", ",\"y_pos\":65536,\"angle\":", 1),
            line3.replacen("\"frame\":3", "\"frame\":-3", 1),
            line3.replacen("\"frame\":3", "\"frame\":4", 1),
            line3.replacen("\"input\":", "\"input\":7,\"z\":", 1),
            line3.replacen("\"input\":\"", "\"input\":\"Q", 1),
            line3.replacen(",\"x_pos\":", ",\"zz\":0,\"x_pos\":", 1),
            line3.replacen("{", "[", 1),
            line3.replacen("}", "", 1),
            line3.replacen("{\"frame\":3,", "{", 1),
            "{}".to_string(),
            String::new(),
            "   ".to_string(),
        ];
        for (k, v) in variants.iter().enumerate() {
            let mut l = lines.clone();
            l[4] = v;
            let text = l.join("\n") + "\n";
            let (quick, gen_) = both(&text);
            assert_eq!(quick, gen_, "variant {k}: {v}");
        }
        // The layer fields: with the header naming them, and out of range.
        let mut t = super::super::tests::sample();
        t.header.fields = super::super::field_names(true);
        t.header.initial_layer = Some([0x0C, 0x0D]);
        for f in &mut t.frames {
            f.layer = Some([0x0C, 0x0D]);
        }
        let text = t.to_jsonl();
        let (quick, gen_) = both(&text);
        assert!(gen_.starts_with("Ok"), "{gen_}");
        assert_eq!(quick, gen_);
        for bad in [
            text.replacen("\"lrb_solid_bit\":13}", "\"lrb_solid_bit\":256}", 2),
            text.replacen(",\"lrb_solid_bit\":13}", "}", 2),
        ] {
            let (quick, gen_) = both(&bad);
            assert!(gen_.starts_with("Err"), "{gen_}");
            assert_eq!(quick, gen_);
        }
    }

    /// The recorded reference traces (MAME's, in the shared data) read the same both ways.
    #[test]
    fn reads_the_recorded_traces_as_the_general_reader_does() {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let Some(dir) = ["../../../shared", "../../../../shared"]
            .iter()
            .map(|up| manifest.join(up).join("traces"))
            .find(|d| d.is_dir())
        else {
            eprintln!("skipped: no shared/traces beside the repository");
            return;
        };
        let entries = std::fs::read_dir(&dir).unwrap();
        let mut n = 0;
        for e in entries {
            let path = e.unwrap().path();
            if !path.to_string_lossy().ends_with(".trace.jsonl.gz") {
                continue;
            }
            let gz = std::fs::read(&path).unwrap();
            let mut text = String::new();
            std::io::Read::read_to_string(
                &mut flate2::read::MultiGzDecoder::new(&gz[..]),
                &mut text,
            )
            .unwrap();
            let quick = Trace::read_from(text.as_bytes(), &path).unwrap();
            assert_eq!(quick, general(&text).unwrap(), "{}", path.display());
            n += 1;
        }
        assert!(n > 0, "no traces in {}", dir.display());
    }
}
