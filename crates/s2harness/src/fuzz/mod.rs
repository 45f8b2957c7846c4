//! Differential fuzzing: seeded random scenarios run in the game (emulated) and in the model on
//! every core; each divergence is shrunk ([`shrink`]) to a small scenario that still diverges at
//! the same field. A campaign is a function of its seed: scenario `i` is made from (seed, i)
//! alone and results are kept in index order, so the thread count never changes what is found.

pub mod campaign;
pub mod generate;
pub mod planted;
pub mod shrink;
pub mod terrain;

use std::time::{Duration, Instant};

use s2model::trace::{DiffAt, DiffReport, Trace};
use s2model::{Scenario, diff, run_scenario};

use crate::game::Game;
use crate::report::{Detail, RunRecord, Status, first_difference_line};
use crate::shard::Shard;
use campaign::{CampaignRun, Outcome, Tally, Worker, run_scenarios, shrink_divergences};
pub use generate::{Built, Kind};

/// What a campaign runs.
#[derive(Clone, Debug)]
pub struct FuzzConfig {
    pub seed: u64,
    /// Kinds to cycle through (scenario i is of kind `kinds[i % len]`).
    pub kinds: Vec<Kind>,
    /// Scenarios in the whole campaign (all shards together); `None`: until `time` runs out.
    pub count: Option<u64>,
    /// Stop taking new scenarios after this long.
    pub time: Option<Duration>,
    pub shard: Shard,
    pub threads: usize,
    /// Shrink at most this many divergences (the first ones, in index order).
    pub shrink: usize,
    /// Stop the campaign at this many divergences (the first ones, in index order).
    pub stop_after: Option<usize>,
    /// Test-only: run a model with a planted defect ([`planted`]) instead of the real one, so
    /// tests can check that fuzzing finds and shrinks a difference. Never set by the CLI.
    #[doc(hidden)]
    pub planted_defect: bool,
}

impl FuzzConfig {
    /// A campaign of `count` scenarios of every kind, all cores, the first three shrunk.
    pub fn new(seed: u64, count: Option<u64>) -> FuzzConfig {
        FuzzConfig {
            seed,
            kinds: Kind::ALL.to_vec(),
            count,
            time: None,
            shard: Shard::ALL,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            shrink: 3,
            stop_after: None,
            planted_defect: false,
        }
    }

    /// The model under test.
    pub fn model(&self, sc: &Scenario) -> Trace {
        if self.planted_defect {
            planted::defective_model(sc)
        } else {
            run_scenario(sc)
        }
    }
}

/// A live count for the progress line.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub runs: u64,
    pub frames: u64,
    pub divergences: u64,
    pub errors: u64,
    pub seconds: f64,
    /// What is happening now ("fuzzing", "shrinking fuzz1-000042-stage: 37 runs, 3 blocks, 120 frames").
    pub phase: String,
}

/// How a run came out.
// One verdict a run, moved once into the results: boxing the traces would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Verdict {
    Identical,
    /// Model and game differ: the comparison (model as A) and both traces.
    Diverged {
        diff: DiffReport,
        game: Trace,
        model: Trace,
    },
    /// The game could not run the scenario (the harness's checks failed).
    Error(String),
}

/// One scenario of the campaign.
#[derive(Clone, Debug)]
pub struct FuzzRun {
    pub index: u64,
    pub kind: Kind,
    pub scenario: Scenario,
    pub frames: usize,
    pub seconds: f64,
    pub verdict: Verdict,
}

impl CampaignRun for FuzzRun {
    fn index(&self) -> u64 {
        self.index
    }
    fn frames(&self) -> usize {
        self.frames
    }
    fn tally(&self) -> Tally {
        match self.verdict {
            Verdict::Identical => Tally::Identical,
            Verdict::Diverged { .. } => Tally::Diverged,
            Verdict::Error(_) => Tally::Error,
        }
    }
}

impl FuzzRun {
    /// The run as a results-file record (suite `fuzz-<kind>`).
    pub fn record(&self) -> RunRecord {
        let (status, failure, detail) = match &self.verdict {
            Verdict::Identical => (Status::Identical, None, None),
            Verdict::Diverged { diff, game, model } => (
                Status::Different,
                first_difference_line(diff).map(|l| format!("model vs game: {l}")),
                Some(Detail::build(game, model, &self.scenario.solid, diff)),
            ),
            Verdict::Error(e) => (Status::Error, Some(e.clone()), None),
        };
        RunRecord {
            index: self.index,
            suite: format!("fuzz-{}", self.kind),
            name: self.scenario.name.clone(),
            seconds: self.seconds,
            frames: self.frames,
            status,
            failure,
            detail,
        }
    }
}

/// A shrunk divergence.
#[derive(Clone, Debug)]
pub struct Case {
    /// The campaign run it came from.
    pub index: u64,
    pub original: Scenario,
    pub shrunk: Scenario,
    /// The shrunk scenario's traces and their comparison (model as A).
    pub game: Trace,
    pub model: Trace,
    pub diff: DiffReport,
    /// The field the divergence is kept at (`None`: only the frame count differed).
    pub field: Option<String>,
    /// Game runs the shrinking took.
    pub shrink_runs: usize,
}

/// What a campaign found.
pub type Campaign = Outcome<FuzzRun, Case>;

/// Runs `sc` in the game and in the model and compares them.
pub fn evaluate(game: &Game, cfg: &FuzzConfig, sc: &Scenario) -> Verdict {
    match game.run(sc) {
        Ok(g) => {
            let m = cfg.model(sc);
            let d = diff(&m, &g);
            if d.is_equal() {
                Verdict::Identical
            } else {
                Verdict::Diverged {
                    diff: d,
                    game: g,
                    model: m,
                }
            }
        }
        Err(e) => Verdict::Error(format!("{}: {e}", sc.name)),
    }
}

/// The first divergence's frame line index (`None`: initial).
pub fn divergence_line(d: &DiffReport) -> Option<usize> {
    match d.first.as_ref()?.at {
        DiffAt::Initial => None,
        DiffAt::Frame(_) => Some(d.frames_compared),
    }
}

/// Runs a campaign, then shrinks its first divergences. `progress` is called after every run
/// and every shrinking step (from any thread). Runs `cfg`'s built kinds (terrain campaigns are
/// [`terrain::run_terrain_campaign`]); with none, the campaign has no runs.
pub fn run_campaign(
    game: &Game,
    cfg: &FuzzConfig,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Campaign {
    let start = Instant::now();
    let kinds: Vec<Built> = cfg.kinds.iter().filter_map(|k| k.built()).collect();
    let make = || -> Worker<'_, FuzzRun> {
        let game = game.clone();
        let kinds = kinds.clone();
        Box::new(move |index| {
            let t0 = Instant::now();
            let (kind, sc) = generate::scenario(cfg.seed, index, &kinds);
            let verdict = evaluate(&game, cfg, &sc);
            let frames = match &verdict {
                Verdict::Diverged { game, .. } => game.frames.len(),
                _ => sc.frame_count(),
            };
            FuzzRun {
                index,
                kind,
                frames,
                seconds: t0.elapsed().as_secs_f64(),
                verdict,
                scenario: sc,
            }
        })
    };
    let ran = if kinds.is_empty() {
        (Vec::new(), Progress::default())
    } else {
        run_scenarios(cfg, start, "fuzzing", &make, progress)
    };
    shrink_divergences(cfg, start, ran, progress, |run, report| {
        let Verdict::Diverged { diff, .. } = &run.verdict else {
            return None;
        };
        let step = |p: &shrink::Step| {
            report(format!(
                "shrinking {}: {} runs, {} blocks, {} frames",
                run.scenario.name,
                p.runs,
                p.scenario.solid.len(),
                p.scenario.input.len()
            ))
        };
        shrink::shrink(game, cfg, run.index, &run.scenario, diff, &step)
    })
}
