//! `s2lab suite`: every suite in the game and the model, in parallel, with a progress line, a
//! summary table, and JSON, JUnit XML and HTML reports; `--shard K/N` runs one shard of the job
//! list (merge the shards with `s2lab report merge`). Without a ROM it runs the model against the
//! MAME reference traces. `s2lab gen-suites` writes the suites' scenarios.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Result, anyhow};
use s2harness::report::{self, Results, RunOutcome};
use s2harness::shard::Shard;
use s2harness::shared_runs::{self, Chain, Link};
use s2harness::store;
use s2harness::suite_run::{
    Job, Loaded, UnitRunner, jobs_in, load_job, run_loaded_in_chain, run_loaded_model_only,
    run_units_until,
};
use s2harness::terrain_run::{self, Coverage, TerrainJob, TerrainKit, run_terrain_job};

use super::game_args::RomOpt;
use super::report::{ReportOut, exit_code};

#[derive(clap::Args)]
pub struct SuiteArgs {
    #[command(flatten)]
    pub rom: RomOpt,
    /// The traces directory: reference scenarios with their recorded traces at its top, the
    /// generated suites under `suites/<name>/` (default: `traces` here, else the repository's).
    #[arg(long)]
    pub traces: Option<PathBuf>,
    /// Run only these suites (`reference`, `moves`, `flat`, `rand-flat`, `rand-stage`, `stages`,
    /// `pits`; with the game also `terrain-scripted`, `terrain-moves`, `terrain-random`, or
    /// `terrain` for all three).
    #[arg(long, num_args = 1..)]
    pub only: Vec<String>,
    /// Random terrain runs per act (Emerald Hill 1 and 2) in the `terrain-random` suite.
    #[arg(long, default_value_t = terrain_run::RANDOM_RUNS_PER_ACT)]
    pub terrain_runs: usize,
    /// Frames per random terrain run.
    #[arg(long, default_value_t = terrain_run::RANDOM_FRAMES)]
    pub terrain_frames: usize,
    /// The random terrain suite's seed (act 2 takes seed + 1).
    #[arg(long, default_value_t = terrain_run::RANDOM_SEED)]
    pub terrain_seed: u64,
    /// Run the model alone against the recorded reference traces (what runs when no ROM is found).
    #[arg(long)]
    pub model_only: bool,
    /// Run shard K of N (1-based): every N-th job of the list from the K-th, as
    /// `cargo nextest --partition count:K/N`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub out: ReportOut,
}

#[derive(clap::Args)]
pub struct GenSuitesArgs {
    /// Where the suites go (one directory per suite).
    #[arg(default_value = "traces/suites")]
    pub out: PathBuf,
}

pub fn generate(args: &GenSuitesArgs) -> Result<ExitCode> {
    let n = s2harness::suites::write_all(&args.out).map_err(|e| anyhow!(e))?;
    eprintln!("wrote {n} scenarios under {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// `traces` in the working directory, else the repository's (where this binary was built from).
fn traces_dir(args: &SuiteArgs) -> PathBuf {
    if let Some(t) = &args.traces {
        return t.clone();
    }
    let here = PathBuf::from("traces");
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../traces");
    if !here.is_dir() && repo.is_dir() {
        repo
    } else {
        here
    }
}

/// A flat-stage job (a scenario file, with its inputs once read) or a terrain job (its scenario
/// already read or generated).
enum AnyJob {
    Flat(Job, Mutex<Option<Box<Loaded>>>),
    Terrain(Box<TerrainJob>),
}

impl AnyJob {
    fn describe(&self) -> String {
        match self {
            AnyJob::Flat(j, _) => format!("{} / {}", j.suite, j.scenario.display()),
            AnyJob::Terrain(j) => format!("{} / {}", j.suite, j.scenario.name),
        }
    }
}

fn wanted(args: &SuiteArgs, name: &str) -> bool {
    args.only.is_empty()
        || args
            .only
            .iter()
            .any(|o| o == name || (o == "terrain" && name.starts_with("terrain-")))
}

/// The terrain suites (they need the game, and its terrain read from the ROM).
fn terrain_jobs(
    args: &SuiteArgs,
    traces: &std::path::Path,
    kit: &TerrainKit,
) -> Result<Vec<TerrainJob>> {
    let mut jobs = Vec::new();
    if wanted(args, "terrain-scripted") {
        jobs.extend(terrain_run::scripted_jobs(&traces.join("terrain")).map_err(|e| anyhow!(e))?);
    }
    if wanted(args, "terrain-moves") {
        for t in &kit.terrains {
            jobs.extend(terrain_run::move_jobs(t));
        }
    }
    if wanted(args, "terrain-random") {
        jobs.extend(terrain_run::random_jobs(
            kit,
            args.terrain_runs,
            args.terrain_frames,
            args.terrain_seed,
        ));
    }
    Ok(jobs)
}

fn collect_jobs(args: &SuiteArgs, traces: &std::path::Path, model_only: bool) -> Result<Vec<Job>> {
    let wanted = |name: &str| wanted(args, name);
    let mut jobs = Vec::new();
    if wanted("reference") {
        jobs.extend(jobs_in(traces, "reference", true).map_err(|e| anyhow!(e))?);
    }
    // The generated suites have no recordings: they need the game.
    if !model_only {
        for suite in s2harness::suites::all() {
            if !wanted(suite.name) {
                continue;
            }
            let dir = traces.join("suites").join(suite.name);
            jobs.extend(jobs_in(&dir, suite.name, false).map_err(|e| anyhow!(e))?);
        }
    }
    let terrain_asked = args.only.iter().any(|o| o.starts_with("terrain"));
    if jobs.is_empty() && (model_only || !terrain_asked) {
        return Err(anyhow!(
            "no scenarios found under {}{}",
            traces.display(),
            if model_only {
                " (without the game only the reference suite runs: its scenarios with recorded traces)"
            } else {
                ""
            }
        ));
    }
    Ok(jobs)
}

/// Reads every scenario and reference trace on `threads` workers: nothing runs until every
/// input is good, and the runs take their inputs from here instead of reading them again.
/// Warnings and errors come out in job order.
fn load_inputs(jobs: &[Job], threads: usize) -> Result<Vec<Loaded>> {
    let next = AtomicUsize::new(0);
    let read: Vec<_> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.clamp(1, jobs.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        mine.push((i, load_job(job)));
                    }
                    mine
                })
            })
            .collect();
        let mut all: Vec<_> = workers
            .into_iter()
            .flat_map(|w| w.join().expect("no input reader panicked"))
            .collect();
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, r)| r).collect()
    });
    let mut bad = Vec::new();
    let mut loaded = Vec::with_capacity(jobs.len());
    for (j, r) in jobs.iter().zip(read) {
        let (warnings, inputs) = r;
        for w in warnings {
            eprintln!("warning: {}: {w}", j.scenario.display());
        }
        match inputs {
            Ok(inputs) => loaded.push(inputs),
            Err(why) => bad.extend(why),
        }
    }
    if bad.is_empty() {
        Ok(loaded)
    } else {
        Err(anyhow!(
            "{} of the inputs are invalid; nothing was run:\n  {}",
            bad.len(),
            bad.join("\n  ")
        ))
    }
}

/// The jobs in chains of runs that begin alike ([`shared_runs::plan`]) when the game runs
/// them; else each job alone.
fn plan_chains(jobs: &mut [AnyJob], with_game: bool) -> Vec<Vec<Link>> {
    let scenarios: Vec<_> = jobs
        .iter_mut()
        .map(|j| match j {
            AnyJob::Flat(_, inputs) if with_game => inputs
                .get_mut()
                .expect("no worker ran yet")
                .as_deref()
                .map(|l| &l.scenario),
            _ => None,
        })
        .collect();
    shared_runs::plan(&scenarios)
}

/// Whether to run without the game: asked for, or no ROM given and none in the store.
fn model_only(args: &SuiteArgs) -> bool {
    if args.model_only {
        return true;
    }
    if args.rom.rom.is_some() {
        return false;
    }
    match store::locate(None, &args.rom.revision) {
        Ok(_) => false,
        Err(why) => {
            eprintln!(
                "no ROM: {why}\nrunning the model against the MAME reference traces (no game needed; \
                 the terrain suites need the game and are skipped)"
            );
            true
        }
    }
}

pub fn run(args: &SuiteArgs) -> Result<ExitCode> {
    let traces = traces_dir(args);
    let model_only = model_only(args);
    let shard = args.shard.unwrap_or_default();
    let flat = collect_jobs(args, &traces, model_only)?;
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Every shard's inputs are read (on all the workers) while the game boots beside them; an
    // invalid input is reported first, and nothing runs until every input is good.
    let (loaded, booted) = std::thread::scope(|scope| {
        let boot = (!model_only).then(|| {
            scope.spawn(|| -> Result<_> {
                let (path, rom) = args.rom.read()?;
                Ok((args.rom.boot_quietly(&path, &rom)?, rom, path))
            })
        });
        let loaded = load_inputs(&flat, threads);
        let booted = boot.map(|b| b.join().expect("the boot did not panic"));
        (loaded, booted)
    });
    let loaded = loaded?;
    let booted = booted.transpose()?;
    if let Some((game, _, path)) = &booted {
        RomOpt::announce(path, game);
    }
    let mut all: Vec<AnyJob> = flat
        .into_iter()
        .zip(loaded)
        .map(|(j, inputs)| AnyJob::Flat(j, Mutex::new(Some(Box::new(inputs)))))
        .collect();
    // The terrain suites: generated from the act's terrain, which the game has just loaded.
    let kit = match &booted {
        Some((game, rom, path))
            if args.only.is_empty() || args.only.iter().any(|o| o.starts_with("terrain")) =>
        {
            let kit = TerrainKit::new(game, rom).map_err(|e| anyhow!("{}: {e}", path.display()))?;
            let t = terrain_jobs(args, &traces, &kit)?;
            all.extend(t.into_iter().map(|j| AnyJob::Terrain(Box::new(j))));
            Some(kit)
        }
        _ => None,
    };
    if all.is_empty() {
        return Err(anyhow!("no scenarios selected"));
    }
    let game = booted.map(|b| b.0);
    let total = all.len() as u64;
    let (indices, mut jobs): (Vec<u64>, Vec<AnyJob>) = all
        .into_iter()
        .enumerate()
        .filter(|(i, _)| shard.contains(*i as u64))
        .map(|(i, j)| (i as u64, j))
        .unzip();
    if shard != Shard::ALL {
        eprintln!("shard {shard}: {} of {total} jobs", jobs.len());
    }
    let tty = std::io::stderr().is_terminal();
    let start = Instant::now();
    let failed = std::sync::atomic::AtomicUsize::new(0);
    let progress = |done: usize, total: usize, o: &RunOutcome| {
        if !o.passed() {
            failed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        let bad = failed.load(std::sync::atomic::Ordering::Relaxed);
        let width = 30;
        let filled = done * width / total.max(1);
        let line = format!(
            "[{}{}] {done}/{total} runs, {bad} not identical, {:.0} s",
            "#".repeat(filled),
            " ".repeat(width - filled),
            start.elapsed().as_secs_f64()
        );
        let mut err = std::io::stderr().lock();
        if tty {
            let _ = write!(err, "\r{line}");
        } else if done.is_multiple_of(25) || done == total {
            let _ = writeln!(err, "{line}");
        }
    };
    let coverage = std::sync::Mutex::new(Coverage::default());
    // Runs in the game that begin alike go in chains (`shared_runs`): one worker runs a chain.
    let chains = plan_chains(&mut jobs, game.is_some());
    let make = || -> UnitRunner<'_, Vec<Link>> {
        let g = game.clone();
        let kit = kit.clone();
        let coverage = &coverage;
        let jobs = &jobs;
        Box::new(
            move |links: &Vec<Link>, emit: &mut dyn FnMut(usize, RunOutcome) -> bool| {
                let mut chain = Chain::default();
                for link in links {
                    let i = link.job;
                    let mut o = match (&jobs[i], &g, &kit) {
                        (AnyJob::Flat(j, inputs), g, _) => {
                            let inputs = inputs
                                .lock()
                                .expect("no worker panicked")
                                .take()
                                .expect("each job runs once");
                            match g {
                                Some(g) => run_loaded_in_chain(g, j, *inputs, link, &mut chain),
                                None => run_loaded_model_only(j, *inputs),
                            }
                        }
                        (AnyJob::Terrain(j), _, Some(kit)) => {
                            let (o, c) = run_terrain_job(kit, j);
                            coverage.lock().expect("no worker panicked").add(&c);
                            o
                        }
                        (AnyJob::Terrain(_), _, None) => {
                            unreachable!("terrain jobs come with their kit")
                        }
                    };
                    o.compact();
                    if !emit(i, o) {
                        break;
                    }
                }
            },
        )
    };
    let stop = super::interrupt::flag();
    let ran = run_units_until(jobs.len(), &chains, threads, &progress, &stop, &make);
    if tty {
        eprintln!();
    }
    let not_run: Vec<&AnyJob> = jobs
        .iter()
        .zip(&ran)
        .filter(|(_, o)| o.is_none())
        .map(|(j, _)| j)
        .collect();
    let wall = start.elapsed().as_secs_f64();
    // Each finished run keeps its place in the whole job list (what shard merges order by).
    let runs: Vec<_> = ran
        .iter()
        .zip(&indices)
        .filter_map(|(o, &i)| o.as_ref().map(|o| o.record(i)))
        .collect();
    let title = match &game {
        Some(g) => format!("s2lab suite: Sonic 2 {}", g.revision().revision),
        None => "s2lab suite: the model vs the MAME reference traces".to_string(),
    };
    let results = Results {
        format: report::results::RESULTS_FORMAT,
        tool: "s2lab suite".into(),
        title,
        shard,
        jobs: Some(total),
        runs,
    };
    for r in results.runs.iter().filter(|r| !r.passed()) {
        println!("{} / {}: {}", r.suite, r.name, r.failure_line());
    }
    print!("{}", report::summary_table(&results.runs));
    let coverage = coverage.into_inner().expect("no worker panicked");
    if coverage.runs > 0 {
        print!("{}", coverage.report());
    }
    println!("wall time {wall:.1} s on {threads} threads");
    args.out.write(&results)?;
    if !not_run.is_empty() {
        eprintln!(
            "interrupted: {} of {} runs finished (their reports are written); not run:",
            results.runs.len(),
            jobs.len()
        );
        for j in &not_run {
            eprintln!("  {}", j.describe());
        }
        return Ok(ExitCode::from(130));
    }
    Ok(exit_code(&results))
}
