//! Headless lines taken on credit. A headless line whose sprites cannot collide (or whose
//! collision flag is already set) changes two things only: the overflow flag (sticky until the
//! status is read) and the masking state the next line inherits, both read from the sprite
//! table's line index. While the registers the sprite pass reads (1, 5, 12), VRAM and the
//! collision flag stay as they were at the last line evaluated, the following lines of that
//! kind are only counted, and their effect is applied when something can see it: a status
//! read, a line that must be evaluated (a register or VRAM write since, a line whose sprites
//! may collide while the flag is wanted), or the end of a `Machine::run` (the host's view,
//! save states). The index they are read from is the one the counted lines would have read:
//! it is only rebuilt by a line evaluated, which settles first.

use super::config;
use super::{Deferral, Renderer};

impl Renderer {
    /// Counts headless line `line` instead of evaluating it, if it follows the lines counted
    /// under the same VRAM version and needs no drawing. (The registers are as then: a
    /// register write settles and closes the deferral, `Vdp::write_register`.)
    #[inline]
    pub fn defer_line(&mut self, vram_version: u64, line: u16) -> bool {
        let d = &mut self.deferral;
        if line == d.to && line < d.until && d.vram_version == vram_version {
            d.to += 1;
            true
        } else {
            false
        }
    }

    /// After [`Renderer::quick_line`] answered for `line` (same arguments): the lines after
    /// it may be counted until one needs drawing.
    #[inline]
    pub fn open_deferral(
        &mut self,
        regs: &[u8; 24],
        vram_version: u64,
        line: u16,
        want_collision: bool,
    ) {
        let display = config::display_enabled(regs);
        let until = if !display {
            // A line with the display off leaves everything as it is.
            u16::MAX
        } else {
            let Some(table) = self
                .cache
                .current_sprite_table(regs, Some(vram_version), None)
            else {
                return;
            };
            table.first_line_to_draw_refined(line as usize + 1, want_collision) as u16
        };
        self.deferral = Deferral {
            from: line + 1,
            to: line + 1,
            until,
            display,
            vram_version,
        };
    }

    /// Applies the counted lines and closes the deferral: whether one of them overflowed
    /// (`None`: it was closed). The masking state is the last one's.
    #[inline]
    pub fn settle_deferred(&mut self) -> Option<bool> {
        if self.deferral.until == 0 {
            return None;
        }
        let d = std::mem::take(&mut self.deferral);
        if !d.display || d.from == d.to {
            return Some(false);
        }
        let (overflow, full) = self
            .cache
            .indexed_sprite_table()
            .sum_outcomes(d.from as usize..d.to as usize);
        self.sprite_mask_armed = full;
        Some(overflow)
    }
}

#[cfg(test)]
mod tests {
    use crate::vdp::{Vdp, status};

    const SAT: usize = 0xF800;

    fn command(v: &mut Vdp, addr: usize) {
        // VRAM write (code 1).
        v.write_control((1 << 14) | (addr as u16 & 0x3FFF), 0);
        v.write_control((addr >> 14) as u16, 0);
    }

    /// A headless VDP whose lines are counted (`begin_active_line`) answers every status read
    /// and leaves the flags and the masking state as one evaluating every line
    /// (`render_line`), through register writes, sprite table and pattern writes between
    /// lines, on crowded random tables whose lines overflow, fill and collide.
    #[test]
    fn counted_lines_settle_as_evaluated_lines() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut counted_lines = 0;
        for round in 0..64 {
            let mut a = Vdp::new(false);
            a.draw = false;
            a.regs[1] = 0x54;
            a.regs[5] = (SAT >> 9) as u8;
            a.regs[12] = if round & 1 != 0 { 0x81 } else { 0 };
            a.regs[15] = 2;
            // Sparse opaque patterns: some overlaps collide, some do not.
            for b in a.vram[..0x8000].iter_mut() {
                let r = next();
                *b = if r % 4 == 0 { (r >> 8) as u8 } else { 0 };
            }
            let sprites = 20 + (next() % 60) as usize;
            for i in 0..sprites {
                let e = SAT + 8 * i;
                // Every other pair of rounds crowds the sprites into a band (overflow).
                let band = if round & 2 != 0 { 80 } else { 240 };
                let y = 128 + (next() % band) as u16;
                let size = (next() & 15) as u16;
                let link = if i + 1 < sprites { i as u16 + 1 } else { 0 };
                let x = 110 + (next() % 350) as u16;
                let tile = (next() % 0x400) as u16;
                for (k, w) in [y, (size << 8) | link, tile, x].into_iter().enumerate() {
                    a.vram[e + 2 * k..e + 2 * k + 2].copy_from_slice(&w.to_be_bytes());
                }
            }
            a.vram_written();
            let mut b = a.clone();
            for frame in 0..4 {
                for line in 0..224 {
                    a.render_line(line);
                    b.begin_active_line(line);
                    match next() % 60 {
                        0..=1 => {
                            let now = line as u64 * 3420;
                            assert_eq!(
                                a.read_status(now, false),
                                b.read_status(now, false),
                                "round {round} frame {frame} line {line}"
                            );
                        }
                        2 => {
                            let (reg, value) = match next() % 3 {
                                0 => (1, 0x54 ^ (next() as u8 & 0x40)),
                                1 => (12, 0x81 ^ (next() as u8 & 0x81)),
                                _ => (5, (SAT >> 9) as u8 ^ (next() as u8 & 1)),
                            };
                            a.write_register(reg, value, 0);
                            b.write_register(reg, value, 0);
                        }
                        3..=6 => {
                            // Moves a sprite (Y or X) or writes a pattern.
                            let addr = match next() % 3 {
                                0 => SAT + 8 * (next() as usize % sprites),
                                1 => SAT + 8 * (next() as usize % sprites) + 6,
                                _ => next() as usize & 0x7FFE,
                            };
                            let value = 128 + (next() % 300) as u16;
                            for v in [&mut a, &mut b] {
                                command(v, addr);
                                v.write_data(value, 0, false);
                            }
                        }
                        _ => {}
                    }
                    let d = b.renderer.deferral;
                    if d.from <= line && line < d.to {
                        counted_lines += 1;
                    }
                }
                b.settle_sprites();
                let flags = status::SPRITE_OVERFLOW | status::SPRITE_COLLISION;
                assert_eq!(
                    a.status & flags,
                    b.status & flags,
                    "round {round} frame {frame}"
                );
                assert_eq!(a.renderer, b.renderer, "round {round} frame {frame}");
                assert_eq!(a.drawing_width, b.drawing_width);
            }
        }
        // The counting was taken (not every line evaluated).
        assert!(counted_lines > 10_000, "{counted_lines} lines counted");
    }
}
