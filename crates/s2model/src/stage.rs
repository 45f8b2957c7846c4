//! The stage: Emerald Hill Act 1's foreground collision layer as the game's `Find_Tile` sees it,
//! reduced to a grid of 16 × 16 cells that either hold the act's full flat block or are empty.

/// Width of the foreground layout the game addresses: $80 chunks of 8 cells (`Find_Tile` masks the
/// chunk column with $7F, so x wraps every 16384 px).
pub const GRID_CELLS_X: usize = 1024;
/// Height of the layout: 16 chunk rows of 8 cells (`Find_Tile` masks the chunk row with $F, so y
/// wraps every 2048 px; a probe at y = $FFF0 reads cell row 127).
pub const GRID_CELLS_Y: usize = 128;
/// The scenario format's limit on cell columns (EHZ1 is 688 cells wide; formats.md §2).
pub const STAGE_CELLS_X: u16 = 688;
/// The scenario format's limit on cell rows.
pub const STAGE_CELLS_Y: u16 = 128;
/// The default block: EHZ block $03C, whose primary collision ID is $FF (full square, angle $FF).
pub const DEFAULT_BLOCK: u16 = 0x03C;

/// Bits of a 16 × 16 block word in a chunk (`Find_Tile`, spec §4.1).
pub mod block_word {
    /// Block index (0 = empty).
    pub const INDEX_MASK: u16 = 0x03FF;
    /// Horizontal flip.
    pub const X_FLIP: u16 = 1 << 10;
    /// Vertical flip.
    pub const Y_FLIP: u16 = 1 << 11;
    /// Collision path 1, top solid (tested with d5 = $C).
    pub const TOP_SOLID_P1: u16 = 1 << 12;
    /// Collision path 1, left/right/bottom solid (tested with d5 = $D).
    pub const LRB_SOLID_P1: u16 = 1 << 13;
}

/// A rectangle of solid cells, `[cell_x, cell_y, width, height]` in the scenario format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellRect {
    /// Leftmost cell column.
    pub x: u16,
    /// Top cell row.
    pub y: u16,
    /// Width in cells (≥ 1).
    pub w: u16,
    /// Height in cells (≥ 1).
    pub h: u16,
}

/// The foreground collision grid: which cells hold the full block, and which block that is.
///
/// Every solid cell holds the word `$3000 | block` (unflipped, solid on path 1 from the top and
/// from the sides and below). The block must be one whose primary collision ID is $FF: all 16
/// column heights and row widths are $10, the angle byte is $FF (odd: "flat, keep the cardinal
/// angle"). The model takes that as given (spec §4.2); it does not carry the act's collision index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    block: u16,
    bits: Box<[u64; GRID_CELLS_X * GRID_CELLS_Y / 64]>,
    /// Left pixel edge of the leftmost solid cell and right pixel edge of the rightmost one.
    extent: Option<(u16, u16)>,
}

impl Default for Stage {
    fn default() -> Self {
        Self::empty(DEFAULT_BLOCK)
    }
}

impl Stage {
    /// An empty stage whose solid cells (once added) hold `block`.
    pub fn empty(block: u16) -> Self {
        Stage {
            block: block & block_word::INDEX_MASK,
            bits: Box::new([0; GRID_CELLS_X * GRID_CELLS_Y / 64]),
            extent: None,
        }
    }

    /// A stage from solid rectangles (cells outside the 1024 × 128 grid are ignored; validate
    /// against the format's limits with [`crate::scenario`] first).
    pub fn from_rects(block: u16, rects: &[CellRect]) -> Self {
        let mut s = Self::empty(block);
        for r in rects {
            s.fill(*r);
        }
        s
    }

    /// A flat floor: `cells_thick` rows of solid cells from cell row `top_row`, columns `x0..x1`.
    pub fn flat_floor(top_row: u16, x0: u16, x1: u16, cells_thick: u16) -> Self {
        Self::from_rects(
            DEFAULT_BLOCK,
            &[CellRect {
                x: x0,
                y: top_row,
                w: x1.saturating_sub(x0),
                h: cells_thick,
            }],
        )
    }

    /// Make every cell of `r` solid.
    pub fn fill(&mut self, r: CellRect) {
        for cy in r.y..r.y.saturating_add(r.h) {
            for cx in r.x..r.x.saturating_add(r.w) {
                self.set_bit(cx, cy, true);
            }
        }
        self.recompute_extent();
    }

    /// Set or clear one cell (cell coordinates; outside the grid: ignored).
    pub fn set_solid(&mut self, cx: u16, cy: u16, solid: bool) {
        self.set_bit(cx, cy, solid);
        self.recompute_extent();
    }

    fn set_bit(&mut self, cx: u16, cy: u16, solid: bool) {
        let (cx, cy) = (cx as usize, cy as usize);
        if cx >= GRID_CELLS_X || cy >= GRID_CELLS_Y {
            return;
        }
        let i = cy * GRID_CELLS_X + cx;
        if solid {
            self.bits[i >> 6] |= 1 << (i & 63);
        } else {
            self.bits[i >> 6] &= !(1 << (i & 63));
        }
    }

    fn recompute_extent(&mut self) {
        let mut lo: Option<usize> = None;
        let mut hi: Option<usize> = None;
        for cy in 0..GRID_CELLS_Y {
            for w in 0..GRID_CELLS_X / 64 {
                let word = self.bits[cy * (GRID_CELLS_X / 64) + w];
                if word != 0 {
                    let first = w * 64 + word.trailing_zeros() as usize;
                    let last = w * 64 + 63 - word.leading_zeros() as usize;
                    lo = Some(lo.map_or(first, |l| l.min(first)));
                    hi = Some(hi.map_or(last, |h| h.max(last)));
                }
            }
        }
        self.extent = match (lo, hi) {
            (Some(l), Some(h)) => Some(((l * 16) as u16, ((h + 1) * 16) as u16)),
            _ => None,
        };
    }

    /// Is cell (cx, cy) solid?
    #[inline]
    pub fn is_solid_cell(&self, cx: u16, cy: u16) -> bool {
        let i = (cy as usize % GRID_CELLS_Y) * GRID_CELLS_X + (cx as usize % GRID_CELLS_X);
        self.bits[i >> 6] >> (i & 63) & 1 != 0
    }

    /// The block index placed in solid cells.
    pub fn block(&self) -> u16 {
        self.block
    }

    /// `[lo, hi]`: the left pixel edge of the leftmost solid cell and the right pixel edge of the
    /// rightmost one (the `floor_x` of a trace header), or `None` for an empty stage.
    pub fn floor_x(&self) -> Option<(u16, u16)> {
        self.extent
    }

    /// `Find_Tile` (s2.asm L43366–43398) and the read of the block word: the word at pixel (x, y).
    /// Chunk column (x >> 7) & $7F, chunk row (y >> 7) & $F, cell inside the chunk from bits 4–6 of
    /// x and y: together cell ((x >> 4) & 1023, (y >> 4) & 127).
    #[inline]
    pub fn block_word_at(&self, x: u16, y: u16) -> u16 {
        let i = ((y as usize >> 4) & (GRID_CELLS_Y - 1)) * GRID_CELLS_X
            + ((x as usize >> 4) & (GRID_CELLS_X - 1));
        if self.bits[i >> 6] >> (i & 63) & 1 != 0 {
            block_word::TOP_SOLID_P1 | block_word::LRB_SOLID_P1 | self.block
        } else {
            0
        }
    }
}

/// A stage holds one block, whose collision ID is $FF in both indexes as far as the model is
/// concerned: every column and row of it is full ($10) and its angle byte is $FF (spec §4.2). The
/// harness refuses a block whose primary ID is not $FF; stage words carry only the path-1 bits, so
/// the secondary index is never consulted.
impl crate::level::Level for Stage {
    #[inline]
    fn block_word_at(&self, x: u16, y: u16) -> u16 {
        Stage::block_word_at(self, x, y)
    }
    #[inline]
    fn collision_id(&self, block: u16, _secondary: bool) -> u8 {
        if block == self.block { 0xFF } else { 0 }
    }
    #[inline]
    fn column_height(&self, _id: u8, _col: u16) -> i8 {
        0x10
    }
    #[inline]
    fn row_width(&self, _id: u8, _row: u16) -> i8 {
        0x10
    }
    #[inline]
    fn curve_angle(&self, _id: u8) -> u8 {
        0xFF
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_tile_wraps_like_the_game() {
        let mut s = Stage::empty(60);
        s.set_solid(3, 127, true);
        // y = $FFF0: (y >> 7) & $F = 15, (y & $70) >> 4 = 7 → cell row 127.
        assert_eq!(s.block_word_at(3 * 16 + 5, 0xFFF0), 0x3000 | 60);
        // x + 16384 wraps to the same chunk column.
        assert_eq!(s.block_word_at(3 * 16 + 16384, 127 * 16), 0x3000 | 60);
        assert_eq!(s.block_word_at(4 * 16, 127 * 16), 0);
    }

    #[test]
    fn extent() {
        let s = Stage::from_rects(
            60,
            &[
                CellRect {
                    x: 2,
                    y: 43,
                    w: 10,
                    h: 2,
                },
                CellRect {
                    x: 40,
                    y: 10,
                    w: 1,
                    h: 1,
                },
            ],
        );
        assert_eq!(s.floor_x(), Some((32, 41 * 16)));
        assert_eq!(Stage::empty(60).floor_x(), None);
    }
}
