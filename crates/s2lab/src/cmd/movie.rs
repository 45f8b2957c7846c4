//! `s2lab movie`: BizHawk `.bk2` and Gens `.gmv` movies to input scripts and back
//! (`crates/movie`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use s2harness::rom::RomDb;

#[derive(Args)]
pub struct MovieArgs {
    #[command(subcommand)]
    command: MovieCommand,
}

#[derive(Subcommand)]
enum MovieCommand {
    /// A BizHawk .bk2 or Gens .gmv movie of Sonic 2 as an input script (pad 1, from power-on).
    Import {
        /// The movie (.bk2 or .gmv; other names are recognised by their first bytes).
        file: PathBuf,
        /// Where the script goes (standard output when absent).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
    },
    /// An input script as a BizHawk .bk2 for Genesis Plus GX (two 6-button pads, from power-on).
    Export {
        /// The input script.
        script: PathBuf,
        /// The .bk2 to write.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// The Sonic 2 revision the movie is for (its No-Intro name and SHA-1 go in the
        /// header): rev00, reva or revb.
        #[arg(long, default_value = "revb")]
        revision: String,
    },
}

pub fn run(args: &MovieArgs) -> Result<ExitCode> {
    match &args.command {
        MovieCommand::Import { file, output } => import(file, output.as_deref()),
        MovieCommand::Export {
            script,
            output,
            revision,
        } => export(script, output, revision),
    }
}

fn import(file: &Path, output: Option<&Path>) -> Result<ExitCode> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let format = movie::Format::from_extension(file);
    let m = movie::read(&bytes, format).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let mut notes = m.notes.clone();
    let mut script = format!(
        "# imported from {} by s2lab movie import: {} frames, pad 1\n",
        file.file_name()
            .map_or(file.as_os_str(), |n| n)
            .to_string_lossy(),
        m.frames.len()
    );
    for (k, v) in &m.info {
        script.push_str(&format!("# {k}: {v}\n"));
    }
    if let Some(sha1) = &m.sha1 {
        match RomDb::builtin().by_sha1(sha1) {
            Some(k) => script.push_str(&format!("# ROM: Sonic 2 {}\n", k.revision)),
            None => notes.push(format!(
                "the movie's ROM (SHA-1 {sha1}) is not a known Sonic 2 revision; it may not \
                 replay the same"
            )),
        }
    }
    for n in &notes {
        eprintln!("warning: {}: {n}", file.display());
    }
    script.push_str(&padscript::format(&m.frames));
    script.push('\n');
    match output {
        Some(path) => {
            outfile::write(path, &script).with_context(|| format!("writing {}", path.display()))?;
            eprintln!("{}: {} frames", path.display(), m.frames.len());
        }
        None => print!("{script}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn export(script: &Path, output: &Path, revision: &str) -> Result<ExitCode> {
    let db = RomDb::builtin();
    let Some(known) = db.by_id(revision) else {
        let ids: Vec<&str> = db.roms.iter().map(|r| r.id.as_str()).collect();
        bail!(
            "unknown revision \"{revision}\" (known: {})",
            ids.join(", ")
        );
    };
    let text =
        std::fs::read_to_string(script).with_context(|| format!("reading {}", script.display()))?;
    let frames = padscript::parse(&text).with_context(|| script.display().to_string())?;
    let info = movie::bk2::ExportInfo {
        game_name: known.no_intro_name.clone(),
        sha1: Some(known.sha1.clone()),
        emu_version: format!("s2lab {}", env!("CARGO_PKG_VERSION")),
    };
    let bytes = movie::bk2::write(&frames, &info);
    outfile::write(output, &bytes).with_context(|| format!("writing {}", output.display()))?;
    eprintln!(
        "{}: {} frames for Genesis Plus GX in BizHawk ({})",
        output.display(),
        frames.len(),
        known.no_intro_name
    );
    Ok(ExitCode::SUCCESS)
}
