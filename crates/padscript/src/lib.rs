//! Input scripts (formats.md §1): `BUTTONS` or `BUTTONS*COUNT` tokens separated by white space,
//! `.` for nothing held, `#` comments; frame k of the script applies to frame k of a run.
//!
//! One parser serves the console (`megadrive`) and the model (`s2model`), which may not depend
//! on each other. The held buttons are one byte per frame in the 3-button pad's order as the
//! game reads it into `Ctrl_1` (`SACBRLDU`, bit 0 = up).

#![forbid(unsafe_code)]

use std::fmt;

/// Bits of one frame's held byte.
pub mod buttons {
    pub const UP: u8 = 0x01;
    pub const DOWN: u8 = 0x02;
    pub const LEFT: u8 = 0x04;
    pub const RIGHT: u8 = 0x08;
    pub const B: u8 = 0x10;
    pub const C: u8 = 0x20;
    pub const A: u8 = 0x40;
    pub const START: u8 = 0x80;
}

/// The most frames a script may expand to (a guard against `R*99999999999` exhausting memory):
/// about 4.8 hours at 60 frames per second.
pub const MAX_SCRIPT_FRAMES: usize = 1 << 20;

/// The script letters in the order scripts are written, with their bits.
pub const BUTTON_LETTERS: [(char, u8); 8] = [
    ('U', buttons::UP),
    ('D', buttons::DOWN),
    ('L', buttons::LEFT),
    ('R', buttons::RIGHT),
    ('A', buttons::A),
    ('B', buttons::B),
    ('C', buttons::C),
    ('S', buttons::START),
];

/// A malformed script: where (1-based line and column, in characters, of the offending
/// character), which token, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub line: usize,
    pub col: usize,
    /// The whole token the error is in.
    pub token: String,
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, col {}: {} in '{}'",
            self.line,
            self.col,
            self.message,
            self.token.escape_debug()
        )
    }
}

impl std::error::Error for ScriptError {}

/// What is wrong with a token and at which character of it (0-based, in characters).
type TokenError = (usize, String);

/// The bits of one `BUTTONS` part.
fn parse_buttons(b: &str) -> Result<u8, TokenError> {
    if b.is_empty() {
        return Err((0, "missing buttons".into()));
    }
    if b == "." {
        return Ok(0);
    }
    let mut held = 0u8;
    for (i, c) in b.chars().enumerate() {
        if c == '.' {
            return Err((i, "'.' cannot be combined with buttons".into()));
        }
        let Some(&(_, bit)) = BUTTON_LETTERS.iter().find(|(l, _)| *l == c) else {
            return Err((i, format!("unknown button '{}'", c.escape_debug())));
        };
        if held & bit != 0 {
            return Err((i, format!("button '{c}' given twice")));
        }
        held |= bit;
    }
    Ok(held)
}

/// One token: its held byte and count.
fn parse_token(tok: &str) -> Result<(u8, usize), TokenError> {
    let (b, count) = match tok.split_once('*') {
        None => (tok, 1),
        Some((b, n)) => {
            let at = b.chars().count() + 1;
            if n.is_empty() {
                return Err((at - 1, "missing count after '*'".into()));
            }
            if let Some((i, _)) = n.chars().enumerate().find(|(_, c)| !c.is_ascii_digit()) {
                return Err((
                    at + i,
                    format!("count '{n}' is not a positive decimal number"),
                ));
            }
            let count: usize = n
                .parse()
                .map_err(|_| (at, format!("count '{n}' is too large")))?;
            if count == 0 {
                return Err((at, "count must be positive".into()));
            }
            (b, count)
        }
    };
    Ok((parse_buttons(b)?, count))
}

/// Parses a script into one held byte per frame (bits of [`buttons`]).
pub fn parse(text: &str) -> Result<Vec<u8>, ScriptError> {
    let mut frames = Vec::new();
    for (li, line) in text.lines().enumerate() {
        let code = match line.find('#') {
            Some(i) => &line[..i],
            None => line,
        };
        let mut col = 0;
        for piece in code.split_inclusive(char::is_whitespace) {
            let start_col = col;
            col += piece.chars().count();
            let tok = piece.trim_end_matches(char::is_whitespace);
            if tok.is_empty() {
                continue;
            }
            let err = |(at, message): TokenError| ScriptError {
                line: li + 1,
                col: start_col + at + 1,
                token: tok.to_string(),
                message,
            };
            let (held, count) = parse_token(tok).map_err(err)?;
            // Not `frames.len() + count > MAX`: a count near usize::MAX wraps that sum (the
            // fuzzer's first finding, `R U*18446744073709551615`).
            if count > MAX_SCRIPT_FRAMES - frames.len() {
                return Err(err((
                    tok.chars().count().min(tok.find('*').map_or(0, |i| i + 1)),
                    format!("script longer than {MAX_SCRIPT_FRAMES} frames"),
                )));
            }
            frames.extend(std::iter::repeat_n(held, count));
        }
    }
    Ok(frames)
}

/// A held byte as a script `BUTTONS` part: `.` for nothing, else the letters in the order
/// `U D L R A B C S`.
pub fn format_buttons(held: u8) -> String {
    if held == 0 {
        return ".".into();
    }
    BUTTON_LETTERS
        .iter()
        .filter(|(_, bit)| held & bit != 0)
        .map(|(c, _)| *c)
        .collect()
}

/// Parses one `BUTTONS` part (as a trace's `input` field writes it); the error says what is
/// wrong without a position.
pub fn parse_buttons_field(b: &str) -> Result<u8, String> {
    parse_buttons(b).map_err(|(_, m)| m)
}

/// Frames as a compact script (`R*60 RC R*29 .*10`).
pub fn format(frames: &[u8]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < frames.len() {
        let b = frames[i];
        let mut n = 1;
        while i + n < frames.len() && frames[i + n] == b {
            n += 1;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format_buttons(b));
        if n > 1 {
            out.push_str(&format!("*{n}"));
        }
        i += n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::buttons::*;
    use super::*;

    #[test]
    fn example_from_the_format() {
        let f = parse("R*60 RC R*29 .*10").unwrap();
        assert_eq!(f.len(), 100);
        assert_eq!(f[0], RIGHT);
        assert_eq!(f[60], RIGHT | C);
        assert_eq!(f[61], RIGHT);
        assert_eq!(f[99], 0);
    }

    #[test]
    fn comments_newlines_crlf_tabs_and_any_order() {
        let f = parse("# warm up\r\nCR # jump\r\n\t .*2\nSABCUDLR").unwrap();
        assert_eq!(f, vec![RIGHT | C, 0, 0, 0xFF]);
        assert_eq!(parse("").unwrap(), Vec::<u8>::new());
        assert_eq!(parse("# only a comment\n\n").unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn errors_point_at_the_offending_character() {
        let e = parse("R*3\n\n  . RX*4").unwrap_err();
        assert_eq!(e.to_string(), "line 3, col 6: unknown button 'X' in 'RX*4'");
        let e = parse("r").unwrap_err();
        assert_eq!(e.to_string(), "line 1, col 1: unknown button 'r' in 'r'");
        let e = parse("  R*0").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, col 5: count must be positive in 'R*0'"
        );
        let e = parse("RR").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, col 2: button 'R' given twice in 'RR'"
        );
        let e = parse("R*1x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, col 4: count '1x' is not a positive decimal number in 'R*1x'"
        );
        let e = parse("*3").unwrap_err();
        assert_eq!(e.to_string(), "line 1, col 1: missing buttons in '*3'");
        let e = parse("R*").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, col 2: missing count after '*' in 'R*'"
        );
        let e = parse("R.").unwrap_err();
        assert!(e.to_string().contains("'.' cannot"), "{e}");
        let e = parse("R*99999999999999999999999").unwrap_err();
        assert!(e.to_string().contains("too large"), "{e}");
        let e = parse("R*2000000").unwrap_err();
        assert!(e.to_string().contains("longer than"), "{e}");
        let e = parse("R*-1").unwrap_err();
        assert!(e.to_string().contains("not a positive decimal"), "{e}");
        // Stray characters are named escaped, at their column in characters.
        let e = parse("é R\u{0}").unwrap_err();
        assert_eq!(e.to_string(), "line 1, col 1: unknown button 'é' in 'é'");
        let e = parse("R R\u{0}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, col 4: unknown button '\\0' in 'R\\0'"
        );
    }

    /// Fuzzing finding 1 (docs/fuzzing.md): a count of usize::MAX after other frames wrapped
    /// the length check and panicked with "capacity overflow".
    #[test]
    fn a_count_of_usize_max_after_other_frames_is_refused() {
        let e = parse("R U*18446744073709551615").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, col 5: script longer than 1048576 frames in 'U*18446744073709551615'"
        );
        let artifact = include_str!("../../../fuzz/regressions/script-crash-8b63ebf6.txt");
        assert!(parse(artifact).unwrap_err().message.contains("longer than"));
    }

    #[test]
    fn many_tokens_stop_at_the_limit() {
        let text = "R*1000 ".repeat(MAX_SCRIPT_FRAMES / 1000 + 1);
        assert!(parse(&text).unwrap_err().message.contains("longer than"));
    }

    #[test]
    fn format_round_trip() {
        assert_eq!(format_buttons(0), ".");
        assert_eq!(format_buttons(RIGHT | C), "RC");
        assert_eq!(format_buttons(LEFT | DOWN), "DL");
        let f = parse("R*60 RC R*29 .*10").unwrap();
        assert_eq!(format(&f), "R*60 RC R*29 .*10");
    }
}
