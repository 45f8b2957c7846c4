//! One module per subcommand.

pub mod bench;
pub mod check;
pub mod claims;
pub mod diff;
pub mod fuzz;
pub mod game_args;
pub mod interrupt;
pub mod model;
pub mod movie;
pub mod play;
pub mod report;
pub mod rom;
pub mod run;
pub mod suite;
pub mod trace;

use std::path::Path;

use anyhow::{Context, Result, bail};
use s2model::Trace;

/// Writes a trace to `output` (whole, via a temporary file; `.gz` compresses) and says where,
/// or to standard output; a reader that stops early (`| head`) is not an error.
pub fn write_trace(trace: &Trace, output: Option<&Path>) -> Result<()> {
    match output {
        Some(path) => {
            trace.write(path)?;
            eprintln!(
                "{}: {} frames, stop: {}",
                path.display(),
                trace.frames.len(),
                trace.header.stop.as_deref().unwrap_or("end")
            );
        }
        None => match trace.write_to(std::io::stdout().lock()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            r => r.context("writing the trace to standard output")?,
        },
    }
    Ok(())
}

/// `--ym2612 integrated|discrete` (`run`, `play`): whether the sound is the Model 1's discrete
/// YM2612 rather than the integrated YM3438.
pub fn parse_ym2612(chip: &str) -> Result<bool> {
    match chip {
        "integrated" => Ok(false),
        "discrete" => Ok(true),
        other => bail!("unknown --ym2612 '{other}' (integrated, discrete)"),
    }
}

/// `--timing gpgx17|gpgx2024|hardware` (`run`, `play`): the console's timing profile. The
/// default, Genesis Plus GX 1.7's, is the one everything about Sonic 2 is verified in.
pub fn parse_timing(name: &str) -> Result<megadrive::Timing> {
    match name {
        "gpgx17" => Ok(megadrive::Timing::GPGX_1_7),
        "gpgx2024" => Ok(megadrive::Timing::GPGX_2024),
        "hardware" => Ok(megadrive::Timing::HARDWARE),
        other => bail!("unknown --timing '{other}' (gpgx17, gpgx2024, hardware)"),
    }
}
