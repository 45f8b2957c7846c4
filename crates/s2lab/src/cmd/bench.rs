//! `s2lab bench`: how fast the model, the console (in each mode) and the harness run on this
//! machine. The console figure is the one `tools/bench-vs-gpgx.py` sets beside Genesis Plus GX:
//! Sonic 2 from power-on through the benchmark script (`tools/bench/sonic2-ehz1.txt`: boot,
//! then Emerald Hill play), one core.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use megadrive::{CpuBackend, Machine, Mode, Options};
use s2harness::store;
use s2model::{Scenario, Stage, step};

/// The benchmark input: 3,600 frames (boot, then Emerald Hill Act 1 play).
pub const BENCH_SCRIPT: &str = include_str!("../../../../tools/bench/sonic2-ehz1.txt");

#[derive(clap::Args)]
pub struct BenchArgs {
    /// A Sonic 2 ROM for the console and harness figures (default: $S2_ROM or the store's Rev B;
    /// without one only the model is measured). Any cartridge runs with `--mode`.
    #[arg(long)]
    pub rom: Option<PathBuf>,
    /// Measure only the console, in this mode: full (pictures and sound), video or headless
    /// (repeatable). Without it: the model, the console in every mode, and the harness.
    #[arg(long, value_parser = parse_mode)]
    pub mode: Vec<Mode>,
    /// Frames of the console run (past the script's 3,600 nothing is held).
    #[arg(long, default_value_t = 3600)]
    pub frames: u64,
    /// Seconds to spend on the model and harness measurements.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// The console's 68000: ours (the default) or m68k (the pinned crate, to cross-check).
    #[arg(long, default_value = "ours")]
    pub cpu: CpuBackend,
    /// Synthesise sound on the emulation thread instead of a second one (`full`; the same
    /// samples either way).
    #[arg(long)]
    pub one_thread: bool,
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    s.parse()
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

/// Runs `rom` from power-on for `frames` frames of the bench script in `mode`, taking the sound
/// every frame as a frontend would; returns the seconds spent (power-on excluded).
pub fn console_seconds(
    rom: &[u8],
    mode: Mode,
    cpu: CpuBackend,
    one_thread: bool,
    frames: u64,
    script: &[u16],
) -> Result<f64> {
    let options = Options {
        cpu,
        ..Options::default()
    };
    let mut m = Machine::new(rom.to_vec(), options).map_err(|e| anyhow!("{e}"))?;
    m.set_sound_thread(!one_thread);
    m.set_mode(mode);
    let mut audio = Vec::with_capacity(8192);
    let start = Instant::now();
    for k in 0..frames as usize {
        m.set_pad(0, script.get(k).copied().unwrap_or(0));
        m.run_frame();
        audio.clear();
        m.take_audio_ready(&mut audio);
        std::hint::black_box(&audio);
    }
    audio.clear();
    m.take_audio(&mut audio);
    std::hint::black_box(&audio);
    let seconds = start.elapsed().as_secs_f64();
    std::hint::black_box(m.read_u8(0xFF_F600));
    Ok(seconds)
}

fn print_console(mode: Mode, frames: u64, seconds: f64) {
    // tools/bench-vs-gpgx.py reads this line.
    println!(
        "console {mode}: {frames} frames in {seconds:.3} s ({:.0} frames/s, {:.1}x a 60 Hz console)",
        frames as f64 / seconds,
        frames as f64 / seconds / 60.0
    );
}

pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let script = megadrive::input_script::parse(BENCH_SCRIPT).map_err(|e| anyhow!("{e}"))?;
    if !args.mode.is_empty() {
        let path = store::locate(args.rom.as_deref(), "revb").map_err(|e| anyhow!(e))?;
        let rom = std::fs::read(&path).map_err(|e| anyhow!("{}: {e}", path.display()))?;
        for &mode in &args.mode {
            let seconds =
                console_seconds(&rom, mode, args.cpu, args.one_thread, args.frames, &script)?;
            print_console(mode, args.frames, seconds);
        }
        return Ok(ExitCode::SUCCESS);
    }

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
    println!("model: {:.0} frames/s (one core)", model_fps);

    let path = match store::locate(args.rom.as_deref(), "revb") {
        Ok(p) => p,
        Err(e) => {
            println!("console: skipped ({e})");
            return Ok(ExitCode::SUCCESS);
        }
    };
    let rom = store::read_rom(&path).map_err(|e| anyhow!(e))?;
    for mode in Mode::ALL {
        let seconds = console_seconds(
            &rom.bytes,
            mode,
            args.cpu,
            args.one_thread,
            args.frames,
            &script,
        )?;
        print_console(mode, args.frames, seconds);
    }

    let game = s2harness::game::Game::boot_with_cpu(&rom, args.cpu).map_err(|e| anyhow!("{e}"))?;
    let game_fps = rate(budget, || {
        let trace = game.run(&sc).expect("the bench scenario runs");
        trace.frames.len() as u64
    });
    println!(
        "harness: {:.0} frames/s (scenario in the game, headless, sampled every frame, one core)",
        game_fps
    );
    Ok(ExitCode::SUCCESS)
}
