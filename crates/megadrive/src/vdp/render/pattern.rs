//! Patterns: name-table entries and 4-bit pattern rows, decoded straight from VRAM.
//!
//! Layer pixels everywhere in the renderer are one byte: bits 0-3 the colour index, bits 4-5
//! the palette, bit 6 the priority. A transparent pixel (colour 0) keeps its tile's priority
//! bit, because shadow/highlight looks at tile priority, not at pixel opacity.

/// Layer-pixel priority bit.
pub(super) const PRIORITY: u8 = 0x40;

/// Reads a big-endian word (VRAM is byte-addressed in the VDP's order); outside the slice
/// reads as 0 so a short test VRAM can't panic.
#[inline]
pub(super) fn vram_word(vram: &[u8], addr: usize) -> u16 {
    let a = addr & 0xFFFE;
    match vram.get(a..a + 2) {
        Some(b) => u16::from_be_bytes([b[0], b[1]]),
        None => 0,
    }
}

#[inline]
fn vram_long(vram: &[u8], addr: usize) -> u32 {
    let a = addr & 0xFFFC;
    match vram.get(a..a + 4) {
        Some(b) => u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
        None => 0,
    }
}

/// A name-table entry (genvdp.txt "Name table"): `pccv hnnn nnnn nnnn`.
#[derive(Clone, Copy, Debug)]
pub(super) struct NameEntry(pub u16);

impl NameEntry {
    /// Priority and palette as layer-pixel bits.
    #[inline]
    pub fn attr(self) -> u8 {
        ((self.0 >> 9) & 0x70) as u8
    }
    #[inline]
    pub fn vflip(self) -> bool {
        self.0 & 0x1000 != 0
    }
    #[inline]
    pub fn hflip(self) -> bool {
        self.0 & 0x0800 != 0
    }
    /// Pattern index (11 bits).
    #[inline]
    pub fn pattern(self) -> u16 {
        self.0 & 0x07FF
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

/// Decodes the 8 pixels of the pattern row at `addr` into `dst[..8]`, left to right as they
/// appear on screen, OR-ing `attr` (palette and priority) into each. Pixel 0 is the high
/// nibble of the first byte; horizontal flip reverses the order.
#[inline]
pub(super) fn draw_row(vram: &[u8], addr: usize, hflip: bool, attr: u8, dst: &mut [u8]) {
    let bits = vram_long(vram, addr);
    let dst = &mut dst[..8];
    if hflip {
        for (i, px) in dst.iter_mut().enumerate() {
            *px = ((bits >> (4 * i)) & 0xF) as u8 | attr;
        }
    } else {
        for (i, px) in dst.iter_mut().enumerate() {
            *px = ((bits >> (28 - 4 * i)) & 0xF) as u8 | attr;
        }
    }
}

/// Like [`draw_row`] for sprites: only opaque pixels are written, and only where no earlier
/// (higher-priority) sprite already left an opaque pixel. Returns whether an opaque pixel
/// landed on another sprite's opaque pixel (the collision flag).
#[inline]
pub(super) fn draw_sprite_row(
    vram: &[u8],
    addr: usize,
    hflip: bool,
    attr: u8,
    dst: &mut [u8],
) -> bool {
    let bits = vram_long(vram, addr);
    if bits == 0 {
        return false;
    }
    let mut collision = false;
    for (i, px) in dst[..8].iter_mut().enumerate() {
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
