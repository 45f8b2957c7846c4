//! The 54 MAME reference traces (Rev B) reproduced in our emulator, frame for frame and field for
//! field, on every Sonic 2 revision available (Rev B and Rev A at least, when present).

mod common;

use s2harness::game::Game;
use s2harness::store;
use s2harness::suite_run::{jobs_in, run_all};

#[test]
fn reference_traces_reproduce_in_the_emulator() {
    let roms = common::available_roms();
    if roms.is_empty() {
        println!(
            "{}",
            common::skip_message("reference_traces_reproduce_in_the_emulator")
        );
        return;
    }
    let jobs = jobs_in(&common::traces_dir(), "reference", true).unwrap();
    assert_eq!(
        jobs.len(),
        54,
        "the repository holds the 54 reference scenarios"
    );
    assert!(jobs.iter().all(|j| j.reference.is_some()));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (path, known) in roms {
        let rom = store::read_rom(&path).unwrap();
        let game = Game::boot(&rom).unwrap();
        let outcomes = run_all(&game, &jobs, threads, &|_, _, _| {});
        let frames: usize = outcomes.iter().map(|o| o.frames()).sum();
        let bad: Vec<String> = outcomes
            .iter()
            .filter(|o| !o.vs_reference.as_ref().is_some_and(|d| d.is_equal()) || o.error.is_some())
            .map(|o| format!("{}: {}", o.name, o.failure().unwrap_or_default()))
            .collect();
        println!(
            "{}: {} of {} reference traces identical to MAME, {frames} frames",
            known.revision,
            jobs.len() - bad.len(),
            jobs.len()
        );
        assert!(bad.is_empty(), "{}:\n{}", known.revision, bad.join("\n"));
    }
}
