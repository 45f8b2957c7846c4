//! The terrain suites of `s2lab suite`: Emerald Hill 1 and 2's own terrain, the model against
//! the game in the emulator on every frame (the 28 fields and the collision layer), and what the
//! game's runs covered (angle quadrants, loops, falls off steep surfaces, path 2), counted from the
//! game's own RAM as sampled in its traces.
//!
//! Three suites: `terrain-scripted` (the scenarios in `traces/terrain/`, with their MAME
//! references when recorded), `terrain-moves` (scripted moves generated from the act's own path
//! swappers and surfaces: loops both ways, too slow for a loop, spin dash up a slope, rolling down
//! hills) and `terrain-random` (random scripts from many start points, [`crate::terrain_suite`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use s2model::script::parse_script;
use s2model::terrain_scenario::{AnyScenario, TerrainScenario, event_line, run_terrain_scenario};
use s2model::{Terrain, Trace};

use crate::game::Game;
use crate::report::{Detail, RunOutcome};
use crate::terrain_suite::{Lcg, scenarios, standing_y};

/// The random suite's size as measured for the issue (per act: runs, frames each; the seed).
pub const RANDOM_RUNS_PER_ACT: usize = 170;
/// Frames per random run.
pub const RANDOM_FRAMES: usize = 1200;
/// The random suite's seed (act 2 uses seed + 1).
pub const RANDOM_SEED: u64 = 1000;

/// The booted game in each act and each act's terrain, read from the game once.
#[derive(Clone)]
pub struct TerrainKit {
    /// The game at its ready state in act 1 and in act 2.
    pub games: Vec<Game>,
    /// The terrain of act 1 and act 2.
    pub terrains: Vec<Terrain>,
}

impl TerrainKit {
    /// Loads both acts from a booted game and reads their terrain from RAM and `rom`.
    pub fn new(game: &Game, rom: &crate::rom::RomImage) -> Result<TerrainKit, String> {
        let mut games = Vec::new();
        let mut terrains = Vec::new();
        for act in 0..2u8 {
            let g = game
                .in_act(act)
                .map_err(|e| format!("loading Emerald Hill {}: {e}", act + 1))?;
            terrains.push(
                g.read_terrain(rom)
                    .map_err(|e| format!("reading Emerald Hill {}'s terrain: {e}", act + 1))?,
            );
            games.push(g);
        }
        Ok(TerrainKit { games, terrains })
    }
}

/// One terrain run: its suite, the scenario, and a recorded reference trace when there is one.
#[derive(Clone, Debug)]
pub struct TerrainJob {
    pub suite: String,
    pub scenario: TerrainScenario,
    pub reference: Option<PathBuf>,
}

/// The committed terrain scenarios in `dir` (`traces/terrain/`), sorted, each with its recorded
/// reference (`NAME.trace.jsonl.gz`) when there is one.
pub fn scripted_jobs(dir: &Path) -> Result<Vec<TerrainJob>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".scenario.json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let AnyScenario::Terrain(sc) = AnyScenario::load(&f).map_err(|e| e.to_string())? else {
            return Err(format!(
                "{}: not a terrain scenario (format 2)",
                f.display()
            ));
        };
        let stem = f
            .to_string_lossy()
            .trim_end_matches(".scenario.json")
            .to_string();
        let reference =
            Some(PathBuf::from(format!("{stem}.trace.jsonl.gz"))).filter(|p| p.is_file());
        out.push(TerrainJob {
            suite: "terrain-scripted".into(),
            scenario: sc,
            reference,
        });
    }
    Ok(out)
}

fn scenario(
    t: &Terrain,
    name: String,
    (x, y): (u16, u16),
    left: bool,
    inertia: i16,
    script: &str,
    note: &str,
) -> TerrainScenario {
    TerrainScenario {
        name,
        zone: t.zone,
        act: t.act,
        x,
        y,
        facing_left: left,
        x_vel: 0,
        y_vel: 0,
        inertia,
        in_air: false,
        input: parse_script(script).expect("the generated scripts are valid"),
        frames: None,
        note: Some(note.into()),
    }
}

/// Scripted moves on `t`, from its own path swappers (every loop has a pair) and surfaces: per
/// swapper and side, a run through at full speed, a run too slow for the loop (up the wall, the
/// control lock, the fall back) and a spin dash from standing; from evenly spread surface points,
/// a roll down from rest (whatever slope is there) both ways and a spin dash each way (up the slope
/// on one side of every hill).
pub fn move_jobs(t: &Terrain) -> Vec<TerrainJob> {
    let stem = Terrain::stem(t.zone, t.act);
    let limit = event_line(t.zone, t.act) - 0x80;
    let mut out = Vec::new();
    let mut push = |sc: TerrainScenario| {
        if sc.x < limit {
            out.push(TerrainJob {
                suite: "terrain-moves".into(),
                scenario: sc,
                reference: None,
            });
        }
    };
    for (i, p) in t.swappers.iter().enumerate() {
        for (dx, left) in [(-0x100i32, false), (0x100, true)] {
            let x = (p.x as i32 + dx).clamp(0x20, 0xFFDF) as u16;
            let Some(y) = standing_y(t, x, p.y.saturating_sub(0x80)) else {
                continue;
            };
            let (d, s) = if left { ("L", -1i16) } else { ("R", 1) };
            let side = if left { "left" } else { "right" };
            push(scenario(
                t,
                format!("{stem}-loop-{i:02}-{side}"),
                (x, y),
                left,
                s * 0xA00,
                &format!("{d}*240"),
                "a run at full speed through the path swapper's loop",
            ));
            push(scenario(
                t,
                format!("{stem}-slow-{i:02}-{side}"),
                (x, y),
                left,
                s * 0x500,
                &format!("{d}*40 .*160"),
                "too slow for the loop: up the wall, the control lock, the fall back",
            ));
            push(scenario(
                t,
                format!("{stem}-spindash-{i:02}-{side}"),
                (x, y),
                left,
                0,
                &format!("D*4 DC D*4 DC D*4 DC D*4 .*2 {d}*200"),
                "a spin dash from standing",
            ));
        }
    }
    let lo = t.bounds.min_x as u32 + 0x60;
    let hi = (t.bounds.max_x as u32 + 0x100).min(limit as u32);
    let mut rng = Lcg::new(0x5EED ^ t.act as u64);
    for i in 0..24u32 {
        let x = (lo + (hi - lo) * i / 24 + rng.below(0x40)) as u16;
        let Some(y) = standing_y(t, x, t.bounds.min_y) else {
            continue;
        };
        for left in [false, true] {
            let (d, s) = if left { ("L", -1i16) } else { ("R", 1) };
            let side = if left { "left" } else { "right" };
            push(scenario(
                t,
                format!("{stem}-roll-{i:02}-{side}"),
                (x, y),
                left,
                s * 0x100,
                "D*300",
                "rolling from a slow start: down the hill, or up it and back",
            ));
            push(scenario(
                t,
                format!("{stem}-dashup-{i:02}-{side}"),
                (x, y),
                left,
                0,
                &format!("D*4 DC D*4 DC D*4 .*2 {d}*150 .*60"),
                "a spin dash and a run (up a slope on one side of a hill)",
            ));
        }
    }
    out
}

/// The random runs of both acts ([`crate::terrain_suite::scenarios`]).
pub fn random_jobs(
    kit: &TerrainKit,
    runs_per_act: usize,
    frames: usize,
    seed: u64,
) -> Vec<TerrainJob> {
    kit.terrains
        .iter()
        .flat_map(|t| {
            scenarios(
                t,
                runs_per_act,
                frames,
                seed + t.act as u64,
                event_line(t.zone, t.act) - 0x80,
            )
        })
        .map(|sc| TerrainJob {
            suite: "terrain-random".into(),
            scenario: sc,
            reference: None,
        })
        .collect()
}

/// What the game's runs covered, counted from the game's trace (its RAM after every frame):
///
/// - frames per angle quadrant on the ground: `(angle + $20) & $C0` of obj+$26 when the in_air bit
///   (status bit 1) is clear: $00 floor, $40 left wall, $80 ceiling, $C0 right wall;
/// - complete loops: on the ground, the quadrants right wall → ceiling → left wall (or the
///   reverse) in a row without leaving the surface (in_air clear throughout);
/// - falls off steep surfaces: `move_lock` becoming $1E (set only by `Sonic_SlopeRepel` when Sonic
///   is too slow on a wall or ceiling, s2.asm L37781–37812);
/// - frames on collision path 2: `top_solid_bit` = $E (a path swapper moved Sonic);
/// - frames in the air: status bit 1 set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub runs: usize,
    pub frames: usize,
    pub quadrants: [usize; 4],
    pub air: usize,
    pub loops: usize,
    pub steep_falls: usize,
    pub path2: usize,
}

impl Coverage {
    /// What `t` (a game trace with the layer fields, or without) covered.
    pub fn of_trace(t: &Trace) -> Coverage {
        let field = |n: &str| {
            s2model::state::FIELDS
                .iter()
                .position(|f| *f == n)
                .expect("a field")
        };
        let (angle, status, move_lock) = (field("angle"), field("status"), field("move_lock"));
        let mut c = Coverage {
            runs: 1,
            frames: t.frames.len(),
            ..Coverage::default()
        };
        let mut seq: Vec<usize> = Vec::new();
        let mut lock_before = t.header.initial[move_lock];
        for f in &t.frames {
            if f.values[status] & 2 != 0 {
                c.air += 1;
                seq.clear();
            } else {
                let q = ((f.values[angle] as u8).wrapping_add(0x20) >> 6) as usize;
                c.quadrants[q] += 1;
                if seq.last() != Some(&q) {
                    seq.push(q);
                    if seq.ends_with(&[3, 2, 1]) || seq.ends_with(&[1, 2, 3]) {
                        c.loops += 1;
                        seq.clear();
                    }
                }
            }
            if f.values[move_lock] == 0x1E && lock_before != 0x1E {
                c.steep_falls += 1;
            }
            lock_before = f.values[move_lock];
            if f.layer.is_some_and(|l| l[0] == 0x0E) {
                c.path2 += 1;
            }
        }
        c
    }

    /// Adds another count to this one.
    pub fn add(&mut self, o: &Coverage) {
        self.runs += o.runs;
        self.frames += o.frames;
        for i in 0..4 {
            self.quadrants[i] += o.quadrants[i];
        }
        self.air += o.air;
        self.loops += o.loops;
        self.steep_falls += o.steep_falls;
        self.path2 += o.path2;
    }

    /// Every angle quadrant, a complete loop and a fall off a steep surface occurred.
    pub fn complete(&self) -> bool {
        self.quadrants.iter().all(|&n| n > 0) && self.loops > 0 && self.steep_falls > 0
    }

    /// The lines `s2lab suite` prints.
    pub fn report(&self) -> String {
        let q = self.quadrants;
        format!(
            "terrain coverage (the game's RAM after every frame, {} runs, {} frames):\n\
             \x20 ground frames by angle quadrant ((angle + $20) & $C0, in_air clear): floor {}, left wall {}, ceiling {}, right wall {}\n\
             \x20 frames in the air (status bit 1): {}\n\
             \x20 complete loops (right wall, ceiling, left wall in a row on the ground, either way): {}\n\
             \x20 falls off a steep surface (move_lock becoming $1E, Sonic_SlopeRepel): {}\n\
             \x20 frames on collision path 2 (top_solid_bit $E): {}\n\
             \x20 every quadrant, a loop and a steep fall: {}\n",
            self.runs,
            self.frames,
            q[0],
            q[1],
            q[2],
            q[3],
            self.air,
            self.loops,
            self.steep_falls,
            self.path2,
            if self.complete() { "yes" } else { "NO" }
        )
    }
}

/// Runs one terrain job: the game in its act, the model on the act's terrain, model vs game and
/// game vs the reference when there is one; and what the game's run covered.
pub fn run_terrain_job(kit: &TerrainKit, job: &TerrainJob) -> (RunOutcome, Coverage) {
    let start = Instant::now();
    let sc = &job.scenario;
    let a = sc.act as usize;
    let mut o = RunOutcome::new(&job.suite, sc.name.clone());
    let mut cov = Coverage::default();
    let (Some(game), Some(t)) = (kit.games.get(a), kit.terrains.get(a)) else {
        o.error = Some(format!("{}: no act {}", sc.name, a + 1));
        return (o, cov);
    };
    let model = run_terrain_scenario(sc, t);
    let g = game.run_terrain(sc);
    if let Ok(g) = &g {
        cov = Coverage::of_trace(g);
    }
    o.compare_game(&sc.name, g, model, job.reference.as_deref());
    // A difference is drawn over the act's terrain: the detail is made here, where the terrain is.
    if let (Some(g), Some(m), Some(d)) = (&o.game, &o.model, &o.vs_model)
        && !d.is_equal()
    {
        let detail = Detail::build(g, m, &[], d).with_terrain(t);
        o.kept = Some((g.frames.len(), Some(detail)));
        o.game = None;
        o.model = None;
    }
    o.seconds = start.elapsed().as_secs_f64();
    (o, cov)
}
