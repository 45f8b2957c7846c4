//! Every generated suite run in the game (our emulator) and in the model: they must agree on every
//! frame; and every pit fall must kill Sonic on the first frame after his centre passes row 1024.

mod common;

use s2harness::game::Game;
use s2harness::store;
use s2harness::suite_run::{jobs_in, run_all};
use s2harness::suites;
use s2model::Scenario;
use s2model::state::FIELDS;

#[test]
fn model_matches_the_game_on_every_suite() {
    let roms = common::available_roms();
    // Rev B first: the revision the model is written for.
    let Some((path, known)) = roms.iter().find(|(_, k)| k.id == "revb").or(roms.first()) else {
        println!(
            "{}",
            common::skip_message("model_matches_the_game_on_every_suite")
        );
        return;
    };
    let game = Game::boot(&store::read_rom(path).unwrap()).unwrap();
    let mut jobs = Vec::new();
    for suite in suites::all() {
        jobs.extend(
            jobs_in(
                &common::traces_dir().join("suites").join(suite.name),
                suite.name,
                false,
            )
            .unwrap(),
        );
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let outcomes = run_all(&game, &jobs, threads, &|_, _, _| {});
    print!(
        "{}",
        s2harness::report::summary_table(&s2harness::report::records(&outcomes))
    );
    let bad: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.passed())
        .map(|o| {
            format!(
                "{}/{}: {}",
                o.suite,
                o.name,
                o.failure().unwrap_or_default()
            )
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{}: {} runs differ:\n{}",
        known.revision,
        bad.len(),
        bad.join("\n")
    );

    let y = FIELDS.iter().position(|f| *f == "y_pos").unwrap();
    let routine = FIELDS.iter().position(|f| *f == "routine").unwrap();
    // A suite keeps only the comparisons and plots: the pit falls' traces are made again here.
    for job in jobs.iter().filter(|j| j.suite == "pits") {
        let sc = Scenario::load(&job.scenario).unwrap();
        let o = &sc;
        let t = &game.run(&sc).unwrap();
        assert_eq!(t.header.stop.as_deref(), Some("dead"), "{}", o.name);
        let n = t.frames.len();
        assert!(n >= 3, "{}", o.name);
        let ys: Vec<i32> = t.frames.iter().map(|f| f.values[y]).collect();
        // Sonic_Boundary_Bottom kills when y_pos > Camera_Max_Y_pos + $E0 = $400, checked before
        // the frame's move: the frame after the one whose move took the centre below row 1024.
        assert!(
            ys[n - 2] > 1024 && ys[n - 3] <= 1024,
            "{}: y {:?}",
            o.name,
            &ys[n - 3..]
        );
        assert_eq!(t.frames[n - 1].values[routine], 6, "{}", o.name);
        assert!(
            t.frames[..n - 1].iter().all(|f| f.values[routine] == 2),
            "{}",
            o.name
        );
    }
}
