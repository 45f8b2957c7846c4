//! Sprites: walking the link list of the sprite attribute table, the per-line limits,
//! x = 0 masking, the overflow and collision flags, flips and sizes.
//!
//! Rules (genvdp.txt "Sprites"; Nemesis's sprite-masking and limit notes on SpritesMind;
//! Plutiedev "Sprites"):
//! - The list starts at entry 0 and follows the 7-bit link field; it ends at a link of 0 or
//!   at a link past the table (64 entries in H32, 80 in H40), and at most that many entries
//!   are examined per line.
//! - At most 16 (H32) / 20 (H40) sprites are taken per line; finding one more sets the
//!   overflow flag and ends the scan.
//! - At most 256 (H32) / 320 (H40) sprite pixels are drawn per line, counting sprites that are
//!   off screen or masked; the sprite that crosses the limit is cut to the cells that fit.
//! - Earlier sprites in the list are in front of later ones.
//! - A sprite at x = 0 hides every later sprite on the line, but only once a sprite with
//!   x != 0 was seen on the line, or when the previous line hit the pixel limit (the form
//!   Genesis Plus GX implements; Nemesis's masking test ROM checks these cases).
//!
//! Simplification: Y, size and link are read from VRAM when the line is drawn (through
//! `cache::Caches::sprite_walk`, which walks the list again whenever the table's bytes, base
//! or mode differ from the last walk's, so it reads what VRAM holds at that line); the VDP
//! actually reads them from an internal copy of the table, updated on VRAM writes, and scans
//! one line ahead. Both only matter if a game moves or rewrites the table mid-frame.

use super::cache::Linked;
use super::pattern::{draw_sprite_row, row_addr, vram_word};
use super::{LineBuf, LineCtx, MARGIN};

/// A sprite the scan found on this line. Small fields: the line's arrays of these and of
/// [`Strip`]s are cleared on every line.
#[derive(Clone, Copy, Debug, Default)]
struct Candidate {
    /// Entry address in VRAM.
    addr: u16,
    /// Line within the sprite (0-31, field lines in interlace mode 2).
    row: u8,
    /// Size byte: bits 2-3 width - 1, bits 0-1 height - 1 (cells).
    size: u8,
}

/// What a line's sprite pass reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct SpriteResult {
    pub overflow: bool,
    pub collision: bool,
}

/// A run of sprite cells the line draws: where, which pattern rows, and how.
#[derive(Clone, Copy, Debug, Default)]
struct Strip {
    /// Entry address in VRAM (attribute word at +4).
    addr: u16,
    /// Layer-buffer position of the sprite's left edge (margin included).
    pos: u16,
    /// Cells drawn (cut at the pixel limit) and the sprite's width and height in cells.
    cells: u8,
    width_cells: u8,
    height_cells: u8,
    /// Line within the sprite.
    row: u8,
}

/// One line's sprite evaluation: the strips to draw (in list order), the overflow flag, and
/// the masking state for the next line. Everything but the pixels and the collision flag.
struct LinePlan {
    strips: [Strip; 20],
    count: usize,
    overflow: bool,
}

/// Renders the sprites of the current line into `buf` (layer pixels; 0 = no sprite pixel).
/// `mask_armed` is the renderer's masking state: on entry, whether the previous line hit the
/// pixel limit; on exit, whether this one did.
pub(super) fn draw_sprites(
    ctx: &LineCtx<'_>,
    order: &[Linked],
    mask_armed: &mut bool,
    buf: &mut LineBuf,
) -> SpriteResult {
    let plan = plan_line(ctx, order, mask_armed);
    let mut collision = false;
    for strip in &plan.strips[..plan.count] {
        collision |= draw_strip(ctx, strip, buf);
    }
    SpriteResult {
        overflow: plan.overflow,
        collision,
    }
}

/// The same status as [`draw_sprites`] without keeping any pixels (headless runs). The
/// collision flag is only worked out when `want_collision` (the status bit is sticky until
/// read, so once set a line cannot change it), and then only by drawing when two strips'
/// spans overlap: without an overlap no opaque pixel can land on another.
pub(super) fn evaluate_sprites(
    ctx: &LineCtx<'_>,
    order: &[Linked],
    mask_armed: &mut bool,
    want_collision: bool,
) -> SpriteResult {
    let plan = plan_line(ctx, order, mask_armed);
    let strips = &plan.strips[..plan.count];
    let mut collision = false;
    if want_collision && spans_overlap(strips) {
        let mut buf = [0u8; super::LINE_BUF];
        for strip in strips {
            collision |= draw_strip(ctx, strip, &mut buf);
        }
    }
    SpriteResult {
        overflow: plan.overflow,
        collision,
    }
}

/// Whether any two strips cover a common layer-buffer pixel.
fn spans_overlap(strips: &[Strip]) -> bool {
    for (i, a) in strips.iter().enumerate() {
        let a_end = a.pos as usize + 8 * a.cells as usize;
        for b in &strips[i + 1..] {
            let b_pos = b.pos as usize;
            if b_pos < a_end && (a.pos as usize) < b_pos + 8 * b.cells as usize {
                return true;
            }
        }
    }
    false
}

/// Scans the list (`order`: the table's entries in link order, `cache::Caches::sprite_walk`)
/// and applies the limits and masking: which cells of which sprites the line
/// draws.
fn plan_line(ctx: &LineCtx<'_>, order: &[Linked], mask_armed: &mut bool) -> LinePlan {
    let cfg = ctx.cfg;
    let (max_sprites, max_pixels) = if cfg.h40 { (20, 320) } else { (16, 256) };
    let mut plan = LinePlan {
        strips: [Strip::default(); 20],
        count: 0,
        overflow: false,
    };

    // Scan: find this line's sprites in link order.
    let mut found = [Candidate::default(); 20];
    let mut count = 0;
    let screen_line = ctx.line + 128;
    for entry in order {
        // Above the sprite the subtraction wraps far past any height.
        let row = screen_line.wrapping_sub(entry.y);
        if row < entry.height {
            if count == max_sprites {
                plan.overflow = true;
                break;
            }
            found[count] = Candidate {
                // The table ends below $10000 (`cache::Caches::sprite_walk`).
                addr: entry.addr as u16,
                row: row as u8,
                size: entry.size,
            };
            count += 1;
        }
    }

    // Limits in list order: a pixel already taken by an earlier sprite stays.
    let mut pixels = 0;
    let mut masked = false;
    for cand in &found[..count] {
        let x = vram_word(ctx.vram, cand.addr as usize + 6) & 0x1FF;
        if x != 0 {
            *mask_armed = true;
        } else if *mask_armed {
            masked = true;
        }
        let xpos = x as isize - 128;
        let width_cells = ((cand.size >> 2) & 3) as usize + 1;
        let width = 8 * width_cells;
        pixels += width;
        let on_screen = xpos + width as isize > 0 && xpos < cfg.width as isize;
        if on_screen && !masked {
            let cells = if pixels > max_pixels {
                (width - (pixels - max_pixels)) / 8
            } else {
                width_cells
            };
            plan.strips[plan.count] = Strip {
                addr: cand.addr,
                // At most MARGIN + 319.
                pos: (MARGIN as isize + xpos) as u16,
                cells: cells as u8,
                width_cells: width_cells as u8,
                height_cells: (cand.size & 3) + 1,
                row: cand.row,
            };
            plan.count += 1;
        }
        if pixels >= max_pixels {
            // Pixel limit reached: the rest of the list is skipped, and an x = 0 sprite masks
            // from the start of the next line.
            *mask_armed = true;
            return plan;
        }
    }
    *mask_armed = false;
    plan
}

/// Draws a strip's cells into `buf`; returns whether an opaque pixel hit another sprite's.
fn draw_strip(ctx: &LineCtx<'_>, strip: &Strip, buf: &mut LineBuf) -> bool {
    let cfg = ctx.cfg;
    let attr_word = vram_word(ctx.vram, strip.addr as usize + 4);
    let hflip = attr_word & 0x0800 != 0;
    let vflip = attr_word & 0x1000 != 0;
    let attr = ((attr_word >> 9) & 0x70) as u8;
    let height_cells = strip.height_cells as u32;
    let row = strip.row as u32;
    let cell_row = row >> 3;
    let cell_row = if vflip {
        height_cells - 1 - cell_row
    } else {
        cell_row
    };
    // The row inside the cell; row_addr applies the vertical flip to it.
    let fine = if cfg.interlace2 {
        ((row & 7) << 1) | ctx.odd as u32
    } else {
        row & 7
    };
    let name_mask = if cfg.interlace2 { 0x3FF } else { 0x7FF };
    let mut collision = false;
    for t in 0..strip.cells as usize {
        // Cells are stored column by column (genvdp.txt "Sprite attribute table"), and a
        // horizontally flipped sprite also swaps its columns.
        let col = if hflip {
            strip.width_cells as usize - 1 - t
        } else {
            t
        };
        let pattern =
            (attr_word.wrapping_add((col as u32 * height_cells + cell_row) as u16)) & name_mask;
        let addr = row_addr(pattern, fine, vflip, cfg.interlace2);
        let pos = strip.pos as usize + 8 * t;
        collision |= draw_sprite_row(ctx.vram, addr, hflip, attr, &mut buf[pos..pos + 8]);
    }
    collision
}
