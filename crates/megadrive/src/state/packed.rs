//! The large memories of a save state (work RAM, Z80 RAM, VRAM, the two frame buffers) as runs.
//!
//! Most of a state is memory that holds long stretches of one value: a cleared RAM, unused VRAM,
//! a backdrop-coloured or blank frame, and the rows of the frame buffers below the picture
//! (they are sized for interlace mode 2). Stored plainly, a state was 755 KB, four fifths of it
//! frame buffers; stored as runs, a state of a small cartridge is a few kilobytes and Sonic 2's
//! tens of kilobytes. Nothing is dropped: every byte comes back.
//!
//! Layout: the decoded length in bytes (u32, must be the memory's size), then chunks until that
//! length is reached: tag 0, a unit count and that many units of literal bytes; or tag 1, a unit
//! count and one unit repeated that many times. A unit is 1 byte (memories) or 2 (16-bit pixels),
//! so a run of one pixel value is one chunk.

use super::{R, Reader, Writer};

const LITERAL: u8 = 0;
const RUN: u8 = 1;
/// Shorter runs stay in the literal around them (a chunk header is 5 bytes).
const MIN_RUN: usize = 8;

/// Writes `data`, a whole number of `unit`-byte units, as chunks.
pub(super) fn write(w: &mut Writer, data: &[u8], unit: usize) {
    debug_assert!(data.len().is_multiple_of(unit));
    w.u32(data.len() as u32);
    let units: Vec<&[u8]> = data.chunks_exact(unit).collect();
    let n = units.len();
    let literal = |w: &mut Writer, from: usize, to: usize| {
        if to > from {
            w.u8(LITERAL);
            w.u32((to - from) as u32);
            w.buf.extend_from_slice(&data[from * unit..to * unit]);
        }
    };
    let (mut i, mut literal_from) = (0, 0);
    while i < n {
        let mut j = i + 1;
        while j < n && units[j] == units[i] {
            j += 1;
        }
        if j - i >= MIN_RUN {
            literal(w, literal_from, i);
            w.u8(RUN);
            w.u32((j - i) as u32);
            w.buf.extend_from_slice(units[i]);
            literal_from = j;
        }
        i = j;
    }
    literal(w, literal_from, n);
}

/// Reads a memory of exactly `len` bytes written by [`write`] with 1-byte units.
pub(super) fn read(r: &mut Reader<'_>, len: usize) -> R<Vec<u8>> {
    read_units(r, len, 1, |b| b[0])
}

/// 16-bit values (pixels) as little-endian 2-byte units.
pub(super) fn write_u16s(w: &mut Writer, data: &[u16]) {
    let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    write(w, &bytes, 2);
}

/// Reads exactly `n` 16-bit values written by [`write_u16s`].
pub(super) fn read_u16s(r: &mut Reader<'_>, n: usize) -> R<Vec<u16>> {
    read_units(r, n * 2, 2, |b| u16::from_le_bytes([b[0], b[1]]))
}

/// Reads `len` bytes of `unit`-byte units as values `T` (a run is filled, not copied unit by
/// unit: the save-state fuzz target loads two 300,000-pixel frame buffers per input).
fn read_units<T: Copy>(
    r: &mut Reader<'_>,
    len: usize,
    unit: usize,
    value: fn(&[u8]) -> T,
) -> R<Vec<T>> {
    if r.u32()? as usize != len {
        return Err(r.invalid("unexpected memory size"));
    }
    let n = len / unit;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let tag = r.u8()?;
        let count = r.u32()? as usize;
        if count == 0 || count > n - out.len() {
            return Err(r.invalid("memory run length out of range"));
        }
        match tag {
            LITERAL => out.extend(r.take(count * unit)?.chunks_exact(unit).map(value)),
            RUN => {
                let v = value(r.take(unit)?);
                out.resize(out.len() + count, v);
            }
            _ => return Err(r.invalid("memory chunk tag")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(data: &[u8], unit: usize) -> usize {
        let mut w = Writer::default();
        write(&mut w, data, unit);
        let mut r = Reader {
            buf: &w.buf,
            pos: 0,
        };
        let back: Vec<u8> = if unit == 1 {
            read(&mut r, data.len()).unwrap()
        } else {
            read_u16s(&mut r, data.len() / 2)
                .unwrap()
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect()
        };
        assert_eq!(back, data);
        assert_eq!(r.pos, w.buf.len());
        w.buf.len()
    }

    #[test]
    fn memories_come_back_byte_for_byte() {
        assert_eq!(round_trip(&[], 1), 4);
        assert_eq!(round_trip(&[0; 65536], 1), 4 + 5 + 1);
        let mut mixed = vec![0u8; 1000];
        mixed[3] = 7;
        mixed[500..507].copy_from_slice(&[1, 1, 1, 1, 1, 1, 1]);
        mixed[999] = 9;
        round_trip(&mixed, 1);
        let noise: Vec<u8> = (0..4099u32).map(|i| (i * 7919 % 251) as u8).collect();
        assert_eq!(round_trip(&noise, 1), 4 + 5 + noise.len());
        // A pixel value whose bytes differ is still one run of 2-byte units.
        let pixels: Vec<u8> = [0x23u8, 0x01].repeat(5000);
        assert_eq!(round_trip(&pixels, 2), 4 + 5 + 2);
        round_trip(&[1, 2, 1, 2, 1, 2], 2);
    }

    #[test]
    fn bad_lengths_and_tags_are_refused() {
        let mut w = Writer::default();
        write(&mut w, &[5; 100], 1);
        let read_as = |bytes: &[u8], len: usize| read(&mut Reader { buf: bytes, pos: 0 }, len);
        assert!(read_as(&w.buf, 99).is_err());
        let mut long = w.buf.clone();
        long[5..9].copy_from_slice(&101u32.to_le_bytes());
        assert!(read_as(&long, 100).is_err());
        let mut zero = w.buf.clone();
        zero[5..9].copy_from_slice(&0u32.to_le_bytes());
        assert!(read_as(&zero, 100).is_err());
        let mut tag = w.buf.clone();
        tag[4] = 2;
        assert!(read_as(&tag, 100).is_err());
        assert!(read_as(&w.buf[..w.buf.len() - 1], 100).is_err());
    }
}
