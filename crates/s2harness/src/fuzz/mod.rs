//! Differential fuzzing: seeded random scenarios run in the game (emulated) and in the model on
//! every core; each divergence is shrunk ([`shrink`]) to a small scenario that still diverges at
//! the same field. A campaign is a function of its seed: scenario `i` is made from (seed, i)
//! alone and results are kept in index order, so the thread count never changes what is found.

pub mod generate;
pub mod planted;
pub mod shrink;
pub mod terrain;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use s2model::trace::{DiffAt, DiffReport, Trace};
use s2model::{Scenario, diff, run_scenario};

use crate::game::Game;
use crate::report::{Detail, RunRecord, Status, first_difference_line};
use crate::shard::Shard;
pub use generate::Kind;

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
#[derive(Clone, Debug)]
pub struct Campaign {
    /// Every run, in index order.
    pub runs: Vec<FuzzRun>,
    pub cases: Vec<Case>,
    pub frames: u64,
    /// Wall time of the runs (before shrinking) and of the shrinking.
    pub run_seconds: f64,
    pub shrink_seconds: f64,
}

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
/// and every shrinking step (from any thread).
pub fn run_campaign(
    game: &Game,
    cfg: &FuzzConfig,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Campaign {
    let start = Instant::now();
    let shard = cfg.shard;
    // The j-th scenario of this shard is campaign index (k - 1) + j n.
    let index_of = |j: u64| (shard.k - 1) + j * shard.n;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let counts = Mutex::new(Progress {
        phase: "fuzzing".into(),
        ..Progress::default()
    });
    let results: Mutex<BTreeMap<u64, FuzzRun>> = Mutex::new(BTreeMap::new());
    let stop_index = AtomicU64::new(u64::MAX);
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            scope.spawn(|| {
                let game = game.clone();
                loop {
                    if stop.load(Ordering::Relaxed)
                        || cfg.time.is_some_and(|t| start.elapsed() >= t)
                    {
                        break;
                    }
                    let index = index_of(next.fetch_add(1, Ordering::Relaxed));
                    if cfg.count.is_some_and(|c| index >= c) {
                        break;
                    }
                    let t0 = Instant::now();
                    let (kind, sc) = generate::scenario(cfg.seed, index, &cfg.kinds);
                    let verdict = evaluate(&game, cfg, &sc);
                    let frames = match &verdict {
                        Verdict::Diverged { game, .. } => game.frames.len(),
                        _ => sc.frame_count(),
                    };
                    let run = FuzzRun {
                        index,
                        kind,
                        frames,
                        seconds: t0.elapsed().as_secs_f64(),
                        verdict,
                        scenario: sc,
                    };
                    let snapshot = {
                        let mut c = counts.lock().expect("no worker panicked");
                        c.runs += 1;
                        c.frames += frames as u64;
                        match run.verdict {
                            Verdict::Diverged { .. } => c.divergences += 1,
                            Verdict::Error(_) => c.errors += 1,
                            Verdict::Identical => {}
                        }
                        c.seconds = start.elapsed().as_secs_f64();
                        c.clone()
                    };
                    let mut r = results.lock().expect("no worker panicked");
                    r.insert(index, run);
                    if let Some(limit) = cfg.stop_after {
                        // The limit-th divergence in index order among the runs so far; every
                        // index below it has been taken already, so it is final once all finish.
                        let nth = r
                            .values()
                            .filter(|x| matches!(x.verdict, Verdict::Diverged { .. }))
                            .nth(limit.saturating_sub(1));
                        if let Some(x) = nth {
                            stop_index.fetch_min(x.index, Ordering::Relaxed);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    drop(r);
                    progress(&snapshot);
                }
            });
        }
    });
    let cut = stop_index.load(Ordering::Relaxed);
    let mut runs: Vec<FuzzRun> = results
        .into_inner()
        .expect("no worker panicked")
        .into_values()
        .filter(|r| r.index <= cut)
        .collect();
    // With a time limit the finished runs are a prefix of this shard's list plus the runs in
    // flight when time ran out; all of them are kept.
    runs.sort_by_key(|r| r.index);
    let run_seconds = start.elapsed().as_secs_f64();
    let frames = runs.iter().map(|r| r.frames as u64).sum();

    let shrink_start = Instant::now();
    let mut cases = Vec::new();
    let base = counts.into_inner().expect("no worker panicked");
    for run in runs
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Diverged { .. }))
        .take(cfg.shrink)
    {
        let Verdict::Diverged { diff, .. } = &run.verdict else {
            unreachable!()
        };
        let report = |p: &shrink::Step| {
            progress(&Progress {
                seconds: start.elapsed().as_secs_f64(),
                phase: format!(
                    "shrinking {}: {} runs, {} blocks, {} frames",
                    run.scenario.name,
                    p.runs,
                    p.scenario.solid.len(),
                    p.scenario.input.len()
                ),
                ..base.clone()
            })
        };
        if let Some(case) = shrink::shrink(game, cfg, run.index, &run.scenario, diff, &report) {
            cases.push(case);
        }
    }
    Campaign {
        runs,
        cases,
        frames,
        run_seconds,
        shrink_seconds: shrink_start.elapsed().as_secs_f64(),
    }
}
