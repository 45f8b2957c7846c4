//! Register decoding: the few dozen bits of the mode registers the line renderer needs,
//! decoded once per line (registers may change between lines, e.g. Sonic 2's water palette
//! swaps or mid-frame H-scroll mode changes, so nothing is cached across lines).

/// Plane name-table geometry from reg 16 (scroll size).
///
/// genvdp.txt lists 32/64/128 cells per dimension with `10` invalid and at most 64x64,
/// 128x32 or 32x128 in total, because a plane table is 8 KiB. We use the addressing Genesis
/// Plus GX derived from hardware tests, which also gives the invalid combinations their
/// hardware look: the row offset is `row << shift` masked to 13 bits (`& 0x1FC0`), so 64x128
/// and 128x64 planes wrap inside 8 KiB; the invalid width repeats the first row (shift 0) and
/// the invalid height masks lines with 0x2FF.
#[derive(Clone, Copy, Debug)]
pub(super) struct PlaneGeometry {
    /// Byte shift from a cell row to its offset in the name table.
    pub row_shift: u32,
    /// Mask applied to the cell column (width in cells - 1).
    pub col_mask: u32,
    /// Mask applied to the scrolled line (height in pixels - 1, or the invalid 0x2FF).
    pub line_mask: u32,
}

impl PlaneGeometry {
    fn from_reg16(r16: u8) -> Self {
        let h = (r16 & 3) as usize;
        let v = ((r16 >> 4) & 3) as usize;
        const SHIFT: [u32; 4] = [6, 7, 0, 8];
        const COL_MASK: [u32; 4] = [0x1F, 0x3F, 0x1F, 0x7F];
        const LINE_MASK: [u32; 4] = [0x0FF, 0x1FF, 0x2FF, 0x3FF];
        Self {
            row_shift: SHIFT[h],
            col_mask: COL_MASK[h],
            line_mask: LINE_MASK[v],
        }
    }

    /// Byte address of the name-table entry for cell (`row`, `col`) of a plane at `base`.
    #[inline]
    pub fn entry_addr(&self, base: usize, row: u32, col: u32) -> usize {
        let offset = ((row << self.row_shift) & 0x1FC0) + ((col & self.col_mask) << 1);
        (base + offset as usize) & 0xFFFF
    }
}

/// Everything the renderer needs from the 24 registers for one line.
#[derive(Clone, Copy, Debug)]
pub(super) struct Config {
    /// reg 12 bit 0 (RS1): 40-cell mode. Genesis Plus GX keys H40 off this bit alone.
    pub h40: bool,
    /// Active width in pixels (256 or 320).
    pub width: usize,
    /// Screen width in 2-cell columns (16 or 20).
    pub columns: usize,
    /// reg 1 bit 6.
    pub display: bool,
    /// reg 0 bit 5: leftmost 8 pixels show the backdrop.
    pub blank_left: bool,
    /// reg 0 bit 2: full CRAM colour (clear = only each channel's LSB).
    pub full_palette: bool,
    /// reg 12 bit 3.
    pub shadow_highlight: bool,
    /// reg 12 bits 1-2 == 3: interlace mode 2 (8x16 cells).
    pub interlace2: bool,
    pub plane_a_base: usize,
    pub plane_b_base: usize,
    pub window_base: usize,
    pub hscroll_base: usize,
    /// Mask applied to the line before indexing the H-scroll table (reg 11 bits 0-1).
    pub hscroll_line_mask: u32,
    /// reg 11 bit 2: per-2-cell vertical scroll.
    pub vscroll_columns: bool,
    pub geometry: PlaneGeometry,
    /// reg 17: window on the right side (bit 7) of column `window_h` (2-cell units).
    pub window_right: bool,
    pub window_h: usize,
    /// reg 18: window below (bit 7) line `window_v * 8`.
    pub window_down: bool,
    pub window_v: u32,
    /// reg 7: backdrop CRAM index.
    pub backdrop: usize,
}

impl Config {
    pub fn decode(regs: &[u8; 24]) -> Self {
        let h40 = regs[12] & 0x01 != 0;
        Self {
            h40,
            width: if h40 { 320 } else { 256 },
            columns: if h40 { 20 } else { 16 },
            display: display_enabled(regs),
            blank_left: regs[0] & 0x20 != 0,
            full_palette: regs[0] & 0x04 != 0,
            shadow_highlight: regs[12] & 0x08 != 0,
            interlace2: regs[12] & 0x06 == 0x06,
            plane_a_base: ((regs[2] as usize) << 10) & 0xE000,
            plane_b_base: ((regs[4] as usize) << 13) & 0xE000,
            // In H40 the window table is 64 cells wide (4 KiB aligned): bit 1 of reg 3 is
            // ignored (genvdp.txt, register 3).
            window_base: ((regs[3] as usize) << 10) & if h40 { 0xF000 } else { 0xF800 },
            hscroll_base: ((regs[13] as usize) << 10) & 0xFC00,
            // 00 full screen, 01 invalid (the first 8 entries repeat), 10 per cell, 11 per line.
            hscroll_line_mask: [0x00, 0x07, 0xF8, 0xFF][(regs[11] & 3) as usize],
            vscroll_columns: regs[11] & 0x04 != 0,
            geometry: PlaneGeometry::from_reg16(regs[16]),
            window_right: regs[17] & 0x80 != 0,
            window_h: (regs[17] & 0x1F) as usize,
            window_down: regs[18] & 0x80 != 0,
            window_v: (regs[18] & 0x1F) as u32,
            backdrop: (regs[7] & 0x3F) as usize,
        }
    }
}

/// reg 1 bit 6: the display is on (off, a line shows the backdrop and has no sprites).
#[inline]
pub(super) fn display_enabled(regs: &[u8; 24]) -> bool {
    regs[1] & 0x40 != 0
}

/// reg 5: the sprite attribute table's base. The H40 table (80 entries, 640 bytes) ignores
/// bit 0 of the register.
#[inline]
fn sat_base(regs: &[u8; 24], h40: bool) -> usize {
    ((regs[5] as usize) << 9) & if h40 { 0xFC00 } else { 0xFE00 }
}

/// What the sprite pass needs from the registers: headless lines decode only this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SpriteMode {
    /// reg 12 bit 0: 80 entries, 20 sprites and 320 pixels a line (else 64, 16 and 256).
    pub h40: bool,
    /// reg 12 bits 1-2 == 3: interlace mode 2 (8x16 cells, 10-bit Y).
    pub interlace2: bool,
    pub sat_base: usize,
}

impl SpriteMode {
    #[inline]
    pub fn decode(regs: &[u8; 24]) -> Self {
        let h40 = regs[12] & 0x01 != 0;
        Self {
            h40,
            interlace2: regs[12] & 0x06 == 0x06,
            sat_base: sat_base(regs, h40),
        }
    }

    /// The table's entries (64 or 80).
    pub fn table_len(&self) -> usize {
        if self.h40 { 80 } else { 64 }
    }

    /// Sprites a line takes (16 or 20); one more sets the overflow flag.
    pub fn max_sprites(&self) -> usize {
        if self.h40 { 20 } else { 16 }
    }

    /// Sprite pixels a line draws (256 or 320), counting those off screen.
    pub fn max_pixels(&self) -> usize {
        if self.h40 { 320 } else { 256 }
    }

    /// Active width in pixels.
    pub fn width(&self) -> usize {
        if self.h40 { 320 } else { 256 }
    }
}
