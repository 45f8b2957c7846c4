//! Decoded pattern rows: every VRAM long word kept as the eight layer pixels it stands for
//! (`pattern::expand_row`), so drawing a plane cell is one load instead of a decode.
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

use super::pattern::Vram;

/// Long words in VRAM: the rows cache holds one decoded row for each.
pub(super) const LONGS: usize = 0x1_0000 / 4;

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

    /// VRAM was written somewhere.
    pub fn mark_all(&mut self) {
        self.bits = [!0; 32];
        self.words = !0;
    }
}

/// One decoded row for each VRAM long word, and the VRAM version it is up to date with.
#[derive(Clone)]
pub(super) struct PatternRows {
    rows: Box<[u64; LONGS]>,
    version: Option<u64>,
}

impl Default for PatternRows {
    fn default() -> Self {
        Self {
            rows: vec![0; LONGS].into_boxed_slice().try_into().unwrap(),
            version: None,
        }
    }
}

impl std::fmt::Debug for PatternRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternRows").finish_non_exhaustive()
    }
}

equal_to_any!(PatternRows);

impl PatternRows {
    /// Brings the rows up to VRAM as of version `version`, decoding the blocks `dirty` marks
    /// (all of VRAM if the rows were never decoded), and clears the marks.
    pub fn sync(&mut self, vram: &Vram, dirty: &mut DirtyPatterns, version: u64) {
        if self.version.is_some() && dirty.words == 0 {
            // Nothing written since the last sync (the usual line).
            self.version = Some(version);
            return;
        }
        if self.version.is_none() {
            self.decode_all(vram);
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
    /// they are already up to that version.
    #[inline]
    pub fn current(&mut self, vram: &Vram, version: Option<u64>) -> &[u64; LONGS] {
        if version.is_none() || self.version != version {
            self.decode_all(vram);
            self.version = version;
        }
        &self.rows
    }

    #[cold]
    #[inline(never)]
    fn decode_all(&mut self, vram: &Vram) {
        for (row, long) in self.rows.iter_mut().zip(vram.chunks_exact(4)) {
            *row = super::pattern::expand_row(u32::from_be_bytes(long.try_into().unwrap()));
        }
    }

    #[inline]
    fn decode_block(&mut self, vram: &Vram, block: usize) {
        let bytes = &vram[block * 32..block * 32 + 32];
        let rows = &mut self.rows[block * 8..block * 8 + 8];
        for (row, long) in rows.iter_mut().zip(bytes.chunks_exact(4)) {
            *row = super::pattern::expand_row(u32::from_be_bytes(long.try_into().unwrap()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DirtyPatterns, PatternRows};

    /// Pixel `i` of the row at `addr`, read nibble by nibble: high nibble of each byte first.
    fn pixel(vram: &[u8], addr: usize, i: usize) -> u8 {
        let byte = vram[addr + i / 2];
        if i.is_multiple_of(2) {
            byte >> 4
        } else {
            byte & 15
        }
    }

    /// Random writes of every shape the VDP makes (single bytes, words, runs), marked as the
    /// core marks them, keep every decoded row equal to VRAM read pixel by pixel; a line
    /// given another version or none decodes everything.
    #[test]
    fn synced_rows_follow_marked_writes() {
        let mut vram = Box::new([0u8; 0x1_0000]);
        let mut rows = PatternRows::default();
        let mut dirty = DirtyPatterns::default();
        let mut x = 0x2545_F491u32;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for version in 0..400u64 {
            for _ in 0..(next() % 6) {
                let addr = next() as usize & 0xFFFF;
                match next() % 3 {
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
                    _ => {
                        vram[addr] ^= 0x5A;
                        dirty.mark_all();
                    }
                }
            }
            rows.sync(&vram, &mut dirty, version);
            let decoded = rows.current(&vram, Some(version));
            for long in (0..super::LONGS).step_by(7) {
                for i in 0..8 {
                    let got = (decoded[long] >> (8 * i)) as u8;
                    assert_eq!(got, pixel(&vram[..], long * 4, i), "{long:04x} {i}");
                }
            }
        }
        // Unsynced writes: another version decodes all again.
        vram[0x1234] = 0xF0;
        let decoded = rows.current(&vram, None);
        assert_eq!(decoded[0x1234 / 4] as u8, 0x0F);
    }
}
