//! The window plane: an unscrolled replacement for plane A over a region set by regs 17/18.

use super::config::Config;
use super::line::{LineBuf, LineCtx, MARGIN};
use super::pattern::{NameEntry, vram_long};
use super::pattern_rows::CellRow;

/// How one line is shared between plane A and the window, in 2-cell columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Split {
    pub plane_a: (usize, usize),
    pub window: (usize, usize),
}

/// genvdp.txt, registers 17/18: a line inside the vertical window range (above `WVP * 8` with
/// DOWN clear, from it downwards with DOWN set) is window across the whole width; otherwise
/// the window covers columns `0..WHP*2` cells (RIGT clear) or `WHP*2..` (RIGT set), in
/// 2-cell steps, and plane A the rest. WHP beyond the screen width saturates, so RIGT clear
/// with a large WHP is a full-width window and RIGT set with WHP 0 is one too.
pub(super) fn split(cfg: &Config, line: u32) -> Split {
    let columns = cfg.columns;
    let boundary = cfg.window_v * 8;
    let in_vertical = if cfg.window_down {
        line >= boundary
    } else {
        line < boundary
    };
    if in_vertical {
        return Split {
            plane_a: (0, 0),
            window: (0, columns),
        };
    }
    let hp = cfg.window_h.min(columns);
    if cfg.window_right {
        Split {
            plane_a: (0, hp),
            window: (hp, columns),
        }
    } else {
        Split {
            plane_a: (hp, columns),
            window: (0, hp),
        }
    }
}

/// Draws window columns `first..end` into `buf` (over whatever plane A left there). The
/// window name table is 32 cells wide in H32 and 64 in H40 (genvdp.txt, register 3).
pub(super) fn draw_window(ctx: &LineCtx<'_>, first: usize, end: usize, buf: &mut LineBuf) {
    let cfg = ctx.cfg;
    let row = (ctx.line >> 3) as usize;
    let cell_row = if cfg.interlace2 {
        ((ctx.line & 7) << 1) | ctx.odd as u32
    } else {
        ctx.line & 7
    };
    let row_base = cfg.window_base | (row << if cfg.h40 { 7 } else { 6 });
    let fetch = CellRow::new(cell_row, cfg.interlace2);
    let span = &mut buf[MARGIN + 16 * first..MARGIN + 16 * end];
    for (column, dst) in (first..end).zip(span.chunks_exact_mut(16)) {
        // A column's two entries in one read (the row base is a multiple of 64 bytes).
        let entries = vram_long(ctx.vram, row_base + 4 * column);
        let (left, right) = dst.split_at_mut(8);
        fetch.draw(ctx.rows, NameEntry((entries >> 16) as u16), left);
        fetch.draw(ctx.rows, NameEntry(entries as u16), right);
    }
}
