//! Derived data the renderer keeps between lines. Each cache holds a copy of the memory it
//! was derived from and is used only while that copy equals the VDP's memory now, so no
//! write path (data port, DMA fill, copy or transfer, a state load, a test poking VRAM) has to
//! tell the renderer anything, and nothing can go stale. Derived state only: never saved,
//! compares equal to any other cache.

use super::Pixel;
use super::colour;
use super::config::Config;
use super::pattern::{Vram, vram_word};

#[derive(Clone, Debug, Default)]
pub(super) struct Caches {
    palette: Option<PaletteCache>,
    sprites: Option<SpriteWalk>,
}

impl PartialEq for Caches {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Eq for Caches {}

/// The line palette ([`colour::line_palette`]) for the CRAM, reg 0 bit 2 and backdrop (reg 7)
/// it was made from, as the table `compose` reads. CRAM changes a few times a frame at most
/// (Sonic 2's water line), lines are 224 a frame.
#[derive(Clone, Debug)]
struct PaletteCache {
    cram: [u16; 64],
    full_palette: bool,
    backdrop: usize,
    colours: [Pixel; 256],
}

/// One sprite attribute table entry the link walk reaches, as the per-line scan needs it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Linked {
    /// Entry address in VRAM.
    pub addr: usize,
    /// Y position (9 bits; in interlace mode 2 the field's Y).
    pub y: u32,
    /// Size byte: bits 2-3 width - 1, bits 0-1 height - 1 (cells).
    pub size: u8,
    /// Height in lines (8, 16, 24 or 32).
    pub height: u32,
}

/// The sprite attribute table's link list, walked from entry 0 as `sprites::plan_line`
/// would walk it on every line, for the table bytes, base and mode it was walked from. The
/// game rewrites the table about once a frame (in vertical blank), the walk is used 224 times.
#[derive(Clone, Debug)]
struct SpriteWalk {
    sat_base: usize,
    h40: bool,
    interlace2: bool,
    table: Vec<u8>,
    order: Vec<Linked>,
}

impl Caches {
    /// The 64 CRAM entries as pixel colours, repeated to fill 256 entries so any byte
    /// indexes it (index `i` is CRAM entry `i % 64`), with entry 0 (and its repeats) the
    /// backdrop's colour.
    pub fn palette(
        &mut self,
        cram: &[u16; 64],
        full_palette: bool,
        backdrop: usize,
    ) -> &[Pixel; 256] {
        let fresh = matches!(&self.palette,
            Some(p) if p.full_palette == full_palette && p.backdrop == backdrop && p.cram == *cram);
        if !fresh {
            self.palette = None;
        }
        &self
            .palette
            .get_or_insert_with(|| {
                let pixels = colour::line_palette(cram, full_palette);
                let mut colours = [0; 256];
                for (i, c) in colours.iter_mut().enumerate() {
                    *c = pixels[i % 64];
                }
                for i in (0..256).step_by(64) {
                    colours[i] = pixels[backdrop];
                }
                PaletteCache {
                    cram: *cram,
                    full_palette,
                    backdrop,
                    colours,
                }
            })
            .colours
    }

    /// The sprite entries in link order (at most the table's length).
    pub fn sprite_walk(&mut self, cfg: &Config, vram: &Vram) -> &[Linked] {
        let table_len = if cfg.h40 { 80 } else { 64 };
        // The table never wraps: its base is at most $FC00 (H40, 640 bytes) or $FE00 (H32).
        let table = &vram[cfg.sat_base..cfg.sat_base + 8 * table_len];
        let fresh = matches!(&self.sprites,
            Some(w) if w.sat_base == cfg.sat_base && w.h40 == cfg.h40
                && w.interlace2 == cfg.interlace2 && w.table == table);
        if !fresh {
            self.sprites = None;
        }
        &self
            .sprites
            .get_or_insert_with(|| SpriteWalk {
                sat_base: cfg.sat_base,
                h40: cfg.h40,
                interlace2: cfg.interlace2,
                table: table.to_vec(),
                order: walk(cfg, vram, table_len),
            })
            .order
    }
}

/// Follows the link list from entry 0: it ends at a link of 0 or past the table, and visits
/// at most the table's length of entries.
fn walk(cfg: &Config, vram: &Vram, table_len: usize) -> Vec<Linked> {
    let mut order = Vec::with_capacity(table_len);
    let mut link = 0usize;
    for _ in 0..table_len {
        let addr = cfg.sat_base + 8 * link;
        let word0 = vram_word(vram, addr) as u32;
        let word1 = vram_word(vram, addr + 2);
        // Interlace mode 2 doubles the Y resolution (10-bit Y); in field lines the low bit
        // selects nothing, like the vertical scroll.
        let y = if cfg.interlace2 {
            (word0 >> 1) & 0x1FF
        } else {
            word0 & 0x1FF
        };
        let size = (word1 >> 8) as u8 & 0x0F;
        order.push(Linked {
            addr,
            y,
            size,
            height: 8 * ((size & 3) as u32 + 1),
        });
        link = (word1 & 0x7F) as usize;
        if link == 0 || link >= table_len {
            break;
        }
    }
    order
}
