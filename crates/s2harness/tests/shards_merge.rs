//! Shards of a suite, merged, give the unsharded run's summary, JUnit content and HTML page:
//! the model against the MAME reference traces (no ROM needed), and with a ROM the game too.

mod common;

use s2harness::game::Game;
use s2harness::report::{
    Results, RunOutcome, html, junit_xml, merge, results::RESULTS_FORMAT, summary_table,
};
use s2harness::shard::Shard;
use s2harness::store;
use s2harness::suite_run::{
    Job, Runner, jobs_in, run_all_with, run_job, run_job_model_only, shard_jobs,
};

/// JUnit without its `time="..."` attributes (wall times differ from run to run).
fn without_times(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(i) = rest.find(" time=\"") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 7..];
        rest = &after[after.find('"').expect("closing quote") + 1..];
    }
    out.push_str(rest);
    out
}

/// Runs `jobs` whole and as `n` shards (each through its results file's JSON text), merges the
/// shards, and checks that both give the same table, JUnit and page.
fn check_shards_merge(jobs: &[Job], n: u64, make: &(dyn Fn() -> Runner<'static> + Sync)) -> String {
    let results = |shard: Shard| -> Results {
        let (indices, mine) = shard_jobs(jobs.to_vec(), shard);
        let outcomes: Vec<RunOutcome> = run_all_with(&mine, 2, &|_, _, _| {}, make);
        let r = Results {
            format: RESULTS_FORMAT,
            tool: "s2lab suite".into(),
            title: "t".into(),
            shard,
            jobs: Some(jobs.len() as u64),
            runs: outcomes
                .iter()
                .zip(indices)
                .map(|(o, i)| o.record(i))
                .collect(),
        };
        serde_json::from_str(&r.to_json()).expect("a results file reads back")
    };
    let whole = results(Shard::ALL);
    let parts: Vec<(String, Results)> = (1..=n)
        .rev() // the order the files are given in does not matter
        .map(|k| (format!("shard {k}"), results(Shard { k, n })))
        .collect();
    for (_, p) in &parts {
        assert!(p.runs.len() < jobs.len(), "a shard runs part of the list");
    }
    let merged = merge(&parts).unwrap();
    assert_eq!(summary_table(&merged.runs), summary_table(&whole.runs));
    assert_eq!(
        without_times(&junit_xml(&merged.runs)),
        without_times(&junit_xml(&whole.runs))
    );
    assert_eq!(html(&merged.runs, "t"), html(&whole.runs, "t"));
    let names = |r: &Results| r.runs.iter().map(|x| x.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&merged), names(&whole));

    // A missing shard or a shard given twice is refused, naming it.
    let e = merge(&parts[1..]).unwrap_err();
    assert!(e.contains(&format!("missing shards: {n}/{n}")), "{e}");
    let mut twice = parts.clone();
    twice.push(parts[0].clone());
    assert!(merge(&twice).unwrap_err().contains("is also in"));
    summary_table(&merged.runs)
}

#[test]
fn model_vs_references_shards_merge_to_the_whole() {
    let jobs = jobs_in(&common::traces_dir(), "reference", true).unwrap();
    assert_eq!(jobs.len(), 54, "the 54 MAME reference traces");
    let table = check_shards_merge(&jobs, 4, &|| Box::new(run_job_model_only));
    print!("{table}");
    assert!(table.contains("total            54         54"), "{table}");
}

#[test]
fn game_shards_merge_to_the_whole() {
    let roms = common::available_roms();
    let Some((path, _)) = roms.iter().find(|(_, k)| k.id == "revb") else {
        println!(
            "{}",
            common::skip_message("game_shards_merge_to_the_whole (needs Rev B)")
        );
        return;
    };
    let game = Game::boot(&store::read_rom(path).unwrap()).unwrap();
    // Five of the moves keep it short; three shards of five still split unevenly (2, 2, 1).
    let mut jobs = jobs_in(&common::traces_dir().join("suites/moves"), "moves", false).unwrap();
    jobs.truncate(5);
    let table = check_shards_merge(&jobs, 3, &|| {
        let g = game.clone();
        Box::new(move |job: &Job| run_job(&g, job))
    });
    print!("{table}");
}
