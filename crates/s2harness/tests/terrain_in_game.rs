//! Emerald Hill's own terrain: read from the game (RAM after the level load, ROM tables through
//! roms.toml), cached, and checked against the game itself: Sonic placed on many surfaces of
//! EHZ1 and EHZ2 with random input, the model on the extracted terrain against the game in the
//! emulator, frame by frame.

mod common;

use s2harness::game::Game;
use s2harness::store;
use s2harness::terrain_cache;
use s2harness::terrain_suite::scenarios;
use s2model::Level;
use s2model::terrain_scenario::{AnyScenario, event_line, run_terrain_scenario_with_layers};
use s2model::trace::diff;

/// Frames per run and runs per act (kept small: CI runs this in release on 2 cores).
const FRAMES: usize = 120;
const RUNS_PER_ACT: usize = 24;

#[test]
fn extracted_terrain_round_trips_through_the_cache() {
    let roms = common::available_roms();
    let Some((path, _)) = roms.first() else {
        println!(
            "{}",
            common::skip_message("extracted_terrain_round_trips_through_the_cache")
        );
        return;
    };
    let rom = store::read_rom(path).unwrap();
    let game = Game::boot(&rom).unwrap();
    let t = game.read_terrain(&rom).unwrap();
    assert_eq!((t.zone, t.act), (0, 0));
    // EHZ1's loops need its path swappers (object $03) from the ROM's object layout.
    assert!(t.swappers.len() >= 4, "{} path swappers", t.swappers.len());
    // Sonic's start in EHZ1 (x $60, y $28F) stands on solid path-1 ground 19 px below his centre.
    let w = t.block_word_at(0x60, 0x28F + 19);
    assert!(w & 0x3FF != 0 && w & 0x1000 != 0, "block word {w:04X}");
    let dir = std::env::temp_dir().join(format!("s2lab-terrain-test-{}", std::process::id()));
    let p = terrain_cache::store(&dir, &rom.sha1, &t).unwrap();
    assert!(p.ends_with(format!("{}/ehz1.bin", rom.sha1)));
    let back = terrain_cache::load(&dir, &rom.sha1, 0, 0).unwrap().unwrap();
    assert!(back == t);
    assert!(
        terrain_cache::load(&dir, &rom.sha1, 0, 1)
            .unwrap()
            .is_none()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn model_on_extracted_terrain_matches_the_game() {
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    // S2LAB_TERRAIN_RUNS (per act) / _FRAMES / _SEED widen the search by hand; the defaults are
    // CI's. Measured: RUNS=170 FRAMES=1200 SEED=1000 gives 340 runs, 317,440 frames, all equal.
    let (runs, frames, seed) = (
        env("S2LAB_TERRAIN_RUNS", RUNS_PER_ACT),
        env("S2LAB_TERRAIN_FRAMES", FRAMES),
        env("S2LAB_TERRAIN_SEED", 12) as u64,
    );
    let roms = common::available_roms();
    // S2LAB_TERRAIN_REV (rev00, reva, revb) picks another revision by hand; Rev B by default.
    let want = std::env::var("S2LAB_TERRAIN_REV").unwrap_or_else(|_| "revb".into());
    let Some((path, known)) = roms.iter().find(|(_, k)| k.id == want).or(roms.first()) else {
        println!(
            "{}",
            common::skip_message("model_on_extracted_terrain_matches_the_game")
        );
        return;
    };
    let rom = store::read_rom(path).unwrap();
    let boot = Game::boot(&rom).unwrap();
    let mut total = (0usize, 0usize, 0usize, 0usize); // runs, equal runs, frames, frames equal
    let mut first_diffs = Vec::new();
    let angle = s2model::state::FIELDS
        .iter()
        .position(|f| *f == "angle")
        .unwrap();
    let mut quadrants = [0usize; 4];
    let mut path2 = 0usize;
    let (mut loops, mut slips) = (0usize, 0usize);
    let field = |n: &str| s2model::state::FIELDS.iter().position(|f| *f == n).unwrap();
    let (status, move_lock) = (field("status"), field("move_lock"));
    for act in 0..2u8 {
        let game = boot.in_act(act).unwrap();
        let t = game.read_terrain(&rom).unwrap();
        for sc in scenarios(
            &t,
            runs,
            frames,
            seed + act as u64,
            event_line(0, act) - 0x80,
        ) {
            let g = match game.run_terrain_with_layers(&sc) {
                Ok(g) => g,
                Err(e) => {
                    first_diffs.push(format!("{}: game run failed: {e}", sc.name));
                    continue;
                }
            };
            let (g, g_layers) = g;
            let (m, m_layers) = run_terrain_scenario_with_layers(&sc, &t);
            path2 += g_layers.iter().filter(|&&l| l == 0xEF).count();
            if let Some(k) =
                (0..g_layers.len().min(m_layers.len())).find(|&k| g_layers[k] != m_layers[k])
            {
                first_diffs.push(format!(
                    "{}: collision layer differs at frame {k}: game {:02X}, model {:02X}",
                    sc.name, g_layers[k], m_layers[k]
                ));
                continue;
            }
            // Which quadrants the game's angle visited ((angle + $20) & $C0, as AnglePos rounds).
            // A complete loop: on the ground through a wall, the ceiling and the other wall without
            // leaving the surface. A fall off a steep surface: move_lock set to $1E
            // (Sonic_SlopeRepel).
            let mut seq: Vec<usize> = Vec::new();
            for (k, f) in g.frames.iter().enumerate() {
                let a = f.values[angle] as u8;
                let q = (a.wrapping_add(0x20) >> 6) as usize;
                quadrants[q] += 1;
                if f.values[status] & 2 != 0 {
                    seq.clear();
                } else if seq.last() != Some(&q) {
                    seq.push(q);
                    if seq.ends_with(&[3, 2, 1]) || seq.ends_with(&[1, 2, 3]) {
                        loops += 1;
                        seq.clear();
                    }
                }
                let before = if k == 0 {
                    0
                } else {
                    g.frames[k - 1].values[move_lock]
                };
                if f.values[move_lock] == 0x1E && before != 0x1E {
                    slips += 1;
                }
            }
            let d = diff(&g, &m);
            total.0 += 1;
            total.2 += g.frames.len();
            total.3 += d.frames_compared;
            if d.is_equal() {
                total.1 += 1;
            } else {
                let f = d.first.as_ref().unwrap();
                first_diffs.push(format!(
                    "{} (x {}, y {}): {:?} {:?}",
                    sc.name, sc.x, sc.y, f.at, f.fields
                ));
            }
        }
    }
    println!(
        "{}: terrain runs {} equal of {}, frames equal before the first difference {} of {}",
        known.revision, total.1, total.0, total.3, total.2
    );
    println!("  frames on collision path 2 (after a swapper): {path2}");
    println!("  complete loops: {loops}; falls off a steep surface (control lock): {slips}");
    println!("  frames per ground quadrant (floor, left wall, ceiling, right wall): {quadrants:?}");
    assert!(
        first_diffs.is_empty(),
        "{}: {} of {} terrain runs differ:\n{}",
        known.revision,
        first_diffs.len(),
        total.0,
        first_diffs.join("\n")
    );
}

/// The scripted terrain scenarios in `traces/terrain/` (loops both ways, too slow for a loop, spin
/// dash into a loop, rolling down hills, jumping off a wall): the model equals the game on every
/// frame and every collision layer.
#[test]
fn committed_terrain_scenarios_match_the_game() {
    let Some((_, _, acts)) = common::emerald_hill("committed_terrain_scenarios_match_the_game", "")
    else {
        return;
    };
    let files = common::terrain_files(".scenario.json", 8);
    let mut bad = Vec::new();
    for f in &files {
        let AnyScenario::Terrain(sc) = AnyScenario::load(f).unwrap() else {
            panic!("{}: not a terrain scenario", f.display());
        };
        let (game, terrain) = &acts.acts[sc.act as usize];
        let (g, gl) = game.run_terrain_with_layers(&sc).unwrap();
        let (m, ml) = run_terrain_scenario_with_layers(&sc, terrain);
        let d = diff(&g, &m);
        println!(
            "{}: {} frames, stop {:?}, equal: {}, layers equal: {}",
            sc.name,
            g.frames.len(),
            g.header.stop,
            d.is_equal(),
            gl == ml
        );
        if !d.is_equal() || gl != ml {
            bad.push(format!("{}: {:?}", sc.name, d.first));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// By hand (`--ignored`): which start columns lead to a complete loop at full speed.
#[test]
#[ignore]
fn explore_loops() {
    let roms = common::available_roms();
    let Some((path, _)) = roms.iter().find(|(_, k)| k.id == "revb") else {
        return;
    };
    let rom = store::read_rom(path).unwrap();
    let boot = Game::boot(&rom).unwrap();
    let field = |n: &str| s2model::state::FIELDS.iter().position(|f| *f == n).unwrap();
    for act in 0..2u8 {
        let game = boot.in_act(act).unwrap();
        let t = game.read_terrain(&rom).unwrap();
        for p in t.swappers.clone() {
            for (dx, facing_left, inertia) in [(-0x100i32, false, 0xA00i16), (0x100, true, -0xA00)]
            {
                let x = (p.x as i32 + dx) as u16;
                let Some(y) = s2harness::terrain_suite::standing_y(&t, x, p.y.saturating_sub(0x80))
                else {
                    continue;
                };
                let dir = if facing_left { "L" } else { "R" };
                let sc = s2model::terrain_scenario::TerrainScenario {
                    name: format!("probe-{act}-{x:x}"),
                    zone: 0,
                    act,
                    x,
                    y,
                    facing_left,
                    x_vel: 0,
                    y_vel: 0,
                    inertia,
                    in_air: false,
                    input: s2model::script::parse_script(&format!("{dir}*200")).unwrap(),
                    frames: None,
                    note: None,
                };
                let Ok((g, _)) = game.run_terrain_with_layers(&sc) else {
                    continue;
                };
                let qs: Vec<u8> = g
                    .frames
                    .iter()
                    .map(|f| ((f.values[field("angle")] as u8).wrapping_add(0x20)) >> 6)
                    .collect();
                let mut seq = vec![];
                for q in qs {
                    if seq.last() != Some(&q) {
                        seq.push(q);
                    }
                }
                println!(
                    "act {} x {x:#x} y {y:#x} {dir} inertia {inertia:#x}: quadrants {seq:?} stop {:?}",
                    act + 1,
                    g.header.stop
                );
            }
        }
    }
}
