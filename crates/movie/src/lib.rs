//! Movies from other emulators as pad-1 frames: BizHawk's `.bk2` (a zip archive with
//! `Header.txt` and `Input Log.txt`, `bk2`) and Gens's `.gmv` (a 64-byte header and 3 bytes a
//! frame, `gmv`), read into the held bytes of an input script (`padscript`), and a `.bk2`
//! written from them. Only what an input script can hold survives: pad 1's eight 3-button
//! buttons on frames from power-on. Pad 2 and the 6-button pad's X, Y, Z and Mode (Sonic 2
//! reads none of them) are dropped with a note; a movie that resets or powers the console,
//! starts from a save state, or uses another controller is refused.
//!
//! Frame 1 of the script is the movie's first frame (the first line of the input log, the
//! first 3 bytes after the `.gmv` header): both emulators record one input per frame from
//! power-on.

#![forbid(unsafe_code)]

use std::fmt;

pub mod bk2;
pub mod gmv;
pub mod zip;

/// Bad input: where (an archive entry and line, a byte offset, or nothing when it concerns
/// the whole file) and what is wrong. The caller names the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovieError {
    pub place: String,
    pub message: String,
}

impl MovieError {
    pub fn new(message: impl Into<String>) -> MovieError {
        MovieError {
            place: String::new(),
            message: message.into(),
        }
    }

    pub fn at(place: impl Into<String>, message: impl Into<String>) -> MovieError {
        MovieError {
            place: place.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for MovieError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.place.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.place, self.message)
        }
    }
}

impl std::error::Error for MovieError {}

/// Which tool made a movie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Bk2,
    Gmv,
}

impl Format {
    /// From a file name's extension (`.bk2`, `.gmv`, any case).
    pub fn from_extension(path: &std::path::Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "bk2" => Some(Format::Bk2),
            "gmv" => Some(Format::Gmv),
            _ => None,
        }
    }

    /// From the first bytes: a zip archive or Gens's signature.
    pub fn sniff(bytes: &[u8]) -> Option<Format> {
        if bytes.starts_with(b"PK") {
            Some(Format::Bk2)
        } else if bytes.starts_with(gmv::SIGNATURE) {
            Some(Format::Gmv)
        } else {
            None
        }
    }
}

/// A movie read into pad 1's frames.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Movie {
    /// One held byte a frame (bits of `padscript::buttons`), frame 1 first.
    pub frames: Vec<u8>,
    /// What the movie says about itself, for the user: `(field, value)` pairs such as the game
    /// name, the ROM hash, the rerecord count.
    pub info: Vec<(String, String)>,
    /// What was dropped or may not replay the same (one line each).
    pub notes: Vec<String>,
    /// The ROM's SHA-1 when the movie records one (lower-case hex).
    pub sha1: Option<String>,
}

/// Reads a movie of `format`, or of the format its bytes announce when `None`.
pub fn read(bytes: &[u8], format: Option<Format>) -> Result<Movie, MovieError> {
    let format = format.or_else(|| Format::sniff(bytes)).ok_or_else(|| {
        MovieError::new(
            "neither a BizHawk .bk2 (a zip archive, starting 'PK') nor a Gens .gmv (starting \
             'Gens Movie TEST')",
        )
    })?;
    let movie = match format {
        Format::Bk2 => bk2::read(bytes)?,
        Format::Gmv => gmv::read(bytes)?,
    };
    if movie.frames.len() > padscript::MAX_SCRIPT_FRAMES {
        return Err(MovieError::new(format!(
            "{} frames, more than the {} an input script may hold",
            movie.frames.len(),
            padscript::MAX_SCRIPT_FRAMES
        )));
    }
    Ok(movie)
}

/// Notes the frames on which a dropped control is held, as "NAME held on N frames (first:
/// frame F)".
pub(crate) fn note_dropped(notes: &mut Vec<String>, name: &str, frames: &[usize]) {
    if let Some(first) = frames.first() {
        notes.push(format!(
            "{name} held on {} frame{} (first: frame {first}); an input script holds pad 1's \
             3-button pad only, so it was dropped",
            frames.len(),
            if frames.len() == 1 { "" } else { "s" }
        ));
    }
}
