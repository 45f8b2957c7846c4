//! `s2lab diff`: compare two traces (docs/formats.md §3) and report the first difference;
//! `--html` also draws both traces around it and, with the scenario, the stage and both paths.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use s2harness::report::{Detail, detail_page};
use s2model::{Scenario, Trace, diff};

use super::report::write_atomic;

#[derive(Args)]
pub struct DiffArgs {
    /// First trace (.trace.jsonl or .trace.jsonl.gz); drawn red in the HTML page.
    pub a: PathBuf,
    /// Second trace; drawn blue (wide).
    pub b: PathBuf,
    /// Write a one-page HTML report: the traces around the first difference, the stage.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// The scenario both traces ran (for the stage in the HTML page; default: the
    /// `.scenario.json` beside A or B, if there is one).
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
}

/// `x.trace.jsonl[.gz]` → `x.scenario.json`, if that exists.
fn scenario_beside(trace: &Path) -> Option<PathBuf> {
    let s = trace.to_string_lossy();
    let stem = s
        .strip_suffix(".trace.jsonl.gz")
        .or_else(|| s.strip_suffix(".trace.jsonl"))?;
    let p = PathBuf::from(format!("{stem}.scenario.json"));
    p.is_file().then_some(p)
}

/// Prints the report; exit code 0 when the traces agree, 1 when they differ (errors: 2, in main).
pub fn run(args: &DiffArgs) -> Result<ExitCode> {
    let a = Trace::read(&args.a)?;
    let b = Trace::read(&args.b)?;
    // Every input is read before anything is printed or written.
    let scenario = args.html.as_ref().and_then(|_| {
        args.scenario
            .clone()
            .or_else(|| scenario_beside(&args.a))
            .or_else(|| scenario_beside(&args.b))
    });
    let solid = match &scenario {
        Some(p) => Scenario::load(p)?.solid,
        None => Vec::new(),
    };
    let report = diff(&a, &b);
    let text = format!(
        "A = {}\nB = {}\n{report}",
        args.a.display(),
        args.b.display()
    );
    print!("{text}");
    if let Some(out) = &args.html {
        let detail = Detail::build(&b, &a, &solid, &report);
        let page = format!(
            "{text}\nRed: A. Blue (wide): B.{}",
            match &scenario {
                Some(p) => format!(" Stage from {}.", p.display()),
                None => " No scenario given or found beside the traces: no stage drawn.".into(),
            }
        );
        write_atomic(
            out,
            &detail_page(
                &format!("s2lab diff: {}", a.header.scenario),
                &page,
                Some(&detail),
            ),
        )?;
        eprintln!("wrote {}", out.display());
    }
    Ok(if report.is_equal() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
