//! Finding the game for ROM-gated tests: `$S2_ROM` and the user's ROM store.
#![allow(dead_code)] // each test binary uses part of this module

use std::path::PathBuf;

use s2harness::rom::{KnownRom, RomDb};
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
