//! Runs that begin alike, run in chains from each other's checkpoints (`shared_runs`), give
//! the very traces the same runs give alone: a full duplicate, runs whose inputs part after a
//! common run-up, and runs that stop (a pit fall) within the frames they share.

mod common;

use s2harness::game::Game;
use s2harness::shared_runs::{Chain, plan};
use s2harness::store;
use s2model::Scenario;

#[test]
fn chained_runs_equal_runs_alone() {
    let roms = common::available_roms();
    let Some((path, _)) = roms.iter().find(|(_, k)| k.id == "revb").or(roms.first()) else {
        println!("{}", common::skip_message("chained_runs_equal_runs_alone"));
        return;
    };
    let game = Game::boot(&store::read_rom(path).unwrap()).unwrap();
    let suites = common::traces_dir().join("suites");
    let load = |p: &str| Scenario::load(&suites.join(p)).unwrap();
    let mut scenarios = vec![
        load("flat/flat-clamp-run.scenario.json"),
        load("flat/flat-clamp-roll.scenario.json"),
        load("flat/flat-clamp-run.scenario.json"),
        load("pits/pit17-spindash-right-w20.scenario.json"),
    ];
    // The pit run with more input after Sonic's death (which ends it), and with input that
    // parts from it before: the first stops within the shared frames, the second goes on.
    let pit = scenarios[3].clone();
    let mut longer = pit.clone();
    longer.name.push_str("-longer");
    longer.input.extend([0x08; 40]);
    longer.frames = None;
    let mut parted = pit.clone();
    parted.name.push_str("-parted");
    parted.input.truncate(20);
    parted.input.extend([0x04; 20]);
    parted.frames = None;
    scenarios.extend([longer, parted]);
    let chains = plan(&scenarios.iter().map(Some).collect::<Vec<_>>());
    assert!(
        chains.iter().any(|c| c.len() >= 3),
        "the clamp runs make one chain: {chains:?}"
    );
    let mut shared = 0;
    for links in &chains {
        let mut chain = Chain::default();
        for link in links {
            let sc = &scenarios[link.job];
            let chained = chain.run(&game, sc, link).unwrap();
            let alone = game.run(sc).unwrap();
            assert_eq!(chained, alone, "{}", sc.name);
            shared += link.shared;
        }
    }
    assert!(shared > 100, "the runs share their first frames ({shared})");
}
