//! `s2lab run`: power on a cartridge headless, feed it an input script, and record RAM traces
//! and frames.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use megadrive::{CpuBackend, Machine, Mode, Options, Region, input_script};

use crate::frontend::recorder::{self, Start};

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The cartridge image.
    pub rom: PathBuf,
    /// Frames to run (frame 1 is the first after power-on).
    #[arg(long)]
    pub frames: u64,
    /// Input script for pad 1 (shared/docs/formats.md §1); script frame k applies to frame k.
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Write the picture at the end of frame FRAME as PNG: FRAME:PATH (repeatable).
    #[arg(long, value_name = "FRAME:PATH")]
    pub png: Vec<String>,
    /// Trace a RAM value after every frame: NAME:ADDR:TYPE with ADDR in hex ($FFF600,
    /// 0xFFF600 or FFF600) and TYPE u8, u16, s16 or u32 (repeatable).
    #[arg(long = "trace-ram", value_name = "NAME:ADDR:TYPE")]
    pub trace_ram: Vec<String>,
    /// Where the CSV trace goes (standard output when absent).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Console region: auto (from the header), us, jp or eu.
    #[arg(long, default_value = "auto")]
    pub region: String,
    /// Start from this save state (made from the same ROM) instead of power-on (`--state`
    /// is the same option).
    #[arg(long, value_name = "FILE", alias = "state")]
    pub load_state: Option<PathBuf>,
    /// Write a save state after the last frame.
    #[arg(long, value_name = "FILE")]
    pub save_state: Option<PathBuf>,
    /// The console's 68000: ours (the default) or m68k (the pinned crate, to cross-check).
    #[arg(long, default_value = "ours")]
    pub cpu: CpuBackend,
    /// Write the sound of the whole run to this WAV file (16-bit stereo at --wav-rate); the
    /// game runs the same with or without it.
    #[arg(long, value_name = "FILE")]
    pub wav: Option<PathBuf>,
    /// Sample rate of the --wav file in Hz.
    #[arg(long, default_value_t = 48_000, value_name = "HZ")]
    pub wav_rate: u32,
    /// The FM chip heard in the --wav file: integrated (the YM3438 in later consoles' ASIC,
    /// the default) or discrete (the Model 1's YM2612, with its DAC's ladder distortion).
    #[arg(long, default_value = "integrated", value_name = "CHIP")]
    pub ym2612: String,
    /// Timing profile: gpgx17 (Genesis Plus GX 1.7, the default, in which Sonic 2 is verified),
    /// gpgx2024 (later Genesis Plus GX) or hardware (what hardware measurements show where
    /// Genesis Plus GX differs: VDP port accesses at their own bus cycle, FIFO waits).
    #[arg(long, default_value = "gpgx17", value_name = "PROFILE")]
    pub timing: String,
}

/// The longest run: what an input script may hold.
const MAX_FRAMES: u64 = input_script::MAX_SCRIPT_FRAMES as u64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    U8,
    U16,
    S16,
    U32,
}

#[derive(Clone, Debug)]
struct TraceField {
    name: String,
    addr: u32,
    kind: Kind,
}

fn parse_addr(s: &str) -> anyhow::Result<u32> {
    let t = s
        .trim()
        .trim_start_matches('$')
        .trim_start_matches("0x")
        .trim_start_matches("0X");
    let v = u32::from_str_radix(t, 16).with_context(|| format!("bad address '{s}'"))?;
    if v > 0xFF_FFFF {
        bail!("address '{s}' is outside the 68000's 24-bit space");
    }
    Ok(v)
}

fn parse_field(spec: &str) -> anyhow::Result<TraceField> {
    let parts: Vec<&str> = spec.split(':').collect();
    let [name, addr, kind] = parts[..] else {
        bail!("--trace-ram wants NAME:ADDR:TYPE, got '{spec}'");
    };
    if name.is_empty() || name.contains(',') {
        bail!("bad trace name '{name}' in '{spec}'");
    }
    let kind = match kind {
        "u8" => Kind::U8,
        "u16" => Kind::U16,
        "s16" => Kind::S16,
        "u32" => Kind::U32,
        other => bail!("unknown type '{other}' in '{spec}' (u8, u16, s16, u32)"),
    };
    Ok(TraceField {
        name: name.to_string(),
        addr: parse_addr(addr)?,
        kind,
    })
}

fn parse_png(spec: &str) -> anyhow::Result<(u64, PathBuf)> {
    let (frame, path) = spec
        .split_once(':')
        .with_context(|| format!("--png wants FRAME:PATH, got '{spec}'"))?;
    let frame: u64 = frame
        .parse()
        .with_context(|| format!("bad frame number in '{spec}'"))?;
    if frame == 0 {
        bail!("frames count from 1 in '{spec}'");
    }
    Ok((frame, PathBuf::from(path)))
}

fn read_value(m: &Machine, f: &TraceField) -> String {
    match f.kind {
        Kind::U8 => m.read_u8(f.addr).to_string(),
        Kind::U16 => m.read_u16(f.addr).to_string(),
        Kind::S16 => (m.read_u16(f.addr) as i16).to_string(),
        Kind::U32 => m.read_u32(f.addr).to_string(),
    }
}

fn write_png(m: &Machine, path: &Path) -> anyhow::Result<()> {
    crate::frontend::screenshot::write_png(&m.frame_buffer(), path)
}

/// One frame of a headless run: pad 1 from the script (frame 1 is the script's first entry;
/// nothing held past its end), then the frame. `s2lab play`'s recordings replay through this.
pub fn run_script_frame(m: &mut Machine, input: &[u16], frame: u64) {
    m.set_pad(0, input.get(frame as usize - 1).copied().unwrap_or(0));
    m.run_frame();
}

pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let rom =
        std::fs::read(&args.rom).with_context(|| format!("reading {}", args.rom.display()))?;
    if args.frames > MAX_FRAMES {
        bail!(
            "--frames {} is more than {MAX_FRAMES} (about 4.8 hours of play)",
            args.frames
        );
    }
    let discrete_ym2612 = super::parse_ym2612(&args.ym2612)?;
    let timing = super::parse_timing(&args.timing)?;
    let region = match args.region.as_str() {
        "auto" => None,
        "us" => Some(Region::USA),
        "jp" => Some(Region::JAPAN),
        "eu" => Some(Region::EUROPE),
        other => bail!("unknown region '{other}' (auto, us, jp, eu)"),
    };
    let input = match &args.input {
        Some(p) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            // A recording made from a state says so in its header (`s2lab play`); run from
            // power-on it would replay into another game.
            if args.load_state.is_none()
                && let Ok(Some(Start::State(s))) = recorder::header_start(&text)
            {
                eprintln!(
                    "warning: {} was recorded from the save state {} (its header says so); \
                     without --load-state it runs from power-on",
                    p.display(),
                    s.display()
                );
            }
            input_script::parse(&text).with_context(|| p.display().to_string())?
        }
        None => Vec::new(),
    };
    let fields = args
        .trace_ram
        .iter()
        .map(|s| parse_field(s))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let pngs = args
        .png
        .iter()
        .map(|s| parse_png(s))
        .collect::<anyhow::Result<Vec<_>>>()?;

    let state = match &args.load_state {
        Some(p) => Some(std::fs::read(p).with_context(|| format!("reading {}", p.display()))?),
        None => None,
    };

    let mut machine = Machine::new(
        rom,
        Options {
            region,
            cpu: args.cpu,
            discrete_ym2612,
            timing,
            ..Options::default()
        },
    )
    .map_err(|e| anyhow::anyhow!("{}: {e}", args.rom.display()))?;
    if let (Some(p), Some(bytes)) = (&args.load_state, &state) {
        machine
            .load_state(bytes)
            .map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
    }
    // Pictures only when one is asked for; the game runs the same either way.
    if pngs.is_empty() {
        machine.set_mode(Mode::Headless);
    }
    let mut sound = Vec::new();
    if args.wav.is_some() {
        machine.enable_audio(args.wav_rate);
    }

    // The CSV goes to the file whole at the end (nothing half-written if the run is cut
    // short), or streams to standard output.
    let mut csv = String::new();
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut emit = |line: String, csv: &mut String| -> anyhow::Result<()> {
        if args.output.is_some() {
            csv.push_str(&line);
        } else {
            stdout.write_all(line.as_bytes())?;
        }
        Ok(())
    };
    if !fields.is_empty() {
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        emit(format!("frame,{}\n", names.join(",")), &mut csv)?;
    }
    let mut halted_in = None;
    let interrupt = super::interrupt::flag();
    let mut ran = 0;
    for frame in 1..=args.frames {
        if interrupt.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        run_script_frame(&mut machine, &input, frame);
        machine.take_audio_ready(&mut sound);
        ran = frame;
        if halted_in.is_none() && machine.halted() {
            halted_in = Some(frame);
        }
        if !fields.is_empty() {
            let values: Vec<String> = fields.iter().map(|f| read_value(&machine, f)).collect();
            emit(format!("{frame},{}\n", values.join(",")), &mut csv)?;
        }
        for (_, path) in pngs.iter().filter(|(f, _)| *f == frame) {
            write_png(&machine, path)?;
        }
    }
    // The sound not taken yet (the sound thread's last batches and the calls not shipped).
    machine.take_audio(&mut sound);
    stdout.flush()?;
    if let Some(p) = &args.output {
        outfile::write(p, &csv).with_context(|| format!("writing {}", p.display()))?;
    }
    if let Some(p) = &args.wav {
        let rate = machine.audio_rate().unwrap_or(args.wav_rate);
        super::play::write_wav(p, rate, &sound)?;
    }
    if let Some(p) = &args.save_state {
        outfile::write(p, machine.save_state())
            .with_context(|| format!("writing {}", p.display()))?;
    }
    if let Some(frame) = halted_in {
        eprintln!(
            "{}: the 68000 halted on a double bus fault in frame {frame} (PC ${:06X}); the rest \
             of the console ran on to frame {ran}",
            args.rom.display(),
            machine.cpu.pc() & 0xFF_FFFF
        );
    }
    if ran < args.frames {
        eprintln!(
            "interrupted: ran {ran} of {} frames; frames {}..={} were not run",
            args.frames,
            ran + 1,
            args.frames
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_specs() {
        let f = parse_field("mode:$FFF600:u8").unwrap();
        assert_eq!((f.addr, f.kind), (0xFFF600, Kind::U8));
        assert_eq!(parse_field("x:0xFFB008:s16").unwrap().kind, Kind::S16);
        assert!(parse_field("x:FFB008").is_err());
        assert!(parse_field("x:FFB008:f32").is_err());
        assert_eq!(parse_png("12:a.png").unwrap().0, 12);
        assert!(parse_png("0:a.png").is_err());
    }
}
