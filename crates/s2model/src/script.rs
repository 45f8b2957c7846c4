//! Input scripts (formats.md §1): the parser is `padscript`'s, shared with the console; its
//! held bytes are the model's [`crate::state::buttons`] (`Ctrl_1`) bits.

pub use padscript::{
    BUTTON_LETTERS, MAX_SCRIPT_FRAMES, ScriptError, format as format_script, format_buttons,
    parse as parse_script, parse_buttons_field,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::buttons::*;

    #[test]
    fn the_model_and_the_parser_agree_on_bits() {
        let f = parse_script("U D L R A B C S").unwrap();
        assert_eq!(f, vec![UP, DOWN, LEFT, RIGHT, A, B, C, START]);
        assert_eq!(format_buttons(RIGHT | C), "RC");
    }
}
