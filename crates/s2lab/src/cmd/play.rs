//! `s2lab play`: the interactive emulator (a window, sound, keyboard and gamepads, the lab's
//! controls; `crate::frontend`), or with `--wav FILE --frames N` a headless run that writes
//! the sound to a WAV.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use megadrive::{Machine, Options, Region};

use crate::frontend::play_loop;
use crate::frontend::scale::Aspect;

#[derive(clap::Args, Debug)]
#[command(after_help = crate::frontend::bindings::help_text())]
pub struct PlayArgs {
    /// The cartridge image.
    pub rom: PathBuf,
    /// Window scale (1-6): console lines per window pixel row; the window may be resized.
    #[arg(long, default_value_t = 3)]
    pub scale: u8,
    /// Pixel aspect: tv (the console's pixels as a 4:3 TV shows them) or square.
    #[arg(long, default_value = "tv")]
    pub aspect: String,
    /// Play without sound (emulation paced by the video clock). Without an audio device
    /// play goes on silently the same way, with one warning.
    #[arg(long)]
    pub no_audio: bool,
    /// Headless: write the sound of --frames frames to this WAV file (16-bit stereo) and
    /// exit; no window, no audio device.
    #[arg(long, value_name = "FILE", requires = "frames")]
    pub wav: Option<PathBuf>,
    /// Frames to run (with --wav: required; with a window: quit after that many).
    #[arg(long)]
    pub frames: Option<u64>,
    /// Sample rate of the --wav file.
    #[arg(long, default_value_t = 48_000)]
    pub rate: u32,
    /// Start from this save state (a slot file or `s2lab run --save-state`) instead of
    /// power-on; with --replay, the state the script starts from.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Replay pad 1 from this input script (a recording's header names its start state;
    /// --state overrides it); when it ends, pad 1 is yours.
    #[arg(long, value_name = "SCRIPT", conflicts_with = "record")]
    pub replay: Option<PathBuf>,
    /// Record pad 1 from the start (power-on, or --state) to this input script.
    #[arg(long, value_name = "SCRIPT")]
    pub record: Option<PathBuf>,
    /// Key bindings file (default: play.toml in the user's config directory, written with
    /// the defaults on first run).
    #[arg(long, value_name = "FILE")]
    pub bindings: Option<PathBuf>,
    /// Start with the lab overlay shown.
    #[arg(long)]
    pub overlay: bool,
    /// Start paused (frame advance steps from power-on or the start state).
    #[arg(long)]
    pub paused: bool,
    /// Once a second, print the sound buffer's fill (min/max/mean in ms), the underruns so
    /// far and the emulated speed against the wall clock.
    #[arg(long)]
    pub verbose: bool,
    /// Console region: auto (from the header), us, jp or eu.
    #[arg(long, default_value = "auto")]
    pub region: String,
    /// The FM chip heard: integrated (the YM3438 in later consoles' ASIC, the default) or
    /// discrete (the Model 1's YM2612, with its DAC's ladder distortion).
    #[arg(long, default_value = "integrated", value_name = "CHIP")]
    pub ym2612: String,
    /// Timing profile: gpgx17 (the default), gpgx2024 or hardware, as for `run`.
    #[arg(long, default_value = "gpgx17", value_name = "PROFILE")]
    pub timing: String,
}

fn parse_region(s: &str) -> anyhow::Result<Option<Region>> {
    Ok(match s {
        "auto" => None,
        "us" => Some(Region::USA),
        "jp" => Some(Region::JAPAN),
        "eu" => Some(Region::EUROPE),
        other => bail!("unknown region '{other}' (auto, us, jp, eu)"),
    })
}

/// The cartridge's overseas title from its header (domestic one as a fallback).
pub fn game_title(m: &Machine) -> String {
    let read = |at: u32| -> String {
        let bytes: Vec<u8> = (at..at + 48).map(|a| m.read_u8(a)).collect();
        let s: String = bytes
            .iter()
            .map(|&b| if b.is_ascii_graphic() { b as char } else { ' ' })
            .collect();
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let overseas = read(0x150);
    if overseas.is_empty() {
        read(0x120)
    } else {
        overseas
    }
}

pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let rom = std::fs::read(&args.rom)
        .with_context(|| format!("cannot read ROM {}", args.rom.display()))?;
    let options = Options {
        region: parse_region(&args.region)?,
        discrete_ym2612: super::parse_ym2612(&args.ym2612)?,
        timing: super::parse_timing(&args.timing)?,
        ..Options::default()
    };
    if let Some(wav) = &args.wav {
        let mut m = Machine::new(rom, options).map_err(|e| anyhow::anyhow!("{e}"))?;
        let frames = args.frames.unwrap_or(0);
        return headless_wav(&mut m, wav, frames, args.rate);
    }
    let aspect = match args.aspect.as_str() {
        "tv" => Aspect::Tv,
        "square" => Aspect::Square,
        other => bail!("unknown --aspect '{other}' (tv or square)"),
    };
    play_loop::run(args, rom, options, aspect)
}

/// Runs `frames` frames and writes their sound.
fn headless_wav(m: &mut Machine, path: &Path, frames: u64, rate: u32) -> anyhow::Result<ExitCode> {
    m.enable_audio(rate);
    let rate = m.audio_rate().unwrap_or(rate);
    let mut samples = Vec::new();
    let start = Instant::now();
    for _ in 0..frames {
        m.run_frame();
        m.take_audio_ready(&mut samples);
    }
    // The rest (the sound thread's last batches and what was not shipped to it).
    m.take_audio(&mut samples);
    let secs = start.elapsed().as_secs_f64();
    write_wav(path, rate, &samples)?;
    eprintln!(
        "{frames} frames in {secs:.2} s ({:.0} fps), {} stereo samples at {rate} Hz -> {}",
        frames as f64 / secs.max(1e-9),
        samples.len() / 2,
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A 16-bit PCM stereo WAV.
pub fn write_wav(path: &Path, rate: u32, samples: &[i16]) -> anyhow::Result<()> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&2u16.to_le_bytes()); // channels
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 4).to_le_bytes());
    out.extend_from_slice(&4u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    outfile::write(path, &out).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
