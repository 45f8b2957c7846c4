//! `s2lab model`: run the reference model on a scenario and write its trace.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use s2model::{Scenario, run_scenario};

#[derive(Args)]
pub struct ModelArgs {
    /// Scenario file (JSON, formats.md §2).
    pub scenario: PathBuf,
    /// Write the trace here (a name ending in .gz is compressed); default: standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &ModelArgs) -> Result<ExitCode> {
    let sc = Scenario::load(&args.scenario)?;
    for w in sc.warnings() {
        eprintln!("warning: {}: {w}", args.scenario.display());
    }
    let trace = run_scenario(&sc);
    super::write_trace(&trace, args.output.as_deref())?;
    Ok(ExitCode::SUCCESS)
}
