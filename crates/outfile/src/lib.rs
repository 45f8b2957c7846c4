//! Every output file (traces, reports, save states, WAV, PNG, CSV) is written whole or not at
//! all: to a temporary file in the same directory (so the rename cannot cross file systems),
//! flushed and synced, then renamed over the target. A crash, a full disk or Ctrl-C leaves
//! either the old file or the new one, never half of one.

#![forbid(unsafe_code)]

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The temporary name beside `path`: hidden, with the process id so concurrent writers of
/// the same target do not share it.
fn temp_path(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a file name", path.display()),
        )
    })?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Ok(dir.join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// Writes `path` through `fill`, atomically. On error the temporary file is removed and the
/// target is untouched.
pub fn write_with<T>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> io::Result<T>,
) -> io::Result<T> {
    let tmp = temp_path(path)?;
    let result = (|| {
        let mut w = BufWriter::new(File::create(&tmp)?);
        let value = fill(&mut w)?;
        w.flush()?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(value)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `bytes` to `path`, atomically.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    write_with(path, |w| w.write_all(bytes.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("outfile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn writes_whole_and_leaves_no_temporary() {
        let d = dir("whole");
        let p = d.join("a.txt");
        write(&p, b"old").unwrap();
        write(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let d = dir("failed");
        let p = d.join("a.txt");
        write(&p, b"old").unwrap();
        let e = write_with(&p, |w| {
            w.write_all(b"half")?;
            Err::<(), _>(io::Error::other("interrupted"))
        });
        assert!(e.is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
    }

    #[test]
    fn a_bare_file_name_goes_to_the_current_directory() {
        assert_eq!(
            temp_path(Path::new("x.csv")).unwrap().parent(),
            Some(Path::new("."))
        );
        assert!(temp_path(Path::new("/")).is_err());
    }
}
