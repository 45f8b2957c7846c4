//! Terrain scenarios (`docs/terrain-format.md` §2, scenario format 2): Sonic placed on an act's own
//! terrain, with the act named instead of a stage built of blocks; and [`run_terrain_scenario`],
//! which runs the model on the act's [`Terrain`] (supplied by the caller, read from the user's ROM).

use std::path::Path;

use serde_json::{Map, Value};

use crate::frame::step;
use crate::path_swap::Swappers;
use crate::scenario::{Scenario, ScenarioError, Stop, stop_after_frame};
use crate::scenario_json::{self, invalid};
use crate::script::format_buttons;
use crate::state::{SonicState, status};
use crate::terrain::Terrain;
use crate::trace::{Trace, TraceFrame, TraceHeader, field_names};

/// The scenario format version that adds stage kinds (format 1 has only built stages).
pub const TERRAIN_FORMAT: u64 = 2;

/// A terrain scenario, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainScenario {
    /// `name`.
    pub name: String,
    /// `stage.zone` (0 = Emerald Hill; only "ehz" is accepted for now).
    pub zone: u8,
    /// `stage.act` − 1.
    pub act: u8,
    /// `sonic.x`, `sonic.y`: Sonic's centre in pixels.
    pub x: u16,
    /// See `x`.
    pub y: u16,
    /// `sonic.facing` = `left`.
    pub facing_left: bool,
    /// `sonic.x_vel` (default 0).
    pub x_vel: i16,
    /// `sonic.y_vel` (default 0).
    pub y_vel: i16,
    /// `sonic.inertia` (default 0).
    pub inertia: i16,
    /// `sonic.air` (default false): start in the air.
    pub in_air: bool,
    /// The script, one held byte per frame.
    pub input: Vec<u8>,
    /// `frames` (default: the script's length).
    pub frames: Option<usize>,
    /// `note`.
    pub note: Option<String>,
}

/// A scenario of either format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyScenario {
    /// Format 1: a stage built of full blocks.
    Built(Scenario),
    /// Format 2 with `stage.kind` = `terrain`.
    Terrain(TerrainScenario),
}

impl AnyScenario {
    /// Read a scenario file of either format.
    pub fn load(path: &Path) -> Result<AnyScenario, ScenarioError> {
        let (text, origin, dir) = scenario_json::read(path)?;
        Self::parse(&text, &origin, Some(dir))
    }

    /// Parse either format: format 2 goes to [`TerrainScenario::parse`], anything else to
    /// [`Scenario::parse`] (which reports unsupported versions).
    pub fn parse(
        text: &str,
        origin: &str,
        base_dir: Option<&Path>,
    ) -> Result<AnyScenario, ScenarioError> {
        let v = scenario_json::json(text, origin)?;
        if v.get("format").and_then(Value::as_u64) == Some(TERRAIN_FORMAT) {
            TerrainScenario::from_value(v, origin, base_dir).map(AnyScenario::Terrain)
        } else {
            Scenario::parse(text, origin, base_dir).map(AnyScenario::Built)
        }
    }
}

fn int_in(
    o: &Map<String, Value>,
    key: &str,
    at: &str,
    origin: &str,
    lo: i64,
    hi: i64,
) -> Result<Option<i64>, ScenarioError> {
    match o.get(key) {
        None => Ok(None),
        Some(v) => match v.as_i64() {
            Some(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
            Some(n) => Err(invalid(origin, at, format!("{n} is outside {lo}..={hi}"))),
            None => Err(invalid(origin, at, format!("expected an integer, got {v}"))),
        },
    }
}

impl TerrainScenario {
    /// Parse a format-2 scenario from text.
    pub fn parse(
        text: &str,
        origin: &str,
        base_dir: Option<&Path>,
    ) -> Result<TerrainScenario, ScenarioError> {
        let v = scenario_json::json(text, origin)?;
        Self::from_value(v, origin, base_dir)
    }

    fn from_value(
        v: Value,
        origin: &str,
        base_dir: Option<&Path>,
    ) -> Result<TerrainScenario, ScenarioError> {
        let Value::Object(obj) = v else {
            return Err(invalid(origin, "(top level)", "expected a JSON object"));
        };
        if obj.get("format").and_then(Value::as_u64) != Some(TERRAIN_FORMAT) {
            return Err(invalid(origin, "format", "expected 2"));
        }
        let name = scenario_json::name(&obj, origin)?;
        let Some(Value::Object(stage)) = obj.get("stage") else {
            return Err(invalid(origin, "stage", "missing or not an object"));
        };
        match stage.get("kind") {
            Some(Value::String(k)) if k == "terrain" => {}
            Some(v) => {
                return Err(invalid(
                    origin,
                    "stage.kind",
                    format!("expected \"terrain\", got {v}"),
                ));
            }
            None => return Err(invalid(origin, "stage.kind", "missing")),
        }
        let zone = match stage.get("zone") {
            Some(Value::String(z)) if z == "ehz" => 0u8,
            Some(v) => {
                return Err(invalid(
                    origin,
                    "stage.zone",
                    format!("expected \"ehz\" (the zone supported so far), got {v}"),
                ));
            }
            None => return Err(invalid(origin, "stage.zone", "missing")),
        };
        let act = int_in(stage, "act", "stage.act", origin, 1, 2)?
            .ok_or_else(|| invalid(origin, "stage.act", "missing"))? as u8
            - 1;
        let Some(Value::Object(sonic)) = obj.get("sonic") else {
            return Err(invalid(origin, "sonic", "missing or not an object"));
        };
        let coord = |k: &str| -> Result<u16, ScenarioError> {
            let at = format!("sonic.{k}");
            Ok(int_in(sonic, k, &at, origin, 0, 0xFFFF)?
                .ok_or_else(|| invalid(origin, &at, "missing"))? as u16)
        };
        let (x, y) = (coord("x")?, coord("y")?);
        let speed = |k: &str| -> Result<i16, ScenarioError> {
            Ok(
                int_in(sonic, k, &format!("sonic.{k}"), origin, -0x8000, 0x7FFF)?.unwrap_or(0)
                    as i16,
            )
        };
        let (x_vel, y_vel, inertia) = (speed("x_vel")?, speed("y_vel")?, speed("inertia")?);
        let facing_left = scenario_json::facing_left(sonic, origin)?;
        let in_air = match sonic.get("air") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                return Err(invalid(
                    origin,
                    "sonic.air",
                    format!("expected true or false, got {v}"),
                ));
            }
        };
        let input = scenario_json::input(&obj, origin, base_dir)?;
        let frames = int_in(
            &obj,
            "frames",
            "frames",
            origin,
            0,
            crate::script::MAX_SCRIPT_FRAMES as i64,
        )?
        .map(|n| n as usize);
        let note = scenario_json::note(&obj, origin)?;
        Ok(TerrainScenario {
            name,
            zone,
            act,
            x,
            y,
            facing_left,
            x_vel,
            y_vel,
            inertia,
            in_air,
            input,
            frames,
            note,
        })
    }

    /// The JSON form (format 2), as [`TerrainScenario::parse`] reads it.
    pub fn to_json(&self) -> String {
        let mut sonic = serde_json::json!({
            "x": self.x, "y": self.y,
            "facing": if self.facing_left { "left" } else { "right" },
        });
        for (k, v) in [
            ("x_vel", self.x_vel),
            ("y_vel", self.y_vel),
            ("inertia", self.inertia),
        ] {
            if v != 0 {
                sonic[k] = v.into();
            }
        }
        if self.in_air {
            sonic["air"] = true.into();
        }
        let mut v = serde_json::json!({
            "format": TERRAIN_FORMAT,
            "name": self.name,
            "stage": { "kind": "terrain", "zone": "ehz", "act": self.act + 1 },
            "sonic": sonic,
            "input": crate::script::format_script(&self.input),
        });
        if let Some(n) = self.frames {
            v["frames"] = n.into();
        }
        if let Some(n) = &self.note {
            v["note"] = n.clone().into();
        }
        v.to_string()
    }

    /// Frames to run at most.
    pub fn frame_count(&self) -> usize {
        self.frames.unwrap_or(self.input.len())
    }

    /// Sonic's state before frame 0 on `terrain`: the standing state of the flat stages with the
    /// act's boundaries, the given speeds, and in_air when asked.
    pub fn initial_state(&self, terrain: &Terrain) -> SonicState {
        let mut s = SonicState::at(self.x, self.y, self.facing_left);
        s.x_vel = self.x_vel;
        s.y_vel = self.y_vel;
        s.inertia = self.inertia;
        if self.in_air {
            s.set(status::IN_AIR);
        }
        s.camera_min_x = terrain.bounds.min_x;
        s.camera_max_x = terrain.bounds.max_x;
        s.camera_max_y = terrain.bounds.max_y;
        s
    }
}

/// The x beyond which an act's level events move its boundaries (the camera reaching it), which
/// neither the model nor the terrain carries: EHZ1's signpost lock at Camera_Max_X − $100 = $28A0
/// (`CheckLoadSignpostArt`, s2.asm L6153–6168), EHZ2's boss area at $2780
/// (`LevEvents_EHZ2_Routine1`, L20409–20418). The camera never leads Sonic to the right by more
/// than its window, so a run that stops once Sonic's x reaches the line compares only frames that
/// ran with the act's initial boundaries.
pub fn event_line(zone: u8, act: u8) -> u16 {
    match (zone, act) {
        (0, 0) => 0x28A0,
        (0, 1) => 0x2780,
        _ => 0xFFFF,
    }
}

/// The terrain stop test after a frame: `dead` (routine 6), then `event_line` (x_pos at or past
/// [`event_line`]).
pub fn terrain_stop_after_frame(s: &SonicState, zone: u8, act: u8) -> Option<&'static str> {
    if let Some(st) = stop_after_frame(s, None) {
        return Some(st.as_str());
    }
    (s.x_pos >= event_line(zone, act)).then_some("event_line")
}

/// Sonic's collision layer after a frame as one byte: `top_solid_bit` << 4 | `lrb_solid_bit`
/// ($CD path 1, $EF path 2).
pub fn layer_byte(top_solid_bit: u8, lrb_solid_bit: u8) -> u8 {
    top_solid_bit << 4 | (lrb_solid_bit & 0xF)
}

/// Run the model on a terrain scenario: frames until the script's end, Sonic's death or the act's
/// event line.
pub fn run_terrain_scenario(sc: &TerrainScenario, terrain: &Terrain) -> Trace {
    run_terrain_scenario_with_layers(sc, terrain).0
}

/// [`run_terrain_scenario`] and Sonic's collision layer after every frame ([`layer_byte`]).
///
/// The path swappers: the harness restarts the game's object manager at the frame boundary before
/// frame 0, so `ObjectsManager_Init` loads them at the end of frame 0 and they first run in frame 1,
/// after Sonic (`Obj03_Init`, s2.asm L45629).
pub fn run_terrain_scenario_with_layers(
    sc: &TerrainScenario,
    terrain: &Terrain,
) -> (Trace, Vec<u8>) {
    let mut swappers = Swappers::default();
    let mut layers = Vec::new();
    let mut s = sc.initial_state(terrain);
    let initial = s.trace_values();
    let initial_layer = Some([s.top_solid_bit, s.lrb_solid_bit]);
    let n = sc.frame_count();
    let mut frames = Vec::with_capacity(n);
    let mut stop = Stop::End.as_str();
    for k in 0..n {
        let held = sc.input.get(k).copied().unwrap_or(0);
        step(&mut s, terrain, held);
        if k >= 1 {
            swappers.run(&terrain.swappers, &mut s);
        }
        layers.push(layer_byte(s.top_solid_bit, s.lrb_solid_bit));
        frames.push(TraceFrame {
            frame: k as u64,
            input: format_buttons(held),
            values: s.trace_values(),
            layer: Some([s.top_solid_bit, s.lrb_solid_bit]),
        });
        if let Some(st) = terrain_stop_after_frame(&s, sc.zone, sc.act) {
            stop = st;
            break;
        }
    }
    let trace = Trace {
        header: TraceHeader {
            format: 1,
            scenario: sc.name.clone(),
            source: "s2lab model".into(),
            rom_sha1: None,
            fields: field_names(true),
            initial,
            initial_layer,
            frames: Some(frames.len() as u64),
            stop: Some(stop.into()),
            floor_x: None,
            extra: Map::new(),
        },
        frames,
    };
    (trace, layers)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"{
      "format": 2,
      "name": "ehz1-hill",
      "stage": { "kind": "terrain", "zone": "ehz", "act": 1 },
      "sonic": { "x": 96, "y": 655, "facing": "right", "inertia": 1536 },
      "input": "R*30 RC .*20"
    }"#;

    #[test]
    fn parses_and_round_trips() {
        let AnyScenario::Terrain(sc) = AnyScenario::parse(EXAMPLE, "<test>", None).unwrap() else {
            panic!("not a terrain scenario");
        };
        assert_eq!((sc.zone, sc.act, sc.x, sc.y), (0, 0, 96, 655));
        assert_eq!((sc.inertia, sc.x_vel, sc.in_air), (0x600, 0, false));
        assert_eq!(sc.input.len(), 51);
        let again = TerrainScenario::parse(&sc.to_json(), "<again>", None).unwrap();
        assert_eq!(again, sc);
    }

    #[test]
    fn format_1_still_goes_to_the_built_parser() {
        let f1 = r#"{"format": 1, "name": "n", "stage": {"solid": [[0, 43, 10, 2]]},
                     "sonic": {"x": 64, "y": 668}, "input": ".*3"}"#;
        assert!(matches!(
            AnyScenario::parse(f1, "<t>", None).unwrap(),
            AnyScenario::Built(_)
        ));
    }

    #[test]
    fn errors_name_the_place() {
        let bad = EXAMPLE.replace("\"act\": 1", "\"act\": 3");
        let e = AnyScenario::parse(&bad, "f.json", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.json") && e.contains("stage.act"), "{e}");
        let bad = EXAMPLE.replace("\"inertia\": 1536", "\"inertia\": 40000");
        let e = AnyScenario::parse(&bad, "f.json", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("sonic.inertia"), "{e}");
        let bad = EXAMPLE.replace("\"ehz\"", "\"cpz\"");
        let e = AnyScenario::parse(&bad, "f.json", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("stage.zone"), "{e}");
        let bad = EXAMPLE.replace("\"input\": \"R*30 RC .*20\"", "\"input_file\": 3");
        let e = AnyScenario::parse(&bad, "f.json", None)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "f.json: input_file: expected a string, got 3");
    }
}
