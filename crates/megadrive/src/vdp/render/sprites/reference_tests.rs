//! The indexed sprite pass against a plain model of the rules in `sprites`' header
//! (genvdp.txt "Sprites", Nemesis's limit and masking notes): walk the list from VRAM on every
//! line, find the line's sprites, apply the limits and the masking, draw pixel by pixel from
//! the pattern nibbles. Random tables (long lists, crowded lines, x = 0 sprites, sprites at
//! the screen edges, H32/H40, interlace mode 2), every line of the field and a few past it,
//! both masking states on entry, drawing and headless.

use super::*;
use crate::vdp::render::cache::Caches;

/// The model's view of one line: the sprite layer, the flags and the masking state after it.
#[derive(Debug, PartialEq, Eq)]
struct Model {
    layer: Vec<u8>,
    overflow: bool,
    collision: bool,
    mask_armed: bool,
}

fn word(vram: &Vram, addr: usize) -> u16 {
    u16::from_be_bytes([vram[addr & 0xFFFF], vram[(addr + 1) & 0xFFFF]])
}

/// One line by the rules, reading the table from VRAM.
fn model(vram: &Vram, mode: SpriteMode, line: u32, odd: bool, mut mask_armed: bool) -> Model {
    let (table_len, max_sprites, max_pixels, width) = if mode.h40 {
        (80, 20, 320, 320)
    } else {
        (64, 16, 256, 256)
    };
    let mut layer = vec![0u8; super::super::LINE_BUF];
    // Scan the list for the line's sprites (entry address, row).
    let mut found = Vec::new();
    let mut overflow = false;
    let mut link = 0;
    for _ in 0..table_len {
        let addr = mode.sat_base + 8 * link;
        let w0 = word(vram, addr) as i32;
        let w1 = word(vram, addr + 2);
        let y = if mode.interlace2 {
            (w0 >> 1) & 0x1FF
        } else {
            w0 & 0x1FF
        };
        let height = 8 * (((w1 >> 8) & 3) as i32 + 1);
        let row = line as i32 + 128 - y;
        if (0..height).contains(&row) {
            if found.len() == max_sprites {
                overflow = true;
                break;
            }
            found.push((addr, row));
        }
        link = (w1 & 0x7F) as usize;
        if link == 0 || link >= table_len {
            break;
        }
    }
    // Limits and masking in list order, pixel by pixel.
    let mut pixels = 0;
    let mut masked = false;
    let mut collision = false;
    for &(addr, row) in &found {
        let size = word(vram, addr + 2) >> 8;
        let (w_cells, h_cells) = (((size >> 2) & 3) as i32 + 1, (size & 3) as i32 + 1);
        let attr_word = word(vram, addr + 4);
        let x = (word(vram, addr + 6) & 0x1FF) as i32;
        if x != 0 {
            mask_armed = true;
        } else if mask_armed {
            masked = true;
        }
        let before = pixels;
        pixels += 8 * w_cells;
        let on_screen = x - 128 + 8 * w_cells > 0 && x - 128 < width;
        if on_screen && !masked {
            let (hflip, vflip) = (attr_word & 0x0800 != 0, attr_word & 0x1000 != 0);
            let attr = ((attr_word >> 9) & 0x70) as u8;
            // Only the pixels up to the limit are drawn.
            let drawn = (8 * w_cells).min(max_pixels - before) / 8 * 8;
            for px in 0..drawn {
                let sx = if hflip { 8 * w_cells - 1 - px } else { px };
                let sy = if vflip { 8 * h_cells - 1 - row } else { row };
                let pattern = attr_word.wrapping_add((sx / 8 * h_cells + sy / 8) as u16);
                let addr = if mode.interlace2 {
                    // Cells are 8x16: the field's row and the field select the cell row.
                    let fine = (sy % 8) * 2 + odd as i32;
                    let fine = if vflip {
                        15 - ((row % 8) * 2 + odd as i32)
                    } else {
                        fine
                    };
                    ((pattern as usize & 0x3FF) << 6) + 4 * fine as usize
                } else {
                    ((pattern as usize & 0x7FF) << 5) + 4 * (sy % 8) as usize
                };
                let byte = vram[addr + (sx % 8) as usize / 2];
                let colour = if sx % 2 == 0 { byte >> 4 } else { byte & 0xF };
                if colour == 0 {
                    continue;
                }
                let pos = (MARGIN as i32 + x - 128 + px) as usize;
                if layer[pos] != 0 {
                    collision = true;
                } else {
                    layer[pos] = colour | attr;
                }
            }
        }
        if pixels >= max_pixels {
            return Model {
                layer,
                overflow,
                collision,
                mask_armed: true,
            };
        }
    }
    Model {
        layer,
        overflow,
        collision,
        mask_armed: false,
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random table at `mode.sat_base` and random patterns (half the pixels transparent).
fn random_scene(rng: &mut Rng, mode: SpriteMode, vram: &mut Vram) {
    for b in vram[..0x8000].iter_mut() {
        let v = rng.next() as u8;
        *b = v & if rng.below(2) == 0 { 0x0F } else { 0xF0 };
    }
    let table_len = if mode.h40 { 80 } else { 64 };
    // A band of lines where many sprites crowd (overflow, pixel limit), or none.
    let band = 100 + rng.below(250) as u16;
    let crowd = rng.below(3);
    for i in 0..table_len {
        let y = if rng.below(3) < crowd {
            band + rng.below(24) as u16
        } else {
            rng.below(512) as u16
        };
        let size = rng.below(16) as u16;
        let link = match rng.below(20) {
            0 => rng.below(128) as u16,
            1 => 0,
            _ => (i as u16 + 1) & 0x7F,
        };
        let x = match rng.below(8) {
            0 => 0,
            1 => 97 + rng.below(40) as u16,
            2 => 400 + rng.below(112) as u16,
            _ => rng.below(512) as u16,
        };
        let a = mode.sat_base + 8 * i;
        let words = [
            (rng.next() as u16 & 0xFC00) | y,
            (rng.next() as u16 & 0xF080) | (size << 8) | link,
            rng.next() as u16 & 0xF8FF,
            (rng.next() as u16 & 0xFE00) | x,
        ];
        for (k, w) in words.iter().enumerate() {
            vram[a + 2 * k..a + 2 * k + 2].copy_from_slice(&w.to_be_bytes());
        }
    }
}

/// Checks `line` both ways against the model.
fn check(caches: &mut Caches, vram: &Vram, mode: SpriteMode, line: u32, odd: bool, at: &str) {
    let table = caches.sprite_table(&mode, vram, None);
    for armed in [false, true] {
        let sl = SpriteLine {
            mode,
            vram,
            line,
            odd,
        };
        let want = model(vram, mode, line, odd, armed);
        let at = format!("{at} line {line} armed {armed}");

        let mut layer = [0u8; super::super::LINE_BUF];
        let mut mask_armed = armed;
        let drawn = draw_sprites(&sl, table, &mut mask_armed, &mut layer);
        assert_eq!(layer[..], want.layer[..], "{at}: layer");
        assert_eq!(drawn.overflow, want.overflow, "{at}: overflow");
        assert_eq!(drawn.collision, want.collision, "{at}: collision");
        assert_eq!(mask_armed, want.mask_armed, "{at}: masking");

        for want_collision in [false, true] {
            let mut mask_armed = armed;
            let got = evaluate_sprites(&sl, table, &mut mask_armed, want_collision);
            assert_eq!(got.overflow, want.overflow, "{at}: headless overflow");
            assert_eq!(
                got.collision,
                want_collision && want.collision,
                "{at}: headless collision (wanted {want_collision})"
            );
            assert_eq!(mask_armed, want.mask_armed, "{at}: headless masking");
        }
    }
}

#[test]
fn indexed_pass_matches_the_rules_drawn_and_headless() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut vram = Box::new([0u8; 0x1_0000]);
    // One cache throughout, as the renderer keeps it: each new table and each poke below
    // must be seen on the next line.
    let mut caches = Caches::default();
    for round in 0..120 {
        let h40 = round % 2 == 1;
        let mode = SpriteMode {
            h40,
            interlace2: round % 5 == 4,
            sat_base: if h40 { 0xF800 } else { 0xFA00 } + 0x400 * (round % 2),
        };
        random_scene(&mut rng, mode, &mut vram);
        let odd = round % 3 == 0;
        // Every line of the field and some past the index (only reachable through the API).
        for line in 0..300 {
            check(
                &mut caches,
                &vram,
                mode,
                line,
                odd,
                &format!("round {round}"),
            );
        }
        // Mid-frame rewrites: one byte of the table at a time.
        let table_bytes = if h40 { 640 } else { 512 };
        for poke in 0..12 {
            let addr = mode.sat_base + rng.below(table_bytes) as usize;
            vram[addr] = rng.next() as u8;
            for line in (rng.below(5) as u32..240).step_by(5) {
                let at = format!("round {round} poke {poke} at {addr:#06x}");
                check(&mut caches, &vram, mode, line, odd, &at);
            }
        }
    }
}

/// The renderer's headless lines (each line's outcome read from the index while the VRAM
/// version stands) report and carry what its drawn lines do, line after line, with the
/// table's bytes poked between lines (and the version moved) as a game rewrites it.
/// Draws `line` with `drawn` (caches compared against VRAM) and evaluates it headless with
/// `headless` (caches kept under `input`'s VRAM version), and asserts that the headless line
/// sets the flags the drawn one does: overflow, collision where asked, the masking state.
fn headless_follows_drawn(
    (drawn, headless, out): (
        &mut crate::vdp::render::Renderer,
        &mut crate::vdp::render::Renderer,
        &mut [u16],
    ),
    input: &crate::vdp::render::RenderInput,
    line: u16,
    odd: bool,
    want_collision: bool,
    at: &str,
) {
    let unversioned = crate::vdp::render::RenderInput {
        vram_version: None,
        ..*input
    };
    let a = drawn.render_line(&unversioned, line, odd, out);
    let b = headless.evaluate_line(input, line, odd, want_collision);
    assert_eq!(b.sprite_overflow, a.sprite_overflow, "{at}: overflow");
    assert_eq!(
        b.sprite_collision,
        want_collision && a.sprite_collision,
        "{at}: collision"
    );
    assert_eq!(
        headless.sprite_mask_armed, drawn.sprite_mask_armed,
        "{at}: masking"
    );
}

#[test]
fn headless_lines_follow_drawn_lines() {
    use crate::vdp::render::{RenderInput, Renderer};
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut vram = Box::new([0u8; 0x1_0000]);
    let (cram, vsram) = ([0u16; 64], [0u16; 40]);
    let (mut drawn, mut headless) = (Renderer::new(), Renderer::new());
    let mut version = 0u64;
    let mut out = [0u16; 320];
    for round in 0..40 {
        let h40 = round % 2 == 1;
        let mode = SpriteMode {
            h40,
            interlace2: round % 5 == 4,
            sat_base: if h40 { 0xF800 } else { 0xFA00 } + 0x400 * (round % 2),
        };
        let mut regs = [0u8; 24];
        regs[1] = 0x44;
        regs[5] = (mode.sat_base >> 9) as u8;
        regs[12] = u8::from(h40) | if mode.interlace2 { 6 } else { 0 };
        random_scene(&mut rng, mode, &mut vram);
        version += 1;
        let odd = round % 3 == 0;
        let table_bytes = if h40 { 640 } else { 512 };
        for line in 0..262u16 {
            if rng.below(10) == 0 {
                let addr = mode.sat_base + rng.below(table_bytes) as usize;
                vram[addr] = rng.next() as u8;
                version += 1;
            }
            let want_collision = rng.below(2) == 0;
            let at = format!("round {round} line {line}");
            let input = RenderInput {
                regs: &regs,
                vram: &vram,
                cram: &cram,
                vsram: &vsram,
                vram_version: Some(version),
                cram_version: None,
            };
            let lines = (&mut drawn, &mut headless, &mut out[..mode.width()]);
            headless_follows_drawn(lines, &input, line, odd, want_collision, &at);
        }
    }
}

/// Sprites laid side by side in rows at any x (so neighbours share a group of 8 columns),
/// mostly touching, sometimes a few pixels apart or a pixel over each other; opaque patterns
/// (no transparent nibble) unless `sparse`.
fn side_by_side_scene(rng: &mut Rng, mode: SpriteMode, vram: &mut Vram, sparse: bool) {
    for b in vram[..0x8000].iter_mut() {
        *b = if sparse { rng.next() as u8 } else { 0x11 };
    }
    let table_len = if mode.h40 { 80 } else { 64 };
    let sprites = 4 + rng.below(table_len as u64 - 4) as usize;
    let mut x = 90 + rng.below(40) as u16;
    let mut y = 128 + rng.below(200) as u16;
    for i in 0..sprites {
        let size = rng.below(16) as u16;
        let width = 8 * ((size >> 2) + 1);
        if x > 470 {
            x = 90 + rng.below(40) as u16;
            y = 128 + rng.below(200) as u16;
        }
        let link = if i + 1 < sprites { i as u16 + 1 } else { 0 };
        let a = mode.sat_base + 8 * i;
        let tile = rng.below(0x400) as u16;
        for (k, w) in [y + rng.below(3) as u16, (size << 8) | link, tile, x]
            .iter()
            .enumerate()
        {
            vram[a + 2 * k..a + 2 * k + 2].copy_from_slice(&w.to_be_bytes());
        }
        x = match rng.below(8) {
            0 => x + width - 1,
            1 => x + width + 1 + rng.below(4) as u16,
            _ => x + width,
        };
    }
}

/// On side-by-side sprites the headless pass (which looks at the pixels only where the
/// groups meet) reports a collision exactly where the model draws one, and none where the
/// sprites only touch.
#[test]
fn sprites_side_by_side_collide_only_where_they_overlap() {
    let mut rng = Rng(0x3C6E_F372_FE94_F82B);
    let mut vram = Box::new([0u8; 0x1_0000]);
    let mut caches = Caches::default();
    let (mut collided, mut touching) = (0, 0);
    for round in 0..80 {
        let h40 = round % 2 == 1;
        let mode = SpriteMode {
            h40,
            interlace2: round % 7 == 6,
            sat_base: if h40 { 0xF800 } else { 0xFA00 },
        };
        side_by_side_scene(&mut rng, mode, &mut vram, round % 4 == 3);
        for line in 0..240 {
            check(
                &mut caches,
                &vram,
                mode,
                line,
                false,
                &format!("round {round}"),
            );
            if model(&vram, mode, line, false, false).collision {
                collided += 1;
            } else {
                touching += 1;
            }
        }
    }
    // Both kinds of line were met.
    assert!(collided > 500 && touching > 500, "{collided} / {touching}");
}

/// The same scenes through the renderer: its headless lines (decided from the index, the
/// collision looked at by pixels where the groups meet, `SpriteTable::refine_line`) report
/// and carry what its drawn lines do, with sprites moved between lines.
#[test]
fn headless_side_by_side_lines_follow_drawn_lines() {
    use crate::vdp::render::{RenderInput, Renderer};
    let mut rng = Rng(0x1B87_3593_CC9E_2D51);
    let mut vram = Box::new([0u8; 0x1_0000]);
    let (cram, vsram) = ([0u16; 64], [0u16; 40]);
    let (mut drawn, mut headless) = (Renderer::new(), Renderer::new());
    let mut version = 0u64;
    let mut out = [0u16; 320];
    let mut refined = 0;
    for round in 0..60 {
        let h40 = round % 2 == 1;
        let mode = SpriteMode {
            h40,
            interlace2: round % 7 == 6,
            sat_base: if h40 { 0xF800 } else { 0xFA00 },
        };
        let mut regs = [0u8; 24];
        regs[1] = 0x44;
        regs[5] = (mode.sat_base >> 9) as u8;
        regs[12] = u8::from(h40) | if mode.interlace2 { 6 } else { 0 };
        side_by_side_scene(&mut rng, mode, &mut vram, round % 4 == 3);
        version += 1;
        for line in 0..262u16 {
            if rng.below(20) == 0 {
                // Moves a sprite by a pixel or two (its X word's low byte).
                let entry = rng.below(if h40 { 80 } else { 64 }) as usize;
                let addr = mode.sat_base + 8 * entry + 7;
                vram[addr] = vram[addr].wrapping_add(rng.below(5) as u8).wrapping_sub(2);
                version += 1;
            }
            let want_collision = rng.below(4) != 0;
            let at = format!("round {round} line {line}");
            let input = RenderInput {
                regs: &regs,
                vram: &vram,
                cram: &cram,
                vsram: &vsram,
                vram_version: Some(version),
                cram_version: None,
            };
            let lines = (&mut drawn, &mut headless, &mut out[..mode.width()]);
            headless_follows_drawn(lines, &input, line, false, want_collision, &at);
            let table = headless.cache.indexed_sprite_table();
            if table.lines_refined_clear(line as u32) {
                refined += 1;
            }
        }
    }
    // Lines whose groups met and whose pixels did not were met (and answered from the index).
    assert!(refined > 300, "{refined} lines cleared by pixels");
}
