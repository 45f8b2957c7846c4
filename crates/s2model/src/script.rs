//! Input scripts (formats.md §1): `BUTTONS` or `BUTTONS*COUNT` tokens separated by white space, `#`
//! comments; one held-buttons byte per frame.

use crate::state::buttons;
use std::fmt;

/// The most frames a script may expand to (a guard against `R*99999999999` exhausting memory):
/// about 3 hours at 60 frames per second.
pub const MAX_SCRIPT_FRAMES: usize = 1 << 20;

/// The script letters in the order the model writes them, with their `Ctrl_1` bits.
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

/// A malformed script: where (1-based line and column of the token), which token, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// Line of the offending token (1-based).
    pub line: usize,
    /// Column of the token's first character (1-based, in characters).
    pub col: usize,
    /// The whole token.
    pub token: String,
    /// What is wrong, naming the offending part.
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, col {}: {} in '{}'",
            self.line, self.col, self.message, self.token
        )
    }
}

impl std::error::Error for ScriptError {}

/// The bits of one `BUTTONS` part, or what is wrong with it.
fn parse_buttons(b: &str) -> Result<u8, String> {
    if b.is_empty() {
        return Err("missing buttons".into());
    }
    if b == "." {
        return Ok(0);
    }
    let mut held = 0u8;
    for c in b.chars() {
        if c == '.' {
            return Err("'.' cannot be combined with buttons".into());
        }
        let Some(&(_, bit)) = BUTTON_LETTERS.iter().find(|(l, _)| *l == c) else {
            return Err(format!("unknown button '{c}'"));
        };
        if held & bit != 0 {
            return Err(format!("button '{c}' given twice"));
        }
        held |= bit;
    }
    Ok(held)
}

/// One token: its held byte and count.
fn parse_token(tok: &str) -> Result<(u8, usize), String> {
    let (b, count) = match tok.split_once('*') {
        None => (tok, 1),
        Some((b, n)) => {
            if n.is_empty() {
                return Err("missing count after '*'".into());
            }
            if !n.bytes().all(|c| c.is_ascii_digit()) {
                return Err(format!("count '{n}' is not a positive decimal number"));
            }
            let count: usize = n.parse().map_err(|_| format!("count '{n}' is too large"))?;
            if count == 0 {
                return Err("count must be positive".into());
            }
            (b, count)
        }
    };
    Ok((parse_buttons(b)?, count))
}

/// Parse a script into one held-buttons byte per frame (bits of [`crate::state::buttons`]).
pub fn parse_script(text: &str) -> Result<Vec<u8>, ScriptError> {
    let mut frames = Vec::new();
    for (li, line) in text.lines().enumerate() {
        let code = match line.find('#') {
            Some(i) => &line[..i],
            None => line,
        };
        let mut chars = code.char_indices().peekable();
        while let Some(&(start, c)) = chars.peek() {
            if c.is_whitespace() {
                chars.next();
                continue;
            }
            let mut end = start;
            while let Some(&(i, c)) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                end = i + c.len_utf8();
                chars.next();
            }
            let tok = &code[start..end];
            let err = |message: String| ScriptError {
                line: li + 1,
                col: code[..start].chars().count() + 1,
                token: tok.to_string(),
                message,
            };
            let (held, count) = parse_token(tok).map_err(err)?;
            if frames.len() + count > MAX_SCRIPT_FRAMES {
                return Err(err(format!(
                    "script longer than {MAX_SCRIPT_FRAMES} frames"
                )));
            }
            frames.extend(std::iter::repeat_n(held, count));
        }
    }
    Ok(frames)
}

/// Write a held byte as a script `BUTTONS` part: `.` for nothing, else the letters in the order
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

/// Parse one `BUTTONS` part (as written in a trace's `input`).
pub fn parse_buttons_field(b: &str) -> Result<u8, String> {
    parse_buttons(b)
}

/// Write frames as a compact script (`R*60 RC R*29 .*10`).
pub fn format_script(frames: &[u8]) -> String {
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
    use super::*;
    use crate::state::buttons::*;

    #[test]
    fn example_from_the_format() {
        let f = parse_script("R*60 RC R*29 .*10").unwrap();
        assert_eq!(f.len(), 100);
        assert_eq!(f[0], RIGHT);
        assert_eq!(f[60], RIGHT | C);
        assert_eq!(f[61], RIGHT);
        assert_eq!(f[99], 0);
    }

    #[test]
    fn comments_newlines_and_any_order() {
        let f = parse_script("# warm up\nCR # jump\n  .*2\nSABCUDLR").unwrap();
        assert_eq!(f, vec![RIGHT | C, 0, 0, 0xFF]);
    }

    #[test]
    fn error_names_line_column_token() {
        let e = parse_script("R*3\n\n  . RX*4").unwrap_err();
        assert_eq!(e.to_string(), "line 3, col 5: unknown button 'X' in 'RX*4'");
        let e = parse_script("r").unwrap_err();
        assert_eq!(e.to_string(), "line 1, col 1: unknown button 'r' in 'r'");
        let e = parse_script("R*0").unwrap_err();
        assert!(e.to_string().contains("count must be positive"), "{e}");
        let e = parse_script("RR").unwrap_err();
        assert!(e.to_string().contains("given twice"), "{e}");
        let e = parse_script("R*x").unwrap_err();
        assert!(e.to_string().contains("not a positive decimal"), "{e}");
        let e = parse_script("*3").unwrap_err();
        assert!(e.to_string().contains("missing buttons"), "{e}");
        let e = parse_script("R.").unwrap_err();
        assert!(e.to_string().contains("'.'"), "{e}");
        let e = parse_script("R*99999999999999999999999").unwrap_err();
        assert!(e.to_string().contains("too large"), "{e}");
        let e = parse_script("R*2000000").unwrap_err();
        assert!(e.to_string().contains("longer than"), "{e}");
    }

    #[test]
    fn format_round_trip() {
        assert_eq!(format_buttons(0), ".");
        assert_eq!(format_buttons(RIGHT | C), "RC");
        assert_eq!(format_buttons(A | B), "AB");
        assert_eq!(format_buttons(LEFT | DOWN), "DL");
        let f = parse_script("R*60 RC R*29 .*10").unwrap();
        assert_eq!(format_script(&f), "R*60 RC R*29 .*10");
    }
}
