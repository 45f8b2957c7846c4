//! `s2lab check`: run scenarios in the game and the model and compare them, and optionally the
//! game against recorded reference traces.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use s2harness::suite_run::{Job, run_job};
use s2model::Trace;

use super::game_args::RomOpt;
use s2harness::game::Game;
use s2model::terrain_scenario::{AnyScenario, TerrainScenario, run_terrain_scenario_with_layers};

/// A terrain scenario (docs/terrain-format.md): the game in the scenario's act against the model
/// on the act's terrain read from the same game, every compared field and the collision layer.
fn check_terrain(
    args: &CheckArgs,
    game: &Game,
    path: &std::path::Path,
    sc: &TerrainScenario,
    reference: Option<&std::path::Path>,
) -> Result<bool> {
    let at = |e: s2harness::game::HarnessError| anyhow::anyhow!("{}: {e}", path.display());
    let (_, rom) = args.rom.read()?;
    let act = game.in_act(sc.act).map_err(at)?;
    let terrain = act.read_terrain(&rom).map_err(at)?;
    let (g, gl) = act.run_terrain_with_layers(sc).map_err(at)?;
    let (m, ml) = run_terrain_scenario_with_layers(sc, &terrain);
    let d = s2model::diff(&g, &m);
    let layer = (0..gl.len().min(ml.len())).find(|&k| gl[k] != ml[k]);
    let mut reference_equal = true;
    if let Some(r) = reference {
        let rd = s2model::diff(&Trace::read(r)?, &g);
        reference_equal = rd.is_equal();
        if reference_equal {
            println!(
                "{}: reference vs game: identical, {} frames",
                sc.name,
                g.frames.len()
            );
        } else {
            println!("{}: reference vs game: DIFFERENT\n{rd}", sc.name);
        }
    }
    if d.is_equal() && layer.is_none() {
        println!(
            "{}: model vs game: identical, {} frames (and collision layers)",
            sc.name,
            g.frames.len()
        );
        return Ok(reference_equal);
    }
    if !d.is_equal() {
        println!("{}: model vs game: DIFFERENT\n{d}", sc.name);
    }
    if let Some(k) = layer {
        println!(
            "{}: collision layer differs at frame {k}: game ${:02X}, model ${:02X}",
            sc.name, gl[k], ml[k]
        );
    }
    Ok(false)
}

#[derive(clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub rom: RomOpt,
    /// Scenario files.
    #[arg(required = true)]
    pub scenarios: Vec<PathBuf>,
    /// Reference traces, one per scenario in the same order (e.g. MAME recordings).
    #[arg(long, num_args = 1..)]
    pub reference: Vec<PathBuf>,
}

pub fn run(args: &CheckArgs) -> Result<ExitCode> {
    if !args.reference.is_empty() && args.reference.len() != args.scenarios.len() {
        bail!(
            "{} scenarios but {} reference traces: give one reference per scenario, in order",
            args.scenarios.len(),
            args.reference.len()
        );
    }
    // Every input is read and checked before the game boots: a typo costs no boot.
    for path in &args.scenarios {
        // Either format: terrain scenarios (format 2, e.g. `fuzz --kind terrain` cases) too.
        if let AnyScenario::Built(sc) = AnyScenario::load(path)? {
            for w in sc.warnings() {
                eprintln!("warning: {}: {w}", path.display());
            }
        }
    }
    for path in &args.reference {
        Trace::read(path)?;
    }
    let game = args.rom.boot()?;
    let mut all_equal = true;
    for (i, scenario) in args.scenarios.iter().enumerate() {
        if let AnyScenario::Terrain(sc) = AnyScenario::load(scenario)? {
            let reference = args.reference.get(i).map(PathBuf::as_path);
            all_equal &= check_terrain(args, &game, scenario, &sc, reference)?;
            continue;
        }
        let job = Job {
            suite: "check".into(),
            scenario: scenario.clone(),
            reference: args.reference.get(i).cloned(),
        };
        let o = run_job(&game, &job);
        if let Some(e) = &o.error {
            bail!("{}: {e}", scenario.display());
        }
        let frames = o.frames();
        let show = |what: &str, d: &Option<s2model::DiffReport>| {
            if let Some(d) = d {
                if d.is_equal() {
                    println!("{}: {what}: identical, {frames} frames", o.name);
                } else {
                    println!("{}: {what}: DIFFERENT\n{d}", o.name);
                }
            }
        };
        show("model vs game", &o.vs_model);
        show("reference vs game", &o.vs_reference);
        all_equal &= o.passed();
    }
    Ok(if all_equal {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
