//! s2lab: a Mega Drive emulator with a Sonic 2 physics lab on top.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

#[derive(Parser)]
#[command(
    name = "s2lab",
    version,
    about = "A Mega Drive emulator with a Sonic the Hedgehog 2 physics lab"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Inspect ROM files and manage the ROM store.
    Rom(cmd::rom::RomArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Rom(args) => cmd::rom::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            // 1 is reserved for "ran, and found a difference"; 2 is "could not run".
            ExitCode::from(2)
        }
    }
}
