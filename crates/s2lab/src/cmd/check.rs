//! `s2lab check`: run scenarios in the game and the model and compare them, and optionally the
//! game against recorded reference traces.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use s2harness::suite_run::{Job, run_job};
use s2model::{Scenario, Trace};

use super::game_args::RomOpt;

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
        let sc = Scenario::load(path)?;
        for w in sc.warnings() {
            eprintln!("warning: {}: {w}", path.display());
        }
    }
    for path in &args.reference {
        Trace::read(path)?;
    }
    let game = args.rom.boot()?;
    let mut all_equal = true;
    for (i, scenario) in args.scenarios.iter().enumerate() {
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
