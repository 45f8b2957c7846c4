//! `s2lab diff`: compare two traces (formats.md §4) and report the first difference.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use s2model::{Trace, diff};

#[derive(Args)]
pub struct DiffArgs {
    /// First trace (.trace.jsonl or .trace.jsonl.gz).
    pub a: PathBuf,
    /// Second trace.
    pub b: PathBuf,
}

/// Prints the report; exit code 0 when the traces agree, 1 when they differ (errors: 2, in main).
pub fn run(args: &DiffArgs) -> Result<ExitCode> {
    let a = Trace::read(&args.a)?;
    let b = Trace::read(&args.b)?;
    let report = diff(&a, &b);
    print!(
        "A = {}\nB = {}\n{report}",
        args.a.display(),
        args.b.display()
    );
    Ok(if report.is_equal() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
