//! The input-script format of `shared/docs/formats.md` §1 as the console's pads see it: the
//! parser is `padscript`'s (shared with the model); this turns its held bytes into
//! [`crate::io::buttons`] masks. Frame k of the script applies to frame k of a run.

pub use padscript::{MAX_SCRIPT_FRAMES, ScriptError};

/// Parses a script into one button mask per frame.
pub fn parse(text: &str) -> Result<Vec<u16>, ScriptError> {
    // padscript's bits are the 3-button pad's, which `io::buttons` keeps in its low byte.
    Ok(padscript::parse(text)?.into_iter().map(u16::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::buttons;

    #[test]
    fn letters_map_to_the_pads_bits() {
        let f = parse("U D L R A B C S .").unwrap();
        assert_eq!(
            f,
            vec![
                buttons::UP,
                buttons::DOWN,
                buttons::LEFT,
                buttons::RIGHT,
                buttons::A,
                buttons::B,
                buttons::C,
                buttons::START,
                0
            ]
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("# c\n.*3\n  RX*4").unwrap_err();
        assert_eq!(e.to_string(), "line 3, col 4: unknown button 'X' in 'RX*4'");
    }
}
