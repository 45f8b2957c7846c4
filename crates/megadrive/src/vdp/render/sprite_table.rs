//! The sprite attribute table as the per-line scan sees it: the entries the link list
//! reaches, in list order, and for each line which of them it shows, how many, and the
//! pixels the line's limit counts. Built from the table's bytes once (`cache::Caches`
//! rebuilds it when those bytes, the table's base or the mode change), read by every line:
//! a line then costs what its own sprites cost, not a pass over the whole list.
//!
//! Everything here depends on the table alone; the x = 0 masking (which depends on the
//! previous line) and the drawing stay per line in `sprites`.

use super::config::SpriteMode;
use super::pattern::{Vram, vram_word};

/// Lines indexed: every active line (at most 240; field lines in interlace mode 2). Other
/// lines (reachable only through the renderer's API) are scanned when asked for.
const INDEX_LINES: usize = 256;

/// One table entry the link walk reaches, as the per-line scan needs it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Linked {
    /// Entry address in VRAM (the table ends below $10000).
    pub addr: u16,
    /// Y position (9 bits; in interlace mode 2 the field's Y).
    pub y: u16,
    /// X position (9 bits; 128 is the screen's left edge, 0 masks).
    pub x: u16,
    /// Size byte: bits 2-3 width - 1, bits 0-1 height - 1 (cells).
    pub size: u8,
    /// Height in lines (8, 16, 24 or 32; field lines in interlace mode 2).
    pub height: u8,
}

impl Linked {
    /// Width in cells (1-4).
    pub fn width_cells(&self) -> usize {
        ((self.size >> 2) & 3) as usize + 1
    }

    /// Width in pixels.
    fn width(&self) -> u16 {
        8 * self.width_cells() as u16
    }

    /// The groups of 8 sprite x positions the sprite covers (bit `i`: `8i..8i + 7`) if it is
    /// on a screen `width` pixels wide, else none.
    fn columns(&self, width: usize) -> u64 {
        let (left, end) = (self.x as usize, self.x as usize + self.width() as usize);
        if end <= 128 || left >= 128 + width {
            return 0;
        }
        // On screen: 97 <= left and end <= 479, so the groups are 12 to 59.
        let (first, last) = (left / 8, (end - 1) / 8);
        ((1u64 << (last - first + 1)) - 1) << first
    }

    /// The sprite's row on `line` (0-based active line), if it is on that line.
    pub fn row(&self, line: u32) -> Option<u32> {
        // Above the sprite the subtraction wraps far past any height.
        let row = (line + 128).wrapping_sub(self.y as u32);
        (row < self.height as u32).then_some(row)
    }
}

/// What the scan finds on one line, before the masking and the on-screen test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct LineSprites {
    /// Bit `i`: entry `i` of the list order is on the line.
    pub on: u128,
    /// Entries on the line; more than the line's limit sets the overflow flag.
    pub count: u8,
    /// Width of the first `limit` of them: the pixel limit counts these, on screen or not.
    pub pixels: u16,
    /// Two of the first `limit` are on screen and share a pixel column. Without that no
    /// opaque sprite pixel can land on another (masking hides sprites and the pixel limit
    /// cuts them, which only takes pixels away), so the collision flag needs no drawing.
    pub may_collide: bool,
    /// The on-screen ones of the first `limit`: bit `i` for sprite x positions `8i..8i + 7`.
    columns: u64,
}

impl LineSprites {
    /// Adds the next entry of the list (position `bit`), `width` pixels wide and covering
    /// the 8-pixel column groups in `columns` if on screen (else none), to the line, and
    /// sets in `outcome` the [`LineOutcome`] bits the line has come to have (each, once
    /// true, stays true as entries are added: so the index needs no pass over its lines).
    #[inline]
    fn add(
        &mut self,
        outcome: &mut LineOutcome,
        bit: u128,
        width: u16,
        columns: u64,
        limits: (usize, usize),
    ) {
        let (max_sprites, max_pixels) = limits;
        self.on |= bit;
        if (self.count as usize) < max_sprites {
            self.pixels += width;
            // Groups of 8 columns: coarser than pixels, so this may see an overlap where
            // there is none (the line is then looked at by pixels, or drawn), never the
            // reverse.
            if self.columns & columns != 0 {
                self.may_collide = true;
                outcome.0 |= LineOutcome::MAY_COLLIDE;
            }
            self.columns |= columns;
            if self.pixels as usize >= max_pixels {
                outcome.0 |= LineOutcome::FULL;
            }
        } else {
            outcome.0 |= LineOutcome::OVERFLOW;
        }
        self.count += 1;
    }
}

/// What a line of the index decides without drawing, in three bits: the overflow flag, the
/// pixel limit reached (the masking state the next line inherits), and whether its sprites
/// may collide (only then does the collision flag need the line drawn); and a fourth saying
/// the third was checked by pixels ([`SpriteTable::refine_line`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct LineOutcome(u8);

impl LineOutcome {
    const OVERFLOW: u8 = 1;
    const FULL: u8 = 2;
    const MAY_COLLIDE: u8 = 4;
    const REFINED: u8 = 8;

    /// More than the line's sprite limit are on it.
    pub fn overflow(self) -> bool {
        self.0 & Self::OVERFLOW != 0
    }

    /// The first sprites reach the line's pixel limit.
    pub fn full(self) -> bool {
        self.0 & Self::FULL != 0
    }

    /// Two of the first sprites are on screen and share a group of 8 columns (and, once
    /// [`SpriteTable::refine_line`] looked, a pixel column).
    pub fn may_collide(self) -> bool {
        self.0 & Self::MAY_COLLIDE != 0
    }
}

/// The list and its line index.
#[derive(Clone, Debug, Default)]
pub(super) struct SpriteTable {
    order: Vec<Linked>,
    lines: Vec<LineSprites>,
    /// For each indexed line, what a headless line needs ([`LineOutcome`]).
    outcomes: Vec<LineOutcome>,
    max_pixels: usize,
    max_sprites: usize,
    /// Active width in pixels.
    width: usize,
    /// Bytes of the table the walk read, from its base: entry 0 to the highest entry
    /// visited. Nothing else of the table can change the list.
    read: usize,
}

impl SpriteTable {
    /// Walks the link list from entry 0 (it ends at a link of 0 or past the table, after at
    /// most the table's length of entries) and indexes the lines. Keeps its buffers.
    pub fn rebuild(&mut self, mode: &SpriteMode, vram: &Vram) {
        let table_len = mode.table_len();
        self.max_sprites = mode.max_sprites();
        self.max_pixels = mode.max_pixels();
        self.width = mode.width();
        self.order.clear();
        let mut link = 0usize;
        let mut last = 0;
        for _ in 0..table_len {
            last = last.max(link);
            let addr = mode.sat_base + 8 * link;
            let word0 = vram_word(vram, addr);
            let word1 = vram_word(vram, addr + 2);
            // Interlace mode 2 doubles the Y resolution (10-bit Y); in field lines the low
            // bit selects nothing, like the vertical scroll.
            let y = if mode.interlace2 {
                (word0 >> 1) & 0x1FF
            } else {
                word0 & 0x1FF
            };
            let size = (word1 >> 8) as u8 & 0x0F;
            self.order.push(Linked {
                // At most $FE80 + 7.
                addr: addr as u16,
                y,
                x: vram_word(vram, addr + 6) & 0x1FF,
                size,
                height: 8 * ((size & 3) + 1),
            });
            link = (word1 & 0x7F) as usize;
            if link == 0 || link >= table_len {
                break;
            }
        }

        self.read = 8 * (last + 1);
        self.lines.clear();
        self.lines.resize(INDEX_LINES, LineSprites::default());
        self.outcomes.clear();
        self.outcomes.resize(INDEX_LINES, LineOutcome::default());
        let limits = (self.max_sprites, self.max_pixels);
        for (pos, entry) in self.order.iter().enumerate() {
            // Line L shows the sprite when y <= L + 128 < y + height.
            let end = (entry.y as usize + entry.height as usize)
                .saturating_sub(128)
                .min(INDEX_LINES);
            let start = (entry.y as usize).saturating_sub(128).min(end);
            let (bit, width, columns) = (1 << pos, entry.width(), entry.columns(self.width));
            for (line, outcome) in self.lines[start..end]
                .iter_mut()
                .zip(&mut self.outcomes[start..end])
            {
                line.add(outcome, bit, width, columns, limits);
            }
        }
    }

    /// How many bytes of the table, from its base, the list was built from.
    pub fn bytes_read(&self) -> usize {
        self.read
    }

    /// The entries in link order (at most the table's length; an entry may recur).
    pub fn entries(&self) -> &[Linked] {
        &self.order
    }

    /// What line `line` decides without drawing, if the index holds it.
    #[inline]
    pub fn outcome(&self, line: u32) -> Option<LineOutcome> {
        self.outcomes.get(line as usize).copied()
    }

    /// Whether line `line`'s sprites may collide (as [`LineOutcome::may_collide`]), looked at
    /// by pixels where their groups of 8 columns meet, the answer kept in its outcome. The
    /// strips a line draws are its first on-screen sprites' spans or, cut at the pixel limit
    /// or masked, less of them: without two spans that share a pixel column no opaque pixel
    /// can land on another, so a line cleared here needs no drawing for the collision flag.
    /// Lazily, because a line is only asked while the flag is clear, and a frame's first
    /// collision sets it: the lines of the 8-column test are many more than those asked.
    #[inline]
    pub fn refine_line(&mut self, line: u32) -> bool {
        let Some(outcome) = self.outcomes.get_mut(line as usize) else {
            return false;
        };
        if outcome.0 & (LineOutcome::MAY_COLLIDE | LineOutcome::REFINED) == LineOutcome::MAY_COLLIDE
        {
            outcome.0 |= LineOutcome::REFINED;
            if !spans_meet(
                &self.order,
                &self.lines[line as usize],
                self.max_sprites,
                self.width,
            ) {
                outcome.0 &= !LineOutcome::MAY_COLLIDE;
            }
        }
        outcome.may_collide()
    }

    /// Line `line` was looked at by pixels and found without two sprites sharing a column.
    #[cfg(test)]
    pub fn lines_refined_clear(&self, line: u32) -> bool {
        self.outcomes.get(line as usize).is_some_and(|o| {
            o.0 & (LineOutcome::REFINED | LineOutcome::MAY_COLLIDE) == LineOutcome::REFINED
        })
    }

    /// The first line from `from` on that the index does not hold or, when the collision
    /// flag is wanted, whose sprites may collide.
    pub fn first_line_to_draw(&self, from: usize, want_collision: bool) -> usize {
        let held = self.outcomes.get(from..).unwrap_or(&[]);
        if !want_collision {
            return from + held.len();
        }
        // Eight lines at a time.
        const MAY_COLLIDE: u64 = u64::from_le_bytes([LineOutcome::MAY_COLLIDE; 8]);
        let mut chunks = held.chunks_exact(8);
        let mut at = from;
        for chunk in &mut chunks {
            let eight = u64::from_le_bytes(std::array::from_fn(|i| chunk[i].0));
            let hits = eight & MAY_COLLIDE;
            if hits != 0 {
                return at + hits.trailing_zeros() as usize / 8;
            }
            at += 8;
        }
        let rest = chunks.remainder();
        at + rest
            .iter()
            .position(|o| o.may_collide())
            .unwrap_or(rest.len())
    }

    /// [`SpriteTable::first_line_to_draw`] with the lines on the way whose 8-column groups
    /// meet looked at by pixels ([`SpriteTable::refine_line`]): the first line from `from`
    /// on that the index does not hold or, when the collision flag is wanted, whose sprites
    /// may collide by pixels.
    pub fn first_line_to_draw_refined(&mut self, mut from: usize, want_collision: bool) -> usize {
        loop {
            let line = self.first_line_to_draw(from, want_collision);
            if line >= self.outcomes.len() || self.refine_line(line as u32) {
                return line;
            }
            from = line + 1;
        }
    }

    /// Over lines `lines` (held by the index): whether any overflows, and whether the last
    /// reaches the pixel limit.
    pub fn sum_outcomes(&self, lines: std::ops::Range<usize>) -> (bool, bool) {
        let outcomes = &self.outcomes[lines];
        let all = outcomes.iter().fold(0, |all, o| all | o.0);
        let last = outcomes.last().is_some_and(|o| o.full());
        (all & LineOutcome::OVERFLOW != 0, last)
    }

    /// The entries on active line `line`.
    #[inline]
    pub fn line(&self, line: u32) -> LineSprites {
        match self.lines.get(line as usize) {
            Some(sprites) => *sprites,
            None => self.scan(line),
        }
    }

    /// [`SpriteTable::line`] worked out from the list.
    #[cold]
    #[inline(never)]
    fn scan(&self, line: u32) -> LineSprites {
        let mut sprites = LineSprites::default();
        for (pos, entry) in self.order.iter().enumerate() {
            if entry.row(line).is_some() {
                sprites.add(
                    &mut LineOutcome::default(),
                    1 << pos,
                    entry.width(),
                    entry.columns(self.width),
                    (self.max_sprites, self.max_pixels),
                );
            }
        }
        sprites
    }
}

/// Whether two of the first `max_sprites` entries of `sprites` (positions in `order`) that
/// are on a screen `width` pixels wide share a pixel column.
#[cold]
#[inline(never)]
fn spans_meet(order: &[Linked], sprites: &LineSprites, max_sprites: usize, width: usize) -> bool {
    // The sprite x positions taken so far, a bit each (an on-screen sprite ends below 480).
    let mut taken = [0u64; 8];
    let mut on = sprites.on;
    let mut left = max_sprites;
    while on != 0 && left > 0 {
        let entry = &order[on.trailing_zeros() as usize];
        on &= on - 1;
        left -= 1;
        if entry.columns(width) == 0 {
            continue;
        }
        let x = entry.x as usize;
        let span = ((1u128 << entry.width()) - 1) << (x & 63);
        let (word, low, high) = (x >> 6, span as u64, (span >> 64) as u64);
        let next = (word + 1).min(7);
        if taken[word] & low != 0 || taken[next] & high != 0 {
            return true;
        }
        taken[word] |= low;
        taken[next] |= high;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index and the scan agree on every line the index holds.
    #[test]
    fn index_matches_scan() {
        let mut vram = Box::new([0u8; 0x1_0000]);
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..64 {
            for b in vram[0xF000..].iter_mut() {
                *b = next() as u8;
            }
            let mode = SpriteMode {
                h40: round & 1 != 0,
                interlace2: round & 2 != 0,
                sat_base: if round & 1 != 0 { 0xFC00 } else { 0xFE00 } - 0x400 * (round % 3),
            };
            let mut table = SpriteTable::default();
            table.rebuild(&mode, &vram);
            for line in 0..INDEX_LINES as u32 {
                let sprites = table.scan(line);
                assert_eq!(table.line(line), sprites, "round {round} line {line}");
                let outcome = table.outcome(line).unwrap();
                assert_eq!(
                    (outcome.overflow(), outcome.full(), outcome.may_collide()),
                    (
                        sprites.count as usize > mode.max_sprites(),
                        sprites.pixels as usize >= mode.max_pixels(),
                        sprites.may_collide
                    ),
                    "round {round} line {line}"
                );
            }
            // The deferral's look-ahead and sums, against plain walks.
            let outcomes: Vec<_> = (0..INDEX_LINES as u32)
                .map(|l| table.outcome(l).unwrap())
                .collect();
            for from in 0..=INDEX_LINES + 1 {
                let plain = (from..INDEX_LINES)
                    .find(|&l| outcomes[l].may_collide())
                    .unwrap_or(INDEX_LINES.max(from));
                assert_eq!(table.first_line_to_draw(from, true), plain, "from {from}");
                assert_eq!(table.first_line_to_draw(from, false), INDEX_LINES.max(from));
                // The same with the lines on the way looked at by pixels, against a walk
                // asking each line.
                let mut walked = table.clone();
                let plain = (from..INDEX_LINES)
                    .find(|&l| walked.refine_line(l as u32))
                    .unwrap_or(INDEX_LINES.max(from));
                let mut refined = table.clone();
                assert_eq!(
                    refined.first_line_to_draw_refined(from, true),
                    plain,
                    "refined from {from}"
                );
                assert_eq!(
                    refined.first_line_to_draw_refined(from, false),
                    INDEX_LINES.max(from)
                );
                if from < INDEX_LINES {
                    let to = from + (next() % (INDEX_LINES - from) as u64) as usize + 1;
                    let plain = (
                        outcomes[from..to].iter().any(|o| o.overflow()),
                        outcomes[to - 1].full(),
                    );
                    assert_eq!(table.sum_outcomes(from..to), plain, "{from}..{to}");
                }
            }
        }
    }
}
