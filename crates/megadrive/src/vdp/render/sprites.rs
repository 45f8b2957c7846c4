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
//! Which entries a line shows, how many and the pixels they count depend on the table alone
//! and come from its line index (`sprite_table`, rebuilt by `cache::Caches` when the table
//! changes); a line without sprites costs a lookup, and a headless line is decided from the
//! index alone unless its collision flag is wanted and two of its sprites share a column.
//!
//! Simplification: Y, size, link and X are read from VRAM as it is when the line is drawn
//! (the index is rebuilt whenever the table's bytes, base or mode differ from the ones it
//! was built from, so it holds what VRAM holds at that line); the VDP actually reads Y,
//! size and link from an internal copy of the table, updated on VRAM writes, and scans one
//! line ahead. Both only matter if a game moves or rewrites the table mid-frame.

use super::config::SpriteMode;
use super::line::{LineBuf, MARGIN};
use super::pattern::{Vram, draw_sprite_row, row_addr, vram_word};
use super::sprite_table::{LineSprites, SpriteTable};

#[cfg(test)]
mod reference_tests;

/// One line's view of the VDP for the sprite pass.
pub(super) struct SpriteLine<'a> {
    pub mode: SpriteMode,
    pub vram: &'a Vram,
    /// Line within the field (interlace mode 2: the field's line, in field lines).
    pub line: u32,
    /// Odd field (only used in interlace mode 2).
    pub odd: bool,
}

impl<'a> SpriteLine<'a> {
    /// Line `line` (of field `odd`) of the VDP state `input`.
    pub fn new(input: &super::line::RenderInput<'a>, line: u32, odd: bool) -> Self {
        SpriteLine {
            mode: SpriteMode::decode(input.regs),
            vram: input.vram,
            line,
            odd,
        }
    }
}

/// What a line's sprite pass reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct SpriteResult {
    pub overflow: bool,
    pub collision: bool,
    /// Layer-buffer positions `start..end` outside which the line drew no sprite pixel
    /// (empty when it drew none; only kept by [`draw_sprites`]).
    pub drawn: (usize, usize),
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

/// Renders the sprites of the current line into `buf` (layer pixels; 0 = no sprite pixel).
/// `mask_armed` is the renderer's masking state: on entry, whether the previous line hit the
/// pixel limit; on exit, whether this one did.
pub(super) fn draw_sprites(
    sl: &SpriteLine<'_>,
    table: &SpriteTable,
    mask_armed: &mut bool,
    buf: &mut LineBuf,
) -> SpriteResult {
    let sprites = table.line(sl.line);
    let mut collision = false;
    let (mut start, mut end) = (usize::MAX, 0);
    plan_line(sl, table, &sprites, mask_armed, |strip| {
        collision |= draw_strip(sl, strip, buf);
        start = start.min(strip.pos as usize);
        end = end.max(strip.pos as usize + 8 * strip.cells as usize);
    });
    SpriteResult {
        overflow: sprites.count as usize > sl.mode.max_sprites(),
        collision,
        drawn: (start.min(end), end),
    }
}

/// The same status and masking state as [`draw_sprites`] without keeping any pixels
/// (headless runs). The collision flag is only worked out when `want_collision` (the status
/// bit is sticky until read, so once set a line cannot change it), and then only by drawing
/// when two strips' spans overlap: without an overlap no opaque pixel can land on another.
#[inline]
pub(super) fn evaluate_sprites(
    sl: &SpriteLine<'_>,
    table: &SpriteTable,
    mask_armed: &mut bool,
    want_collision: bool,
) -> SpriteResult {
    let sprites = table.line(sl.line);
    let overflow = sprites.count as usize > sl.mode.max_sprites();
    let collision = if want_collision && sprites.may_collide {
        collide(sl, table, &sprites, mask_armed)
    } else {
        // The masking state only depends on whether the line reached the pixel limit.
        *mask_armed = sprites.pixels as usize >= sl.mode.max_pixels();
        false
    };
    SpriteResult {
        overflow,
        collision,
        drawn: (0, 0),
    }
}

/// The collision flag of a line whose sprites may overlap, and its masking state.
#[inline(never)]
fn collide(
    sl: &SpriteLine<'_>,
    table: &SpriteTable,
    sprites: &LineSprites,
    mask_armed: &mut bool,
) -> bool {
    let mut strips = [Strip::default(); 20];
    let mut count = 0;
    plan_line(sl, table, sprites, mask_armed, |strip| {
        strips[count] = *strip;
        count += 1;
    });
    let strips = &strips[..count];
    let overlapping = overlapping(strips);
    if overlapping == 0 {
        return false;
    }
    // Only a strip that shares a pixel with another can land on or under an opaque sprite
    // pixel; those are drawn in order, up to the first collision.
    let mut buf = [0u8; super::line::LINE_BUF];
    for (i, strip) in strips.iter().enumerate() {
        if overlapping & (1 << i) != 0 && draw_strip(sl, strip, &mut buf) {
            return true;
        }
    }
    false
}

/// The strips (bit `i`: strip `i`) that cover a layer-buffer pixel another strip covers.
fn overlapping(strips: &[Strip]) -> u32 {
    let mut found = 0;
    for (i, a) in strips.iter().enumerate() {
        let a_end = a.pos as usize + 8 * a.cells as usize;
        for (j, b) in strips.iter().enumerate().skip(i + 1) {
            let b_pos = b.pos as usize;
            if b_pos < a_end && (a.pos as usize) < b_pos + 8 * b.cells as usize {
                found |= (1 << i) | (1 << j);
            }
        }
    }
    found
}

/// Applies the sprite and pixel limits and the masking to the line's entries (`sprites`,
/// from the table's index) in list order and hands each run of cells the line draws to
/// `strip`, front to back.
fn plan_line(
    sl: &SpriteLine<'_>,
    table: &SpriteTable,
    sprites: &LineSprites,
    mask_armed: &mut bool,
    mut strip: impl FnMut(&Strip),
) {
    let max_pixels = sl.mode.max_pixels();
    let width = sl.mode.width() as isize;
    let entries = table.entries();
    // The first `max_sprites` entries on the line; one more only sets the overflow flag.
    let mut left = sl.mode.max_sprites();
    let mut on = sprites.on;
    // Limits in list order: a pixel already taken by an earlier sprite stays.
    let mut pixels = 0;
    let mut masked = false;
    while on != 0 && left > 0 {
        let entry = &entries[on.trailing_zeros() as usize];
        on &= on - 1;
        left -= 1;
        if entry.x != 0 {
            *mask_armed = true;
        } else if *mask_armed {
            masked = true;
        }
        let xpos = entry.x as isize - 128;
        let width_cells = entry.width_cells();
        let sprite_width = 8 * width_cells;
        pixels += sprite_width;
        let on_screen = xpos + sprite_width as isize > 0 && xpos < width;
        if on_screen && !masked {
            let cells = if pixels > max_pixels {
                (sprite_width - (pixels - max_pixels)) / 8
            } else {
                width_cells
            };
            strip(&Strip {
                addr: entry.addr,
                // At most MARGIN + 319.
                pos: (MARGIN as isize + xpos) as u16,
                cells: cells as u8,
                width_cells: width_cells as u8,
                height_cells: (entry.size & 3) + 1,
                // The index holds the entry for this line: the row is below its height.
                row: (sl.line + 128).wrapping_sub(entry.y as u32) as u8,
            });
        }
        if pixels >= max_pixels {
            // Pixel limit reached: the rest of the list is skipped, and an x = 0 sprite masks
            // from the start of the next line.
            *mask_armed = true;
            return;
        }
    }
    *mask_armed = false;
}

/// Draws a strip's cells into `buf`; returns whether an opaque pixel hit another sprite's.
fn draw_strip(sl: &SpriteLine<'_>, strip: &Strip, buf: &mut LineBuf) -> bool {
    let interlace2 = sl.mode.interlace2;
    let attr_word = vram_word(sl.vram, strip.addr as usize + 4);
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
    let fine = if interlace2 {
        ((row & 7) << 1) | sl.odd as u32
    } else {
        row & 7
    };
    let name_mask = if interlace2 { 0x3FF } else { 0x7FF };
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
        let addr = row_addr(pattern, fine, vflip, interlace2);
        let pos = strip.pos as usize + 8 * t;
        collision |= draw_sprite_row(sl.vram, addr, hflip, attr, &mut buf[pos..pos + 8]);
    }
    collision
}
