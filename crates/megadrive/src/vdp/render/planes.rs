//! Scroll planes A and B: horizontal scroll (full / per cell / per line), vertical scroll
//! (full / per 2-cell column) and the plane-size addressing, one line at a time.
//!
//! The VDP fetches planes in 2-cell (16-pixel) columns: with a fine horizontal scroll `f`
//! (hscroll & 15), screen column `c` covers pixels `16c + f .. 16c + f + 16`, and when `f` is
//! not 0 an extra, partially visible column is fetched at the left edge. Per-column vertical
//! scroll follows those fetched columns, not a fixed screen grid.

use super::config::Config;
use super::line::{LineBuf, LineCtx, MARGIN};
use super::name_row::{MAX_COLUMNS, NameRow};
use super::pattern::{NameEntry, vram_long, vram_word};
use super::pattern_rows::CellRow;
use super::pattern_rows::ROWS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Plane {
    A,
    B,
}

impl Plane {
    /// Plane A comes first in each H-scroll table entry and in each VSRAM pair.
    fn index(self) -> usize {
        match self {
            Plane::A => 0,
            Plane::B => 1,
        }
    }

    fn base(self, cfg: &Config) -> usize {
        match self {
            Plane::A => cfg.plane_a_base,
            Plane::B => cfg.plane_b_base,
        }
    }
}

/// The vertical scroll value for a fetched column: `Some(c)` for screen column `c`, `None`
/// for the partial column at the left edge.
fn vscroll(ctx: &LineCtx<'_>, plane: Plane, column: Option<usize>) -> u32 {
    let cfg = ctx.cfg;
    let value = if !cfg.vscroll_columns {
        ctx.vsram[plane.index()]
    } else {
        match column {
            Some(c) => ctx.vsram[(2 * c + plane.index()).min(39)],
            // The partial left column has no VSRAM entry of its own. Verified on hardware
            // (Genesis Plus GX, "verified on PAL MD2"): in H40 both planes use VSRAM words
            // 38 and 39 ANDed together, in H32 the column is not scrolled at all. Gynoug and
            // Cutie Suzuki no Ringside Angel (H40) and Formula One (H32) show the difference.
            None if cfg.h40 => ctx.vsram[38] & ctx.vsram[39],
            None => 0,
        }
    };
    let value = value as u32 & 0x7FF;
    // Interlace mode 2 scrolls in double-resolution lines; the renderer works in field lines
    // and takes the field from `odd`, so the low bit of the scroll is dropped (as Genesis Plus
    // GX does; Sonic 2's two-player mode only uses even values).
    if cfg.interlace2 { value >> 1 } else { value }
}

/// Draws plane `plane` into `buf` for screen columns `first..end` (2-cell units), plus the
/// partial column left of `first` when the plane is finely scrolled. `name_row` is the
/// plane's own decoded name-table row, kept from line to line.
pub(super) fn draw_plane(
    ctx: &LineCtx<'_>,
    plane: Plane,
    first: usize,
    end: usize,
    buf: &mut LineBuf,
    name_row: &mut NameRow,
) {
    if first >= end {
        return;
    }
    let cfg = ctx.cfg;
    let hs_addr =
        cfg.hscroll_base + (((ctx.line & cfg.hscroll_line_mask) as usize) << 2) + 2 * plane.index();
    let hscroll = vram_word(ctx.vram, hs_addr) as u32 & 0x3FF;
    let fine = (hscroll & 15) as isize;
    let coarse = hscroll >> 4;

    if fine != 0 {
        let c = first as isize - 1;
        // Plane A next to a left-side window: the VDP fetches the partial column with the
        // wrong tile, the one of the following column (the "window bug", modelled by Genesis
        // Plus GX; we copy the behaviour for pixel parity with frames recorded there).
        let pair = if plane == Plane::A && first > 0 {
            (first as u32).wrapping_sub(coarse)
        } else {
            (c as u32).wrapping_sub(coarse)
        };
        let pos = (MARGIN as isize + 16 * c + fine) as usize;
        draw_column(
            ctx,
            plane,
            pair,
            vscroll(ctx, plane, None),
            &mut buf[pos..pos + 16],
        );
    }
    if cfg.vscroll_columns {
        for c in first..end {
            let pair = (c as u32).wrapping_sub(coarse);
            let pos = (MARGIN as isize + 16 * c as isize + fine) as usize;
            draw_column(
                ctx,
                plane,
                pair,
                vscroll(ctx, plane, Some(c)),
                &mut buf[pos..pos + 16],
            );
        }
        return;
    }
    // One vertical scroll for the whole line: one name-table row and one cell row, walked
    // cell by cell (the same addresses `draw_column` computes per column) from the row kept
    // decoded (`name_row`).
    let geometry = &cfg.geometry;
    let (row, cell_row) = scrolled_row(ctx, vscroll(ctx, plane, Some(first)));
    let row_base = plane.base(cfg) + ((row << geometry.row_shift) & 0x1FC0) as usize;
    let decoded = name_row.decoded(
        ctx.vram,
        ctx.vram_version,
        row_base,
        geometry.col_mask,
        cfg.interlace2,
    );
    // The plane column (pair of cells) `first` shows, and the column mask: at most 63, so
    // the columns index the decoded row without bounds checks.
    let column_mask = (geometry.col_mask as usize >> 1) & (MAX_COLUMNS - 1);
    let mut column = ((first as u32).wrapping_sub(coarse) as usize) & column_mask;
    // Below 8 (16 in interlace mode 2): the cell's row, which `row_index` puts in the low
    // bits its row-0 index leaves clear. The decoded rows from that row on: a cell's row is
    // its row-0 index there.
    let cell_row = cell_row as usize & 0xF;
    let rows: &[u64; ROWS] = ctx.rows[cell_row..cell_row + ROWS].try_into().unwrap();
    let draw = |column: usize, dst: &mut [u8]| {
        let (index, attr) = (decoded.index[column], decoded.attr[column]);
        let left = rows[index[0] as usize] | attr[0];
        let right = rows[index[1] as usize] | attr[1];
        dst[..8].copy_from_slice(&left.to_le_bytes());
        dst[8..16].copy_from_slice(&right.to_le_bytes());
    };
    let start = (MARGIN as isize + 16 * first as isize + fine) as usize;
    // Two columns an iteration.
    let mut pairs = buf[start..start + 16 * (end - first)].chunks_exact_mut(32);
    for dst in &mut pairs {
        let (left, right) = dst.split_at_mut(16);
        draw(column, left);
        column = (column + 1) & column_mask;
        draw(column, right);
        column = (column + 1) & column_mask;
    }
    let last = pairs.into_remainder();
    if !last.is_empty() {
        draw(column, last);
    }
}

/// The plane's name-table row and the row within the cell that line `ctx.line` shows under
/// vertical scroll `vscroll`.
#[inline]
fn scrolled_row(ctx: &LineCtx<'_>, vscroll: u32) -> (u32, u32) {
    let v = ctx.line.wrapping_add(vscroll) & ctx.cfg.geometry.line_mask;
    let cell_row = if ctx.cfg.interlace2 {
        ((v & 7) << 1) | ctx.odd as u32
    } else {
        v & 7
    };
    (v >> 3, cell_row)
}

/// Draws the two cells of plane column pair `pair` (plane-relative, wrapped by the plane
/// width) into `dst[..16]`.
fn draw_column(ctx: &LineCtx<'_>, plane: Plane, pair: u32, vscroll: u32, dst: &mut [u8]) {
    let cfg = ctx.cfg;
    let geometry = &cfg.geometry;
    let (row, cell_row) = scrolled_row(ctx, vscroll);
    let fetch = CellRow::new(cell_row, cfg.interlace2);
    // Both entries in one read, as in `draw_plane`: the first column is even.
    let entries = vram_long(
        ctx.vram,
        geometry.entry_addr(plane.base(cfg), row, pair.wrapping_mul(2)),
    );
    let (left, right) = dst[..16].split_at_mut(8);
    fetch.draw(ctx.rows, NameEntry((entries >> 16) as u16), left);
    fetch.draw(ctx.rows, NameEntry(entries as u16), right);
}
