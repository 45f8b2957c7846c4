//! The user's ROM store: verified Sonic 2 ROMs kept by SHA-1 in the user's data directory, so
//! commands and tests find the game without a path each time.

use std::path::{Path, PathBuf};

use crate::rom::{KnownRom, RomDb, RomImage, require_known};

/// `$S2LAB_ROM_STORE`, else `$XDG_DATA_HOME/s2lab/roms`, else `~/.local/share/s2lab/roms`.
pub fn store_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("S2LAB_ROM_STORE") {
        return Some(PathBuf::from(dir));
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/share")))?;
    Some(data.join("s2lab/roms"))
}

/// Reads and checks a ROM file, with errors naming the file.
pub fn read_rom(path: &Path) -> Result<RomImage, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    RomImage::new(bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Verifies `path` is a known revision and copies it into the store as `<sha1>.bin`
/// (written to a temporary name first, so the store never holds half a ROM).
pub fn import(path: &Path) -> Result<(PathBuf, &'static KnownRom), String> {
    let rom = read_rom(path)?;
    let known = require_known(&rom).map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = store_dir().ok_or("no ROM store: set S2LAB_ROM_STORE or HOME")?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let target = dir.join(format!("{}.bin", rom.sha1));
    outfile::write(&target, &rom.bytes).map_err(|e| format!("{}: {e}", target.display()))?;
    Ok((target, known))
}

/// Where the ROM for a command comes from: `--rom FILE`, else `$S2_ROM`, else the store's copy
/// of revision `want` (an id from roms.toml, e.g. "revb").
pub fn locate(explicit: Option<&Path>, want: &str) -> Result<PathBuf, String> {
    // A misspelt revision is an error even when a ROM is given: it would be silently ignored.
    let db = RomDb::builtin();
    let known = db
        .by_id(want)
        .ok_or_else(|| format!("unknown revision {want:?} (known: rev00, reva, revb)"))?;
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    // An empty S2_ROM (`S2_ROM= s2lab ...`) is no ROM, as if unset.
    if let Some(p) = std::env::var_os("S2_ROM").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let dir = store_dir().ok_or("no ROM given: use --rom FILE or set S2_ROM")?;
    let path = dir.join(format!("{}.bin", known.sha1));
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "no ROM given and none in the store for {}: use --rom FILE, set S2_ROM, or run `s2lab rom import FILE` (store: {})",
            known.revision,
            dir.display()
        ))
    }
}
