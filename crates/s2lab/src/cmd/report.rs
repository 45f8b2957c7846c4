//! `s2lab report merge`: join the results of shards (`suite --shard`, `fuzz --shard`) into one
//! summary, JUnit XML, HTML page and results file; and the report options every run shares.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use s2harness::report::{self, Results, Status, merge, read_results};

/// Where a run writes its reports.
#[derive(Args, Debug, Clone, Default)]
pub struct ReportOut {
    /// Write the results here as JSON (docs/formats.md §5; what `report merge` reads); with
    /// --junit F and no --json, beside it as F with the extension .json.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write a JUnit XML report here.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write an HTML report with plots here.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write all three into this directory: results.json, junit.xml, report.html.
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Writes `text` to `path` whole (temporary file in the same directory, then rename).
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    outfile::write(path, text).with_context(|| path.display().to_string())
}

impl ReportOut {
    /// Writes the reports asked for.
    pub fn write(&self, results: &Results) -> Result<()> {
        let mut json = self.json.clone();
        let mut junit = self.junit.clone();
        let mut html = self.html.clone();
        if let Some(dir) = &self.dir {
            std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
            json.get_or_insert(dir.join("results.json"));
            junit.get_or_insert(dir.join("junit.xml"));
            html.get_or_insert(dir.join("report.html"));
        }
        // A JUnit file always gets its results file beside it (what `report merge` reads).
        if let (None, Some(j)) = (&json, &junit) {
            json = Some(j.with_extension("json"));
        }
        if let Some(p) = &json {
            write_atomic(p, &results.to_json())?;
        }
        if let Some(p) = &junit {
            write_atomic(p, &report::junit_xml(&results.runs))?;
        }
        if let Some(p) = &html {
            write_atomic(p, &report::html(&results.runs, &results.title))?;
        }
        for p in [&json, &junit, &html].into_iter().flatten() {
            eprintln!("wrote {}", p.display());
        }
        Ok(())
    }
}

/// 0 when every run is identical, 1 when one differs, 2 when one could not run.
pub fn exit_code(results: &Results) -> ExitCode {
    if results.runs.iter().any(|r| r.status == Status::Error) {
        ExitCode::from(2)
    } else if results.runs.iter().all(|r| r.passed()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

#[derive(Args)]
pub struct ReportArgs {
    #[command(subcommand)]
    pub command: ReportCommand,
}

#[derive(Subcommand)]
pub enum ReportCommand {
    /// Join shards' results (directories holding results.json, or results files) into one.
    Merge(MergeArgs),
}

#[derive(Args)]
pub struct MergeArgs {
    /// Shard output directories (each with a results.json) or results files.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub out: ReportOut,
}

pub fn run(args: &ReportArgs) -> Result<ExitCode> {
    match &args.command {
        ReportCommand::Merge(m) => merge_cmd(m),
    }
}

fn merge_cmd(args: &MergeArgs) -> Result<ExitCode> {
    let mut parts = Vec::new();
    for input in &args.inputs {
        let file = if input.is_dir() {
            input.join("results.json")
        } else {
            input.clone()
        };
        let r = read_results(&file).map_err(|e| anyhow!(e))?;
        parts.push((file.display().to_string(), r));
    }
    let merged = merge(&parts).map_err(|e| anyhow!(e))?;
    if merged.runs.is_empty() {
        bail!("the shards hold no runs");
    }
    for r in merged.runs.iter().filter(|r| !r.passed()) {
        println!("{} / {}: {}", r.suite, r.name, r.failure_line());
    }
    print!("{}", report::summary_table(&merged.runs));
    println!("merged {} shards", parts.len());
    args.out.write(&merged)?;
    Ok(exit_code(&merged))
}
