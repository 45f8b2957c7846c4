//! `s2lab model`: run the reference model on a scenario and write its trace.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
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
    let trace = run_scenario(&sc);
    match &args.output {
        Some(path) => {
            trace.write(path)?;
            eprintln!(
                "{}: {} frames, stop: {}",
                path.display(),
                trace.frames.len(),
                trace.header.stop.as_deref().unwrap_or("end")
            );
        }
        None => match trace.write_to(std::io::stdout().lock()) {
            // A reader that stops early (`| head`) is not an error of ours.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            r => r.context("writing the trace to standard output")?,
        },
    }
    Ok(ExitCode::SUCCESS)
}
