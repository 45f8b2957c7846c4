//! `s2lab run`: power on a cartridge headless, feed it an input script, and record RAM traces
//! and frames.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use megadrive::{CpuBackend, Machine, Options, Region, input_script};

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
    /// The console's 68000: ours (the default) or m68k (the pinned crate, to cross-check).
    #[arg(long, default_value = "ours")]
    pub cpu: CpuBackend,
}

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
    let frame = m.frame_buffer();
    let file =
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut enc = png::Encoder::new(
        std::io::BufWriter::new(file),
        frame.width as u32,
        frame.height as u32,
    );
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header()?;
    let data: Vec<u8> = frame
        .to_rgb()
        .into_iter()
        .flat_map(|p| [(p >> 16) as u8, (p >> 8) as u8, p as u8])
        .collect();
    w.write_image_data(&data)?;
    Ok(())
}

pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let rom =
        std::fs::read(&args.rom).with_context(|| format!("reading {}", args.rom.display()))?;
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
            input_script::parse(&text).with_context(|| format!("in {}", p.display()))?
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

    let mut machine = Machine::new(
        rom,
        Options {
            region,
            cpu: args.cpu,
            ..Options::default()
        },
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;

    let mut out: Box<dyn Write> = match &args.output {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    if !fields.is_empty() {
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        writeln!(out, "frame,{}", names.join(","))?;
    }
    for frame in 1..=args.frames {
        machine.set_pad(0, input.get(frame as usize - 1).copied().unwrap_or(0));
        machine.run_frame();
        if !fields.is_empty() {
            let values: Vec<String> = fields.iter().map(|f| read_value(&machine, f)).collect();
            writeln!(out, "{frame},{}", values.join(","))?;
        }
        for (_, path) in pngs.iter().filter(|(f, _)| *f == frame) {
            write_png(&machine, path)?;
        }
    }
    out.flush()?;
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
