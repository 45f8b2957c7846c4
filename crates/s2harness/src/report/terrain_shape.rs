//! An act's terrain as SVG path data, for drawing Sonic's path over it: every 16 × 16 block around
//! the path, shaped by its collision heights (the same data the sensors read), in the game's pixel
//! coordinates. Made at run time from the terrain read from the user's ROM, so the drawing lives
//! only in the report the user generates.

use s2model::Level;
use serde::{Deserialize, Serialize};

/// The solid shapes in a rectangle of the act: what Sonic stands on on path 1, and what only
/// path 2 has (the far side of the loops).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TerrainShape {
    /// SVG path data of the blocks solid on path 1.
    pub path1: String,
    /// SVG path data of the blocks solid on path 2 alone.
    pub path2: String,
}

/// Appends block `word`'s shape at (bx, by) to `out`: columns of its collision id's heights,
/// flipped as the block word says, runs of equal columns merged into one rectangle.
fn block_shape(t: &impl Level, word: u16, id: u8, bx: i32, by: i32, out: &mut String) {
    use std::fmt::Write as _;
    let (xflip, yflip) = (word & 0x400 != 0, word & 0x800 != 0);
    let span = |c: u16| -> (i32, i32) {
        let col = if xflip { 15 - c } else { c };
        let h = t.column_height(id, col) as i32;
        let (top, bottom) = if h >= 0 {
            (16 - h.min(16), 16)
        } else {
            (0, (-h).min(16))
        };
        if yflip {
            (16 - bottom, 16 - top)
        } else {
            (top, bottom)
        }
    };
    let mut c = 0u16;
    while c < 16 {
        let s = span(c);
        let mut end = c + 1;
        while end < 16 && span(end) == s {
            end += 1;
        }
        if s.1 > s.0 {
            write!(
                out,
                "M{} {}h{}v{}h-{}z",
                bx + c as i32,
                by + s.0,
                end - c,
                s.1 - s.0,
                end - c
            )
            .ok();
        }
        c = end;
    }
}

/// The terrain's shapes in the pixel rectangle [x0, x1] × [y0, y1] (clamped to the act).
pub fn terrain_shape(t: &impl Level, x0: i32, y0: i32, x1: i32, y1: i32) -> TerrainShape {
    let mut shape = TerrainShape::default();
    let (cx0, cx1) = (x0.max(0) / 16, x1.clamp(0, 0x3FFF) / 16);
    let (cy0, cy1) = (y0.max(0) / 16, y1.clamp(0, 0x7FF) / 16);
    for cy in cy0..=cy1 {
        for cx in cx0..=cx1 {
            let (x, y) = (cx * 16, cy * 16);
            let word = t.block_word_at(x as u16, y as u16);
            let block = word & 0x3FF;
            if block == 0 {
                continue;
            }
            let id1 = t.collision_id(block, false);
            let on1 = word & 0x3000 != 0 && id1 != 0;
            if on1 {
                block_shape(t, word, id1, x, y, &mut shape.path1);
            }
            let id2 = t.collision_id(block, true);
            if !on1 && word & 0xC000 != 0 && id2 != 0 {
                block_shape(t, word, id2, x, y, &mut shape.path2);
            }
        }
    }
    shape
}

/// The rectangle around a path that the stage drawing may show (its margin and aspect padding
/// included).
pub fn around(path: &[[i32; 2]]) -> (i32, i32, i32, i32) {
    let (mut x0, mut x1, mut y0, mut y1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for [x, y] in path {
        x0 = x0.min(*x);
        x1 = x1.max(*x);
        y0 = y0.min(*y);
        y1 = y1.max(*y);
    }
    if x0 > x1 {
        return (0, 0, 320, 224);
    }
    // As `stage_svg` frames it: a 96 px margin, then padded to between 4:1 and 3:2.
    let (w, h) = (x1 - x0 + 192, y1 - y0 + 192);
    let pad_x = 96 + (h * 3 / 2 - w).max(0) / 2 + 16;
    let pad_y = 96 + (w / 4 - h).max(0) / 2 + 16;
    (x0 - pad_x, y0 - pad_y, x1 + pad_x, y1 + pad_y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use s2model::Stage;

    #[test]
    fn a_floor_of_full_blocks_is_drawn_as_whole_cells() {
        // Cells 0..4 of row 10 solid: four 16 × 16 squares from y 160, nothing on path 2 alone.
        let stage = Stage::flat_floor(10, 0, 4, 1);
        let s = terrain_shape(&stage, 0, 0, 200, 300);
        assert_eq!(s.path1.matches('M').count(), 4, "{}", s.path1);
        assert!(s.path1.starts_with("M0 160h16v16h-16z"), "{}", s.path1);
        assert!(s.path2.is_empty());
        assert!(terrain_shape(&stage, 400, 0, 600, 100).path1.is_empty());
    }
}
