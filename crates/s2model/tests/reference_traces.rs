//! The model against every reference trace recorded in MAME on the real game (`traces/`): each
//! scenario is run and compared in `initial` and every compared field of every frame.
//!
//! Run: `cargo test --release -p s2model --test reference_traces`. No ROM needed.
//! A plain `main` (harness = false) so that it prints one line per scenario and the closing tally.

use s2model::{Scenario, Trace, diff, run_scenario};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn traces_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../traces")
}

fn main() -> ExitCode {
    // Accept and ignore libtest's arguments (e.g. `--nocapture`, a filter): a filter that is not a
    // flag restricts the scenarios by substring.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        return ExitCode::SUCCESS;
    }
    let filter: Option<String> = args.iter().find(|a| !a.starts_with('-')).cloned();
    let dir = traces_dir();
    let mut scenarios: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".scenario.json"))
            .collect(),
        Err(e) => {
            eprintln!("cannot read {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    };
    scenarios.sort();
    if let Some(f) = &filter {
        scenarios.retain(|p| p.to_string_lossy().contains(f.as_str()));
        if scenarios.is_empty() {
            // `cargo test -p s2model some_unit_test` passes its filter here too.
            println!("reference traces: no scenario matches '{f}'");
            return ExitCode::SUCCESS;
        }
    }
    let (mut passed, mut failed, mut total_frames) = (0usize, 0usize, 0usize);
    let mut reports = Vec::new();
    for sp in &scenarios {
        let name = sp
            .file_name()
            .map(|n| {
                n.to_string_lossy()
                    .trim_end_matches(".scenario.json")
                    .to_string()
            })
            .unwrap_or_default();
        let tp = sp.with_file_name(format!("{name}.trace.jsonl.gz"));
        let result = (|| -> Result<s2model::DiffReport, String> {
            let sc = Scenario::load(sp).map_err(|e| e.to_string())?;
            let game = Trace::read(&tp).map_err(|e| e.to_string())?;
            let model = run_scenario(&sc);
            let mut r = diff(&game, &model);
            // The stop reason is part of agreeing on "the same frames".
            if r.is_equal() && game.header.stop != model.header.stop {
                r.first = Some(s2model::trace::FirstDiff {
                    at: s2model::trace::DiffAt::Frame(game.frames.len() as u64),
                    fields: vec![],
                    note: Some(format!(
                        "stop differs: game {:?}, model {:?}",
                        game.header.stop, model.header.stop
                    )),
                    inputs_before: vec![],
                    input_here: None,
                });
            }
            Ok(r)
        })();
        match result {
            Ok(r) => {
                total_frames += r.frames_compared;
                if r.is_equal() {
                    passed += 1;
                    println!("ok    {name}: {} frames compared", r.frames_compared);
                } else {
                    failed += 1;
                    println!(
                        "FAIL  {name}: {} frames equal before the first difference",
                        r.frames_compared
                    );
                    reports.push(format!("--- {name} (A = game, B = model)\n{r}"));
                }
            }
            Err(e) => {
                failed += 1;
                println!("ERROR {name}: {e}");
                reports.push(format!("--- {name}\n{e}\n"));
            }
        }
    }
    for r in &reports {
        println!("{r}");
    }
    println!("reference traces: {passed} passed, {failed} failed");
    println!("frames compared: {total_frames}");
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
