//! `s2lab bench`: how fast the model, the console and the harness run on this machine.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use megadrive::{CpuBackend, Machine, Options};
use s2harness::store;
use s2model::{Scenario, Stage, step};

/// The boot script of the measurements: SEGA screen, title, Emerald Hill, run and jump.
const BOOT_SCRIPT: &str = ".*419 S*4 .*276 S*4 .*96 S*4 .*196 R*200 \
    RC*30 R*30 RC*30 R*30 RC*30 R*30 RC*30 R*30 RC*30 R*30 RC";

#[derive(clap::Args)]
pub struct BenchArgs {
    /// A Sonic 2 ROM for the console and harness figures (default: $S2_ROM or the store's Rev B;
    /// without one only the model is measured).
    #[arg(long)]
    pub rom: Option<PathBuf>,
    /// Seconds to spend on each measurement.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// The console's 68000: ours (the default) or m68k (the pinned crate, to cross-check).
    #[arg(long, default_value = "ours")]
    pub cpu: CpuBackend,
}

/// Repeats `f` (which returns frames done) for about `budget`; returns frames per second.
fn rate(budget: Duration, mut f: impl FnMut() -> u64) -> f64 {
    let start = Instant::now();
    let mut frames = 0u64;
    while start.elapsed() < budget {
        frames += f();
    }
    frames as f64 / start.elapsed().as_secs_f64()
}

pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let budget = Duration::from_secs_f64(args.seconds);
    // The model: a random 1,800-frame script on flat ground, stepped without allocation.
    let sc: Scenario = s2harness::suites::random::random_flat(2_000, "bench");
    let stage: Stage = sc.stage();
    let model_fps = rate(budget, || {
        let mut s = sc.initial_state();
        for &held in &sc.input {
            step(&mut s, &stage, held);
        }
        std::hint::black_box(&s);
        sc.input.len() as u64
    });
    println!("model:    {:>12.0} frames/s (one core)", model_fps);

    let path = match store::locate(args.rom.as_deref(), "revb") {
        Ok(p) => p,
        Err(e) => {
            println!("console:  skipped ({e})");
            return Ok(ExitCode::SUCCESS);
        }
    };
    let rom = store::read_rom(&path).map_err(|e| anyhow!(e))?;
    let script = megadrive::input_script::parse(BOOT_SCRIPT).map_err(|e| anyhow!("{e}"))?;
    let console_fps = rate(budget, || {
        let options = Options {
            cpu: args.cpu,
            ..Options::default()
        };
        let mut m = Machine::new(rom.bytes.clone(), options).expect("checked ROM");
        for &pad in &script {
            m.set_pad(0, pad);
            m.run_frame();
        }
        script.len() as u64
    });
    println!(
        "console:  {:>12.0} frames/s ({:.1}x a 60 Hz console; Sonic 2 boot script, {} frames, with video; 68000: {})",
        console_fps,
        console_fps / 60.0,
        script.len(),
        args.cpu
    );

    let game = s2harness::game::Game::boot_with_cpu(&rom, args.cpu).map_err(|e| anyhow!("{e}"))?;
    let game_fps = rate(budget, || {
        let trace = game.run(&sc).expect("the bench scenario runs");
        trace.frames.len() as u64
    });
    println!(
        "harness:  {:>12.0} frames/s (scenario in the game, sampled every frame, one core)",
        game_fps
    );
    Ok(ExitCode::SUCCESS)
}
