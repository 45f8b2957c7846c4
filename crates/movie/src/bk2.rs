//! BizHawk's `.bk2` movies (TASVideos, "Bizhawk/BK2Format"): a zip archive holding
//!
//! - `Header.txt`: `Key Value` lines; s2lab needs `Platform GEN` (BizHawk's name for the
//!   Mega Drive / Genesis) and refuses `StartsFromSavestate True` (as it refuses an archive
//!   holding a core state, `Core.bin` or `Core.txt`, which is what really makes a movie start
//!   from a state);
//! - `Input Log.txt`: between `[Input]` and `[/Input]`, a `LogKey:` line naming the buttons
//!   (groups opened by `#`, names closed by `|`), then one line a frame, each starting with
//!   `|`. Every button is one character, `.` when up and anything else when down (BizHawk
//!   writes a mnemonic such as `U`); `|` separates the groups. For Genesis Plus GX with its
//!   default two 6-button pads:
//!
//! ```text
//! LogKey:#Power|Reset|#P1 Up|P1 Down|P1 Left|P1 Right|P1 A|P1 B|P1 C|P1 Start|P1 X|P1 Y|P1 Z|P1 Mode|#P2 Up|...|P2 Mode|
//! |..|U..R..C.....|............|
//! ```
//!
//! BizHawk itself reads the characters by position and ignores the key, so s2lab does too
//! when there is no key: a first group of 2 is the console (Power, Reset), later groups of 8
//! or 12 are 3- or 6-button pads in BizHawk's order (`UDLRABCS`, then `XYZM`). With a key,
//! each position is the button the key names there.

use crate::zip::{self, Archive};
use crate::{Movie, MovieError, note_dropped};
use padscript::buttons;

pub const HEADER: &str = "Header.txt";
pub const INPUT_LOG: &str = "Input Log.txt";

/// A 6-button pad's buttons in BizHawk's order, with their mnemonics and (for the eight a
/// 3-button pad has) `padscript` bits.
const PAD: [(&str, char, u8); 12] = [
    ("Up", 'U', buttons::UP),
    ("Down", 'D', buttons::DOWN),
    ("Left", 'L', buttons::LEFT),
    ("Right", 'R', buttons::RIGHT),
    ("A", 'A', buttons::A),
    ("B", 'B', buttons::B),
    ("C", 'C', buttons::C),
    ("Start", 'S', buttons::START),
    ("X", 'X', 0),
    ("Y", 'Y', 0),
    ("Z", 'Z', 0),
    ("Mode", 'M', 0),
];

/// What one position of a frame line stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Control {
    /// Power or Reset: a script cannot hold them.
    Console(String),
    /// One of pad 1's 3-button buttons.
    Pad1(u8),
    /// Pad 1's X, Y, Z, Mode, or any button of another pad: dropped.
    Dropped(String),
}

fn control(name: &str) -> Option<Control> {
    if name == "Power" || name == "Reset" {
        return Some(Control::Console(name.into()));
    }
    let rest = name.strip_prefix('P')?;
    let (player, button) = rest.split_once(' ')?;
    let player: u32 = player.parse().ok().filter(|&p| p >= 1)?;
    let &(_, _, bit) = PAD.iter().find(|(n, _, _)| *n == button)?;
    Some(if player == 1 && bit != 0 {
        Control::Pad1(bit)
    } else if player == 1 {
        Control::Dropped("pad 1's X, Y, Z or Mode".into())
    } else {
        Control::Dropped(format!("pad {player}"))
    })
}

/// The groups of a `LogKey:` line.
fn parse_key(key: &str, place: &str) -> Result<Vec<Vec<Control>>, MovieError> {
    let mut groups = Vec::new();
    for group in key.split('#').filter(|g| !g.is_empty()) {
        let mut controls = Vec::new();
        for name in group.split('|').filter(|n| !n.is_empty()) {
            controls.push(control(name).ok_or_else(|| {
                MovieError::at(
                    place,
                    format!(
                        "the LogKey names '{}', not a button of a Genesis pad or the console \
                         (only pads are supported)",
                        name.escape_debug()
                    ),
                )
            })?);
        }
        groups.push(controls);
    }
    if groups.is_empty() {
        return Err(MovieError::at(place, "an empty LogKey"));
    }
    Ok(groups)
}

/// The key BizHawk's positions imply for groups of these widths, when the log has none.
fn default_key(widths: &[usize], place: &str) -> Result<Vec<Vec<Control>>, MovieError> {
    let mut player = 0;
    let mut groups = Vec::new();
    for (i, &w) in widths.iter().enumerate() {
        let names: Vec<String> = match w {
            2 if i == 0 => vec!["Power".into(), "Reset".into()],
            8 | 12 => {
                player += 1;
                PAD[..w]
                    .iter()
                    .map(|(n, _, _)| format!("P{player} {n}"))
                    .collect()
            }
            _ => {
                return Err(MovieError::at(
                    place,
                    format!(
                        "group {} has {w} characters; without a LogKey s2lab reads a first \
                         group of 2 (Power, Reset) and pads of 8 or 12 (3- or 6-button)",
                        i + 1
                    ),
                ));
            }
        };
        groups.push(
            names
                .iter()
                .map(|n| control(n).expect("a pad name"))
                .collect(),
        );
    }
    Ok(groups)
}

/// The archive's `Header.txt` as (line, key, value).
fn header_lines(text: &str) -> Vec<(usize, &str, &str)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let l = l.trim();
            if l.is_empty() {
                return None;
            }
            let (k, v) = l.split_once(' ').unwrap_or((l, ""));
            Some((i + 1, k, v.trim()))
        })
        .collect()
}

fn text_of<'a>(bytes: &'a [u8], name: &str) -> Result<&'a str, MovieError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        MovieError::at(
            name,
            format!("not UTF-8 text (byte {} is not)", e.valid_up_to()),
        )
    })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

pub fn read(bytes: &[u8]) -> Result<Movie, MovieError> {
    let archive = Archive::open(bytes)?;
    let mut movie = Movie::default();

    let header_bytes = archive.read(HEADER)?.ok_or_else(|| {
        MovieError::new(format!(
            "no '{HEADER}' in the archive (entries: {})",
            archive.names().join(", ")
        ))
    })?;
    let header = text_of(&header_bytes, HEADER)?;
    let lines = header_lines(header);
    let platform = lines.iter().find(|(_, k, _)| *k == "Platform");
    match platform {
        None => {
            return Err(MovieError::at(
                HEADER,
                "no 'Platform' line (a Genesis movie has 'Platform GEN')",
            ));
        }
        Some((line, _, p)) if *p != "GEN" => {
            return Err(MovieError::at(
                format!("{HEADER} line {line}"),
                format!(
                    "Platform is '{}', not 'GEN': a movie of another console",
                    p.escape_debug()
                ),
            ));
        }
        _ => {}
    }
    for (line, k, v) in &lines {
        match *k {
            "StartsFromSavestate" if v.eq_ignore_ascii_case("true") => {
                return Err(MovieError::at(
                    format!("{HEADER} line {line}"),
                    "the movie starts from a save state, which s2lab cannot load; only movies \
                     from power-on can be imported",
                ));
            }
            "GameName" | "Core" | "rerecordCount" | "emuVersion" | "Author" => {
                movie.info.push((k.to_string(), v.to_string()));
            }
            "SHA1" => {
                movie.info.push(("SHA1".into(), v.to_string()));
                if v.len() == 40 && v.bytes().all(|b| b.is_ascii_hexdigit()) {
                    movie.sha1 = Some(v.to_ascii_lowercase());
                }
            }
            "PAL" if v.eq_ignore_ascii_case("true") => movie.notes.push(
                "recorded on a PAL console (50 frames a second): replay it with --region eu".into(),
            ),
            _ => {}
        }
    }
    for state in ["Core.bin", "Core.txt"] {
        if archive.entries.iter().any(|e| e.name == state) {
            return Err(MovieError::new(format!(
                "the archive holds a core state ('{state}'): the movie starts from a save state, \
                 which s2lab cannot load; only movies from power-on can be imported"
            )));
        }
    }

    let log_bytes = archive.read(INPUT_LOG)?.ok_or_else(|| {
        MovieError::new(format!(
            "no '{INPUT_LOG}' in the archive (entries: {})",
            archive.names().join(", ")
        ))
    })?;
    let log = text_of(&log_bytes, INPUT_LOG)?;
    let mut key: Option<Vec<Vec<Control>>> = None;
    let mut dropped: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, raw) in log.lines().enumerate() {
        let place = format!("{INPUT_LOG} line {}", i + 1);
        let line = raw.trim_end();
        if line.is_empty() || line == "[Input]" || line == "[/Input]" {
            continue;
        }
        if let Some(k) = line.strip_prefix("LogKey:") {
            if !movie.frames.is_empty() {
                return Err(MovieError::at(place, "a LogKey after the first frame"));
            }
            key = Some(parse_key(k, &place)?);
            continue;
        }
        if !line.starts_with('|') {
            let shown: String = line.chars().take(40).collect();
            return Err(MovieError::at(
                place,
                format!(
                    "'{}' is not a frame ('|...|'), a LogKey, [Input] or [/Input]",
                    shown.escape_debug()
                ),
            ));
        }
        let frame = movie.frames.len() + 1;
        let place = format!("{place} (frame {frame})");
        let Some(inner) = line[1..].strip_suffix('|') else {
            return Err(MovieError::at(place, "the frame does not end with '|'"));
        };
        let groups: Vec<&str> = inner.split('|').collect();
        let widths: Vec<usize> = groups.iter().map(|g| g.chars().count()).collect();
        if key.is_none() {
            key = Some(default_key(&widths, &place)?);
        }
        let key = key.as_ref().expect("set above");
        let key_widths: Vec<usize> = key.iter().map(Vec::len).collect();
        if widths != key_widths {
            return Err(MovieError::at(
                place,
                format!(
                    "groups of {} characters, but the {} has {}",
                    join(&widths),
                    if key_widths.is_empty() {
                        "log"
                    } else {
                        "LogKey"
                    },
                    join(&key_widths)
                ),
            ));
        }
        if movie.frames.len() == padscript::MAX_SCRIPT_FRAMES {
            return Err(MovieError::at(
                place,
                format!(
                    "more than the {} frames an input script may hold",
                    padscript::MAX_SCRIPT_FRAMES
                ),
            ));
        }
        let mut held = 0u8;
        for (g, controls) in groups.iter().zip(key) {
            for (c, ctl) in g.chars().zip(controls) {
                if c == '.' {
                    continue;
                }
                match ctl {
                    Control::Pad1(bit) => held |= bit,
                    Control::Console(name) => {
                        return Err(MovieError::at(
                            place,
                            format!(
                                "the movie presses {name}; an input script holds pad 1 only, so \
                                 s2lab cannot replay it"
                            ),
                        ));
                    }
                    Control::Dropped(what) => match dropped.iter_mut().find(|(w, _)| w == what) {
                        Some((_, frames)) if frames.last() != Some(&frame) => frames.push(frame),
                        Some(_) => {}
                        None => dropped.push((what.clone(), vec![frame])),
                    },
                }
            }
        }
        movie.frames.push(held);
    }
    if key.is_none() {
        return Err(MovieError::at(
            INPUT_LOG,
            "no frames and no LogKey (an empty input log)",
        ));
    }
    for (what, frames) in &dropped {
        note_dropped(&mut movie.notes, what, frames);
    }
    Ok(movie)
}

fn join(widths: &[usize]) -> String {
    let v: Vec<String> = widths.iter().map(usize::to_string).collect();
    v.join(", ")
}

/// What a written movie says about its game.
#[derive(Clone, Debug, Default)]
pub struct ExportInfo {
    pub game_name: String,
    /// The ROM's SHA-1 (hex), when known.
    pub sha1: Option<String>,
    /// The writing program, for `emuVersion`.
    pub emu_version: String,
}

/// The log key of Genesis Plus GX in BizHawk with its default two 6-button pads.
pub fn default_log_key() -> String {
    let mut key = String::from("LogKey:#Power|Reset|");
    for player in 1..=2 {
        key.push('#');
        for (name, _, _) in PAD {
            key.push_str(&format!("P{player} {name}|"));
        }
    }
    key
}

/// One input-log line for pad 1's `held` byte (nothing on the console or pad 2).
pub fn log_line(held: u8) -> String {
    let mut line = String::from("|..|");
    for (_, mnemonic, bit) in PAD {
        line.push(if bit != 0 && held & bit != 0 {
            mnemonic
        } else {
            '.'
        });
    }
    line.push('|');
    line.push_str(&".".repeat(PAD.len()));
    line.push('|');
    line
}

/// A `.bk2` for Genesis Plus GX in BizHawk playing `frames` on pad 1 from power-on.
pub fn write(frames: &[u8], info: &ExportInfo) -> Vec<u8> {
    let mut header = String::new();
    header.push_str("MovieVersion BizHawk v2.0.0\n");
    header.push_str("Author \n");
    header.push_str(&format!("emuVersion {}\n", info.emu_version));
    header.push_str("Platform GEN\n");
    header.push_str(&format!("GameName {}\n", info.game_name));
    if let Some(sha1) = &info.sha1 {
        header.push_str(&format!("SHA1 {}\n", sha1.to_ascii_uppercase()));
    }
    header.push_str("Core Genplus-gx\n");
    header.push_str("rerecordCount 0\n");
    header.push_str("StartsFromSavestate False\n");
    let mut log = String::with_capacity(32 * frames.len() + 256);
    log.push_str("[Input]\n");
    log.push_str(&default_log_key());
    log.push('\n');
    for &held in frames {
        log.push_str(&log_line(held));
        log.push('\n');
    }
    log.push_str("[/Input]\n");
    zip::write(&[
        (HEADER, header.as_bytes()),
        (INPUT_LOG, log.as_bytes()),
        ("Comments.txt", b""),
        ("Subtitles.txt", b""),
    ])
}
