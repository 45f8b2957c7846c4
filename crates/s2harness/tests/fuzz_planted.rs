//! The fuzzer finds a planted model defect and shrinks it small: with the test-only switch
//! `FuzzConfig::planted_defect` the model's stage loses its one-cell-high slabs; fuzzing random
//! stages must find a scenario where that matters and shrink it to a few blocks and a few dozen
//! input frames that still diverge, and that the real model gets right (ROM-gated).

mod common;

use std::time::Instant;

use s2harness::fuzz::{FuzzConfig, Kind, run_campaign};
use s2harness::game::Game;
use s2harness::store;
use s2model::{diff, run_scenario};

#[test]
fn fuzz_finds_and_shrinks_a_planted_model_defect() {
    let roms = common::available_roms();
    let Some((path, _)) = roms.iter().find(|(_, k)| k.id == "revb") else {
        println!(
            "{}",
            common::skip_message("fuzz_finds_and_shrinks_a_planted_model_defect (needs Rev B)")
        );
        return;
    };
    let game = Game::boot(&store::read_rom(path).unwrap()).unwrap();
    let mut cfg = FuzzConfig::new(1, Some(40));
    cfg.kinds = vec![Kind::Stage];
    cfg.planted_defect = true;
    cfg.stop_after = Some(1);
    cfg.shrink = 1;
    let start = Instant::now();
    let campaign = run_campaign(&game, &cfg, &|_| {});
    let case = campaign
        .cases
        .first()
        .expect("40 random stages find the missing slabs");
    let sc = &case.shrunk;
    println!(
        "found at run {} after {} runs; shrunk in {} game runs to {} blocks, {} input frames: {}; {:.1} s",
        case.index,
        campaign.runs.len(),
        case.shrink_runs,
        sc.solid.len(),
        sc.input.len(),
        s2harness::suites::presets::script_text(sc),
        start.elapsed().as_secs_f64()
    );
    assert!(sc.solid.len() <= 3, "{:?}", sc.solid);
    assert!(sc.input.len() <= 48, "{} frames", sc.input.len());
    assert!(
        sc.solid.iter().any(|r| r.h == 1),
        "the slab the defect drops is still there: {:?}",
        sc.solid
    );
    // Still diverging with the defect, at the field it was found at; the real model agrees.
    let game_trace = game.run(sc).unwrap();
    let broken = diff(&cfg.model(sc), &game_trace);
    let field = case.field.as_deref().unwrap();
    assert!(
        broken
            .first
            .as_ref()
            .is_some_and(|f| f.fields.iter().any(|x| x.field == field)),
        "{broken}"
    );
    assert!(diff(&run_scenario(sc), &game_trace).is_equal());

    // The case's one-page report, for a person to look at.
    let detail = s2harness::report::Detail::build(&case.game, &case.model, &sc.solid, &case.diff);
    let page = std::env::temp_dir().join("s2lab-fuzz-planted.html");
    std::fs::write(
        &page,
        s2harness::report::detail_page("planted defect", &case.diff.to_string(), Some(&detail)),
    )
    .unwrap();
    println!(
        "solid {:?}, start x {} y {}; report: {}",
        sc.solid,
        sc.x,
        sc.y,
        page.display()
    );
}

#[test]
fn a_campaign_does_not_depend_on_the_thread_count() {
    let roms = common::available_roms();
    let Some((path, _)) = roms.iter().find(|(_, k)| k.id == "revb") else {
        println!(
            "{}",
            common::skip_message("a_campaign_does_not_depend_on_the_thread_count (needs Rev B)")
        );
        return;
    };
    let game = Game::boot(&store::read_rom(path).unwrap()).unwrap();
    let run = |threads: usize| {
        let mut cfg = FuzzConfig::new(3, Some(5));
        cfg.threads = threads;
        cfg.shrink = 0;
        cfg.planted_defect = true;
        run_campaign(&game, &cfg, &|_| {})
            .runs
            .iter()
            .map(|r| {
                let mut rec = r.record();
                rec.seconds = 0.0;
                rec
            })
            .collect::<Vec<_>>()
    };
    let one = run(1);
    assert_eq!(
        one.iter().map(|r| r.index).collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4]
    );
    assert_eq!(one, run(3));
}
