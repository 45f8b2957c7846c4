//! Finding the game for ROM-gated tests (`$S2_ROM` and the user's ROM store), Emerald Hill
//! booted from it, and the repository's traces.
#![allow(dead_code)] // each test binary uses part of this module

use std::path::PathBuf;

use s2harness::fuzz::terrain::TerrainActs;
use s2harness::game::Game;
use s2harness::rom::{KnownRom, RomDb, RomImage};
use s2harness::store;

/// Every known revision available here: `$S2_ROM` (whichever revision it is) and the store's;
/// Rev B first, the revision the model and the recorded figures are for.
pub fn available_roms() -> Vec<(PathBuf, &'static KnownRom)> {
    let mut out: Vec<(PathBuf, &'static KnownRom)> = Vec::new();
    let mut candidates: Vec<PathBuf> = std::env::var_os("S2_ROM")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    if let Some(dir) = store::store_dir() {
        for rom in &RomDb::builtin().roms {
            candidates.push(dir.join(format!("{}.bin", rom.sha1)));
        }
    }
    for path in candidates {
        if !path.is_file() {
            continue;
        }
        match store::read_rom(&path) {
            Ok(image) => {
                if let Some(known) = image.known()
                    && !out.iter().any(|(_, k)| k.sha1 == known.sha1)
                {
                    out.push((path, known));
                }
            }
            Err(e) => panic!("{e}"),
        }
    }
    out.sort_by_key(|(_, k)| k.id != "revb");
    out
}

pub fn skip_message(test: &str) -> String {
    format!(
        "{test}: skipped: no Sonic 2 ROM found (set S2_ROM to a ROM file, or `s2lab rom import FILE` into the store at {})",
        store::store_dir().map_or("<no HOME>".into(), |d| d.display().to_string())
    )
}

/// The repository's traces directory.
pub fn traces_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../traces")
}

/// The first available ROM (Rev B when there is one) booted into both Emerald Hill acts, each
/// with its terrain read from the game; without a ROM, `None` after printing `test`'s skip
/// message followed by `why`.
pub fn emerald_hill(test: &str, why: &str) -> Option<(&'static KnownRom, RomImage, TerrainActs)> {
    let roms = available_roms();
    let Some((path, known)) = roms.first() else {
        println!("{}{why}", skip_message(test));
        return None;
    };
    let rom = store::read_rom(path).unwrap();
    let boot = Game::boot(&rom).unwrap();
    let acts = TerrainActs::prepare(&boot, &rom).unwrap();
    Some((known, rom, acts))
}

/// The files of `traces/terrain/` whose names end with `suffix`, sorted; at least `at_least`.
pub fn terrain_files(suffix: &str, at_least: usize) -> Vec<PathBuf> {
    let dir = traces_dir().join("terrain");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    files.sort();
    assert!(
        files.len() >= at_least,
        "{} {suffix} files in {}",
        files.len(),
        dir.display()
    );
    files
}
