//! Scenarios (formats.md §2): the stage, Sonic's start and the input script, as JSON; and
//! [`run_scenario`], which runs the model with the stop conditions and produces a trace.

use crate::frame::step;
use crate::scenario_json;
use crate::script::format_buttons;
use crate::stage::{CellRect, DEFAULT_BLOCK, STAGE_CELLS_X, STAGE_CELLS_Y, Stage};
use crate::state::{FIELDS, SonicState, routine};
use crate::trace::{Trace, TraceFrame, TraceHeader};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// A scenario, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// `name`.
    pub name: String,
    /// `stage.block`: the EHZ block index in every solid cell.
    pub block: u16,
    /// `stage.solid`: rectangles of solid cells.
    pub solid: Vec<CellRect>,
    /// `sonic.x`, `sonic.y`: Sonic's centre in pixels.
    pub x: u16,
    /// See `x`.
    pub y: u16,
    /// `sonic.facing` = `left`.
    pub facing_left: bool,
    /// The script, one held byte per frame.
    pub input: Vec<u8>,
    /// `frames`: how many frames to run (default: the script's length; frames past the script's
    /// end hold nothing).
    pub frames: Option<usize>,
    /// `note`.
    pub note: Option<String>,
}

/// Why a scenario could not be used: the file, the JSON path of the offending value, what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file (or the input file it names) could not be read.
    #[error("{path}: {err}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        err: std::io::Error,
    },
    /// Not JSON.
    #[error("{origin}: not valid JSON: {err}")]
    Json {
        /// The file or `<input>`.
        origin: String,
        /// serde_json's error, with line and column.
        err: serde_json::Error,
    },
    /// A value is missing, of the wrong type or out of range.
    #[error("{origin}: {at}: {message}")]
    Invalid {
        /// The file or `<input>`.
        origin: String,
        /// JSON path, e.g. `stage.solid[3][2]`.
        at: String,
        /// What is wrong.
        message: String,
    },
    /// The input script is malformed.
    #[error("{origin}: {at}: {err}")]
    Script {
        /// The scenario file or `<input>`.
        origin: String,
        /// `input` or the input file's path.
        at: String,
        /// Line, column and token.
        err: crate::script::ScriptError,
    },
}

struct Ctx<'a> {
    origin: &'a str,
}

/// The fields formats.md §2 defines; any other is a typo or a newer format, and is refused.
const TOP_KEYS: &[&str] = &[
    "format",
    "name",
    "stage",
    "sonic",
    "input",
    "input_file",
    "frames",
    "note",
];
const STAGE_KEYS: &[&str] = &["block", "solid"];
const SONIC_KEYS: &[&str] = &["x", "y", "facing"];

impl Ctx<'_> {
    fn known_keys(
        &self,
        obj: &Map<String, Value>,
        prefix: &str,
        known: &[&str],
    ) -> Result<(), ScenarioError> {
        match obj.keys().find(|k| !known.contains(&k.as_str())) {
            Some(k) => Err(self.err(
                format!("{prefix}{k}"),
                format!("unknown field (expected {})", known.join(", ")),
            )),
            None => Ok(()),
        }
    }

    fn err(&self, at: impl AsRef<str>, message: impl Into<String>) -> ScenarioError {
        scenario_json::invalid(self.origin, at.as_ref(), message)
    }

    fn uint(&self, v: &Value, at: &str, max: u64) -> Result<u64, ScenarioError> {
        match v.as_u64() {
            Some(n) if n <= max => Ok(n),
            Some(n) => Err(self.err(at, format!("{n} is larger than {max}"))),
            None => Err(self.err(at, format!("expected a non-negative integer, got {v}"))),
        }
    }
}

impl Scenario {
    /// Read a scenario file; an `input_file` is read relative to the scenario's directory.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let (text, origin, dir) = scenario_json::read(path)?;
        Self::parse(&text, &origin, Some(dir))
    }

    /// Parse scenario JSON. `origin` names the source in errors; `base_dir` resolves `input_file`
    /// (without it, `input_file` is an error).
    pub fn parse(
        text: &str,
        origin: &str,
        base_dir: Option<&Path>,
    ) -> Result<Scenario, ScenarioError> {
        let cx = Ctx { origin };
        let Value::Object(obj) = scenario_json::json(text, origin)? else {
            return Err(cx.err("(top level)", "expected a JSON object"));
        };
        cx.known_keys(&obj, "", TOP_KEYS)?;
        let get = |o: &Map<String, Value>, k: &str| o.get(k).cloned();
        match get(&obj, "format") {
            None => return Err(cx.err("format", "missing")),
            Some(f) if f.as_u64() == Some(1) => {}
            Some(f) => return Err(cx.err("format", format!("unsupported format {f} (expected 1)"))),
        }
        let name = scenario_json::name(&obj, origin)?;
        let stage = match get(&obj, "stage") {
            Some(Value::Object(o)) => o,
            Some(v) => return Err(cx.err("stage", format!("expected an object, got {v}"))),
            None => return Err(cx.err("stage", "missing")),
        };
        cx.known_keys(&stage, "stage.", STAGE_KEYS)?;
        let block = match stage.get("block") {
            None => DEFAULT_BLOCK,
            Some(v) => {
                let b = cx.uint(v, "stage.block", 0x3FF)? as u16;
                if b == 0 {
                    return Err(cx.err("stage.block", "block 0 is the empty block"));
                }
                b
            }
        };
        let solid_v = match stage.get("solid") {
            Some(Value::Array(a)) => a.clone(),
            Some(v) => return Err(cx.err("stage.solid", format!("expected an array, got {v}"))),
            None => return Err(cx.err("stage.solid", "missing")),
        };
        let mut solid = Vec::with_capacity(solid_v.len());
        for (i, r) in solid_v.iter().enumerate() {
            let at = format!("stage.solid[{i}]");
            let Value::Array(q) = r else {
                return Err(cx.err(
                    &at,
                    format!("expected [cell_x, cell_y, width, height], got {r}"),
                ));
            };
            if q.len() != 4 {
                return Err(cx.err(&at, format!("expected 4 numbers, got {}", q.len())));
            }
            let mut n = [0u16; 4];
            for (k, item) in q.iter().enumerate() {
                n[k] = cx.uint(item, &format!("{at}[{k}]"), 0xFFFF)? as u16;
            }
            let [x, y, w, h] = n;
            if w == 0 || h == 0 {
                return Err(cx.err(&at, "width and height must be at least 1"));
            }
            if x as u32 + w as u32 > STAGE_CELLS_X as u32 {
                return Err(cx.err(
                    &at,
                    format!(
                        "cells {x}..{} reach past x = {STAGE_CELLS_X} cells",
                        x as u32 + w as u32
                    ),
                ));
            }
            if y as u32 + h as u32 > STAGE_CELLS_Y as u32 {
                return Err(cx.err(
                    &at,
                    format!(
                        "cells {y}..{} reach past y = {STAGE_CELLS_Y} cells",
                        y as u32 + h as u32
                    ),
                ));
            }
            solid.push(CellRect { x, y, w, h });
        }
        let sonic = match get(&obj, "sonic") {
            Some(Value::Object(o)) => o,
            Some(v) => return Err(cx.err("sonic", format!("expected an object, got {v}"))),
            None => return Err(cx.err("sonic", "missing")),
        };
        cx.known_keys(&sonic, "sonic.", SONIC_KEYS)?;
        let x = cx.uint(
            sonic.get("x").ok_or_else(|| cx.err("sonic.x", "missing"))?,
            "sonic.x",
            0xFFFF,
        )? as u16;
        let y = cx.uint(
            sonic.get("y").ok_or_else(|| cx.err("sonic.y", "missing"))?,
            "sonic.y",
            0xFFFF,
        )? as u16;
        let (act_w, act_h) = (STAGE_CELLS_X as u32 * 16, STAGE_CELLS_Y as u32 * 16);
        if x as u32 >= act_w || y as u32 >= act_h {
            return Err(cx.err(
                "sonic",
                format!("({x}, {y}) is outside the act ({act_w} x {act_h} pixels)"),
            ));
        }
        let facing_left = scenario_json::facing_left(&sonic, origin)?;
        let input = scenario_json::input(&obj, origin, base_dir)?;
        let frames = match get(&obj, "frames") {
            None => None,
            Some(v) => {
                Some(cx.uint(&v, "frames", crate::script::MAX_SCRIPT_FRAMES as u64)? as usize)
            }
        };
        let note = scenario_json::note(&obj, origin)?;
        Ok(Scenario {
            name,
            block,
            solid,
            x,
            y,
            facing_left,
            input,
            frames,
            note,
        })
    }

    /// A scenario built in code: `solid` rectangles of the default block, Sonic at (x, y).
    pub fn new(
        name: &str,
        solid: Vec<CellRect>,
        x: u16,
        y: u16,
        facing_left: bool,
        input: Vec<u8>,
    ) -> Self {
        Scenario {
            name: name.to_string(),
            block: DEFAULT_BLOCK,
            solid,
            x,
            y,
            facing_left,
            input,
            frames: None,
            note: None,
        }
    }

    /// What is legal but almost certainly not meant, for the commands to print as warnings.
    ///
    /// Sonic's centre in a solid cell: the game pushes him out (or crushes him) in ways the
    /// scenario does not describe. A warning, not an error: such a run is still a valid
    /// experiment (the generated suites start outside walls: `suites` tests it).
    pub fn warnings(&self) -> Vec<String> {
        let (cx, cy) = (self.x / 16, self.y / 16);
        self.solid
            .iter()
            .position(|r| (r.x..r.x + r.w).contains(&cx) && (r.y..r.y + r.h).contains(&cy))
            .map(|i| {
                format!(
                    "sonic: Sonic's centre ({}, {}) is inside a wall: solid cell ({cx}, {cy}) of \
                     stage.solid[{i}]",
                    self.x, self.y
                )
            })
            .into_iter()
            .collect()
    }

    /// The stage the scenario describes.
    pub fn stage(&self) -> Stage {
        Stage::from_rects(self.block, &self.solid)
    }

    /// Sonic's state before frame 0.
    pub fn initial_state(&self) -> SonicState {
        SonicState::at(self.x, self.y, self.facing_left)
    }

    /// Frames to run at most.
    pub fn frame_count(&self) -> usize {
        self.frames.unwrap_or(self.input.len())
    }
}

/// Why a run stopped (formats.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The last frame.
    End,
    /// Sonic's routine became 6 in the last frame.
    Dead,
    /// After the last frame x_pos was within 160 px of an end of the built floor.
    FloorEnd,
}

impl Stop {
    /// The header's name for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::End => "end",
            Stop::Dead => "dead",
            Stop::FloorEnd => "floor_end",
        }
    }
}

/// Distance from an end of the built floor at which a run stops.
pub const FLOOR_END_MARGIN_PX: i32 = 160;

/// The stop test after a frame (other than the script's end): dead first, then the floor end.
/// `floor_x` = (lo, hi) pixel edges of the built cells; the left end counts only when lo > 0
/// (the level's left clamp at x = $10 holds Sonic otherwise).
pub fn stop_after_frame(s: &SonicState, floor_x: Option<(u16, u16)>) -> Option<Stop> {
    if s.routine == routine::DEAD {
        return Some(Stop::Dead);
    }
    if let Some((lo, hi)) = floor_x {
        let x = s.x_pos as i32;
        if (lo > 0 && x < lo as i32 + FLOOR_END_MARGIN_PX) || x > hi as i32 - FLOOR_END_MARGIN_PX {
            return Some(Stop::FloorEnd);
        }
    }
    None
}

/// Run the model on a scenario and produce its trace: header (`source: "s2lab model"`, `initial`,
/// `frames`, `stop`, `floor_x`) and one line per frame until the first stop condition.
pub fn run_scenario(sc: &Scenario) -> Trace {
    let stage = sc.stage();
    let floor_x = stage.floor_x();
    let mut s = sc.initial_state();
    let initial = s.trace_values();
    let n = sc.frame_count();
    let mut frames = Vec::with_capacity(n);
    let mut stop = Stop::End;
    for k in 0..n {
        let held = sc.input.get(k).copied().unwrap_or(0);
        step(&mut s, &stage, held);
        frames.push(TraceFrame {
            frame: k as u64,
            input: format_buttons(held),
            values: s.trace_values(),
            layer: None,
        });
        if let Some(st) = stop_after_frame(&s, floor_x) {
            stop = st;
            break;
        }
    }
    Trace {
        header: TraceHeader {
            format: 1,
            scenario: sc.name.clone(),
            source: "s2lab model".into(),
            rom_sha1: None,
            fields: FIELDS.iter().map(|s| s.to_string()).collect(),
            initial,
            initial_layer: None,
            frames: Some(frames.len() as u64),
            stop: Some(stop.as_str().into()),
            floor_x: floor_x.map(|(lo, hi)| (lo as i64, hi as i64)),
            extra: Map::new(),
        },
        frames,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"{
      "format": 1,
      "name": "jump-tap-right",
      "stage": { "block": 60, "solid": [[0, 43, 200, 2], [40, 38, 3, 1]] },
      "sonic": { "x": 128, "y": 668, "facing": "right" },
      "input": "R*30 RC R*40 .*20"
    }"#;

    #[test]
    fn parses_the_format_example() {
        let sc = Scenario::parse(EXAMPLE, "<test>", None).unwrap();
        assert_eq!(sc.name, "jump-tap-right");
        assert_eq!(sc.solid.len(), 2);
        assert_eq!(sc.input.len(), 91);
        assert_eq!(sc.stage().floor_x(), Some((0, 3200)));
    }

    #[test]
    fn unknown_fields_sonic_outside_the_act_or_in_a_wall_are_refused() {
        let err = |text: &str| {
            Scenario::parse(text, "<test>", None)
                .unwrap_err()
                .to_string()
        };
        let e = err(&EXAMPLE
            .replace("\"note\"", "\"x\"")
            .replace("\"input\"", "\"inptu\""));
        assert!(
            e.starts_with("<test>: inptu: unknown field (expected format,"),
            "{e}"
        );
        let e = err(&EXAMPLE.replace("\"block\": 60", "\"block\": 60, \"blocks\": 1"));
        assert!(e.starts_with("<test>: stage.blocks: unknown field"), "{e}");
        let e = err(&EXAMPLE.replace("\"facing\"", "\"facign\""));
        assert!(e.starts_with("<test>: sonic.facign: unknown field"), "{e}");
        let e = err(&EXAMPLE.replace("\"y\": 668", "\"y\": 2048"));
        assert!(
            e.contains("sonic: (128, 2048) is outside the act (11008 x 2048"),
            "{e}"
        );
        // Row 43 is the floor: y = 43 * 16 + 4 puts the centre in it.
        let sc = Scenario::parse(&EXAMPLE.replace("\"y\": 668", "\"y\": 692"), "<t>", None);
        let w = sc.unwrap().warnings();
        assert_eq!(
            w,
            [
                "sonic: Sonic's centre (128, 692) is inside a wall: solid cell (8, 43) of stage.solid[0]"
            ]
        );
        assert!(
            Scenario::parse(EXAMPLE, "<t>", None)
                .unwrap()
                .warnings()
                .is_empty()
        );
    }

    #[test]
    fn errors_name_the_place() {
        let bad = EXAMPLE.replace("[40, 38, 3, 1]", "[40, 38, -3, 1]");
        let e = Scenario::parse(&bad, "<test>", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("stage.solid[1][2]"), "{e}");
        let bad = EXAMPLE.replace("[0, 43, 200, 2]", "[600, 43, 200, 2]");
        let e = Scenario::parse(&bad, "<test>", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("stage.solid[0]") && e.contains("688"), "{e}");
        let bad = EXAMPLE.replace("R*40", "R*4x");
        let e = Scenario::parse(&bad, "<test>", None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("input") && e.contains("line 1, col 12") && e.contains("'R*4x'"),
            "{e}"
        );
        let bad = EXAMPLE.replace("\"right\"", "\"up\"");
        let e = Scenario::parse(&bad, "<test>", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("sonic.facing"), "{e}");
        let e = Scenario::parse("{", "<test>", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not valid JSON") && e.contains("line 1"), "{e}");
        let bad = EXAMPLE.replace("\"format\": 1", "\"format\": 2");
        assert!(Scenario::parse(&bad, "<test>", None).is_err());
    }

    /// Floor-end stop (formats.md §2): floor cells 20..60 → lo = 320, hi = 960. Sonic placed at
    /// x = 790 moving right at walking speed: x_pos > 960 − 160 = 800 stops the run with
    /// `floor_end` on the first frame after which x_pos exceeds 800.
    #[test]
    fn floor_end_stop() {
        let mut sc = Scenario::new(
            "floor-end",
            vec![CellRect {
                x: 20,
                y: 43,
                w: 40,
                h: 2,
            }],
            790,
            668,
            false,
            vec![crate::state::buttons::RIGHT; 300],
        );
        sc.frames = None;
        let t = run_scenario(&sc);
        assert_eq!(t.header.stop.as_deref(), Some("floor_end"));
        let last = t.frames.last().unwrap();
        assert!(last.values[0] > 800);
        assert!(
            t.frames[..t.frames.len() - 1]
                .iter()
                .all(|f| f.values[0] <= 800)
        );
        // Left end: lo = 320 > 0, so x < 480 stops too.
        let sc = Scenario::new(
            "floor-end-left",
            vec![CellRect {
                x: 20,
                y: 43,
                w: 40,
                h: 2,
            }],
            490,
            668,
            true,
            vec![crate::state::buttons::LEFT; 300],
        );
        let t = run_scenario(&sc);
        assert_eq!(t.header.stop.as_deref(), Some("floor_end"));
        assert!(t.frames.last().unwrap().values[0] < 480);
    }

    #[test]
    fn end_stop_and_extra_frames() {
        let mut sc = Scenario::parse(EXAMPLE, "<test>", None).unwrap();
        sc.frames = Some(95);
        let t = run_scenario(&sc);
        assert_eq!(t.frames.len(), 95);
        assert_eq!(t.frames[94].input, ".");
        assert_eq!(t.header.stop.as_deref(), Some("end"));
    }
}
