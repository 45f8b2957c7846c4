//! Expressions in claims: Rhai (rhai.rs) expressions over one frame's variables, integers as the
//! game's values, with the game's own sine table (`CalcSine`) and `CalcAngle` as functions.

use rhai::{AST, Dynamic, Engine, Scope};

/// The engine every claim's expressions are compiled and run with.
pub struct Compiled {
    engine: Engine,
}

/// A compiled expression and its text.
#[derive(Clone, Debug)]
pub struct Expr {
    pub text: String,
    ast: AST,
}

impl Default for Compiled {
    fn default() -> Self {
        Compiled::new()
    }
}

impl Compiled {
    pub fn new() -> Compiled {
        let mut engine = Engine::new();
        // Expressions only, bounded: no loops, no functions of the author's, no deep recursion.
        engine.set_max_expr_depths(64, 64);
        engine.set_max_operations(100_000);
        engine.set_max_string_size(10_000);
        engine.register_fn("sin", |a: i64| s2model::trig::calc_sine(a as u8).0 as i64);
        engine.register_fn("cos", |a: i64| s2model::trig::calc_sine(a as u8).1 as i64);
        engine.register_fn("calc_angle", |x: i64, y: i64| {
            s2model::trig::calc_angle(x as i16, y as i16) as i64
        });
        engine.register_fn("abs", |a: i64| a.abs());
        engine.register_fn("min", |a: i64, b: i64| a.min(b));
        engine.register_fn("max", |a: i64, b: i64| a.max(b));
        engine.register_fn("sign", |a: i64| a.signum());
        Compiled { engine }
    }

    /// Compiles one expression (a statement or a script is refused).
    pub fn compile(&self, text: &str) -> Result<Expr, String> {
        let ast = self
            .engine
            .compile_expression(rhai_text(text))
            .map_err(|e| e.to_string())?;
        Ok(Expr {
            text: text.to_string(),
            ast,
        })
    }

    /// The expression's value with `scope`'s variables.
    pub fn eval(&self, e: &Expr, scope: &mut Scope) -> Result<Dynamic, String> {
        self.engine
            .eval_ast_with_scope::<Dynamic>(scope, &e.ast)
            .map_err(|err| err.to_string())
    }

    /// The expression's value as a truth value.
    pub fn eval_bool(&self, e: &Expr, scope: &mut Scope) -> Result<bool, String> {
        let v = self.eval(e, scope)?;
        v.as_bool()
            .map_err(|t| format!("'{}' gives a {t}, not true or false", e.text))
    }

    /// The expression's value as an integer (a truth value counts as 0 or 1).
    pub fn eval_int(&self, e: &Expr, scope: &mut Scope) -> Result<i64, String> {
        let v = self.eval(e, scope)?;
        if let Ok(b) = v.as_bool() {
            return Ok(b as i64);
        }
        v.as_int()
            .map_err(|t| format!("'{}' gives a {t}, not an integer", e.text))
    }
}

/// The text as Rhai reads it: the ledger's `$680` hex written `0x680`, and a minus before a hex
/// literal spaced off it (Rhai's tokenizer reads `-0x680` as a malformed decimal).
fn rhai_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let hex_next = |d: Option<&char>| d.is_some_and(|d| d.is_ascii_hexdigit());
        match c {
            '$' if hex_next(chars.peek()) => out.push_str("0x"),
            '-' if matches!(chars.peek(), Some('0' | '$')) => out.push_str("- "),
            _ => out.push(c),
        }
    }
    out
}

impl Expr {
    /// The names the expression reads as variables (identifiers not called as functions and
    /// not keywords), in order of first use.
    pub fn variables(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let b = self.text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c == b'"' || c == b'\'' || c == b'`' {
                // Skip a string literal.
                i += 1;
                while i < b.len() && b[i] != c {
                    i += 1 + (b[i] == b'\\') as usize;
                }
                i += 1;
            } else if c.is_ascii_digit() {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
            } else if c.is_ascii_alphabetic() || c == b'_' {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let name = &self.text[start..i];
                let called = self.text[i..].trim_start().starts_with('(');
                let keyword = matches!(name, "true" | "false" | "if" | "else" | "in" | "switch");
                if !called && !keyword && !out.iter().any(|n| n == name) {
                    out.push(name.to_string());
                }
            } else {
                i += 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_skip_calls_keywords_numbers_and_strings() {
        let c = Compiled::new();
        let e = c
            .compile("abs(y_vel) == 0x680 && air && if held_c { x } else { d_x_vel } != \"s\"")
            .unwrap();
        assert_eq!(e.variables(), ["y_vel", "air", "held_c", "x", "d_x_vel"]);
    }

    #[test]
    fn hex_and_negative_literals_compare_as_the_game_writes_them() {
        let c = Compiled::new();
        let mut scope = Scope::new();
        scope.push("y_vel", -0x680_i64);
        for text in [
            "y_vel == -0x680",
            "y_vel == -$680",
            "y_vel+0x680==0",
            "y_vel == -1664",
        ] {
            let e = c.compile(text).unwrap();
            assert!(c.eval_bool(&e, &mut scope).unwrap(), "{text}");
        }
    }

    #[test]
    fn a_statement_is_refused() {
        let c = Compiled::new();
        assert!(c.compile("let x = 1").is_err());
        assert!(c.compile("y_vel ==").is_err());
    }

    #[test]
    fn sine_is_the_games_table() {
        // CalcSine: angle $40 is a quarter turn, sin = $100, cos = 0 (the table's definition).
        let c = Compiled::new();
        let e = c.compile("sin(0x40) * 1000 + cos(0x40)").unwrap();
        assert_eq!(c.eval_int(&e, &mut Scope::new()).unwrap(), 256_000);
    }
}
