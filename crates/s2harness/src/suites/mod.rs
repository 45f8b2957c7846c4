//! The comparison suites: scenarios generated from seeds and hand-written presets, written as
//! scenario files (formats.md §2) under `traces/suites/`.

pub mod presets;
pub mod prng;
pub mod random;

use std::path::Path;

use s2model::Scenario;
use serde_json::json;

/// The act's width in 16-px cells.
pub const STAGE_CELLS: u16 = 688;
/// The floor's top cell row in every suite ($2B: y = $2B0), as in the spec's suggested geometry.
pub const FLOOR_ROW: u16 = 43;
/// The floor's top pixel row.
pub const FLOOR_Y: u16 = FLOOR_ROW * 16;
/// Base seeds: random script i uses `RAND_FLAT_SEED + i`, random stage i `RAND_STAGE_SEED + i`.
pub const RAND_FLAT_SEED: u64 = 2_000;
pub const RAND_STAGE_SEED: u64 = 3_000;
/// Scenarios in each random suite.
pub const RANDOM_COUNT: u64 = 100;

/// The pixel x of a cell's centre column (whole cells keep Sonic's sensors off cell edges).
pub fn cell_centre(cell: u16) -> u16 {
    cell * 16 + 8
}

/// One suite: its directory name under `traces/suites/` and its scenarios.
pub struct Suite {
    pub name: &'static str,
    pub scenarios: Vec<Scenario>,
}

/// Every suite, in the order the lab runs them.
pub fn all() -> Vec<Suite> {
    vec![
        Suite {
            name: "moves",
            scenarios: presets::moves(),
        },
        Suite {
            name: "flat",
            scenarios: presets::flat_presets(),
        },
        Suite {
            name: "rand-flat",
            scenarios: (0..RANDOM_COUNT)
                .map(|i| random::random_flat(RAND_FLAT_SEED + i, &format!("rand-flat-{i:03}")))
                .collect(),
        },
        Suite {
            name: "rand-stage",
            scenarios: (0..RANDOM_COUNT)
                .map(|i| random::random_stage(RAND_STAGE_SEED + i, &format!("rand-stage-{i:03}")))
                .collect(),
        },
        Suite {
            name: "stages",
            scenarios: presets::stage_presets(),
        },
        Suite {
            name: "pits",
            scenarios: presets::pit_falls(),
        },
    ]
}

/// A scenario as formats.md §2 JSON (pretty, one field a line for readable diffs).
pub fn scenario_json(sc: &Scenario) -> String {
    let solid: Vec<_> = sc
        .solid
        .iter()
        .map(|r| json!([r.x, r.y, r.w, r.h]))
        .collect();
    let mut v = json!({
        "format": 1,
        "name": sc.name,
        "stage": { "block": sc.block, "solid": solid },
        "sonic": { "x": sc.x, "y": sc.y, "facing": if sc.facing_left { "left" } else { "right" } },
        "input": presets::script_text(sc),
    });
    if let Some(frames) = sc.frames {
        v["frames"] = json!(frames);
    }
    if let Some(note) = &sc.note {
        v["note"] = json!(note);
    }
    let mut text = serde_json::to_string_pretty(&v).expect("scenario JSON serialises");
    text.push('\n');
    text
}

/// Writes every suite under `dir/<suite>/<name>.scenario.json`; returns the number of files.
/// Files are written whole to a temporary name and renamed.
pub fn write_all(dir: &Path) -> Result<usize, String> {
    let mut n = 0;
    for suite in all() {
        let sub = dir.join(suite.name);
        std::fs::create_dir_all(&sub).map_err(|e| format!("{}: {e}", sub.display()))?;
        for sc in &suite.scenarios {
            let path = sub.join(format!("{}.scenario.json", sc.name));
            outfile::write(&path, scenario_json(sc))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_have_the_promised_sizes() {
        let suites = all();
        let count = |name: &str| {
            suites
                .iter()
                .find(|s| s.name == name)
                .unwrap()
                .scenarios
                .len()
        };
        assert_eq!(count("moves"), 12);
        assert_eq!(count("rand-flat"), 100);
        assert_eq!(count("rand-stage"), 100);
        assert_eq!(count("pits"), 18);
    }

    #[test]
    fn every_scenario_round_trips_through_the_format() {
        for suite in all() {
            for sc in &suite.scenarios {
                let text = scenario_json(sc);
                let back = Scenario::parse(&text, &sc.name, None).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(&back, sc, "{}", sc.name);
            }
        }
    }

    #[test]
    fn no_suite_starts_sonic_inside_a_wall() {
        for suite in all() {
            for sc in &suite.scenarios {
                assert_eq!(sc.warnings(), Vec::<String>::new(), "{}", sc.name);
            }
        }
    }

    #[test]
    fn three_random_stages_in_four_have_floating_blocks() {
        let with_blocks = (0..RANDOM_COUNT)
            .map(|i| random::random_stage(RAND_STAGE_SEED + i, "s"))
            .filter(|sc| sc.solid.iter().any(|r| r.y != FLOOR_ROW))
            .count();
        assert!((60..=90).contains(&with_blocks), "{with_blocks} of 100");
    }

    #[test]
    fn random_scripts_are_1800_frames() {
        let sc = random::random_flat(RAND_FLAT_SEED, "x");
        assert_eq!(sc.input.len(), random::SCRIPT_FRAMES);
    }
}
