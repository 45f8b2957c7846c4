//! `s2lab trace`: run a scenario in the real game (in the emulator) and write its trace.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use s2model::terrain_scenario::AnyScenario;

use super::game_args::RomOpt;

#[derive(clap::Args)]
pub struct TraceArgs {
    #[command(flatten)]
    pub rom: RomOpt,
    /// Scenario file (JSON, formats.md §2; terrain scenarios: docs/terrain-format.md).
    pub scenario: PathBuf,
    /// Write the trace here (a name ending in .gz is compressed); default: standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &TraceArgs) -> Result<ExitCode> {
    let sc = AnyScenario::load(&args.scenario)?;
    if let AnyScenario::Built(sc) = &sc {
        for w in sc.warnings() {
            eprintln!("warning: {}: {w}", args.scenario.display());
        }
    }
    let game = args.rom.boot()?;
    let at = |e| anyhow!("{}: {e}", args.scenario.display());
    let stop = super::interrupt::flag();
    let (trace, frame_count) = match sc {
        AnyScenario::Built(sc) => (game.run_until(&sc, &stop).map_err(at)?, sc.frame_count()),
        AnyScenario::Terrain(sc) => (
            game.in_act(sc.act)
                .and_then(|g| g.run_terrain(&sc))
                .map_err(at)?,
            0,
        ),
    };
    super::write_trace(&trace, args.output.as_deref())?;
    if trace.header.stop.as_deref() == Some("interrupted") {
        eprintln!(
            "interrupted: the trace holds frames 0..{} of {}; the rest were not run",
            trace.frames.len(),
            frame_count
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
