//! The line's colour tables: CRAM index (and intensity) to output [`Pixel`], kept between
//! lines next to a copy of the CRAM words, reg 0 bit 2 and the backdrop index they were made
//! from, and brought up to date entry by entry when those differ. CRAM changes a few times a
//! frame at most in Sonic 2 (palette cycles, fades, the water line); a game that rewrites one
//! entry on every line (a raster gradient) costs two table rows and columns a line, not a
//! rebuild. Derived state only: never saved, compares equal to any other palette, and
//! nothing can go stale since every line checks the copy (the compare is skipped while the
//! VDP core's count of CRAM writes is the one it was last found equal under).

use super::colour;
use super::pixel::{INTENSITY_HIGHLIGHT, INTENSITY_SHADOW, Pixel};

/// Entries of [`Palette::pairs`]: two 6-bit CRAM indices, one in each byte of the index (the
/// entries with bits 6-7 of either byte set are never used). Indexed by bytes, the merge
/// takes two layer pixels' indices as they lie in memory, a little-endian word (`compose`),
/// without packing them to 12 bits first; and with every 16-bit index in range it needs no
/// mask or bounds check. The used entries are the same 4,096 as a packed table's, in runs
/// of 64 (the pages of the others are never written, so never touched).
const PAIRS: usize = 1 << 16;

pub(super) struct Palette {
    /// What the tables were made from; `None` until the first line.
    source: Option<Source>,
    /// The caller's CRAM version when `source` last equalled CRAM.
    version: Option<u64>,
    /// CRAM index (any byte, read modulo 64) to pixel at normal intensity; indices 0, 16, 32
    /// and 48 (colour 0 of each palette, and their repeats) are the backdrop's colour, since
    /// opaque layer pixels never have colour 0 (`compose` leaves a transparent pick's
    /// palette bits in place).
    single: [Pixel; 256],
    /// Byte `index | code << 6` (code 0 normal, 1 shadow, 2 highlight; 3 unused) to the
    /// pixel at that intensity: what the shadow/highlight merge looks up.
    intensity: [Pixel; 256],
    /// Two pixels at once: entry `i0 | i1 << 8` holds `single[i0]` in its low half and
    /// `single[i1]` in its high half (`compose` writes a pair of pixels per lookup). Empty
    /// until the first line (headless never draws one).
    pairs: Vec<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct Source {
    cram: [u16; 64],
    full_palette: bool,
    backdrop: usize,
}

impl Default for Palette {
    fn default() -> Self {
        Self {
            source: None,
            version: None,
            single: [0; 256],
            intensity: [0; 256],
            pairs: Vec::new(),
        }
    }
}

// A copy of the machine starts without the tables (derived data: its first line drawn makes
// them again, `source` being `None`), so that headless copies stay small.
derived_cache!(Palette);

impl Palette {
    /// Brings the tables up to date with this line's CRAM, reg 0 bit 2 and backdrop (reg 7).
    /// `version`: [`super::RenderInput::cram_version`]; while it is the one the copy was last
    /// found equal under, CRAM was not written since and is not compared.
    #[inline]
    pub fn update(
        &mut self,
        cram: &[u16; 64],
        full_palette: bool,
        backdrop: usize,
        version: Option<u64>,
    ) {
        // The usual line: nothing written since the last one (no call, no compare).
        if version.is_some()
            && self.version == version
            && let Some(s) = &self.source
            && s.full_palette == full_palette
            && s.backdrop == backdrop
        {
            return;
        }
        self.compare_and_update(cram, full_palette, backdrop, version);
    }

    /// [`Palette::update`] past its first check.
    #[inline(never)]
    fn compare_and_update(
        &mut self,
        cram: &[u16; 64],
        full_palette: bool,
        backdrop: usize,
        version: Option<u64>,
    ) {
        // Compared in place: copying the 128 CRAM bytes first would cost more than the check.
        if let Some(s) = &self.source
            && s.full_palette == full_palette
            && s.backdrop == backdrop
            && ((version.is_some() && self.version == version) || s.cram == *cram)
        {
            self.version = version;
            return;
        }
        self.version = version;
        let source = Source {
            cram: *cram,
            full_palette,
            backdrop,
        };
        let pixels = colour::line_palette(cram, full_palette);
        let rebuild = self.source.is_none();
        if rebuild && self.pairs.is_empty() {
            self.pairs = vec![0; PAIRS];
        }
        self.source = Some(source);
        for (i, &pixel) in pixels.iter().enumerate() {
            // Colour 0 of a palette is never shown as itself: a layer pixel of colour 0 is
            // transparent, so where such an index reaches a table the backdrop shows.
            let pixel = if i & 15 == 0 { pixels[backdrop] } else { pixel };
            if rebuild || self.single[i] != pixel {
                self.set(i, pixel);
            }
        }
    }

    /// Entry `i` (0-63) becomes `pixel` in every table.
    fn set(&mut self, i: usize, pixel: Pixel) {
        for k in 0..4 {
            self.single[i + 64 * k] = pixel;
        }
        self.intensity[i] = pixel;
        self.intensity[i + 64] = pixel | INTENSITY_SHADOW;
        self.intensity[i + 128] = pixel | INTENSITY_HIGHLIGHT;
        self.intensity[i + 192] = pixel;
        let (low, high) = (pixel as u32, (pixel as u32) << 16);
        for j in 0..64 {
            let row = &mut self.pairs[i | j << 8];
            *row = (*row & 0xFFFF_0000) | low;
            let column = &mut self.pairs[j | i << 8];
            *column = (*column & 0xFFFF) | high;
        }
    }

    pub fn single(&self) -> &[Pixel; 256] {
        &self.single
    }

    pub fn intensity(&self) -> &[Pixel; 256] {
        &self.intensity
    }

    /// The pair table, [`PAIRS`] entries (index it with `i0 | i1 << 8`).
    pub fn pairs(&self) -> &[u32] {
        &self.pairs
    }
}

#[cfg(test)]
mod tests {
    use super::super::{INTENSITY_NORMAL, cram_to_pixel};
    use super::*;

    /// The tables after any sequence of CRAM, mode and backdrop changes are the ones made
    /// from scratch for the last state, checked against `cram_to_pixel` per entry.
    #[test]
    fn updated_tables_match_the_cram() {
        let mut palette = Palette::default();
        let mut cram = [0u16; 64];
        let mut x = 0x9E37_79B9u32;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for step in 0..300 {
            // Mostly one or two entries at a time, sometimes many, sometimes none.
            let changes = match step % 7 {
                0 => 40,
                1 => 0,
                _ => 1 + step % 2,
            };
            for _ in 0..changes {
                let r = next();
                cram[(r % 64) as usize] = (r >> 8) as u16 & 0x0EEE;
            }
            let full = next() % 5 != 0;
            let backdrop = (next() % 64) as usize;
            palette.update(&cram, full, backdrop, None);
            let mask = if full { 0x1FF } else { 0x049 };
            let expect = |i: usize| {
                let i = i % 64;
                cram_to_pixel(cram[if i & 15 == 0 { backdrop } else { i }]) & mask
            };
            for i in 0..256 {
                assert_eq!(palette.single()[i], expect(i), "step {step} single {i}");
                let code = [INTENSITY_NORMAL, INTENSITY_SHADOW, INTENSITY_HIGHLIGHT, 0][i >> 6];
                assert_eq!(palette.intensity()[i], expect(i) | code, "step {step} {i}");
            }
            for (i0, i1) in (0..64).flat_map(|i0| (0..64).map(move |i1| (i0, i1))) {
                let want = expect(i0) as u32 | (expect(i1) as u32) << 16;
                let p = i0 | i1 << 8;
                assert_eq!(palette.pairs()[p], want, "step {step} pair {p:04x}");
            }
        }
    }
}
