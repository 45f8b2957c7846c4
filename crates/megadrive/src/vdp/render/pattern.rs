//! Patterns: name-table entries and 4-bit pattern rows, decoded straight from VRAM.
//!
//! Layer pixels everywhere in the renderer are one byte: bits 0-3 the colour index, bits 4-5
//! the palette, bit 6 the priority. A transparent pixel (colour 0) keeps its tile's priority
//! bit, because shadow/highlight looks at tile priority, not at pixel opacity. Plane and
//! window pixels (not sprite pixels) also carry [`OPAQUE`] in bit 7, set exactly when the
//! colour is not 0, so that `compose` tests opacity with one mask.

/// Layer-pixel priority bit.
pub(super) const PRIORITY: u8 = 0x40;

/// Plane-pixel bit: the colour is not 0 (set by the decoded rows, `pattern_rows`).
pub(super) const OPAQUE: u8 = 0x80;

/// The VDP's 64 KiB of VRAM, byte-addressed in the VDP's own order.
pub(super) type Vram = [u8; 0x1_0000];

/// Reads a big-endian word (VRAM is byte-addressed in the VDP's order).
#[inline]
pub(super) fn vram_word(vram: &Vram, addr: usize) -> u16 {
    let a = addr & 0xFFFE;
    u16::from_be_bytes([vram[a], vram[a | 1]])
}

/// Reads a big-endian long word (`addr` rounded down to a multiple of 4).
#[inline]
pub(super) fn vram_long(vram: &Vram, addr: usize) -> u32 {
    let a = addr & 0xFFFC;
    u32::from_be_bytes([vram[a], vram[a | 1], vram[a | 2], vram[a | 3]])
}

/// The 8 pixels of a pattern row, pixel `i` (left to right without flip: pixel 0 is the high
/// nibble of the first byte) in byte `i` of the little-endian result. The bit-spreading
/// form [`decode_row`]'s table is tested against, and what `pattern_rows` keeps.
#[inline]
pub(super) fn expand_row(bits: u32) -> u64 {
    // The row's bytes, first byte lowest, one to each 16-bit lane; then each lane's high
    // nibble (the left pixel) to its low byte and the low nibble to its high byte.
    let x = bits.swap_bytes() as u64;
    let x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
    let x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF;
    ((x >> 4) & 0x000F_000F_000F_000F) | ((x & 0x000F_000F_000F_000F) << 8)
}

/// A name-table entry (genvdp.txt "Name table"): `pccv hnnn nnnn nnnn` (the flips and the
/// pattern index pick the decoded row, `pattern_rows::row_index`).
#[derive(Clone, Copy, Debug)]
pub(super) struct NameEntry(pub u16);

impl NameEntry {
    /// Priority and palette as layer-pixel bits.
    #[inline]
    pub const fn attr(self) -> u8 {
        ((self.0 >> 9) & 0x70) as u8
    }
}

/// Byte address of row `row` of a pattern. Normal cells are 8x8 (32 bytes); in interlace
/// mode 2 cells are 8x16 (64 bytes) and only 10 bits of the pattern index are used, so the
/// index is doubled (genvdp.txt, "Interlace mode 2"). `row` counts in the cell's own rows
/// (0-7, or 0-15 in interlace mode 2) and vertical flip mirrors it within the cell.
#[inline]
pub(super) fn row_addr(pattern: u16, row: u32, vflip: bool, interlace2: bool) -> usize {
    if interlace2 {
        let row = if vflip { 15 - row } else { row };
        ((pattern as usize & 0x3FF) << 6) | (row as usize) << 2
    } else {
        let row = if vflip { 7 - row } else { row };
        ((pattern as usize & 0x7FF) << 5) | (row as usize) << 2
    }
}

/// The layer-pixel attribute bits (priority, palette) of a name-table entry for all eight
/// pixels of a row, indexed by the entry's top three bits (`pcc`).
pub(super) static ENTRY_ATTR: [u64; 8] = entry_attr_table();

const fn entry_attr_table() -> [u64; 8] {
    let mut t = [0u64; 8];
    let mut top = 0;
    while top < 8 {
        t[top] = NameEntry((top as u16) << 13).attr() as u64 * ONES;
        top += 1;
    }
    t
}

/// Half pattern rows decoded by table: `ROW_HALVES[h]` is the half row whose first byte (pixels
/// 0 and 1, high nibble first) is `h & 0xFF` and second byte (pixels 2 and 3) is `h >> 8`,
/// as those four layer pixels in the bytes of a little-endian `u32`. Indexed by the two bytes
/// as a little-endian word, two lookups decode a row: a long-word load, two lookups, a shift
/// and an OR, against four byte loads, four lookups and three ORs with a byte table; 256 KiB.
static ROW_HALVES: [u32; 1 << 16] = row_halves_table();

const fn row_halves_table() -> [u32; 1 << 16] {
    let mut t = [0u32; 1 << 16];
    let mut h = 0;
    while h < 1 << 16 {
        let (first, second) = ((h & 0xFF) as u32, (h >> 8) as u32);
        t[h] = (first >> 4) | (first & 15) << 8 | (second >> 4) << 16 | (second & 15) << 24;
        h += 1;
    }
    t
}

/// The 8 pixels of the pattern row at `addr` (its long word), pixel `i` (left to right
/// without flip) in byte `i` of the little-endian result, by table.
#[inline]
fn decode_row(vram: &Vram, addr: usize) -> u64 {
    let a = addr & 0xFFFC;
    // One long-word load (`a` is at most $FFFC, so the slice is always in VRAM).
    let bytes = u32::from_le_bytes(vram[a..a + 4].try_into().unwrap());
    ROW_HALVES[bytes as usize & 0xFFFF] as u64 | (ROW_HALVES[(bytes >> 16) as usize] as u64) << 32
}

/// A pattern row like [`CellRow::draw`](super::pattern_rows::CellRow::draw), for sprites: only
/// opaque pixels are written, and only where no earlier (higher-priority) sprite already left an
/// opaque pixel. Returns whether an opaque pixel landed on another sprite's opaque pixel (the
/// collision flag).
#[inline]
pub(super) fn draw_sprite_row(
    vram: &Vram,
    addr: usize,
    hflip: bool,
    attr: u8,
    dst: &mut [u8],
) -> bool {
    let row = decode_row(vram, addr);
    if row == 0 {
        return false;
    }
    let row = if hflip { row.swap_bytes() } else { row };
    let mut line = u64::from_le_bytes(dst[..8].try_into().unwrap());
    let opaque = opaque8(row);
    // Only opaque pixels are ever written, so a pixel not yet taken is 0.
    let taken = opaque8(line);
    line |= (row | (attr as u64 * ONES)) & opaque & !taken;
    dst[..8].copy_from_slice(&line.to_le_bytes());
    opaque & taken != 0
}

/// One in every byte lane of a `u64` (eight layer pixels).
pub(super) const ONES: u64 = 0x0101_0101_0101_0101;

/// Each byte of `x` (eight layer pixels): 0xFF where the pixel is opaque (colour != 0).
#[inline]
pub(super) fn opaque8(x: u64) -> u64 {
    // colour + 15 carries into bit 4 exactly when the colour is not 0; no byte overflows.
    let carry = ((x & (0x0F * ONES)) + 0x0F * ONES) & (0x10 * ONES);
    (carry >> 4) * 0xFF
}

#[cfg(test)]
mod row_tests {
    /// The pixel-by-pixel decoding `draw_row` replaces.
    fn reference(bits: u32, hflip: bool, attr: u8) -> [u8; 8] {
        let mut out = [0u8; 8];
        for (i, px) in out.iter_mut().enumerate() {
            let shift = if hflip { 4 * i } else { 28 - 4 * i };
            *px = ((bits >> shift) & 0xF) as u8 | attr;
        }
        out
    }

    /// The per-pixel sprite row `draw_sprite_row` replaces: opaque pixels land where no
    /// opaque pixel is, and landing on one is a collision.
    fn sprite_reference(bits: u32, hflip: bool, attr: u8, dst: &mut [u8; 8]) -> bool {
        let mut collision = false;
        for (i, px) in dst.iter_mut().enumerate() {
            let shift = if hflip { 4 * i } else { 28 - 4 * i };
            let colour = ((bits >> shift) & 0xF) as u8;
            if colour != 0 {
                if *px & 0x0F != 0 {
                    collision = true;
                } else {
                    *px = colour | attr;
                }
            }
        }
        collision
    }

    #[test]
    fn draw_sprite_row_merges_like_the_reference() {
        let mut vram = Box::new([0u8; 0x1_0000]);
        let mut x = 0x9E37_79B9u32;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for _ in 0..20_000 {
            // Sparse rows (many transparent pixels) on partly filled layers.
            let bits = next() & next();
            vram[0x200..0x204].copy_from_slice(&bits.to_be_bytes());
            let attr = (next() >> 8) as u8 & 0x70;
            let mut layer = [0u8; 8];
            let under = next() & next();
            let under_attr = (next() >> 8) as u8 & 0x70;
            for (i, px) in layer.iter_mut().enumerate() {
                let c = ((under >> (4 * i)) & 0xF) as u8;
                *px = if c != 0 { c | under_attr } else { 0 };
            }
            for hflip in [false, true] {
                let mut want = layer;
                let hit = sprite_reference(bits, hflip, attr, &mut want);
                let mut got = layer;
                let got_hit = super::draw_sprite_row(&vram, 0x200, hflip, attr, &mut got);
                assert_eq!((got, got_hit), (want, hit), "{bits:08x} {hflip}");
            }
        }
    }

    #[test]
    fn the_row_table_is_the_expansion() {
        // Every value of each half of a row, beside a changing other half.
        let mut vram = Box::new([0u8; 0x1_0000]);
        for h in 0..=u16::MAX {
            for half in 0..2 {
                let other = h.rotate_left(5) ^ 0xA5C3;
                let (first, second) = if half == 0 { (h, other) } else { (other, h) };
                vram[0x40..0x42].copy_from_slice(&first.to_be_bytes());
                vram[0x42..0x44].copy_from_slice(&second.to_be_bytes());
                let long = u32::from_be_bytes(vram[0x40..0x44].try_into().unwrap());
                assert_eq!(super::decode_row(&vram, 0x40), super::expand_row(long));
            }
        }
    }

    /// A cell row drawn from the decoded rows: every pattern index bit, row, flip and
    /// attribute, against the row read nibble by nibble from VRAM.
    #[test]
    fn cell_rows_draw_like_the_reference() {
        let mut vram = Box::new([0u8; 0x1_0000]);
        let mut x = 0x1234_5678u32;
        let mut next = || {
            // xorshift32
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for b in vram.iter_mut() {
            *b = next() as u8;
        }
        for interlace2 in [false, true] {
            let mut rows = super::super::pattern_rows::PatternRows::default();
            let rows = rows.current(&vram, None, interlace2);
            for _ in 0..20_000 {
                let entry = next() as u16;
                let row = next() % if interlace2 { 16 } else { 8 };
                let (pattern, vflip, hflip) =
                    (entry & 0x7FF, entry & 0x1000 != 0, entry & 0x800 != 0);
                let addr = super::row_addr(pattern, row, vflip, interlace2);
                let bits = u32::from_be_bytes(vram[addr..addr + 4].try_into().unwrap());
                let attr = ((entry >> 9) & 0x70) as u8;
                let mut dst = [0u8; 8];
                super::super::pattern_rows::CellRow::new(row, interlace2).draw(
                    rows,
                    super::NameEntry(entry),
                    &mut dst,
                );
                let mut want = reference(bits, hflip, attr);
                for px in want.iter_mut().filter(|px| **px & 0x0F != 0) {
                    *px |= super::OPAQUE;
                }
                assert_eq!(dst, want, "{entry:04x} {row} {interlace2}");
            }
        }
    }
}
