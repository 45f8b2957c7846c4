//! `s2lab trace`: run a scenario in the real game (in the emulator) and write its trace.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};
use s2model::Scenario;

use super::game_args::RomOpt;

#[derive(clap::Args)]
pub struct TraceArgs {
    #[command(flatten)]
    pub rom: RomOpt,
    /// Scenario file (JSON, formats.md §2).
    pub scenario: PathBuf,
    /// Write the trace here (a name ending in .gz is compressed); default: standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &TraceArgs) -> Result<ExitCode> {
    let sc = Scenario::load(&args.scenario)?;
    let game = args.rom.boot()?;
    let trace = game
        .run(&sc)
        .map_err(|e| anyhow!("{}: {e}", args.scenario.display()))?;
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
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            r => r.context("writing the trace to standard output")?,
        },
    }
    Ok(ExitCode::SUCCESS)
}
