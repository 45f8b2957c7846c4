//! `s2lab trace`: run a scenario in the real game (in the emulator) and write its trace.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
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
    for w in sc.warnings() {
        eprintln!("warning: {}: {w}", args.scenario.display());
    }
    let game = args.rom.boot()?;
    let stop = super::interrupt::flag();
    let trace = game
        .run_until(&sc, &stop)
        .map_err(|e| anyhow!("{}: {e}", args.scenario.display()))?;
    super::write_trace(&trace, args.output.as_deref())?;
    if trace.header.stop.as_deref() == Some("interrupted") {
        eprintln!(
            "interrupted: the trace holds frames 0..{} of {}; the rest were not run",
            trace.frames.len(),
            sc.frame_count()
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
