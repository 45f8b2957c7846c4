//! The fuzzer's scenarios: scenario `i` of campaign `seed` is a function of (seed, i) alone, made
//! by the suites' seeded generators (`suites::random`) with a script length drawn from the same
//! seed, so a campaign is the same on every machine, in every shard and with any thread count.

use std::fmt;
use std::str::FromStr;

use s2model::Scenario;
use serde::{Deserialize, Serialize};

use crate::suites::prng::Rng;
use crate::suites::random::{random_flat_frames, random_pit, random_stage_frames};

/// Shortest and longest script of a fuzz scenario, frames (short ones shrink fast; long ones
/// reach speeds and places short ones do not).
pub const MIN_FRAMES: u32 = 60;
pub const MAX_FRAMES: u32 = 1200;

/// What kind of scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A random script on the flat floor across the act.
    Flat,
    /// A random stage: floor with pits, floating blocks, a random script.
    Stage,
    /// A run toward a pit, then a random script.
    Pit,
    /// Emerald Hill's own terrain (act 1 or 2 by the seed): Sonic on one of its surfaces, a
    /// random script ([`super::terrain`]). Not in [`Kind::ALL`], so the seeded campaigns of the
    /// built kinds stay what they were; runs alone (`--kind terrain`).
    Terrain,
}

impl Kind {
    /// Every kind, in the order `--kind all` cycles through them.
    pub const ALL: [Kind; 3] = [Kind::Flat, Kind::Stage, Kind::Pit];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Flat => "flat",
            Kind::Stage => "stage",
            Kind::Pit => "pit",
            Kind::Terrain => "terrain",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .chain([Kind::Terrain])
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("kind '{s}': expected flat, stage, pit, all or terrain"))
    }
}

/// The kinds whose stages are built of blocks on the flat act (every kind but terrain): the
/// ones [`scenario`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Built {
    Flat,
    Stage,
    Pit,
}

impl Built {
    pub fn kind(self) -> Kind {
        match self {
            Built::Flat => Kind::Flat,
            Built::Stage => Kind::Stage,
            Built::Pit => Kind::Pit,
        }
    }
}

impl Kind {
    /// The built kind this is; `None` for terrain (its scenarios need the act's terrain:
    /// [`super::terrain::scenario`]).
    pub fn built(self) -> Option<Built> {
        match self {
            Kind::Flat => Some(Built::Flat),
            Kind::Stage => Some(Built::Stage),
            Kind::Pit => Some(Built::Pit),
            Kind::Terrain => None,
        }
    }
}

/// The script length of the scenario with seed `s`.
pub fn script_frames(s: u64) -> usize {
    Rng::new(s ^ 0x00F0_F0F0_F0F0_F0F0).range(MIN_FRAMES, MAX_FRAMES) as usize
}

/// Scenario `index`'s own seed in campaign `seed`.
pub fn scenario_seed(seed: u64, index: u64) -> u64 {
    Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(index)).next_u64()
}

/// Scenario `index` of campaign `seed`: its kind cycles through `kinds` (non-empty).
pub fn scenario(seed: u64, index: u64, kinds: &[Built]) -> (Kind, Scenario) {
    let built = kinds[(index % kinds.len() as u64) as usize];
    let kind = built.kind();
    let s = scenario_seed(seed, index);
    let frames = script_frames(s);
    let name = format!("fuzz{seed}-{index:06}-{kind}");
    let sc = match built {
        Built::Flat => random_flat_frames(s, &name, frames),
        Built::Stage => random_stage_frames(s, &name, frames),
        Built::Pit => random_pit(s, &name, frames),
    };
    (kind, sc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenario_depends_on_seed_and_index_only() {
        let kinds = [Built::Flat, Built::Stage, Built::Pit];
        let a = scenario(1, 17, &kinds);
        assert_eq!(a, scenario(1, 17, &kinds));
        assert_ne!(a.1.input, scenario(2, 17, &kinds).1.input);
        assert_eq!(
            a.0,
            Kind::Pit,
            "17 mod 3 = 2: the kinds cycle flat, stage, pit"
        );
        let n = a.1.input.len() as u32;
        assert!((MIN_FRAMES..=MAX_FRAMES).contains(&n), "{n}");
    }

    #[test]
    fn scenarios_are_valid_scenario_files() {
        for i in 0..30 {
            let (_, sc) = scenario(7, i, &[Built::Flat, Built::Stage, Built::Pit]);
            let text = crate::suites::scenario_json(&sc);
            let back = Scenario::parse(&text, &sc.name, None).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back, sc);
        }
    }
}
