//! Decoded pattern rows: every VRAM long word kept as the eight layer pixels it stands for
//! (`pattern::expand_row`, with the `pattern::OPAQUE` flags), so drawing a plane cell is one
//! load instead of a decode.
//!
//! Kept right by the VDP core, which marks the 32-byte blocks (one pattern row group, eight
//! long words) its write paths touch in a [`DirtyPatterns`] (data port words, 68000 transfers,
//! DMA fill and copy byte by byte; [`super::super::Vdp::vram_written`], for writes it cannot
//! place, marks everything) and hands them to [`super::Renderer::sync_patterns`] before each
//! drawn line. The rows carry the VRAM version (the core's count of writes) they were last
//! brought up to: a line whose input has another version or none (the renderer's tests, a
//! VRAM of another size, the first line after a state load) decodes all of VRAM first, so
//! a caller that never syncs still draws right. Derived state only: never saved, compares
//! equal to any other.

use super::pattern::{ENTRY_ATTR, NameEntry, ONES, OPAQUE, Vram, expand_row};

/// Entries in the decoded rows: every pattern (2,048, or 1,024 of 8x16 in interlace mode 2),
/// every row of it, in each of the four flips.
pub(super) const ROWS: usize = 1 << 16;

/// The decoded rows as kept: [`ROWS`] entries and 16 more, never written (0), so that a
/// line's view from its cell row on (`&rows[r..r + ROWS]`, `r` below 16) is still [`ROWS`]
/// entries, which a cell indexes with its row-0 index without a bounds check (`name_row`).
pub(super) type Rows = [u64; ROWS + 16];

/// Where the row a cell shows lies in the decoded rows: the name-table entry's flip and
/// pattern bits (`pccv hnnn nnnn nnnn`) above the row of the cell on screen (`row`: 0-7, or
/// 0-15 in interlace mode 2), so that a cell is one load. The entry holds the pattern's row
/// `row` (or, vertically flipped, its mirror row), its pixels reversed when flipped
/// horizontally. In interlace mode 2 only ten pattern bits count (genvdp.txt).
#[inline]
pub(super) fn row_index(entry: u16, row: usize, interlace2: bool) -> usize {
    if interlace2 {
        let bits = (entry as usize & 0x3FF) | (entry as usize & 0x1800) >> 1;
        ((bits << 4) | row) & (ROWS - 1)
    } else {
        // `vh` and the eleven pattern bits are the entry's low 13 bits: shifted left by 3,
        // they fill the 16 bits of the index above the row (the palette and priority fall
        // out of the `u16`).
        (entry << 3) as usize | (row & 7)
    }
}

/// Row `row` of every cell on a line (0-7, or 0-15 in interlace mode 2), as drawn from the
/// decoded rows (`pattern_rows`) for a run of cells.
#[derive(Clone, Copy, Debug)]
pub(super) struct CellRow {
    row: usize,
    interlace2: bool,
}

impl CellRow {
    pub fn new(row: u32, interlace2: bool) -> Self {
        CellRow {
            row: row as usize,
            interlace2,
        }
    }

    /// Draws the cell row of name-table entry `entry` into `dst[..8]` from the decoded rows
    /// (`pattern_rows`: flips already applied), left to right as on screen, with the entry's
    /// palette and priority bits in every pixel.
    #[inline]
    pub fn draw(&self, rows: &Rows, entry: NameEntry, dst: &mut [u8]) {
        let row = rows[row_index(entry.0, self.row, self.interlace2)];
        dst[..8].copy_from_slice(&(row | ENTRY_ATTR[(entry.0 >> 13) as usize]).to_le_bytes());
    }
}

/// The VRAM blocks of 32 bytes (a normal pattern; half an interlace mode 2 one) written since
/// the renderer last decoded them, one bit each. Kept by the VDP core beside VRAM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirtyPatterns {
    bits: [u64; 32],
    /// Bit `w` set when `bits[w]` may be non-zero: a sync visits only those words.
    words: u32,
}

impl Default for DirtyPatterns {
    fn default() -> Self {
        // Nothing drawn from VRAM yet: the first sync decodes everything anyway.
        Self {
            bits: [!0; 32],
            words: !0,
        }
    }
}

impl DirtyPatterns {
    /// The byte at `addr` (any value; VRAM addresses are 16 bits) was written.
    #[inline]
    pub fn mark(&mut self, addr: usize) {
        let block = (addr & 0xFFFF) >> 5;
        self.bits[block >> 6] |= 1 << (block & 63);
        self.words |= 1 << (block >> 6);
    }

    /// The `len` bytes from `addr` on were written (`addr + len` at most 64 KiB).
    pub fn mark_range(&mut self, addr: usize, len: usize) {
        if len == 0 {
            return;
        }
        let (first, last) = (addr >> 5, (addr + len - 1).min(0xFFFF) >> 5);
        for block in first..=last {
            self.bits[block >> 6] |= 1 << (block & 63);
            self.words |= 1 << (block >> 6);
        }
    }

    /// `count` bytes were written from `addr` on, `step` bytes apart, the address wrapping at
    /// 64 KiB (what a DMA fill or copy writes, each byte at its address ^ 1, which is in the
    /// same block).
    pub fn mark_steps(&mut self, addr: usize, count: usize, step: usize) {
        if count == 0 {
            return;
        }
        let span = (count - 1) * step + 1;
        if step <= 32 && addr + span <= 0x1_0000 {
            // No block between the first byte and the last is stepped over.
            self.mark_range(addr, span);
        } else {
            let mut a = addr;
            for _ in 0..count {
                self.mark(a);
                a = (a + step) & 0xFFFF;
            }
        }
    }

    /// VRAM was written somewhere.
    pub fn mark_all(&mut self) {
        self.bits = [!0; 32];
        self.words = !0;
    }
}

/// The decoded rows ([`row_index`]), the layout they are in and the VRAM version they are up
/// to date with. The 512 KiB of rows are made at the first line drawn (headless never draws),
/// and a copy of the machine starts without them: derived data, decoded again in full by the
/// copy's first line drawn (`version` is `None` whenever `rows` is).
#[derive(Default)]
pub(super) struct PatternRows {
    rows: Option<Box<Rows>>,
    interlace2: bool,
    version: Option<u64>,
}

derived_cache!(PatternRows);

impl PatternRows {
    /// Brings the rows up to VRAM as of version `version`, decoding the blocks `dirty` marks
    /// (all of VRAM if the rows were never decoded or were laid out for the other interlace
    /// mode), and clears the marks.
    pub fn sync(&mut self, vram: &Vram, dirty: &mut DirtyPatterns, version: u64, interlace2: bool) {
        let current = self.version.is_some() && self.interlace2 == interlace2;
        if current && dirty.words == 0 {
            // Nothing written since the last sync (the usual line).
            self.version = Some(version);
            return;
        }
        if !current {
            self.decode_all(vram, interlace2);
            dirty.bits = [0; 32];
        } else {
            let mut words = dirty.words;
            while words != 0 {
                let word = words.trailing_zeros() as usize;
                words &= words - 1;
                let mut bits = std::mem::take(&mut dirty.bits[word]);
                while bits != 0 {
                    let block = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.decode_block(vram, block);
                }
            }
        }
        dirty.words = 0;
        self.version = Some(version);
    }

    /// The rows for a line whose VRAM has version `version`: decoded again in full unless
    /// they are already up to that version in that layout.
    #[inline]
    pub fn current(&mut self, vram: &Vram, version: Option<u64>, interlace2: bool) -> &Rows {
        if version.is_none() || self.version != version || self.interlace2 != interlace2 {
            self.decode_all(vram, interlace2);
            self.version = version;
        }
        self.rows.as_deref().expect("decoded above")
    }

    #[cold]
    #[inline(never)]
    fn decode_all(&mut self, vram: &Vram, interlace2: bool) {
        self.interlace2 = interlace2;
        self.rows
            .get_or_insert_with(|| vec![0; ROWS + 16].into_boxed_slice().try_into().unwrap());
        for block in 0..0x1_0000 / 32 {
            self.decode_block(vram, block);
        }
    }

    /// Decodes the 32 bytes of block `block` (eight pattern rows) into the four flips of each
    /// (the rows exist: `decode_all` made them, or `sync` found them current).
    #[inline]
    fn decode_block(&mut self, vram: &Vram, block: usize) {
        let interlace2 = self.interlace2;
        let Some(rows) = self.rows.as_deref_mut() else {
            return;
        };
        let bytes = &vram[block * 32..block * 32 + 32];
        // The pattern and the block's first row in it; in interlace mode 2 a pattern is two
        // blocks of eight rows.
        let (pattern, first, last) = if interlace2 {
            (block >> 1, (block & 1) * 8, 15)
        } else {
            (block, 0, 7)
        };
        for (k, long) in bytes.chunks_exact(4).enumerate() {
            let row = expand_row(u32::from_be_bytes(long.try_into().unwrap()));
            // `OPAQUE` on each pixel whose colour is not 0: colour + 127 reaches bit 7 then,
            // and no byte carries into the next.
            let row = row | ((row + 0x7F * ONES) & (OPAQUE as u64 * ONES));
            let r = first + k;
            for (flips, value) in [(0u16, row), (0x0800, row.swap_bytes())] {
                let entry = flips | pattern as u16;
                rows[row_index(entry, r, interlace2)] = value;
                rows[row_index(entry | 0x1000, last - r, interlace2)] = value;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DirtyPatterns, OPAQUE, PatternRows, Rows, row_index};
    use crate::vdp::render::pattern::row_addr;

    /// The eight pixels cell row `row` of name entry `entry` shows, read nibble by nibble
    /// from VRAM (high nibble of each byte first; reversed by the horizontal flip), opaque
    /// ones flagged.
    fn shown(vram: &[u8], entry: u16, row: usize, interlace2: bool) -> [u8; 8] {
        let addr = row_addr(entry & 0x7FF, row as u32, entry & 0x1000 != 0, interlace2);
        let mut out = [0u8; 8];
        for (i, px) in out.iter_mut().enumerate() {
            let i = if entry & 0x0800 != 0 { 7 - i } else { i };
            let byte = vram[addr + i / 2];
            *px = if i.is_multiple_of(2) {
                byte >> 4
            } else {
                byte & 15
            };
            if *px != 0 {
                *px |= OPAQUE;
            }
        }
        out
    }

    fn check(rows: &Rows, vram: &[u8], interlace2: bool, next: &mut impl FnMut() -> u32) {
        for _ in 0..3_000 {
            let entry = next() as u16;
            let row = next() as usize % if interlace2 { 16 } else { 8 };
            let got = rows[row_index(entry, row, interlace2)].to_le_bytes();
            let want = shown(vram, entry, row, interlace2);
            assert_eq!(got, want, "{entry:04x} {row} {interlace2}");
        }
    }

    /// Random writes of every shape the VDP makes (single bytes, runs, writes it cannot
    /// place), marked as the core marks them, keep every decoded row equal to VRAM read
    /// pixel by pixel, in both layouts; a line given another version or none, or the other
    /// interlace mode, decodes everything.
    #[test]
    fn synced_rows_follow_marked_writes() {
        let mut vram = Box::new([0u8; 0x1_0000]);
        let mut rows = PatternRows::default();
        let mut dirty = DirtyPatterns::default();
        let mut x = 0x2545_F491u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for version in 0..300u64 {
            let interlace2 = version / 100 == 1;
            for _ in 0..(next() % 6) {
                let addr = next() as usize & 0xFFFF;
                match next() % 4 {
                    0 => {
                        vram[addr] = next() as u8;
                        dirty.mark(addr);
                    }
                    1 => {
                        let len = (next() as usize % 300).min(0x1_0000 - addr);
                        for b in &mut vram[addr..addr + len] {
                            *b = next() as u8;
                        }
                        dirty.mark_range(addr, len);
                    }
                    2 => {
                        // A DMA fill or copy: bytes `step` apart, wrapping at 64 KiB.
                        let (count, step) = (next() as usize % 200, next() as usize % 80);
                        let mut a = addr;
                        for _ in 0..count {
                            vram[a ^ 1] = next() as u8;
                            a = (a + step) & 0xFFFF;
                        }
                        dirty.mark_steps(addr, count, step);
                    }
                    _ => {
                        vram[addr] ^= 0x5A;
                        dirty.mark_all();
                    }
                }
            }
            rows.sync(&vram, &mut dirty, version, interlace2);
            let decoded = rows.current(&vram, Some(version), interlace2);
            check(decoded, &vram[..], interlace2, &mut next);
        }
        // Unsynced writes: no version decodes all again.
        for b in vram.iter_mut() {
            *b = next() as u8;
        }
        let decoded = rows.current(&vram, None, false);
        check(decoded, &vram[..], false, &mut next);
    }
}
