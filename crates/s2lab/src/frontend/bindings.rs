//! Which host input does what: the two pads' buttons and the front end's commands, read from a
//! TOML file in the user's config directory (written with the defaults on first run).
//!
//! An action the file leaves out keeps its default, so a newer build's new commands get keys
//! without the user's file being rewritten.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use megadrive::buttons;

use super::inputs::Input;

/// Front-end commands (not buttons of the console).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Command {
    Quit,
    Pause,
    FrameAdvance,
    FastForwardHold,
    FastForwardToggle,
    SlowMotion,
    SoftReset,
    HardReset,
    SaveState,
    LoadState,
    NextSlot,
    PrevSlot,
    Slot(u8),
    Screenshot,
    Fullscreen,
    Aspect,
    Overlay,
    Record,
}

/// What an input does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Port (0 or 1) and button mask (`megadrive::buttons`).
    Pad(usize, u16),
    Command(Command),
}

/// The pad buttons in file order: name and mask.
pub const PAD_ACTIONS: [(&str, u16); 12] = [
    ("up", buttons::UP),
    ("down", buttons::DOWN),
    ("left", buttons::LEFT),
    ("right", buttons::RIGHT),
    ("a", buttons::A),
    ("b", buttons::B),
    ("c", buttons::C),
    ("x", buttons::X),
    ("y", buttons::Y),
    ("z", buttons::Z),
    ("start", buttons::START),
    ("mode", buttons::MODE),
];

/// The commands in file order: name, command, what it does (for `--help` and the file).
pub const COMMANDS: [(&str, Command, &str); 27] = [
    ("quit", Command::Quit, "quit"),
    ("pause", Command::Pause, "pause / resume"),
    (
        "frame_advance",
        Command::FrameAdvance,
        "run one frame (pauses first)",
    ),
    (
        "fast_forward_hold",
        Command::FastForwardHold,
        "fast forward while held",
    ),
    (
        "fast_forward_toggle",
        Command::FastForwardToggle,
        "fast forward on / off",
    ),
    (
        "slow_motion",
        Command::SlowMotion,
        "slow motion (quarter speed) on / off",
    ),
    (
        "soft_reset",
        Command::SoftReset,
        "the console's RESET button",
    ),
    ("hard_reset", Command::HardReset, "power off and on"),
    (
        "save_state",
        Command::SaveState,
        "save a state in the current slot",
    ),
    (
        "load_state",
        Command::LoadState,
        "load the current slot's state",
    ),
    ("next_slot", Command::NextSlot, "next save slot"),
    ("prev_slot", Command::PrevSlot, "previous save slot"),
    ("slot_0", Command::Slot(0), "pick save slot 0"),
    ("slot_1", Command::Slot(1), "pick save slot 1"),
    ("slot_2", Command::Slot(2), "pick save slot 2"),
    ("slot_3", Command::Slot(3), "pick save slot 3"),
    ("slot_4", Command::Slot(4), "pick save slot 4"),
    ("slot_5", Command::Slot(5), "pick save slot 5"),
    ("slot_6", Command::Slot(6), "pick save slot 6"),
    ("slot_7", Command::Slot(7), "pick save slot 7"),
    ("slot_8", Command::Slot(8), "pick save slot 8"),
    ("slot_9", Command::Slot(9), "pick save slot 9"),
    (
        "screenshot",
        Command::Screenshot,
        "write the picture as PNG",
    ),
    (
        "fullscreen",
        Command::Fullscreen,
        "fullscreen (borderless, largest integer scale) on / off",
    ),
    (
        "aspect",
        Command::Aspect,
        "pixel aspect: the console's (TV) or square",
    ),
    (
        "overlay",
        Command::Overlay,
        "the lab overlay (Sonic's fields) on / off",
    ),
    (
        "record",
        Command::Record,
        "start / stop recording pad 1 to an input script",
    ),
];

/// The defaults: pad 1 on the keyboard's left hand and arrows, pad 2 on the numeric keypad,
/// gamepads 1 and 2 on pads 1 and 2 (Mega Drive layout: A B C on the west, south and east
/// face buttons).
fn default_inputs(section: &str, action: &str) -> &'static [&'static str] {
    match (section, action) {
        ("pad1", "up") => &["Up", "Gamepad1.DPadUp", "Gamepad1.StickUp"],
        ("pad1", "down") => &["Down", "Gamepad1.DPadDown", "Gamepad1.StickDown"],
        ("pad1", "left") => &["Left", "Gamepad1.DPadLeft", "Gamepad1.StickLeft"],
        ("pad1", "right") => &["Right", "Gamepad1.DPadRight", "Gamepad1.StickRight"],
        ("pad1", "a") => &["A", "Gamepad1.West"],
        ("pad1", "b") => &["S", "Gamepad1.South"],
        ("pad1", "c") => &["D", "Gamepad1.East"],
        ("pad1", "x") => &["Q", "Gamepad1.LeftTrigger"],
        ("pad1", "y") => &["W", "Gamepad1.North"],
        ("pad1", "z") => &["E", "Gamepad1.RightTrigger"],
        ("pad1", "start") => &["Enter", "Gamepad1.Start"],
        ("pad1", "mode") => &["RightShift", "Gamepad1.Select"],
        ("pad2", "up") => &["NumPad8", "Gamepad2.DPadUp", "Gamepad2.StickUp"],
        ("pad2", "down") => &["NumPad5", "Gamepad2.DPadDown", "Gamepad2.StickDown"],
        ("pad2", "left") => &["NumPad4", "Gamepad2.DPadLeft", "Gamepad2.StickLeft"],
        ("pad2", "right") => &["NumPad6", "Gamepad2.DPadRight", "Gamepad2.StickRight"],
        ("pad2", "a") => &["NumPad1", "Gamepad2.West"],
        ("pad2", "b") => &["NumPad2", "Gamepad2.South"],
        ("pad2", "c") => &["NumPad3", "Gamepad2.East"],
        ("pad2", "x") => &["NumPad7", "Gamepad2.LeftTrigger"],
        ("pad2", "y") => &["NumPad9", "Gamepad2.North"],
        ("pad2", "z") => &["NumPadPlus", "Gamepad2.RightTrigger"],
        ("pad2", "start") => &["NumPadEnter", "Gamepad2.Start"],
        ("pad2", "mode") => &["NumPad0", "Gamepad2.Select"],
        (_, "quit") => &["Escape"],
        (_, "pause") => &["P", "Pause"],
        (_, "frame_advance") => &["N"],
        (_, "fast_forward_hold") => &["Tab"],
        (_, "fast_forward_toggle") => &["Backquote"],
        (_, "slow_motion") => &["M"],
        (_, "soft_reset") => &["F9"],
        (_, "hard_reset") => &["F10"],
        (_, "save_state") => &["F5"],
        (_, "load_state") => &["F8"],
        (_, "next_slot") => &["F7"],
        (_, "prev_slot") => &["F6"],
        (_, "slot_0") => &["Key0"],
        (_, "slot_1") => &["Key1"],
        (_, "slot_2") => &["Key2"],
        (_, "slot_3") => &["Key3"],
        (_, "slot_4") => &["Key4"],
        (_, "slot_5") => &["Key5"],
        (_, "slot_6") => &["Key6"],
        (_, "slot_7") => &["Key7"],
        (_, "slot_8") => &["Key8"],
        (_, "slot_9") => &["Key9"],
        (_, "screenshot") => &["F12"],
        (_, "fullscreen") => &["F11"],
        (_, "aspect") => &["F4"],
        (_, "overlay") => &["F1"],
        (_, "record") => &["F2"],
        _ => &[],
    }
}

const SECTIONS: [&str; 3] = ["pad1", "pad2", "hotkeys"];

/// Every action of a section: (name, action).
fn section_actions(section: &str) -> Vec<(&'static str, Action)> {
    match section {
        "pad1" | "pad2" => {
            let port = usize::from(section == "pad2");
            PAD_ACTIONS
                .iter()
                .map(|&(n, mask)| (n, Action::Pad(port, mask)))
                .collect()
        }
        _ => COMMANDS
            .iter()
            .map(|&(n, c, _)| (n, Action::Command(c)))
            .collect(),
    }
}

/// The bindings in force: each action with the inputs that trigger it, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bindings {
    /// (section, action name, action, inputs).
    pub entries: Vec<(&'static str, &'static str, Action, Vec<Input>)>,
}

impl Default for Bindings {
    fn default() -> Self {
        let mut entries = Vec::new();
        for section in SECTIONS {
            for (name, action) in section_actions(section) {
                let inputs = default_inputs(section, name)
                    .iter()
                    .map(|s| Input::parse(s).expect("default bindings name real inputs"))
                    .collect();
                entries.push((section, name, action, inputs));
            }
        }
        Bindings { entries }
    }
}

impl Bindings {
    /// The defaults overridden by `text` (a bindings file); errors name the section and
    /// action, or the line and column of a TOML syntax error.
    pub fn parse(text: &str) -> Result<Bindings, String> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            e.to_string()
                .trim_end()
                .replace('\n', " ")
                .replace("  ", " ")
        })?;
        let mut b = Bindings::default();
        for (key, value) in &table {
            if key == "format" {
                if value.as_integer() != Some(1) {
                    return Err(format!(
                        "format: {value} is not a format this build reads (1)"
                    ));
                }
                continue;
            }
            if !SECTIONS.contains(&key.as_str()) {
                return Err(format!(
                    "unknown section [{key}] (sections: {})",
                    SECTIONS.join(", ")
                ));
            }
            let Some(actions) = value.as_table() else {
                return Err(format!("[{key}] must be a table of action = [inputs]"));
            };
            for (action, inputs) in actions {
                let entry = b
                    .entries
                    .iter_mut()
                    .find(|(s, n, _, _)| s == key && n == action)
                    .ok_or_else(|| {
                        let names: Vec<&str> =
                            section_actions(key).iter().map(|(n, _)| *n).collect();
                        format!(
                            "[{key}] {action}: unknown action (one of {})",
                            names.join(", ")
                        )
                    })?;
                let list = inputs.as_array().ok_or_else(|| {
                    format!("[{key}] {action}: expected a list of input names, like [\"A\"]")
                })?;
                let mut parsed = Vec::new();
                for item in list {
                    let s = item.as_str().ok_or_else(|| {
                        format!("[{key}] {action}: {item} is not a string naming an input")
                    })?;
                    parsed.push(Input::parse(s).map_err(|e| format!("[{key}] {action}: {e}"))?);
                }
                entry.3 = parsed;
            }
        }
        Ok(b)
    }

    /// The file the defaults are written as: every action, with comments.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# s2lab play: key and gamepad bindings (format 1). Each action takes a list of\n\
             # inputs: keys by name (A-Z, Key0-Key9, F1-F15, Up, Down, Left, Right, Enter, Space,\n\
             # Tab, Escape, Backquote, LeftShift, RightShift, NumPad0-NumPad9, NumPadEnter, ...)\n\
             # or gamepad buttons as GamepadN.BUTTON (N = 1-4 in connection order; South, East,\n\
             # North, West, LeftTrigger, RightTrigger, Start, Select, DPadUp, StickLeft, ...).\n\
             # An action left out keeps its default; [] unbinds it.\n\
             format = 1\n",
        );
        for section in SECTIONS {
            out.push_str(&format!("\n[{section}]\n"));
            for (s, name, action, inputs) in &self.entries {
                if *s != section {
                    continue;
                }
                let list: Vec<String> =
                    inputs.iter().map(|i| format!("\"{}\"", i.name())).collect();
                let line = format!("{name} = [{}]", list.join(", "));
                match action {
                    Action::Command(c) => {
                        let what = COMMANDS.iter().find(|(_, x, _)| x == c).map_or("", |t| t.2);
                        out.push_str(&format!("{line:<44} # {what}\n"));
                    }
                    Action::Pad(..) => out.push_str(&format!("{line}\n")),
                }
            }
        }
        out
    }

    /// Every input's actions, for the controls.
    pub fn by_input(&self) -> BTreeMap<Input, Vec<Action>> {
        let mut map: BTreeMap<Input, Vec<Action>> = BTreeMap::new();
        for (_, _, action, inputs) in &self.entries {
            for i in inputs {
                map.entry(*i).or_default().push(*action);
            }
        }
        map
    }

    /// The keys and buttons of one command, joined for messages (`F5`, `P or Pause`).
    pub fn keys_of(&self, command: Command) -> String {
        self.entries
            .iter()
            .find(|(_, _, a, _)| *a == Action::Command(command))
            .map(|(_, _, _, i)| i.iter().map(Input::name).collect::<Vec<_>>().join(" or "))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "(unbound)".into())
    }

    /// Human-readable listing for `--help`.
    pub fn help(&self) -> String {
        let mut out = String::new();
        for section in SECTIONS {
            let title = match section {
                "pad1" => "Pad 1",
                "pad2" => "Pad 2",
                _ => "Commands",
            };
            out.push_str(&format!("{title}:\n"));
            for (s, name, action, inputs) in &self.entries {
                if *s != section {
                    continue;
                }
                let keys: Vec<String> = inputs.iter().map(Input::name).collect();
                let keys = if keys.is_empty() {
                    "(unbound)".to_string()
                } else {
                    keys.join(", ")
                };
                let what = match action {
                    Action::Command(c) => COMMANDS
                        .iter()
                        .find(|(_, x, _)| x == c)
                        .map_or(*name, |t| t.2)
                        .to_string(),
                    Action::Pad(..) => name.to_uppercase(),
                };
                out.push_str(&format!("  {what:<56} {keys}\n"));
            }
        }
        out
    }
}

/// `$XDG_CONFIG_HOME/s2lab/play.toml`, else `~/.config/s2lab/play.toml`.
pub fn config_path() -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .map(|d| d.join("s2lab").join("play.toml"))
}

/// Reads the bindings file, writing the defaults there first if there is none.
pub fn load_or_create(path: &Path) -> Result<Bindings> {
    if !path.exists() {
        let b = Bindings::default();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        outfile::write(path, b.to_toml())
            .with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("wrote the default key bindings to {}", path.display());
        return Ok(b);
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    match Bindings::parse(&text) {
        Ok(b) => Ok(b),
        Err(e) => bail!("{}: {e}", path.display()),
    }
}

/// `--help`'s listing: the user's file when it exists and parses, else the defaults.
pub fn help_text() -> String {
    let path = config_path();
    let (b, whence) = match path.as_deref().map(|p| (p, std::fs::read_to_string(p))) {
        Some((p, Ok(text))) => match Bindings::parse(&text) {
            Ok(b) => (b, format!("from {}", p.display())),
            Err(e) => (
                Bindings::default(),
                format!("defaults; {} does not parse: {e}", p.display()),
            ),
        },
        Some((p, Err(_))) => (
            Bindings::default(),
            format!("defaults, written to {} on the first run", p.display()),
        ),
        None => (Bindings::default(), "defaults".to_string()),
    };
    format!("Key bindings ({whence}):\n{}", b.help())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_through_the_file() {
        let d = Bindings::default();
        assert_eq!(Bindings::parse(&d.to_toml()).unwrap(), d);
        // Each input does one thing by default (no key both a button and a command).
        let map = d.by_input();
        for (input, actions) in map {
            assert_eq!(actions.len(), 1, "{} is bound twice", input.name());
        }
    }

    #[test]
    fn overrides_and_errors() {
        let b = Bindings::parse("[hotkeys]\npause = [\"Space\"]\nquit = []\n").unwrap();
        assert_eq!(b.keys_of(Command::Pause), "Space");
        assert_eq!(b.keys_of(Command::Quit), "(unbound)");
        assert_eq!(b.keys_of(Command::SaveState), "F5");
        let e = Bindings::parse("[hotkeys]\npause = [\"Spcae\"]\n").unwrap_err();
        assert!(e.starts_with("[hotkeys] pause: unknown key 'Spcae'"), "{e}");
        let e = Bindings::parse("[pad3]\n").unwrap_err();
        assert!(e.contains("unknown section [pad3]"), "{e}");
        let e = Bindings::parse("[pad1]\njump = [\"A\"]\n").unwrap_err();
        assert!(e.contains("[pad1] jump: unknown action"), "{e}");
        let e = Bindings::parse("[pad1]\nup = \"A\"\n").unwrap_err();
        assert!(e.contains("expected a list"), "{e}");
        let e = Bindings::parse("format = 2\n").unwrap_err();
        assert!(e.contains("format"), "{e}");
        let e = Bindings::parse("[pad1\n").unwrap_err();
        assert!(e.contains("line 1"), "{e}");
    }
}
