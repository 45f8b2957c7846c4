//! Derived data the renderer keeps between lines. Each cache holds a copy of the memory it
//! was derived from and is used only while that copy equals the VDP's memory now, so no
//! write path (data port, DMA fill, copy or transfer, a state load, a test poking VRAM) has to
//! tell the renderer anything, and nothing can go stale. Derived state only: never saved,
//! compares equal to any other cache.

use super::config::Config;
use super::pattern::{Vram, vram_word};

#[derive(Clone, Debug, Default)]
pub(super) struct Caches {
    sprites: Option<SpriteWalk>,
}

impl PartialEq for Caches {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Eq for Caches {}

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
