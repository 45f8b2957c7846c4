//! The terrain cache: an act's terrain read once from the user's game and kept in the user's data
//! directory, keyed by the ROM's SHA-1 (`<data>/s2lab/terrain/<sha1>/<zone-act>.bin`, the file form
//! of `docs/terrain-format.md`), so the model can run terrain scenarios without booting the game.

use std::path::{Path, PathBuf};

use s2model::Terrain;

use crate::game::Game;
use crate::rom::RomImage;

/// `$S2LAB_TERRAIN_CACHE`, else `$XDG_DATA_HOME/s2lab/terrain`, else `~/.local/share/s2lab/terrain`.
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("S2LAB_TERRAIN_CACHE") {
        return Some(PathBuf::from(dir));
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/share")))?;
    Some(data.join("s2lab/terrain"))
}

/// The cache file of (zone, act) for the ROM with SHA-1 `sha1` under `dir`.
pub fn cache_path(dir: &Path, sha1: &str, zone: u8, act: u8) -> PathBuf {
    dir.join(sha1)
        .join(format!("{}.bin", Terrain::stem(zone, act)))
}

/// Reads a cached terrain; `Ok(None)` when there is none. A file that is there but unreadable or
/// of another version is an error naming it.
pub fn load(dir: &Path, sha1: &str, zone: u8, act: u8) -> Result<Option<Terrain>, String> {
    let p = cache_path(dir, sha1, zone, act);
    let bytes = match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", p.display())),
    };
    let t = Terrain::from_bytes(&bytes).map_err(|e| format!("{}: {e}", p.display()))?;
    if (t.zone, t.act) != (zone, act) {
        return Err(format!(
            "{}: holds zone {} act {}, not zone {zone} act {}",
            p.display(),
            t.zone,
            t.act + 1,
            act + 1
        ));
    }
    Ok(Some(t))
}

/// Writes `t` into the cache (a temporary file renamed into place).
pub fn store(dir: &Path, sha1: &str, t: &Terrain) -> Result<PathBuf, String> {
    let p = cache_path(dir, sha1, t.zone, t.act);
    let parent = p.parent().expect("cache path has a parent");
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let tmp = p.with_extension("bin.tmp");
    std::fs::write(&tmp, t.to_bytes()).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &p).map_err(|e| format!("{}: {e}", p.display()))?;
    Ok(p)
}

/// Emerald Hill act `act`'s terrain for `rom`: from the cache when there, else read from the game
/// (booted here) and cached. Errors name the file or say what the game did.
pub fn terrain_for(rom: &RomImage, act: u8) -> Result<Terrain, String> {
    let dir = cache_dir();
    if let Some(d) = &dir
        && let Some(t) = load(d, &rom.sha1, 0, act)?
    {
        return Ok(t);
    }
    let game = Game::boot(rom).map_err(|e| format!("booting the game: {e}"))?;
    let game = game
        .in_act(act)
        .map_err(|e| format!("loading act {}: {e}", act + 1))?;
    let t = game
        .read_terrain(rom)
        .map_err(|e| format!("reading the terrain: {e}"))?;
    if let Some(d) = &dir {
        store(d, &rom.sha1, &t)?;
    }
    Ok(t)
}
