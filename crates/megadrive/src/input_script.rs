//! The input-script format of `shared/docs/formats.md` §1: tokens `BUTTONS` or
//! `BUTTONS*COUNT`, `.` for nothing held, `#` comments; frame k of the script applies to
//! frame k of a run.

use crate::io::buttons;

/// A parse error with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, col {}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ScriptError {}

/// The button mask of one letter.
pub fn button_of(c: char) -> Option<u16> {
    Some(match c {
        'U' => buttons::UP,
        'D' => buttons::DOWN,
        'L' => buttons::LEFT,
        'R' => buttons::RIGHT,
        'A' => buttons::A,
        'B' => buttons::B,
        'C' => buttons::C,
        'S' => buttons::START,
        _ => return None,
    })
}

/// Parses a script into one button mask per frame.
pub fn parse(text: &str) -> Result<Vec<u16>, ScriptError> {
    let mut frames = Vec::new();
    for (li, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let mut col = 0;
        for token in line.split_inclusive(char::is_whitespace) {
            let start_col = col + 1;
            col += token.chars().count();
            let token = token.trim();
            if token.is_empty() {
                continue;
            }
            let err = |message: String| ScriptError {
                line: li + 1,
                col: start_col,
                message,
            };
            let (buttons_part, count) = match token.split_once('*') {
                Some((b, n)) => {
                    let count: usize = n
                        .parse()
                        .ok()
                        .filter(|&c| c > 0)
                        .ok_or_else(|| err(format!("bad count '{n}' in '{token}'")))?;
                    (b, count)
                }
                None => (token, 1),
            };
            let mask = if buttons_part == "." {
                0
            } else {
                let mut mask = 0u16;
                if buttons_part.is_empty() {
                    return Err(err(format!("no buttons in '{token}'")));
                }
                for c in buttons_part.chars() {
                    let b = button_of(c)
                        .ok_or_else(|| err(format!("unknown button '{c}' in '{token}'")))?;
                    if mask & b != 0 {
                        return Err(err(format!("button '{c}' twice in '{token}'")));
                    }
                    mask |= b;
                }
                mask
            };
            frames.extend(std::iter::repeat_n(mask, count));
        }
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_format_doc() {
        let f = parse("R*60 RC R*29 .*10").unwrap();
        assert_eq!(f.len(), 100);
        assert_eq!(f[60], buttons::RIGHT | buttons::C);
        assert_eq!(f[99], 0);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("# c\n.*3\n  RX*4").unwrap_err();
        assert_eq!(e.to_string(), "line 3, col 3: unknown button 'X' in 'RX*4'");
    }
}
