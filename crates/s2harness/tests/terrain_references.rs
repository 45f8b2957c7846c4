//! The terrain references: `traces/terrain/NAME.trace.jsonl.gz`, recorded in MAME 0.251 on the real
//! Rev B (`tools/mame/s2trace.py`, `docs/references.md`), reproduced by our emulator and by the
//! model on every frame of the 28 fields and the collision layer. ROM-gated on both sides: the
//! emulator needs the game, and the model needs the act's terrain, read from the ROM.

mod common;

use s2model::terrain_scenario::{AnyScenario, run_terrain_scenario};
use s2model::trace::{Trace, diff};

#[test]
fn mame_terrain_references_equal_the_emulator_and_the_model() {
    let refs = common::terrain_files(".trace.jsonl.gz", 5);
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
    let Some((known, _, acts)) = common::emerald_hill(
        "mame_terrain_references_equal_the_emulator_and_the_model",
        " (the emulator runs the game, and the model needs the act's terrain from the ROM)",
    ) else {
        return;
    };
    let mut bad = Vec::new();
    let mut frames = 0;
    for (sc, reference) in &loaded {
        let (game, terrain) = &acts.acts[sc.act as usize];
        let game = game.run_terrain(sc).unwrap();
        let model = run_terrain_scenario(sc, terrain);
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
