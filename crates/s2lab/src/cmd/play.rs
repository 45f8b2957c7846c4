//! `s2lab play`: the interactive emulator (a window, sound, the keyboard as pad 1, F5/F8 save
//! states), or with `--wav FILE --frames N` a headless run that writes the sound to a WAV.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use megadrive::frontend::{InputSource, VideoSink};
use megadrive::{Machine, Options, Region};

use crate::frontend::audio::AudioOutput;
use crate::frontend::window::{GameWindow, KEYS_HELP};

#[derive(clap::Args, Debug)]
#[command(after_help = KEYS_HELP)]
pub struct PlayArgs {
    /// The cartridge image.
    pub rom: PathBuf,
    /// Window scale (1-6).
    #[arg(long, default_value_t = 3)]
    pub scale: u8,
    /// Play without sound (emulation paced to the video rate instead of the audio clock).
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
    /// Save-state file for F5/F8 (default: ROM.state beside the ROM, or under the user's
    /// data directory when that folder is not writable).
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Console region: auto (from the header), us, jp or eu.
    #[arg(long, default_value = "auto")]
    pub region: String,
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
fn game_title(m: &Machine) -> String {
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
        ..Options::default()
    };
    let mut m = Machine::new(rom, options).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(wav) = &args.wav {
        let frames = args.frames.unwrap_or(0);
        return headless_wav(&mut m, wav, frames, args.rate);
    }
    interactive(&mut m, args)
}

/// Runs `frames` frames and writes their sound.
fn headless_wav(m: &mut Machine, path: &Path, frames: u64, rate: u32) -> anyhow::Result<ExitCode> {
    m.enable_audio(rate);
    let rate = m.audio_rate().unwrap_or(rate);
    let mut samples = Vec::new();
    let start = Instant::now();
    for _ in 0..frames {
        m.run_frame();
        m.take_audio(&mut samples);
    }
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

/// Where F5 saves: the chosen file, else beside the ROM, else the data directory.
fn state_paths(args: &PlayArgs) -> Vec<PathBuf> {
    if let Some(p) = &args.state {
        return vec![p.clone()];
    }
    let name = args
        .rom
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "rom".into());
    let mut paths = vec![args.rom.with_file_name(format!("{name}.state"))];
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")));
    if let Some(d) = data {
        paths.push(d.join("s2lab").join("states").join(format!("{name}.state")));
    }
    paths
}

fn save_state(m: &Machine, paths: &[PathBuf]) -> anyhow::Result<PathBuf> {
    let bytes = m.save_state();
    let mut last = None;
    for p in paths {
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(dir);
        }
        match outfile::write(p, &bytes) {
            Ok(()) => return Ok(p.clone()),
            Err(e) => last = Some(anyhow::anyhow!("cannot write {}: {e}", p.display())),
        }
    }
    Err(last.unwrap_or_else(|| anyhow::anyhow!("no place to save the state")))
}

fn load_state(m: &mut Machine, paths: &[PathBuf]) -> anyhow::Result<PathBuf> {
    let Some(p) = paths.iter().find(|p| p.is_file()) else {
        bail!("no saved state yet (press F5 first)");
    };
    let bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
    m.load_state(&bytes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
    Ok(p.clone())
}

fn interactive(m: &mut Machine, args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let title = format!("{} - s2lab", game_title(m));
    let mut window = GameWindow::open(&title, args.scale)?;
    let mut audio = if args.no_audio {
        None
    } else {
        Some(AudioOutput::open()?)
    };
    if let Some(a) = &audio {
        m.enable_audio(a.rate);
    }
    let paths = state_paths(args);
    let frame_time = Duration::from_secs_f64(if m.region.pal { 1.0 / 50.0 } else { 1.0 / 60.0 });
    let started = Instant::now();
    let mut next = started;
    let mut frames = 0u64;
    while window.is_open() {
        let keys = window.hot_keys();
        if keys.quit {
            break;
        }
        if keys.save {
            match save_state(m, &paths) {
                Ok(p) => eprintln!("state saved to {}", p.display()),
                Err(e) => eprintln!("save failed: {e:#}"),
            }
        }
        if keys.load {
            match load_state(m, &paths) {
                Ok(p) => eprintln!("state loaded from {}", p.display()),
                Err(e) => eprintln!("load failed: {e:#}"),
            }
        }
        let pads = window.pads(m.frame_count + 1);
        m.set_pad(0, pads[0]);
        m.run_frame();
        frames += 1;
        window.frame(&m.frame_buffer());
        // Pacing: the wall clock at the video rate, nudged by the audio buffer's fill level
        // (frames 10% shorter while it holds under one frame, 10% longer over three, and a
        // hard wait over six), so the device's clock wins in the long run and the buffer
        // absorbs the drift.
        let mut this_frame = frame_time;
        if let Some(a) = &mut audio {
            m.drain_audio(a);
            let frame_samples = a.rate as usize / 60;
            while a.buffered_frames() > 6 * frame_samples && window.is_open() {
                std::thread::sleep(Duration::from_millis(1));
                next = Instant::now();
            }
            let fill = a.buffered_frames();
            if fill < frame_samples {
                this_frame = frame_time * 9 / 10;
            } else if fill > 3 * frame_samples {
                this_frame = frame_time * 11 / 10;
            }
        }
        next += this_frame;
        let now = Instant::now();
        if next > now {
            std::thread::sleep(next - now);
        } else if now > next + frame_time * 4 {
            next = now;
        }
        if args.frames.is_some_and(|n| frames >= n) {
            break;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{frames} frames in {secs:.1} s ({:.1} fps){}",
        frames as f64 / secs.max(1e-9),
        audio
            .as_ref()
            .map(|a| format!(", audio at {} Hz, {} underruns", a.rate, a.underruns()))
            .unwrap_or_default()
    );
    Ok(ExitCode::SUCCESS)
}
