//! s2lab: a Mega Drive emulator with a Sonic 2 physics lab on top.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
mod frontend;

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
    /// Run a cartridge headless: input script, RAM traces as CSV, frames as PNG.
    Run(cmd::run::RunArgs),
    /// Run the reference model on a scenario and write its trace.
    Model(cmd::model::ModelArgs),
    /// Run a scenario in the real game (emulated) and write its trace.
    Trace(cmd::trace::TraceArgs),
    /// Compare two traces: the first difference, every differing field, the inputs before it.
    Diff(cmd::diff::DiffArgs),
    /// Run scenarios in the game and the model and compare (and against reference traces).
    Check(cmd::check::CheckArgs),
    /// Measure the physics claims of a claims file in the game and give each a verdict.
    Claims(cmd::claims::ClaimsArgs),
    /// Run every suite in the game and the model, in parallel, with reports.
    Suite(cmd::suite::SuiteArgs),
    /// Differential fuzzing: random scenarios in the game and the model, divergences shrunk.
    Fuzz(cmd::fuzz::FuzzArgs),
    /// Work with results files: merge shards into one report.
    Report(cmd::report::ReportArgs),
    /// Write the suites' scenario files from their seeds and presets.
    GenSuites(cmd::suite::GenSuitesArgs),
    /// Measure the model, the console and the harness on this machine.
    Bench(cmd::bench::BenchArgs),
    /// Play a cartridge in a window with sound (or write its sound to a WAV headless).
    Play(cmd::play::PlayArgs),
    /// BizHawk .bk2 and Gens .gmv movies to input scripts and back.
    Movie(cmd::movie::MovieArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Rom(args) => cmd::rom::run(args),
        Command::Run(args) => cmd::run::run(args),
        Command::Model(args) => cmd::model::run(args),
        Command::Trace(args) => cmd::trace::run(args),
        Command::Diff(args) => cmd::diff::run(args),
        Command::Check(args) => cmd::check::run(args),
        Command::Claims(args) => cmd::claims::run(args),
        Command::Suite(args) => cmd::suite::run(args),
        Command::Fuzz(args) => cmd::fuzz::run(args),
        Command::Report(args) => cmd::report::run(args),
        Command::GenSuites(args) => cmd::suite::generate(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Play(args) => cmd::play::run(args),
        Command::Movie(args) => cmd::movie::run(args),
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
