//! `s2lab suite`: every suite in the game and the model, in parallel, with a progress line, a
//! summary table, and JUnit XML and HTML reports; `s2lab gen-suites` writes the suites' scenarios.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use s2harness::report::{self, RunOutcome};
use s2harness::suite_run::{Job, jobs_in, run_all_until};

use super::game_args::RomOpt;

#[derive(clap::Args)]
pub struct SuiteArgs {
    #[command(flatten)]
    pub rom: RomOpt,
    /// The traces directory: reference scenarios with their recorded traces at its top, the
    /// generated suites under `suites/<name>/`.
    #[arg(long, default_value = "traces")]
    pub traces: PathBuf,
    /// Run only these suites (`reference`, `moves`, `flat`, `rand-flat`, `rand-stage`, `stages`, `pits`).
    #[arg(long, num_args = 1..)]
    pub only: Vec<String>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Write a JUnit XML report here.
    #[arg(long)]
    pub junit: Option<PathBuf>,
    /// Write an HTML report with plots here.
    #[arg(long)]
    pub html: Option<PathBuf>,
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

fn collect_jobs(args: &SuiteArgs) -> Result<Vec<Job>> {
    let wanted = |name: &str| args.only.is_empty() || args.only.iter().any(|o| o == name);
    let mut jobs = Vec::new();
    if wanted("reference") {
        jobs.extend(jobs_in(&args.traces, "reference", true).map_err(|e| anyhow!(e))?);
    }
    for suite in s2harness::suites::all() {
        if !wanted(suite.name) {
            continue;
        }
        let dir = args.traces.join("suites").join(suite.name);
        jobs.extend(jobs_in(&dir, suite.name, false).map_err(|e| anyhow!(e))?);
    }
    if jobs.is_empty() {
        return Err(anyhow!(
            "no scenarios found under {}",
            args.traces.display()
        ));
    }
    Ok(jobs)
}

/// Reads every scenario and reference trace before the boot: a typo costs no boot, and
/// nothing runs until every input is good.
fn check_inputs(jobs: &[Job]) -> Result<()> {
    let mut bad = Vec::new();
    for j in jobs {
        match s2model::Scenario::load(&j.scenario) {
            Ok(sc) => {
                for w in sc.warnings() {
                    eprintln!("warning: {}: {w}", j.scenario.display());
                }
            }
            Err(e) => bad.push(e.to_string()),
        }
        if let Some(r) = &j.reference
            && let Err(e) = s2model::Trace::read(r)
        {
            bad.push(e.to_string());
        }
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(anyhow!(
            "{} of the inputs are invalid; nothing was run:\n  {}",
            bad.len(),
            bad.join("\n  ")
        ))
    }
}

/// Writes `text` to `path` whole (temporary file, then rename).
fn write_atomic(path: &Path, text: &str) -> Result<()> {
    outfile::write(path, text).with_context(|| path.display().to_string())
}

pub fn run(args: &SuiteArgs) -> Result<ExitCode> {
    let jobs = collect_jobs(args)?;
    check_inputs(&jobs)?;
    let game = args.rom.boot()?;
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let tty = std::io::stderr().is_terminal();
    let start = Instant::now();
    let failed = std::sync::atomic::AtomicUsize::new(0);
    let progress = |done: usize, total: usize, o: &RunOutcome| {
        if !o.passed() {
            failed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        let bad = failed.load(std::sync::atomic::Ordering::Relaxed);
        let width = 30;
        let filled = done * width / total;
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
    let stop = super::interrupt::flag();
    let ran = run_all_until(&game, &jobs, threads, &progress, &stop);
    if tty {
        eprintln!();
    }
    let not_run: Vec<&Job> = jobs
        .iter()
        .zip(&ran)
        .filter(|(_, o)| o.is_none())
        .map(|(j, _)| j)
        .collect();
    let outcomes: Vec<RunOutcome> = ran.into_iter().flatten().collect();
    let wall = start.elapsed().as_secs_f64();
    for o in outcomes.iter().filter(|o| !o.passed()) {
        println!(
            "{} / {}: {}",
            o.suite,
            o.name,
            o.failure().unwrap_or_default()
        );
    }
    print!("{}", report::summary_table(&outcomes));
    println!("wall time {wall:.1} s on {threads} threads");
    if let Some(path) = &args.junit {
        write_atomic(path, &report::junit_xml(&outcomes))?;
    }
    if let Some(path) = &args.html {
        let title = format!("s2lab suite: Sonic 2 {}", game.revision().revision);
        write_atomic(path, &report::html(&outcomes, &title))?;
    }
    if !not_run.is_empty() {
        eprintln!(
            "interrupted: {} of {} runs finished (their reports are written); not run:",
            outcomes.len(),
            jobs.len()
        );
        for j in &not_run {
            eprintln!("  {} / {}", j.suite, j.scenario.display());
        }
        return Ok(ExitCode::from(130));
    }
    Ok(if outcomes.iter().any(|o| o.error.is_some()) {
        ExitCode::from(2)
    } else if outcomes.iter().all(|o| o.passed()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
