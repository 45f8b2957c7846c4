//! `s2lab fuzz`: differential fuzzing of the model against the game. Seeded random scenarios of
//! each kind run in the game (emulated) and the model on every core with a live progress line;
//! divergences are shrunk and written with both traces and a one-page HTML report.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use s2harness::fuzz::terrain::{
    TerrainActs, TerrainCampaign, TerrainVerdict, run_terrain_campaign,
};
use s2harness::fuzz::{Campaign, FuzzConfig, Kind, Progress, Verdict, run_campaign};
use s2harness::report::{self, Detail, Results, detail_page};
use s2harness::shard::Shard;
use s2harness::suites::scenario_json;
use s2model::Scenario;
use s2model::terrain_scenario::TerrainScenario;
use s2model::trace::{DiffReport, Trace};

use super::game_args::RomOpt;
use super::report::{ReportOut, exit_code, write_atomic};

#[derive(clap::Args)]
pub struct FuzzArgs {
    #[command(flatten)]
    pub rom: RomOpt,
    /// Scenarios in the whole campaign (all shards together). Without --count or --time the
    /// campaign runs until its first divergence (or --stop-after N divergences).
    #[arg(long)]
    pub count: Option<u64>,
    /// Stop starting new scenarios after this long: seconds, or a number with s, m or h (90s, 10m).
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// The campaign's seed: the same seed runs the same scenarios and finds the same cases.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which scenarios: flat, stage, pit, or all (cycled in that order); or terrain (Emerald Hill's
    /// own acts, alone: not part of all, so the seeded campaigns of all stay unchanged).
    #[arg(long, default_value = "all")]
    pub kind: String,
    /// Run shard K of N (1-based): campaign indices i with i mod N = K - 1.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Shrink at most this many divergences (the first, in campaign order).
    #[arg(long, default_value_t = 3)]
    pub shrink: usize,
    /// Stop the campaign at this many divergences.
    #[arg(long)]
    pub stop_after: Option<usize>,
    /// Output directory: results.json, junit.xml, report.html and cases/<name>/ per divergence.
    #[arg(short = 'o', long = "out", default_value = "fuzz-out")]
    pub out: PathBuf,
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("'{s}': expected seconds or a number with s, m or h"))?;
    let secs = match unit {
        "s" => v,
        "m" => v * 60.0,
        "h" => v * 3600.0,
        _ => return Err(format!("'{s}': unit '{unit}' is not s, m or h")),
    };
    Ok(Duration::from_secs_f64(secs))
}

fn kinds(s: &str) -> Result<Vec<Kind>> {
    if s == "all" {
        return Ok(Kind::ALL.to_vec());
    }
    let kinds: Vec<Kind> = s
        .split(',')
        .map(|k| k.trim().parse::<Kind>().map_err(|e| anyhow!("--kind {e}")))
        .collect::<Result<_>>()?;
    if kinds.contains(&Kind::Terrain) && kinds.len() > 1 {
        return Err(anyhow!(
            "--kind {s}: terrain runs alone (--kind terrain), not mixed with other kinds"
        ));
    }
    Ok(kinds)
}

pub fn run(args: &FuzzArgs) -> Result<ExitCode> {
    let kinds = kinds(&args.kind)?;
    let terrain = kinds == [Kind::Terrain];
    let game = args.rom.boot()?;
    let mut cfg = FuzzConfig::new(args.seed, args.count);
    cfg.kinds = kinds;
    cfg.time = args.time;
    cfg.shard = args.shard.unwrap_or_default();
    if let Some(j) = args.jobs {
        cfg.threads = j.max(1);
    }
    cfg.shrink = args.shrink;
    // An unbounded campaign ends at its first divergence, so there is always something to write.
    cfg.stop_after = args
        .stop_after
        .or((args.count.is_none() && args.time.is_none()).then_some(1));
    eprintln!(
        "fuzz: seed {}, kinds {}, {}{}, shard {}, {} threads",
        cfg.seed,
        args.kind,
        args.count
            .map_or("no count limit".into(), |c| format!("{c} scenarios")),
        args.time.map_or(String::new(), |t| format!(
            ", at most {:.0} s",
            t.as_secs_f64()
        )),
        cfg.shard,
        cfg.threads
    );
    let tty = std::io::stderr().is_terminal();
    let last_print = Mutex::new((Instant::now(), String::new()));
    let progress = |p: &Progress| {
        let fps = p.frames as f64 / p.seconds.max(1e-3);
        let line = format!(
            "{} runs, {} frames ({fps:.0} frames/s), {} divergences, {} errors, {:.0} s; {}",
            p.runs, p.frames, p.divergences, p.errors, p.seconds, p.phase
        );
        let mut last = last_print.lock().expect("no progress panicked");
        let mut err = std::io::stderr().lock();
        if tty {
            let _ = write!(err, "\r{line:<110.110}");
        } else if last.0.elapsed() >= Duration::from_secs(10) || last.1 != p.phase {
            let _ = writeln!(err, "{line}");
            *last = (Instant::now(), p.phase.clone());
        }
    };
    if terrain {
        let (_, rom) = args.rom.read()?;
        let acts = TerrainActs::prepare(&game, &rom).map_err(|e| anyhow!("loading EHZ: {e}"))?;
        let campaign = run_terrain_campaign(&acts, &cfg, &progress);
        if tty {
            eprintln!();
        }
        let runs = campaign.runs.iter().map(|r| r.record_over(&acts)).collect();
        write_terrain_cases(&args.out, &campaign, &acts)?;
        let stats = (
            campaign.runs.len(),
            campaign.frames,
            campaign.run_seconds,
            campaign.shrink_seconds,
        );
        return finish(args, &cfg, &game.revision().revision, runs, stats);
    }
    let campaign = run_campaign(&game, &cfg, &progress);
    if tty {
        eprintln!();
    }
    write_cases(&args.out, &campaign)?;
    let runs = campaign.runs.iter().map(|r| r.record()).collect();
    let stats = (
        campaign.runs.len(),
        campaign.frames,
        campaign.run_seconds,
        campaign.shrink_seconds,
    );
    finish(args, &cfg, &game.revision().revision, runs, stats)
}

/// Prints the failures, the summary and the figures, and writes results.json, junit.xml and
/// report.html. `stats`: runs, frames, run seconds, shrink seconds.
fn finish(
    args: &FuzzArgs,
    cfg: &FuzzConfig,
    revision: &str,
    runs: Vec<report::RunRecord>,
    stats: (usize, u64, f64, f64),
) -> Result<ExitCode> {
    let results = Results {
        format: report::results::RESULTS_FORMAT,
        tool: "s2lab fuzz".into(),
        title: format!(
            "s2lab fuzz: seed {}, kinds {}, Sonic 2 {}",
            cfg.seed, args.kind, revision
        ),
        shard: cfg.shard,
        // Known in advance only when every scenario up to --count runs.
        jobs: args
            .count
            .filter(|_| cfg.time.is_none() && cfg.stop_after.is_none()),
        runs,
    };
    for r in results.runs.iter().filter(|r| !r.passed()) {
        println!("{} / {}: {}", r.suite, r.name, r.failure_line());
    }
    print!("{}", report::summary_table(&results.runs));
    println!(
        "{} runs, {} frames in {:.1} s ({:.0} frames/s on {} threads); shrinking {:.1} s",
        stats.0,
        stats.1,
        stats.2,
        stats.1 as f64 / stats.2.max(1e-3),
        cfg.threads,
        stats.3
    );
    ReportOut {
        dir: Some(args.out.clone()),
        ..ReportOut::default()
    }
    .write(&results)?;
    Ok(exit_code(&results))
}

/// One case directory: the scenario(s), both traces, the one-page report.
fn write_case(
    dir: &Path,
    title: &str,
    text: &str,
    scenarios: &[(&str, &Scenario)],
    traces: (&Trace, &Trace, &DiffReport, &Scenario),
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    for (file, sc) in scenarios {
        write_atomic(&dir.join(file), &scenario_json(sc))?;
    }
    let (game, model, d, sc) = traces;
    game.write(&dir.join("game.trace.jsonl"))?;
    model.write(&dir.join("model.trace.jsonl"))?;
    let detail = Detail::build(game, model, &sc.solid, d);
    let page = format!("{text}\n{}\nscenario:\n{}", d, scenario_json(sc));
    write_atomic(
        &dir.join("report.html"),
        &detail_page(title, &page, Some(&detail)),
    )?;
    println!("wrote {}", dir.display());
    Ok(())
}

fn write_cases(out: &Path, c: &Campaign) -> Result<()> {
    let cases = out.join("cases");
    for case in &c.cases {
        write_case(
            &cases.join(&case.original.name),
            &format!("s2lab fuzz: {}", case.shrunk.name),
            &format!(
                "{}\nThe model (A) against the game (B) on the shrunk scenario (scenario.json; the \
                 campaign's original is original.scenario.json).",
                case.shrunk.note.clone().unwrap_or_default()
            ),
            &[
                ("scenario.json", &case.shrunk),
                ("original.scenario.json", &case.original),
            ],
            (&case.game, &case.model, &case.diff, &case.shrunk),
        )?;
    }
    // Divergences beyond --shrink: the original scenario and its traces.
    for run in &c.runs {
        if let Verdict::Diverged { diff, game, model } = &run.verdict
            && !c.cases.iter().any(|x| x.index == run.index)
        {
            write_case(
                &cases.join(&run.scenario.name),
                &format!("s2lab fuzz: {} (not shrunk)", run.scenario.name),
                "Not shrunk (see --shrink). The model (A) against the game (B).",
                &[("original.scenario.json", &run.scenario)],
                (game, model, diff, &run.scenario),
            )?;
        }
    }
    Ok(())
}

/// One terrain case directory: scenario.json (format 2) and original.scenario.json, both traces,
/// the one-page report.
fn write_terrain_case(
    dir: &Path,
    title: &str,
    text: &str,
    scenarios: &[(&str, &TerrainScenario)],
    traces: (&Trace, &Trace, &DiffReport, Option<usize>),
    terrain: &s2model::Terrain,
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    for (file, sc) in scenarios {
        write_atomic(&dir.join(file), &sc.to_json())?;
    }
    let (game, model, d, layer) = traces;
    game.write(&dir.join("game.trace.jsonl"))?;
    model.write(&dir.join("model.trace.jsonl"))?;
    let detail = (!d.is_equal()).then(|| Detail::build(game, model, &[], d).with_terrain(terrain));
    let layer = layer.map_or("collision layers equal".into(), |k| {
        format!("collision layers differ first at frame {k}")
    });
    let page = format!(
        "{text}\n{d}\n{layer}\nscenario:\n{}",
        scenarios.first().map_or(String::new(), |s| s.1.to_json())
    );
    write_atomic(
        &dir.join("report.html"),
        &detail_page(title, &page, detail.as_ref()),
    )?;
    println!("wrote {}", dir.display());
    Ok(())
}

fn write_terrain_cases(out: &Path, c: &TerrainCampaign, acts: &TerrainActs) -> Result<()> {
    let terrain = |sc: &TerrainScenario| &acts.acts[sc.act as usize].1;
    let cases = out.join("cases");
    for case in &c.cases {
        write_terrain_case(
            &cases.join(&case.original.name),
            &format!("s2lab fuzz: {}", case.shrunk.name),
            &format!(
                "{}\nThe model (A) on the act's terrain against the game (B), kept at {}, on the \
                 shrunk scenario (scenario.json; the campaign's original is \
                 original.scenario.json); {} game runs of shrinking.",
                case.shrunk.note.clone().unwrap_or_default(),
                case.at.describe(),
                case.shrink_runs
            ),
            &[
                ("scenario.json", &case.shrunk),
                ("original.scenario.json", &case.original),
            ],
            (&case.game, &case.model, &case.diff, case.layer_frame),
            terrain(&case.original),
        )?;
    }
    for run in &c.runs {
        if let TerrainVerdict::Diverged {
            diff,
            layer_frame,
            game,
            model,
            ..
        } = &run.verdict
            && !c.cases.iter().any(|x| x.index == run.index)
        {
            write_terrain_case(
                &cases.join(&run.scenario.name),
                &format!("s2lab fuzz: {} (not shrunk)", run.scenario.name),
                "Not shrunk (see --shrink). The model (A) against the game (B).",
                &[("original.scenario.json", &run.scenario)],
                (game, model, diff, *layer_frame),
                terrain(&run.scenario),
            )?;
        }
    }
    Ok(())
}
