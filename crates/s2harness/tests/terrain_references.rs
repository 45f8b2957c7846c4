//! The terrain references: `traces/terrain/NAME.trace.jsonl.gz`, recorded in MAME 0.251 on the real
//! Rev B (`tools/mame/s2trace.py`, `docs/references.md`), reproduced by our emulator and by the
//! model on every frame of the 28 fields and the collision layer. ROM-gated on both sides: the
//! emulator needs the game, and the model needs the act's terrain, read from the ROM.

mod common;

use s2harness::game::Game;
use s2harness::store;
use s2model::terrain_scenario::{AnyScenario, run_terrain_scenario};
use s2model::trace::{Trace, diff};

#[test]
fn mame_terrain_references_equal_the_emulator_and_the_model() {
    let dir = common::traces_dir().join("terrain");
    let mut refs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".trace.jsonl.gz"))
        .collect();
    refs.sort();
    assert!(
        refs.len() >= 5,
        "{} references in {}",
        refs.len(),
        dir.display()
    );
    // Readable without a ROM: every reference is a MAME recording carrying the layer fields.
    let mut loaded = Vec::new();
    for r in &refs {
        let t = Trace::read(r).unwrap();
        assert_eq!(t.header.source, "mame 0.251", "{}", r.display());
        assert!(
            t.header.initial_layer.is_some(),
            "{}: no layer fields",
            r.display()
        );
        let stem = r
            .to_string_lossy()
            .trim_end_matches(".trace.jsonl.gz")
            .to_string();
        let AnyScenario::Terrain(sc) =
            AnyScenario::load(std::path::Path::new(&format!("{stem}.scenario.json"))).unwrap()
        else {
            panic!("{stem}: not a terrain scenario");
        };
        loaded.push((sc, t));
    }
    let roms = common::available_roms();
    let Some((path, known)) = roms.first() else {
        println!(
            "{} (the emulator runs the game, and the model needs the act's terrain from the ROM)",
            common::skip_message("mame_terrain_references_equal_the_emulator_and_the_model")
        );
        return;
    };
    let rom = store::read_rom(path).unwrap();
    let boot = Game::boot(&rom).unwrap();
    let acts = [boot.in_act(0).unwrap(), boot.in_act(1).unwrap()];
    let terrains = [
        acts[0].read_terrain(&rom).unwrap(),
        acts[1].read_terrain(&rom).unwrap(),
    ];
    let mut bad = Vec::new();
    let mut frames = 0;
    for (sc, reference) in &loaded {
        let a = sc.act as usize;
        let game = acts[a].run_terrain(sc).unwrap();
        let model = run_terrain_scenario(sc, &terrains[a]);
        frames += reference.frames.len();
        for (who, t) in [("emulator", &game), ("model", &model)] {
            let d = diff(reference, t);
            if !d.is_equal() {
                bad.push(format!("{} vs the MAME reference ({}):\n{d}", who, sc.name));
            }
        }
    }
    println!(
        "{}: {} MAME terrain references, {frames} frames: {} differ",
        known.revision,
        loaded.len(),
        bad.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
