//! `s2lab model`: run the reference model on a scenario and write its trace.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use clap::Args;
use s2model::run_scenario;
use s2model::terrain_scenario::{AnyScenario, run_terrain_scenario};

use super::game_args::RomOpt;

#[derive(Args)]
pub struct ModelArgs {
    /// The ROM a terrain scenario's act is read from (once; then cached by its SHA-1 in the data
    /// directory). Stages built of blocks need no ROM.
    #[command(flatten)]
    pub rom: RomOpt,
    /// Scenario file (JSON, formats.md §2; terrain scenarios: docs/terrain-format.md).
    pub scenario: PathBuf,
    /// Write the trace here (a name ending in .gz is compressed); default: standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &ModelArgs) -> Result<ExitCode> {
    let trace = match AnyScenario::load(&args.scenario)? {
        AnyScenario::Built(sc) => {
            for w in sc.warnings() {
                eprintln!("warning: {}: {w}", args.scenario.display());
            }
            run_scenario(&sc)
        }
        AnyScenario::Terrain(sc) => {
            let (path, rom) = args.rom.read()?;
            let terrain = s2harness::terrain_cache::terrain_for(&rom, sc.act)
                .map_err(|e| anyhow!("{}: {e}", path.display()))?;
            run_terrain_scenario(&sc, &terrain)
        }
    };
    super::write_trace(&trace, args.output.as_deref())?;
    Ok(ExitCode::SUCCESS)
}
