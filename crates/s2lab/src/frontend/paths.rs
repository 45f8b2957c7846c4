//! Where the front end keeps its files: under the user's data directory
//! (`$XDG_DATA_HOME/s2lab`, else `~/.local/share/s2lab`), per ROM where it matters.

use std::path::PathBuf;

/// `$XDG_DATA_HOME/s2lab` (an absolute `XDG_DATA_HOME` only, as the spec says), else
/// `~/.local/share/s2lab`, else `./s2lab-data` when there is no home either.
pub fn data_dir() -> PathBuf {
    std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .map(|d| d.join("s2lab"))
        .unwrap_or_else(|| PathBuf::from("s2lab-data"))
}

/// Seconds since the Unix epoch, for file names.
pub fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
