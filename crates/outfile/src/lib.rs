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

/// Whether `path` is something other than a regular file or a directory: a device such as
/// `/dev/null`, a FIFO or a socket. Renaming a file over one of those would replace it (a
/// regular file in place of `/dev/null` then hands every later reader what others threw away:
/// this broke rustc's target probe in CI after `-o /dev/null`), so such targets are written
/// in place; atomicity means nothing for them.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Writes `path` through `fill`, atomically. On error the temporary file is removed and the
/// target is untouched. A device, FIFO or socket is written in place (see [`is_special`]).
pub fn write_with<T>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> io::Result<T>,
) -> io::Result<T> {
    if is_special(path) {
        let mut w = BufWriter::new(File::options().write(true).open(path)?);
        let value = fill(&mut w)?;
        w.flush()?;
        return Ok(value);
    }
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

    /// A FIFO stands for any special file (`/dev/null` itself is not risked in a test): it is
    /// written in place and stays a FIFO.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_in_place_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let d = dir("fifo");
        let p = d.join("pipe");
        match std::process::Command::new("mkfifo").arg(&p).status() {
            Ok(s) if s.success() => {}
            _ => {
                eprintln!("skipped: mkfifo is not available to make a FIFO");
                return;
            }
        }
        let reader = {
            let p = p.clone();
            std::thread::spawn(move || std::fs::read(&p).unwrap())
        };
        write(&p, b"through the pipe").unwrap();
        // Checked before joining: a replaced FIFO would leave the reader waiting for a writer.
        assert!(std::fs::metadata(&p).unwrap().file_type().is_fifo());
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
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
