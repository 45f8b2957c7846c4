//! Terrain fuzzing (`--kind terrain`): Sonic on a surface of Emerald Hill act 1 or 2 (chosen by
//! the scenario's seed) with a random script, run in the game (in its act, booted once per
//! campaign and cloned per worker) and in the model on the act's terrain read from that game;
//! compared on every field and on Sonic's collision layer, as `tests/terrain_in_game.rs` does.
//! A divergence is shrunk by cutting the script after it, then in rounds starting Sonic further
//! along his own path and removing script segments (ddmin, as [`super::shrink`] does for the
//! built kinds), while it stays at the same field.
//!
//! Scenario `i` of campaign `seed` depends on (seed, i) and the ROM's terrain only, so a seed
//! reproduces a campaign on every machine, shard and thread count.

use std::time::Instant;

use s2model::Terrain;
use s2model::state::{FIELDS, status};
use s2model::terrain_scenario::{TerrainScenario, event_line, run_terrain_scenario_with_layers};
use s2model::trace::{DiffReport, Trace, diff};

use super::campaign::{CampaignRun, Outcome, Tally, Worker, run_scenarios, shrink_divergences};
use super::generate::{scenario_seed, script_frames};
use super::shrink::{ddmin, flatten, segments};
use super::{FuzzConfig, Progress, divergence_line};
use crate::game::{Game, HarnessError};
use crate::report::{Detail, RunRecord, Status, first_difference_line};
use crate::rom::RomImage;
use crate::suites::prng::Rng;
use crate::terrain_suite;

/// Game runs at most per shrunk case.
const MAX_SHRINK_RUNS: usize = 2000;
/// Rounds of start moving and ddmin at most (a round that changes nothing ends the shrinking).
const MAX_ROUNDS: usize = 4;

/// Sonic started further along his own path: where the game had him at 7/8, 3/4, 1/2 or 1/4 of
/// the way to the divergence, with that frame's speeds and the rest of the script, when he stood
/// there as a scenario can place him (on flat ground, angle 0, not rolling, on path 1). Subpixels
/// and animation are not carried over, so a candidate is only kept if it still diverges.
fn later_starts(acts: &TerrainActs, sc: &TerrainScenario, at: &Where) -> Vec<TerrainScenario> {
    let TerrainVerdict::Diverged {
        diff,
        layer_frame,
        game,
        ..
    } = evaluate(acts, sc)
    else {
        return Vec::new();
    };
    let Some(k) = (match at {
        Where::Layer => layer_frame,
        Where::Field(_) => divergence_line(&diff),
    }) else {
        return Vec::new();
    };
    let field = |name: &str| FIELDS.iter().position(|f| *f == name).expect("a field");
    let (x, y, st, angle) = (
        field("x_pos"),
        field("y_pos"),
        field("status"),
        field("angle"),
    );
    let (x_vel, inertia) = (field("x_vel"), field("inertia"));
    let (_, layers) = match acts.acts[sc.act as usize].0.run_terrain_with_layers(sc) {
        Ok(r) => r,
        Err(_) => return Vec::new(),
    };
    let mut out = Vec::new();
    for (num, den) in [(7, 8), (3, 4), (1, 2), (1, 4)] {
        let j = k * num / den;
        let (Some(f), Some(&layer)) = (game.frames.get(j), layers.get(j)) else {
            continue;
        };
        let v = &f.values;
        let stat = v[st] as u8;
        if stat & (status::IN_AIR | status::ROLLING) != 0 || v[angle] != 0 || layer != PATH_1 {
            continue;
        }
        let mut c = sc.clone();
        c.x = v[x] as u16;
        c.y = v[y] as u16;
        c.facing_left = stat & status::FACING_LEFT != 0;
        c.x_vel = v[x_vel] as i16;
        c.y_vel = 0;
        c.inertia = v[inertia] as i16;
        c.in_air = false;
        c.input = sc.input.get(j + 1..).unwrap_or_default().to_vec();
        if c.input.len() < sc.input.len() && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Sonic's collision layer on path 1 (`layer_byte` of $C, $D).
const PATH_1: u8 = 0xCD;

/// Both Emerald Hill acts: the game in the act and the act's terrain (index = act).
#[derive(Clone)]
pub struct TerrainActs {
    pub acts: Vec<(Game, Terrain)>,
}

impl TerrainActs {
    /// Loads both acts from a game booted to EHZ1 and reads their terrain.
    pub fn prepare(boot: &Game, rom: &RomImage) -> Result<TerrainActs, HarnessError> {
        let mut acts = Vec::new();
        for act in 0..2u8 {
            let g = boot.in_act(act)?;
            let t = g.read_terrain(rom)?;
            acts.push((g, t));
        }
        Ok(TerrainActs { acts })
    }
}

/// Scenario `index` of terrain campaign `seed`: the act from the seed, a start column drawn by
/// [`terrain_suite::scenarios`] (left of the act's level events), a script of 60–1200 frames.
pub fn scenario(seed: u64, index: u64, acts: &TerrainActs) -> TerrainScenario {
    let s = scenario_seed(seed, index);
    let act = (Rng::new(s ^ 0x7E44_A1B0_0000_0000).next_u64() >> 63) as u8;
    let t = &acts.acts[act as usize].1;
    let frames = script_frames(s);
    // A seed whose 50 draws find no surface (never seen on EHZ) takes the next one.
    let mut sub = s;
    loop {
        if let Some(mut sc) =
            terrain_suite::scenarios(t, 1, frames, sub, event_line(0, act) - 0x80).pop()
        {
            sc.name = format!("fuzz{seed}-{index:06}-terrain");
            sc.note = Some(format!(
                "s2lab fuzz --kind terrain --seed {seed}: run {index}, EHZ{}",
                act + 1
            ));
            return sc;
        }
        sub = sub.wrapping_add(1);
    }
}

/// What a divergence is kept at while shrinking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Where {
    /// The first differing frame's first field (`None`: only the frame count differed).
    Field(Option<&'static str>),
    /// Every field equal, Sonic's collision layer (path 1/2) not.
    Layer,
}

impl Where {
    pub fn describe(&self) -> String {
        match self {
            Where::Field(Some(f)) => format!("field {f}"),
            Where::Field(None) => "the frame count".into(),
            Where::Layer => "the collision layer".into(),
        }
    }
}

/// How a terrain run came out.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum TerrainVerdict {
    Identical,
    /// Model (A) and game (B) differ.
    Diverged {
        diff: DiffReport,
        /// The first frame whose collision layers differ.
        layer_frame: Option<usize>,
        at: Where,
        game: Trace,
        model: Trace,
    },
    Error(String),
}

/// Runs `sc` in the game (in its act) and the model on the act's terrain and compares them.
pub fn evaluate(acts: &TerrainActs, sc: &TerrainScenario) -> TerrainVerdict {
    let (game, terrain) = &acts.acts[sc.act as usize];
    let (g, gl) = match game.run_terrain_with_layers(sc) {
        Ok(r) => r,
        Err(e) => return TerrainVerdict::Error(format!("{}: {e}", sc.name)),
    };
    let (m, ml) = run_terrain_scenario_with_layers(sc, terrain);
    let d = diff(&m, &g);
    let layer_frame = (0..gl.len().min(ml.len())).find(|&k| gl[k] != ml[k]);
    if d.is_equal() && layer_frame.is_none() {
        return TerrainVerdict::Identical;
    }
    // The earlier of the two decides what the shrinking keeps.
    let field_line = if d.is_equal() {
        None
    } else {
        Some(divergence_line(&d).unwrap_or(0))
    };
    let at = match (field_line, layer_frame) {
        (Some(f), Some(l)) if l < f => Where::Layer,
        (Some(_), _) => Where::Field(
            d.first
                .as_ref()
                .and_then(|f| f.fields.first().map(|x| x.field)),
        ),
        (None, _) => Where::Layer,
    };
    TerrainVerdict::Diverged {
        diff: d,
        layer_frame,
        at,
        game: g,
        model: m,
    }
}

/// One scenario of a terrain campaign.
#[derive(Clone, Debug)]
pub struct TerrainRun {
    pub index: u64,
    pub scenario: TerrainScenario,
    pub frames: usize,
    pub seconds: f64,
    pub verdict: TerrainVerdict,
}

impl CampaignRun for TerrainRun {
    fn index(&self) -> u64 {
        self.index
    }
    fn frames(&self) -> usize {
        self.frames
    }
    fn tally(&self) -> Tally {
        match self.verdict {
            TerrainVerdict::Identical => Tally::Identical,
            TerrainVerdict::Diverged { .. } => Tally::Diverged,
            TerrainVerdict::Error(_) => Tally::Error,
        }
    }
}

impl TerrainRun {
    /// The run as a results-file record (suite `fuzz-terrain`), a difference drawn over the act's
    /// terrain from `acts`.
    pub fn record_over(&self, acts: &TerrainActs) -> RunRecord {
        let mut r = self.record();
        if let Some(d) = r.detail.take() {
            let t = &acts.acts[self.scenario.act as usize].1;
            r.detail = Some(d.with_terrain(t));
        }
        r
    }

    /// The run as a results-file record (suite `fuzz-terrain`).
    pub fn record(&self) -> RunRecord {
        let (status, failure, detail) = match &self.verdict {
            TerrainVerdict::Identical => (Status::Identical, None, None),
            TerrainVerdict::Diverged {
                diff,
                layer_frame,
                game,
                model,
                ..
            } => {
                let line = first_difference_line(diff)
                    .map(|l| format!("model vs game: {l}"))
                    .or_else(|| {
                        layer_frame.map(|k| format!("model vs game: collision layer at frame {k}"))
                    });
                let detail = (!diff.is_equal()).then(|| Detail::build(game, model, &[], diff));
                (Status::Different, line, detail)
            }
            TerrainVerdict::Error(e) => (Status::Error, Some(e.clone()), None),
        };
        RunRecord {
            index: self.index,
            suite: "fuzz-terrain".into(),
            name: self.scenario.name.clone(),
            seconds: self.seconds,
            frames: self.frames,
            status,
            failure,
            detail,
        }
    }
}

/// A shrunk terrain divergence.
#[derive(Clone, Debug)]
pub struct TerrainCase {
    pub index: u64,
    pub original: TerrainScenario,
    pub shrunk: TerrainScenario,
    /// The shrunk scenario's traces, comparison (model as A) and first layer difference.
    pub game: Trace,
    pub model: Trace,
    pub diff: DiffReport,
    pub layer_frame: Option<usize>,
    pub at: Where,
    pub shrink_runs: usize,
}

/// What a terrain campaign found.
pub type TerrainCampaign = Outcome<TerrainRun, TerrainCase>;

/// Runs a terrain campaign (`cfg.kinds` is not read; `cfg.planted_defect` has no terrain
/// counterpart), then shrinks its first divergences. Same count, time, shard and stop rules as
/// [`super::run_campaign`].
pub fn run_terrain_campaign(
    acts: &TerrainActs,
    cfg: &FuzzConfig,
    progress: &(dyn Fn(&Progress) + Sync),
) -> TerrainCampaign {
    let start = Instant::now();
    let make = || -> Worker<'_, TerrainRun> {
        let acts = acts.clone();
        Box::new(move |index| {
            let t0 = Instant::now();
            let sc = scenario(cfg.seed, index, &acts);
            let verdict = evaluate(&acts, &sc);
            let frames = match &verdict {
                TerrainVerdict::Diverged { game, .. } => game.frames.len(),
                _ => sc.frame_count(),
            };
            TerrainRun {
                index,
                frames,
                seconds: t0.elapsed().as_secs_f64(),
                verdict,
                scenario: sc,
            }
        })
    };
    let ran = run_scenarios(cfg, start, "fuzzing terrain", &make, progress);
    shrink_divergences(cfg, start, ran, progress, |run, report| {
        let TerrainVerdict::Diverged { at, .. } = &run.verdict else {
            return None;
        };
        let step = |runs: usize, sc: &TerrainScenario| {
            report(format!(
                "shrinking {}: {runs} runs, {} frames",
                run.scenario.name,
                sc.input.len()
            ))
        };
        shrink(acts, cfg.threads, run.index, &run.scenario, at, &step)
    })
}

/// Shrinks a diverging terrain scenario: the script cut after the divergence, then its segments
/// removed by ddmin (candidates a batch per worker, the first holding in order wins, so the result
/// does not depend on the thread count), while the divergence stays at `at`.
pub fn shrink(
    acts: &TerrainActs,
    threads: usize,
    index: u64,
    original: &TerrainScenario,
    at: &Where,
    report: &(dyn Fn(usize, &TerrainScenario) + Sync),
) -> Option<TerrainCase> {
    let workers: Vec<TerrainActs> = (0..threads.max(1)).map(|_| acts.clone()).collect();
    let holds = |a: &TerrainActs, sc: &TerrainScenario| matches!(evaluate(a, sc), TerrainVerdict::Diverged { at: w, .. } if w == *at);
    let mut runs = 0usize;
    let first_holding = |cands: Vec<TerrainScenario>, runs: &mut usize| {
        for batch in cands.chunks(workers.len()) {
            if *runs >= MAX_SHRINK_RUNS {
                return None;
            }
            *runs += batch.len();
            let ok: Vec<bool> = std::thread::scope(|scope| {
                let hs: Vec<_> = batch
                    .iter()
                    .zip(&workers)
                    .map(|(sc, a)| scope.spawn(move || holds(a, sc)))
                    .collect();
                hs.into_iter()
                    .map(|h| h.join().expect("no shrink worker panicked"))
                    .collect()
            });
            if let Some(i) = ok.iter().position(|&b| b) {
                report(*runs, &batch[i]);
                return Some(batch[i].clone());
            }
        }
        None
    };
    let mut cur = original.clone();
    cur.frames = None;
    // Nothing after the divergence can matter: both sides are causal.
    if let TerrainVerdict::Diverged {
        diff, layer_frame, ..
    } = evaluate(acts, &cur)
    {
        let k = match at {
            Where::Layer => layer_frame,
            Where::Field(_) => divergence_line(&diff),
        };
        if let Some(k) = k
            && k + 1 < cur.input.len()
        {
            let mut sc = cur.clone();
            sc.input.truncate(k + 1);
            if let Some(sc) = first_holding(vec![sc], &mut runs) {
                cur = sc;
            }
        }
    }
    for _ in 0..MAX_ROUNDS {
        let before = cur.clone();
        if let Some(sc) = first_holding(later_starts(acts, &cur, at), &mut runs) {
            cur = sc;
        }
        let segs = segments(&cur.input);
        let kept = ddmin(segs, |cands| {
            let scs: Vec<TerrainScenario> = cands
                .iter()
                .map(|c| TerrainScenario {
                    input: flatten(c),
                    ..cur.clone()
                })
                .collect();
            let found = first_holding(scs, &mut runs)?;
            cands.into_iter().find(|c| flatten(c) == found.input)
        });
        cur.input = flatten(&kept);
        if cur == before {
            break;
        }
    }
    match evaluate(acts, &cur) {
        TerrainVerdict::Diverged {
            diff,
            layer_frame,
            at: w,
            game,
            model,
        } if w == *at => Some(TerrainCase {
            index,
            original: original.clone(),
            shrunk: cur,
            game,
            model,
            diff,
            layer_frame,
            at: w,
            shrink_runs: runs,
        }),
        _ => None,
    }
}
