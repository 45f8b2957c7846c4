//! Running many scenarios in the game and the model, in parallel over the cores.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use s2model::{Scenario, Trace, diff, run_scenario};

use crate::game::{Game, HarnessError};
use crate::report::RunOutcome;
use crate::shared_runs::{Chain, Link};

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

fn job_name(job: &Job) -> String {
    job.scenario
        .file_name()
        .map(|n| {
            n.to_string_lossy()
                .trim_end_matches(".scenario.json")
                .to_string()
        })
        .unwrap_or_default()
}

/// Runs one job without the game: the model against the job's recorded reference trace (a MAME
/// recording of the real game), which takes the game's place in the outcome.
pub fn run_job_model_only(job: &Job) -> RunOutcome {
    let start = Instant::now();
    let mut outcome = RunOutcome::new(&job.suite, job_name(job));
    let Some(reference) = &job.reference else {
        outcome.error = Some(format!(
            "{}: no reference trace beside it to compare the model with",
            job.scenario.display()
        ));
        return outcome;
    };
    let sc = match Scenario::load(&job.scenario) {
        Ok(sc) => sc,
        Err(e) => {
            outcome.error = Some(e.to_string());
            return outcome;
        }
    };
    outcome.solid = sc.solid.clone();
    let model = run_scenario(&sc);
    match Trace::read(reference) {
        Ok(t) => {
            outcome.vs_model = Some(diff(&model, &t));
            outcome.game = Some(t);
        }
        Err(e) => outcome.error = Some(e.to_string()),
    }
    outcome.model = Some(model);
    outcome.seconds = start.elapsed().as_secs_f64();
    outcome
}

/// Runs one job: the game, the model, and the comparisons. The reference trace is read only
/// once the game has run.
pub fn run_job(game: &Game, job: &Job) -> RunOutcome {
    let start = Instant::now();
    match Scenario::load(&job.scenario) {
        Ok(sc) => run_in_game(game, job, sc, start, || {
            let r = job.reference.as_deref()?;
            Some(Trace::read(r).map_err(|e| e.to_string()))
        }),
        Err(e) => {
            let mut outcome = RunOutcome::new(&job.suite, job_name(job));
            outcome.error = Some(e.to_string());
            outcome
        }
    }
}

/// What [`run_job`] and [`run_loaded`] share once the scenario is read: the model, the game,
/// and the comparisons with the model and (when `reference` gives one) the reference trace.
fn run_in_game(
    game: &Game,
    job: &Job,
    sc: Scenario,
    start: Instant,
    reference: impl FnOnce() -> Option<Result<Trace, String>>,
) -> RunOutcome {
    run_in_game_with(job, sc, start, reference, |sc| game.run(sc))
}

/// [`run_in_game`] with the game's run made by `run`.
fn run_in_game_with(
    job: &Job,
    sc: Scenario,
    start: Instant,
    reference: impl FnOnce() -> Option<Result<Trace, String>>,
    run: impl FnOnce(&Scenario) -> Result<Trace, HarnessError>,
) -> RunOutcome {
    let mut outcome = RunOutcome::new(&job.suite, job_name(job));
    outcome.solid = sc.solid.clone();
    let model = run_scenario(&sc);
    match run(&sc) {
        Ok(g) => outcome.compare_with(Ok(g), model, reference()),
        Err(e) => outcome.compare_with(Err(format!("{}: {e}", sc.name)), model, None),
    }
    outcome.seconds = start.elapsed().as_secs_f64();
    outcome
}

/// A job's inputs, read and checked once before anything runs: the scenario and its reference
/// trace (when the job has one). The runs take them from here instead of reading the files again
/// (a reference trace costs about as much host work to read as 20 frames of the game).
pub struct Loaded {
    pub scenario: Scenario,
    pub reference: Option<Trace>,
}

/// Reads `job`'s scenario and reference trace: the scenario's warnings (when it could be read),
/// and the inputs or every reason they are not good (the scenario's, then the reference's).
pub fn load_job(job: &Job) -> (Vec<String>, Result<Loaded, Vec<String>>) {
    let mut bad = Vec::new();
    let scenario = Scenario::load(&job.scenario).map_err(|e| bad.push(e.to_string()));
    let warnings = scenario.as_ref().map_or(Vec::new(), |sc| sc.warnings());
    let reference = match &job.reference {
        Some(r) => Trace::read(r)
            .map(Some)
            .map_err(|e| bad.push(e.to_string())),
        None => Ok(None),
    };
    let loaded = match (scenario, reference) {
        (Ok(scenario), Ok(reference)) => Ok(Loaded {
            scenario,
            reference,
        }),
        _ => Err(bad),
    };
    (warnings, loaded)
}

/// [`run_job`] on inputs already read by [`load_job`].
pub fn run_loaded(game: &Game, job: &Job, inputs: Loaded) -> RunOutcome {
    let start = Instant::now();
    let Loaded {
        scenario,
        reference,
    } = inputs;
    run_in_game(game, job, scenario, start, || reference.map(Ok))
}

/// [`run_loaded`] as a link of a chain of runs that begin alike ([`crate::shared_runs`]): it
/// goes on from the chain's checkpoint within the frames it shares with the run before it,
/// and leaves the checkpoints the chain's later runs need.
pub fn run_loaded_in_chain(
    game: &Game,
    job: &Job,
    inputs: Loaded,
    link: &Link,
    chain: &mut Chain,
) -> RunOutcome {
    let start = Instant::now();
    let Loaded {
        scenario,
        reference,
    } = inputs;
    run_in_game_with(
        job,
        scenario,
        start,
        || reference.map(Ok),
        |sc| chain.run(game, sc, link),
    )
}

/// [`run_job_model_only`] on inputs already read by [`load_job`].
pub fn run_loaded_model_only(job: &Job, inputs: Loaded) -> RunOutcome {
    let start = Instant::now();
    let mut outcome = RunOutcome::new(&job.suite, job_name(job));
    let Loaded {
        scenario: sc,
        reference,
    } = inputs;
    let Some(reference) = reference else {
        outcome.error = Some(format!(
            "{}: no reference trace beside it to compare the model with",
            job.scenario.display()
        ));
        return outcome;
    };
    outcome.solid = sc.solid.clone();
    let model = run_scenario(&sc);
    outcome.vs_model = Some(diff(&model, &reference));
    outcome.game = Some(reference);
    outcome.model = Some(model);
    outcome.seconds = start.elapsed().as_secs_f64();
    outcome
}

/// Runs every job on `threads` workers, each with its own copy of the booted game; `progress` is
/// called after each run with (done, total, outcome). Results come back in job order.
pub fn run_all(
    game: &Game,
    jobs: &[Job],
    threads: usize,
    progress: &(dyn Fn(usize, usize, &RunOutcome) + Sync),
) -> Vec<RunOutcome> {
    run_all_with(jobs, threads, progress, &|| {
        let game = game.clone();
        Box::new(move |job: &Job| run_job(&game, job))
    })
}

/// A worker's way of running a job (made once per worker thread: its own copy of the game).
pub type Runner<'a> = Box<dyn FnMut(&Job) -> RunOutcome + 'a>;

/// [`run_all`] with any runner: `make` gives each worker its own. Results come back in job
/// order whatever the thread count.
pub fn run_all_with<'g>(
    jobs: &[Job],
    threads: usize,
    progress: &(dyn Fn(usize, usize, &RunOutcome) + Sync),
    make: &(dyn Fn() -> Runner<'g> + Sync),
) -> Vec<RunOutcome> {
    run_all_until(jobs, threads, progress, make, &AtomicBool::new(false))
        .into_iter()
        .map(|o| o.expect("every job ran"))
        .collect()
}

/// [`run_all_with`], taking no new job once `stop` is set (Ctrl-C): runs in progress finish,
/// and the jobs never started come back as `None`.
pub fn run_all_until<'g, T: Sync>(
    jobs: &[T],
    threads: usize,
    progress: &(dyn Fn(usize, usize, &RunOutcome) + Sync),
    make: &(dyn Fn() -> Box<dyn FnMut(&T) -> RunOutcome + 'g> + Sync),
    stop: &AtomicBool,
) -> Vec<Option<RunOutcome>> {
    let units: Vec<usize> = (0..jobs.len()).collect();
    run_units_until(jobs.len(), &units, threads, progress, stop, &|| {
        let mut runner = make();
        Box::new(
            move |&i: &usize, emit: &mut dyn FnMut(usize, RunOutcome) -> bool| {
                emit(i, runner(&jobs[i]));
            },
        )
    })
}

/// A worker's way of running a unit of jobs: it hands each job's index and outcome to `emit`
/// as it comes, and stops when `emit` says so (Ctrl-C).
pub type UnitRunner<'a, U> = Box<dyn FnMut(&U, &mut dyn FnMut(usize, RunOutcome) -> bool) + 'a>;

/// Runs `units` (together every one of the `total` jobs once) on `threads` workers, a unit at a
/// time on one worker, taking no new unit or job once `stop` is set; results come back by job,
/// `None` for the jobs never started.
pub fn run_units_until<'g, U: Sync>(
    total: usize,
    units: &[U],
    threads: usize,
    progress: &(dyn Fn(usize, usize, &RunOutcome) + Sync),
    stop: &AtomicBool,
    make: &(dyn Fn() -> UnitRunner<'g, U> + Sync),
) -> Vec<Option<RunOutcome>> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<RunOutcome>>> = Mutex::new((0..total).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut runner = make();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let u = next.fetch_add(1, Ordering::Relaxed);
                    let Some(unit) = units.get(u) else { break };
                    runner(unit, &mut |i, outcome| {
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        progress(n, total, &outcome);
                        results.lock().expect("no worker panicked")[i] = Some(outcome);
                        !stop.load(Ordering::Relaxed)
                    });
                }
            });
        }
    });
    results.into_inner().expect("no worker panicked")
}

/// `shard`'s share of `jobs`, each with its place in the whole list (what merges order by).
pub fn shard_jobs(jobs: Vec<Job>, shard: crate::shard::Shard) -> (Vec<u64>, Vec<Job>) {
    jobs.into_iter()
        .enumerate()
        .filter(|(i, _)| shard.contains(*i as u64))
        .map(|(i, j)| (i as u64, j))
        .unzip()
}
