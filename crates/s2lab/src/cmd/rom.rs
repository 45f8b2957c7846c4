//! `s2lab rom`: what a ROM file is, and the user's ROM store.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use clap::{Args, Subcommand};
use s2harness::store;

#[derive(Args)]
pub struct RomArgs {
    #[command(subcommand)]
    command: RomCommand,
}

#[derive(Subcommand)]
enum RomCommand {
    /// Size, SHA-1, header (title, serial, region) and Sonic 2 revision of a ROM file.
    Info { file: PathBuf },
    /// Verify a Sonic 2 ROM against roms.toml and keep it in the ROM store.
    Import { file: PathBuf },
}

pub fn run(args: &RomArgs) -> Result<ExitCode> {
    match &args.command {
        RomCommand::Info { file } => info(file),
        RomCommand::Import { file } => {
            let (path, known) = store::import(file).map_err(|e| anyhow!(e))?;
            println!("imported {} as {}", known.revision, path.display());
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn info(file: &std::path::Path) -> Result<ExitCode> {
    let rom = store::read_rom(file).map_err(|e| anyhow!(e))?;
    for w in &rom.warnings {
        eprintln!("warning: {}: {w}", file.display());
    }
    let h = &rom.header;
    println!("file:      {}", file.display());
    println!("size:      {} bytes", rom.bytes.len());
    println!("sha1:      {}", rom.sha1);
    println!("system:    {}", h.system);
    println!("title:     {}", h.title_domestic);
    println!("overseas:  {}", h.title_overseas);
    println!("serial:    {}", h.serial);
    println!("checksum:  ${:04X}", h.checksum);
    println!("region:    {}", h.region);
    match rom.known() {
        Some(k) => println!("revision:  Sonic 2 {} ({})", k.revision, k.no_intro_name),
        None => println!(
            "revision:  unknown (not a known Sonic 2 revision; it still runs in the emulator)"
        ),
    }
    Ok(ExitCode::SUCCESS)
}
