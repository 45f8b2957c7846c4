//! The host's inputs by name: keyboard keys (minifb's names) and gamepad buttons, as the
//! bindings file spells them. The window and the gamepads report which of these are held; a
//! test reports them the same way without either.

use minifb::Key;

/// One thing a player can hold down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Input {
    Key(KeyId),
    /// Gamepad `slot` (1-based, in the order they were connected) and one of its buttons.
    Gamepad(u8, PadButton),
}

/// A keyboard key, as an index into [`KEYS`] (so inputs stay `Ord` and free of minifb's type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyId(u8);

impl KeyId {
    pub fn name(self) -> &'static str {
        KEYS[self.0 as usize].0
    }

    pub fn of(key: Key) -> Option<KeyId> {
        KEYS.iter()
            .position(|(_, k)| *k == key)
            .map(|i| KeyId(i as u8))
    }

    pub fn named(name: &str) -> Option<KeyId> {
        KEYS.iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|i| KeyId(i as u8))
    }
}

macro_rules! key_table {
    ($($k:ident)*) => { &[$((stringify!($k), Key::$k)),*] };
}

/// Every key a binding may name.
pub const KEYS: &[(&str, Key)] = key_table!(
    Key0 Key1 Key2 Key3 Key4 Key5 Key6 Key7 Key8 Key9
    A B C D E F G H I J K L M N O P Q R S T U V W X Y Z
    F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12 F13 F14 F15
    Down Left Right Up Apostrophe Backquote Backslash Comma Equal LeftBracket Minus Period
    RightBracket Semicolon Slash Backspace Delete End Enter Escape Home Insert Menu PageDown
    PageUp Pause Space Tab NumLock CapsLock ScrollLock LeftShift RightShift LeftCtrl RightCtrl
    NumPad0 NumPad1 NumPad2 NumPad3 NumPad4 NumPad5 NumPad6 NumPad7 NumPad8 NumPad9
    NumPadDot NumPadSlash NumPadAsterisk NumPadMinus NumPadPlus NumPadEnter
    LeftAlt RightAlt LeftSuper RightSuper
);

/// Gamepad buttons (gilrs's names; the left stick also counts as four buttons).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PadButton {
    South,
    East,
    North,
    West,
    LeftTrigger,
    LeftTrigger2,
    RightTrigger,
    RightTrigger2,
    Select,
    Start,
    Mode,
    DPadUp,
    DPadDown,
    DPadLeft,
    DPadRight,
    StickUp,
    StickDown,
    StickLeft,
    StickRight,
}

pub const PAD_BUTTONS: [(&str, PadButton); 19] = [
    ("South", PadButton::South),
    ("East", PadButton::East),
    ("North", PadButton::North),
    ("West", PadButton::West),
    ("LeftTrigger", PadButton::LeftTrigger),
    ("LeftTrigger2", PadButton::LeftTrigger2),
    ("RightTrigger", PadButton::RightTrigger),
    ("RightTrigger2", PadButton::RightTrigger2),
    ("Select", PadButton::Select),
    ("Start", PadButton::Start),
    ("Mode", PadButton::Mode),
    ("DPadUp", PadButton::DPadUp),
    ("DPadDown", PadButton::DPadDown),
    ("DPadLeft", PadButton::DPadLeft),
    ("DPadRight", PadButton::DPadRight),
    ("StickUp", PadButton::StickUp),
    ("StickDown", PadButton::StickDown),
    ("StickLeft", PadButton::StickLeft),
    ("StickRight", PadButton::StickRight),
];

/// The most gamepads a binding may name.
pub const MAX_GAMEPADS: u8 = 4;

impl Input {
    /// `Enter`, `F5`, `Gamepad1.South`.
    pub fn parse(s: &str) -> Result<Input, String> {
        if let Some(rest) = s.strip_prefix("Gamepad") {
            let (n, button) = rest
                .split_once('.')
                .ok_or_else(|| format!("'{s}': a gamepad input is GamepadN.BUTTON"))?;
            let slot: u8 = n
                .parse()
                .ok()
                .filter(|n| (1..=MAX_GAMEPADS).contains(n))
                .ok_or_else(|| format!("'{s}': gamepad number must be 1 to {MAX_GAMEPADS}"))?;
            let b = PAD_BUTTONS
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(button))
                .map(|(_, b)| *b)
                .ok_or_else(|| {
                    let names: Vec<&str> = PAD_BUTTONS.iter().map(|(n, _)| *n).collect();
                    format!(
                        "'{s}': unknown gamepad button '{button}' (one of {})",
                        names.join(", ")
                    )
                })?;
            return Ok(Input::Gamepad(slot, b));
        }
        KeyId::named(s).map(Input::Key).ok_or_else(|| {
            format!(
                "unknown key '{}' (keys are named as in minifb: A-Z, Key0-Key9, F1-F15, Up, \
                 Enter, Space, Tab, Escape, LeftShift, NumPad0, ...; gamepads as Gamepad1.South)",
                s.escape_debug()
            )
        })
    }

    pub fn name(&self) -> String {
        match self {
            Input::Key(k) => k.name().to_string(),
            Input::Gamepad(slot, b) => {
                let n = PAD_BUTTONS
                    .iter()
                    .find(|(_, x)| x == b)
                    .map_or("?", |(n, _)| n);
                format!("Gamepad{slot}.{n}")
            }
        }
    }
}

/// What the front end's user holds at one moment.
pub type Held = std::collections::BTreeSet<Input>;

/// A source of held inputs: the window's keyboard, the gamepads, or a test's script.
pub trait HostInput {
    /// Adds what is held now to `held`.
    fn held(&mut self, held: &mut Held);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (name, key) in KEYS {
            let i = Input::parse(name).unwrap();
            assert_eq!(i, Input::Key(KeyId::of(*key).unwrap()));
            assert_eq!(i.name(), *name);
        }
        for (name, b) in PAD_BUTTONS {
            let s = format!("Gamepad2.{name}");
            assert_eq!(Input::parse(&s).unwrap(), Input::Gamepad(2, b));
            assert_eq!(Input::parse(&s).unwrap().name(), s);
        }
        assert!(Input::parse("Gamepad0.South").is_err());
        assert!(Input::parse("Gamepad1.Nope").unwrap_err().contains("Nope"));
        assert!(
            Input::parse("Hyper")
                .unwrap_err()
                .contains("unknown key 'Hyper'")
        );
        assert_eq!(Input::parse("enter").unwrap().name(), "Enter");
    }
}
