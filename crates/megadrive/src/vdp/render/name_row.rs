//! A plane's name-table row kept decoded from line to line: the lines of a cell row (8, or
//! 16 in interlace mode 2) under one vertical scroll read the same row of entries, so each
//! cell's place in the decoded pattern rows (`pattern_rows::row_index` of its entry, row 0)
//! and its attribute bits for all eight pixels are worked out once per row instead of once
//! per line, and drawing a cell is two loads, two ORs and a store.
//!
//! Kept next to the address of the row, the width of the plane, the interlace mode and the
//! VRAM version ([`super::RenderInput::vram_version`]) it was decoded under; any difference,
//! or a line whose VRAM version is unknown, decodes it again. Derived state only: a copy
//! starts without it (its VRAM version numbers are its own from then on) and it compares
//! equal to any other.

use super::pattern::{ENTRY_ATTR, Vram};
use super::pattern_rows::row_index;

/// The widest plane, in cells.
const MAX_CELLS: usize = 128;
/// The widest plane, in 2-cell columns.
pub(super) const MAX_COLUMNS: usize = MAX_CELLS / 2;

#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    addr: usize,
    col_mask: u32,
    interlace2: bool,
}

/// One decoded name-table row ([`NameRow::decoded`]).
pub(super) struct NameRow {
    key: Option<Key>,
    /// The VRAM version the row was last found to hold under (`None`: not known).
    version: Option<u64>,
    /// The row's entries as VRAM held them when decoded (big-endian words): after VRAM was
    /// written elsewhere (sprite tables, patterns), a compare finds the row unchanged.
    source: [u8; 2 * MAX_CELLS],
    /// Per cell, in 2-cell columns: `row_index` of its entry for row 0 (a cell's row `r` is
    /// at `index | r`).
    index: [[u16; 2]; MAX_COLUMNS],
    /// Per cell, in 2-cell columns: its entry's priority and palette bits in every byte
    /// (eight layer pixels).
    attr: [[u64; 2]; MAX_COLUMNS],
}

impl Default for NameRow {
    fn default() -> Self {
        Self {
            key: None,
            version: None,
            source: [0; 2 * MAX_CELLS],
            index: [[0; 2]; MAX_COLUMNS],
            attr: [[0; 2]; MAX_COLUMNS],
        }
    }
}

derived_cache!(NameRow);

/// A decoded row: cell `2k + i` (plane-relative, `0..=col_mask`) at `index[k][i]` and
/// `attr[k][i]` (a plane column is always fetched whole, starting at an even cell).
pub(super) struct Decoded<'a> {
    pub index: &'a [[u16; 2]; MAX_COLUMNS],
    pub attr: &'a [[u64; 2]; MAX_COLUMNS],
}

impl NameRow {
    /// The row whose entries start at VRAM byte `addr` (cell `c`'s entry at `addr + 2c`,
    /// wrapping at 64 KiB, as `config::PlaneGeometry::entry_addr` places it), for a plane
    /// `col_mask + 1` cells wide, as VRAM holds it at version `version`.
    #[inline]
    pub fn decoded(
        &mut self,
        vram: &Vram,
        version: Option<u64>,
        addr: usize,
        col_mask: u32,
        interlace2: bool,
    ) -> Decoded<'_> {
        let key = Some(Key {
            addr,
            col_mask,
            interlace2,
        });
        if self.key != key || version.is_none() || self.version != version {
            self.refresh(vram, key, addr, col_mask, interlace2);
            self.version = version;
        }
        Decoded {
            index: &self.index,
            attr: &self.attr,
        }
    }

    /// Decodes the row again unless it is the same row with the same entries.
    #[inline(never)]
    fn refresh(
        &mut self,
        vram: &Vram,
        key: Option<Key>,
        addr: usize,
        col_mask: u32,
        interlace2: bool,
    ) {
        let bytes = 2 * (col_mask as usize + 1).min(MAX_CELLS);
        let addr = addr & 0xFFFE;
        let wrapped;
        let row: &[u8] = if addr + bytes <= vram.len() {
            &vram[addr..addr + bytes]
        } else {
            // Only a 128-cell row at the very top of VRAM.
            wrapped = wrapping_row(vram, addr, bytes);
            &wrapped[..bytes]
        };
        if self.key == key && self.source[..bytes] == *row {
            return;
        }
        self.key = key;
        self.source[..bytes].copy_from_slice(row);
        // In loops the compiler vectorises.
        let words = self.source[..bytes].as_chunks::<2>().0;
        if interlace2 {
            for (word, index) in words.iter().zip(self.index.as_flattened_mut()) {
                *index = row_index(u16::from_be_bytes(*word), 0, true) as u16;
            }
        } else {
            for (word, index) in words.iter().zip(self.index.as_flattened_mut()) {
                // `row_index` for row 0: the flips and pattern bits shifted up by 3.
                *index = u16::from_be_bytes(*word) << 3;
            }
        }
        // 32 cells at a time (every plane width is a multiple), unrolled.
        let attrs = self.attr.as_flattened_mut().as_chunks_mut::<32>().0;
        for (words, attrs) in words.as_chunks::<32>().0.iter().zip(attrs) {
            for (word, attr) in words.iter().zip(attrs) {
                // The entry's top three bits (`pcc`) are the top of its first byte.
                *attr = ENTRY_ATTR[(word[0] >> 5) as usize];
            }
        }
    }
}

/// The `bytes` bytes from `addr` on, wrapping at 64 KiB.
#[inline(never)]
fn wrapping_row(vram: &Vram, addr: usize, bytes: usize) -> [u8; 2 * MAX_CELLS] {
    let mut row = [0u8; 2 * MAX_CELLS];
    for (i, b) in row[..bytes].iter_mut().enumerate() {
        *b = vram[(addr + i) & 0xFFFF];
    }
    row
}
