//! `s2lab claims`: measure the physics ledger's claims in the game and give each a verdict
//! (docs/claims.md).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};
use s2harness::claims::{self, Compiled, RunOptions, Verdict, report};

use super::game_args::RomOpt;

/// The ledger's Sonic 2 claims, built in: what runs when no file is given.
const BUILTIN: &str = include_str!("../../../../claims/sonic2.toml");
const BUILTIN_NAME: &str = "claims/sonic2.toml (built in)";

#[derive(clap::Args)]
pub struct ClaimsArgs {
    #[command(flatten)]
    pub rom: RomOpt,
    /// Claims files (default: the built-in claims/sonic2.toml).
    pub files: Vec<PathBuf>,
    /// Only these claim ids.
    #[arg(long, num_args = 1..)]
    pub only: Vec<String>,
    /// Write claims.json, claims.md and claims.html here.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Recorded traces (tools/mame) to evaluate the same checks on: DIR/<claim id>/<measure>.trace.jsonl.gz.
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// Write every measurement's scenario and setup for tools/mame: DIR/<claim id>/<measure>.scenario.json.
    #[arg(long)]
    pub export: Option<PathBuf>,
    /// Only read and check the files (no ROM needed).
    #[arg(long)]
    pub validate: bool,
}

pub fn run(args: &ClaimsArgs) -> Result<ExitCode> {
    let engine = Compiled::new();
    let files = if args.files.is_empty() {
        vec![claims::parse(BUILTIN, BUILTIN_NAME, &engine)?]
    } else {
        args.files
            .iter()
            .map(|f| claims::load(f, &engine))
            .collect::<Result<Vec<_>, _>>()?
    };
    if let Some(id) = args
        .only
        .iter()
        .find(|id| !files.iter().any(|f| f.claims.iter().any(|c| &c.id == *id)))
    {
        return Err(anyhow!("--only {id}: no claim has this id"));
    }
    if args.validate {
        for f in &files {
            println!("{}: {} claims, valid", f.origin, f.claims.len());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (path, rom) = args.rom.read()?;
    let game = args.rom.boot_quietly(&path, &rom)?;
    RomOpt::announce(&path, &game);
    let opts = RunOptions {
        only: args.only.clone(),
        reference: args.reference.clone(),
    };
    let mut results = Vec::new();
    for f in &files {
        results.extend(claims::run(f, &game, &rom, &engine, &opts, |id| {
            eprint!("\r\x1b[K{id}")
        }));
    }
    eprint!("\r\x1b[K");
    print!("{}", report::table(&results));
    if let Some(dir) = &args.output {
        write_reports(dir, &results, &game, &rom, &files)?;
    }
    if let Some(dir) = &args.export {
        let n = export(dir, &results)?;
        eprintln!("wrote {n} scenarios for tools/mame under {}", dir.display());
    }
    Ok(if results.iter().any(|r| r.verdict == Verdict::Error) {
        ExitCode::from(2)
    } else if results.iter().any(|r| r.verdict == Verdict::Fails) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `claims.json`, `claims.md` and `claims.html` in `dir`, each written whole or not at all.
fn write_reports(
    dir: &std::path::Path,
    results: &[claims::ClaimResult],
    game: &s2harness::game::Game,
    rom: &s2harness::rom::RomImage,
    files: &[claims::ClaimsFile],
) -> Result<()> {
    let provenance = report::Provenance {
        rom_revision: game.revision().revision.clone(),
        rom_sha1: rom.sha1.clone(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        claims_file: files
            .iter()
            .map(|f| f.origin.clone())
            .collect::<Vec<_>>()
            .join(", "),
    };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for (name, text) in [
        ("claims.json", report::json(results, &provenance)),
        ("claims.md", report::markdown(results, &provenance)),
        ("claims.html", report::html(results, &provenance)),
    ] {
        let p = dir.join(name);
        outfile::write(&p, text).with_context(|| format!("writing {}", p.display()))?;
    }
    eprintln!("wrote {}/claims.{{json,md,html}}", dir.display());
    Ok(())
}

fn export(dir: &std::path::Path, results: &[claims::ClaimResult]) -> Result<usize> {
    let mut n = 0;
    for r in results {
        for c in &r.cases {
            let Some(json) = &c.export else { continue };
            let d = dir.join(&r.id);
            std::fs::create_dir_all(&d).with_context(|| format!("creating {}", d.display()))?;
            let p = d.join(format!("{}.scenario.json", c.key));
            let text = serde_json::to_string_pretty(json)? + "\n";
            outfile::write(&p, text).with_context(|| format!("writing {}", p.display()))?;
            n += 1;
        }
    }
    Ok(n)
}
