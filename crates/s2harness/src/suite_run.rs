//! Running many scenarios in the game and the model, in parallel over the cores.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use s2model::{Scenario, Trace, diff, run_scenario};

use crate::game::Game;
use crate::report::{RunOutcome, plots_of};

/// One scenario to run: which suite it belongs to, the file, and an optional reference trace.
#[derive(Clone, Debug)]
pub struct Job {
    pub suite: String,
    pub scenario: PathBuf,
    pub reference: Option<PathBuf>,
}

/// `*.scenario.json` files directly in `dir`, sorted; each with its sibling
/// `*.trace.jsonl.gz` (or `.trace.jsonl`) as the reference when `with_references` and it exists.
pub fn jobs_in(dir: &Path, suite: &str, with_references: bool) -> Result<Vec<Job>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".scenario.json"))
        .collect();
    files.sort();
    Ok(files
        .into_iter()
        .map(|scenario| {
            let stem = scenario
                .to_string_lossy()
                .trim_end_matches(".scenario.json")
                .to_string();
            let reference = with_references
                .then(|| {
                    [
                        format!("{stem}.trace.jsonl.gz"),
                        format!("{stem}.trace.jsonl"),
                    ]
                    .into_iter()
                    .map(PathBuf::from)
                    .find(|p| p.is_file())
                })
                .flatten();
            Job {
                suite: suite.to_string(),
                scenario,
                reference,
            }
        })
        .collect())
}

/// Runs one job: the game, the model, and the comparisons.
pub fn run_job(game: &Game, job: &Job) -> RunOutcome {
    let start = Instant::now();
    let name = job
        .scenario
        .file_name()
        .map(|n| {
            n.to_string_lossy()
                .trim_end_matches(".scenario.json")
                .to_string()
        })
        .unwrap_or_default();
    let mut outcome = RunOutcome {
        suite: job.suite.clone(),
        name,
        seconds: 0.0,
        frames: 0,
        plots: Vec::new(),
        vs_model: None,
        vs_reference: None,
        error: None,
    };
    let sc = match Scenario::load(&job.scenario) {
        Ok(sc) => sc,
        Err(e) => {
            outcome.error = Some(e.to_string());
            return outcome;
        }
    };
    let model = run_scenario(&sc);
    // Only the comparisons and the plots' points outlive the run (see `RunOutcome::plots`).
    let trace = game.run(&sc);
    match &trace {
        Ok(trace) => {
            outcome.vs_model = Some(diff(&model, trace));
            if let Some(r) = &job.reference {
                match Trace::read(r) {
                    Ok(reference) => outcome.vs_reference = Some(diff(&reference, trace)),
                    Err(e) => outcome.error = Some(e.to_string()),
                }
            }
            outcome.frames = trace.frames.len();
        }
        Err(e) => outcome.error = Some(format!("{}: {e}", sc.name)),
    }
    outcome.plots = plots_of(Some(&model), trace.as_ref().ok());
    outcome.seconds = start.elapsed().as_secs_f64();
    outcome
}

/// Runs every job on `threads` workers sharing the booted game (each run copies only the
/// machine's state; the ROM is shared); `progress` is called after each run with (done,
/// total, outcome). Results come back in job order.
pub fn run_all(
    game: &Game,
    jobs: &[Job],
    threads: usize,
    progress: &(dyn Fn(usize, usize, &RunOutcome) + Sync),
) -> Vec<RunOutcome> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<RunOutcome>>> =
        Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= jobs.len() {
                        break;
                    }
                    let outcome = run_job(game, &jobs[i]);
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(n, jobs.len(), &outcome);
                    results.lock().expect("no worker panicked")[i] = Some(outcome);
                }
            });
        }
    });
    results
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .map(|o| o.expect("every job ran"))
        .collect()
}
