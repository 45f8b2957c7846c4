//! Gens's `.gmv` movies (TASVideos, "EmulatorResources/Gens/GMV"):
//!
//! | offset | size | field |
//! |---|---|---|
//! | $00 | 15 | signature `Gens Movie TEST` |
//! | $0F | 1 | format version, ASCII (`9`, or `A` for the newest) |
//! | $10 | 4 | rerecord count, little-endian |
//! | $14 | 1 | pad 1 type, ASCII `3` or `6` (buttons) |
//! | $15 | 1 | pad 2 type, ASCII `3` or `6` |
//! | $16 | 1 | flags (version `A` on): bit 7 50 frames a second, bit 6 starts from a save state, bit 5 three players |
//! | $17 | 1 | unused |
//! | $18 | 40 | movie name, ASCII, zero-terminated |
//! | $40 | 3 x frames | the frames |
//!
//! Each frame is 3 bytes: pad 1, pad 2, then pad 3 (three-player movies) or the 6-button
//! pads' extra buttons (bits 0-3 X, Y, Z, Mode of pad 1; bits 4-7 of pad 2). A pad byte has
//! bit 0 Up, 1 Down, 2 Left, 3 Right, 4 A, 5 B, 6 C, 7 Start. Bits are active-low: a set
//! bit is a button left up, so `FF FF FF` is a frame with nothing pressed. There is no frame
//! count: the frames are the rest of the file, so a length not a multiple of 3 after the
//! header means the file was cut short.

use crate::{Movie, MovieError, note_dropped};
use padscript::buttons;

/// The first 15 bytes of every `.gmv`.
pub const SIGNATURE: &[u8] = b"Gens Movie TEST";
/// Header length; the frames start here.
pub const HEADER_LEN: usize = 0x40;
/// Bytes a frame.
pub const FRAME_LEN: usize = 3;

/// A Gens pad byte's bits (after inverting the active-low levels) in `padscript` bits.
const PAD_BITS: [(u8, u8); 8] = [
    (0x01, buttons::UP),
    (0x02, buttons::DOWN),
    (0x04, buttons::LEFT),
    (0x08, buttons::RIGHT),
    (0x10, buttons::A),
    (0x20, buttons::B),
    (0x40, buttons::C),
    (0x80, buttons::START),
];

/// A Gens pad byte as `padscript` held bits.
pub fn pad_to_held(byte: u8) -> u8 {
    let pressed = !byte;
    PAD_BITS
        .iter()
        .filter(|(g, _)| pressed & g != 0)
        .fold(0, |held, (_, p)| held | p)
}

/// `padscript` held bits as a Gens pad byte.
pub fn held_to_pad(held: u8) -> u8 {
    !PAD_BITS
        .iter()
        .filter(|(_, p)| held & p != 0)
        .fold(0, |pressed, (g, _)| pressed | g)
}

pub fn read(bytes: &[u8]) -> Result<Movie, MovieError> {
    if !bytes.starts_with(SIGNATURE) {
        let shown: String = bytes
            .iter()
            .take(SIGNATURE.len())
            .map(|&b| {
                if b.is_ascii_graphic() || b == b' ' {
                    b as char
                } else {
                    '?'
                }
            })
            .collect();
        return Err(MovieError::at(
            "byte 0",
            format!("signature '{shown}' is not 'Gens Movie TEST' (not a Gens movie)"),
        ));
    }
    if bytes.len() < HEADER_LEN {
        return Err(MovieError::new(format!(
            "truncated: {} bytes, shorter than the {HEADER_LEN}-byte header",
            bytes.len()
        )));
    }
    let data = &bytes[HEADER_LEN..];
    if !data.len().is_multiple_of(FRAME_LEN) {
        let whole = data.len() / FRAME_LEN;
        return Err(MovieError::at(
            format!("byte {}", HEADER_LEN + whole * FRAME_LEN),
            format!(
                "truncated: frame {} has {} of its {FRAME_LEN} bytes (the file ends inside it)",
                whole + 1,
                data.len() % FRAME_LEN
            ),
        ));
    }
    let version = bytes[0x0F];
    let rerecords = u32::from_le_bytes(bytes[0x10..0x14].try_into().expect("4 bytes"));
    let pad_types = [bytes[0x14], bytes[0x15]];
    for (i, t) in pad_types.iter().enumerate() {
        if !matches!(t, b'3' | b'6') {
            return Err(MovieError::at(
                format!("byte {:#04x}", 0x14 + i),
                format!(
                    "pad {} type {:#04x} is neither '3' nor '6' (buttons)",
                    i + 1,
                    t
                ),
            ));
        }
    }
    // The flags exist from version 'A' on; older files have zeros (or anything) there.
    let flags = if version >= b'A' { bytes[0x16] } else { 0 };
    if flags & 0x40 != 0 {
        return Err(MovieError::at(
            "byte 0x16",
            "the movie starts from a save state (flag bit 6), which s2lab cannot load; only \
             movies from power-on can be imported",
        ));
    }
    let three_players = flags & 0x20 != 0;
    let name_bytes = &bytes[0x18..0x40];
    let name_end = name_bytes.iter().position(|&b| b == 0).unwrap_or(40);
    let name = String::from_utf8_lossy(&name_bytes[..name_end]).into_owned();

    let mut movie = Movie::default();
    movie.info.push((
        "format".into(),
        format!("Gens .gmv, version '{}'", version as char),
    ));
    if !name.is_empty() {
        movie.info.push(("name".into(), name));
    }
    movie.info.push(("rerecords".into(), rerecords.to_string()));
    movie.info.push((
        "pads".into(),
        format!(
            "{}-button, {}-button",
            pad_types[0] as char, pad_types[1] as char
        ),
    ));
    if flags & 0x80 != 0 {
        movie.notes.push(
            "recorded at 50 frames a second (a PAL console): replay it with --region eu".into(),
        );
    }
    let mut pad2 = Vec::new();
    let mut extra1 = Vec::new();
    let mut pad3 = Vec::new();
    movie.frames.reserve(data.len() / FRAME_LEN);
    for (i, f) in data.chunks_exact(FRAME_LEN).enumerate() {
        let frame = i + 1;
        movie.frames.push(pad_to_held(f[0]));
        // Pad 2's X, Y, Z and Mode (bits 4-7 of the third byte) count as pad 2.
        if f[1] != 0xFF || (!three_players && f[2] & 0xF0 != 0xF0) {
            pad2.push(frame);
        }
        if three_players && f[2] != 0xFF {
            pad3.push(frame);
        }
        if !three_players && f[2] & 0x0F != 0x0F {
            extra1.push(frame);
        }
    }
    note_dropped(&mut movie.notes, "pad 1's X, Y, Z or Mode", &extra1);
    note_dropped(&mut movie.notes, "pad 2", &pad2);
    note_dropped(&mut movie.notes, "pad 3", &pad3);
    Ok(movie)
}

/// A `.gmv` (version 'A', two 3-button pads, 60 frames a second) holding `frames` on pad 1.
pub fn write(frames: &[u8], name: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + frames.len() * FRAME_LEN);
    out.extend_from_slice(SIGNATURE);
    out.push(b'A');
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(b"33");
    out.extend_from_slice(&[0, 0]);
    let mut title = [0u8; 40];
    for (t, b) in title
        .iter_mut()
        .zip(name.bytes().filter(u8::is_ascii).take(39))
    {
        *t = b;
    }
    out.extend_from_slice(&title);
    for &held in frames {
        out.extend_from_slice(&[held_to_pad(held), 0xFF, 0xFF]);
    }
    out
}
