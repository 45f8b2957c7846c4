//! Priorities and shadow/highlight: merging plane B, plane A/window and sprites into pixels.
//!
//! Priority (genvdp.txt "Priority"), front to back: high sprite, high A, high B, low sprite,
//! low A, low B, backdrop (reg 7); colour 0 of any palette is transparent.
//!
//! Shadow/highlight (reg 12 bit 3; genvdp.txt "Shadow / hilight mode" and Sega Retro's
//! "Shadow and highlight" rules, which Genesis Plus GX follows):
//! - the planes are at normal intensity where plane A or plane B has a high-priority tile
//!   (the tile's priority bit, even on its transparent pixels), otherwise shadowed; the
//!   backdrop showing through takes the same intensity;
//! - a visible sprite pixel (drawn by the priority rules above) keeps the planes' intensity
//!   if low priority and is normal if high priority;
//! - palette 3 colour 15 is an operator: the pixel below is shown shadowed; palette 3
//!   colour 14 highlights a normal pixel below and brings a shadowed one back to normal;
//!   operators are invisible themselves but, being opaque, hide the sprites behind them;
//! - colour 14 of palettes 0-2 is never shadowed (Sega Retro; Genesis Plus GX).
//!
//! How: without shadow/highlight, blocks of 64 pixels: the rules as byte masks in a loop the
//! compiler vectorises (`pick_plane`, and `pick_sprite` only in blocks the line's sprites
//! reach), into a block of CRAM indices coloured two pixels per lookup (`palette::Palette`
//! pairs); with it, three table lookups a pixel
//! (`PLANES`, `SHADOW_HIGHLIGHT`, the colour at its intensity). The tables are computed at
//! build time from the rules written out as functions, and tests hold both paths to the
//! per-pixel rules for every triple of layer pixels.

use super::palette::Palette;
use super::pattern::PRIORITY;
use super::pixel::{INTENSITY_HIGHLIGHT, INTENSITY_NORMAL, INTENSITY_SHADOW, Pixel};
use std::ops::Range;

/// Chooses between plane A (`a`) and plane B (`b`): the CRAM index to show (0 = backdrop) and
/// whether it is an opaque high-priority pixel.
const fn planes(a: u8, b: u8) -> (u8, bool) {
    let a_opaque = a & 0x0F != 0;
    let b_opaque = b & 0x0F != 0;
    let pick = if a_opaque && a & PRIORITY != 0 {
        a
    } else if b_opaque && b & PRIORITY != 0 {
        b
    } else if a_opaque {
        a
    } else if b_opaque {
        b
    } else {
        return (0, false);
    };
    (pick & 0x3F, pick & PRIORITY != 0)
}

/// Bit of a [`PLANES`] entry: plane A or B has a high-priority tile here (shadow/highlight
/// keeps the planes at normal intensity then, even on transparent pixels).
const PLANES_NORMAL: u8 = 0x40;
/// Bit of a [`PLANES`] entry: the pick is an opaque high-priority pixel.
const PLANES_HIGH: u8 = 0x80;

/// [`planes`] for every pair of 7-bit layer pixels, indexed `a << 7 | b`: the CRAM index in
/// bits 0-5, [`PLANES_NORMAL`] and [`PLANES_HIGH`]. Layer pixels only use bits 0-6 and
/// [`planes`] ignores bit 7, so the table covers every input.
static PLANES: [u8; 1 << 14] = planes_table();

const fn planes_table() -> [u8; 1 << 14] {
    let mut t = [0u8; 1 << 14];
    let mut i = 0;
    while i < 1 << 14 {
        let a = (i >> 7) as u8;
        let b = (i & 0x7F) as u8;
        let (index, high) = planes(a, b);
        let normal = (a | b) & PRIORITY != 0;
        t[i] = index | if high { PLANES_HIGH } else { 0 } | if normal { PLANES_NORMAL } else { 0 };
        i += 1;
    }
    t
}

#[inline]
fn planes_entry(a: u8, b: u8) -> u8 {
    PLANES[((a as usize & 0x7F) << 7) | (b as usize & 0x7F)]
}

/// The shadow/highlight rules of the module comment for one pixel: the planes' pick as a
/// [`PLANES`] entry, the sprite's layer pixel; the CRAM index to show and its intensity.
const fn shadow_highlight(bg: u8, s: u8) -> (u8, u16) {
    let bg_index = bg & 0x3F;
    let bg_high = bg & PLANES_HIGH != 0;
    let bg_normal = bg & PLANES_NORMAL != 0;
    let bg_intensity = if bg_normal {
        INTENSITY_NORMAL
    } else {
        INTENSITY_SHADOW
    };
    let sprite_opaque = s & 0x0F != 0;
    let sprite_high = s & PRIORITY != 0;
    if sprite_opaque && (sprite_high || !bg_high) {
        match s & 0x3F {
            0x3F => (bg_index, INTENSITY_SHADOW),
            0x3E if bg_normal => (bg_index, INTENSITY_HIGHLIGHT),
            0x3E => (bg_index, INTENSITY_NORMAL),
            0x0E | 0x1E | 0x2E => (s & 0x3F, INTENSITY_NORMAL),
            index if sprite_high => (index, INTENSITY_NORMAL),
            index => (index, bg_intensity),
        }
    } else {
        (bg_index, bg_intensity)
    }
}

/// [`shadow_highlight`] for every [`PLANES`] entry and 7-bit sprite pixel, indexed
/// `bg << 7 | s`: the CRAM index in bits 0-5 and the intensity (0 normal, 1 shadow,
/// 2 highlight) in bits 6-7, the byte `palette::Palette::intensity` maps to a pixel.
static SHADOW_HIGHLIGHT: [u8; 1 << 15] = shadow_highlight_table();

const fn shadow_highlight_table() -> [u8; 1 << 15] {
    let mut t = [0u8; 1 << 15];
    let mut i = 0;
    while i < 1 << 15 {
        let (index, intensity) = shadow_highlight((i >> 7) as u8, (i & 0x7F) as u8);
        t[i] = index | (intensity >> 3) as u8;
        i += 1;
    }
    t
}

/// Pixels merged at a time without shadow/highlight: the priority rules run over a block's
/// bytes in a loop the compiler turns into 16-byte vector operations, then the block is
/// coloured two pixels per lookup.
const BLOCK: usize = 64;

/// [`planes`] for one pixel without tables, in the form that vectorises: plane pixels carry
/// their opacity in bit 7 ([`super::pattern::OPAQUE`]) and their priority in bit 6, so shifting a byte left
/// by one brings the priority up to meet the opacity. Plane A is picked when opaque and
/// either high or B is not opaque-and-high; otherwise B (its transparent pixel when neither
/// is opaque, which keeps its palette bits: colour 0 of every palette stands for the
/// backdrop, `palette::Palette`). The pick keeps its opacity flag.
#[inline(always)]
fn pick_plane(a: u8, b: u8) -> u8 {
    let b_opaque_high = b & (b << 1);
    let pick_a = a & ((a << 1) | !b_opaque_high);
    // Bit 7 widened to the whole byte.
    let mask = ((pick_a as i8) >> 7) as u8;
    b ^ ((a ^ b) & mask)
}

/// The sprite rule of [`compose`] over the planes' pick `bg` (with its opacity flag): the
/// sprite pixel `s` (no opacity flag; colour + 127 reaches bit 7 exactly when the colour is
/// not 0) when opaque and either high or over a pick that is not opaque-and-high.
#[inline(always)]
fn pick_sprite(bg: u8, s: u8) -> u8 {
    let bg_opaque_high = bg & (bg << 1);
    let s_opaque = (s & 0x0F).wrapping_add(0x7F);
    let pick = s_opaque & ((s << 1) | !bg_opaque_high);
    let mask = ((pick as i8) >> 7) as u8;
    bg ^ ((s ^ bg) & mask)
}

/// A block's CRAM indices (bits 0-5; 0, 16, 32, 48 for the backdrop) from the planes alone:
/// the block has no sprite pixel.
#[inline(always)]
fn block_planes(a: &[u8; BLOCK], b: &[u8; BLOCK], indices: &mut [u8; BLOCK]) {
    for i in 0..BLOCK {
        indices[i] = pick_plane(a[i], b[i]) & 0x3F;
    }
}

/// [`block_planes`] with the block's sprite pixels.
#[inline(always)]
fn block_sprites(a: &[u8; BLOCK], b: &[u8; BLOCK], s: &[u8; BLOCK], indices: &mut [u8; BLOCK]) {
    for i in 0..BLOCK {
        indices[i] = pick_sprite(pick_plane(a[i], b[i]), s[i]) & 0x3F;
    }
}

/// Colours a block, two pixels per lookup: each pair of indices, read as a little-endian
/// word, is its entry in the pair table (`palette::Palette::pairs`). A block of one index
/// throughout (a blank screen, sky, a flat area: three quarters of the blocks in the
/// bench's first 600 frames, a quarter over its 3,600) is one colour, filled.
#[inline(always)]
fn colour_block(
    indices: &[u8; BLOCK],
    single: &[Pixel; 256],
    pairs: &[u32; 1 << 16],
    out: &mut [Pixel; BLOCK],
) {
    let first = indices[0];
    if indices.iter().fold(0, |differ, &i| differ | (i ^ first)) == 0 {
        out.fill(single[first as usize]);
        return;
    }
    // Taken as whole words (`as_chunks`), the compiler extracts each pair straight from the
    // vector register it was made in (`pextrw`); built from two bytes, it did not.
    for (out, two) in out.chunks_exact_mut(2).zip(indices.as_chunks::<2>().0) {
        let two = pairs[u16::from_le_bytes(*two) as usize];
        out[0] = two as Pixel;
        out[1] = (two >> 16) as Pixel;
    }
}

/// A block of a layer line (`l` holds exactly [`BLOCK`] pixels).
#[inline(always)]
fn block(l: &[u8]) -> &[u8; BLOCK] {
    l.try_into().unwrap()
}

/// Merges one line. The slices hold layer pixels for exactly the pixels of `out`; the
/// palette maps CRAM indices to pixels, index 0 to the backdrop's (opaque layer pixels never
/// have colour 0). Sprite pixels lie only in `sprites` (pixel positions within the slices;
/// `s` is 0 outside it), so blocks outside it skip the sprite rule.
pub(super) fn compose(
    a: &[u8],
    b: &[u8],
    s: &[u8],
    sprites: Range<usize>,
    palette: &Palette,
    shadow_highlight: bool,
    out: &mut [Pixel],
) {
    // Cut to one length so the loops below index without bounds checks.
    let n = out.len().min(a.len()).min(b.len()).min(s.len());
    let (a, b, s, out) = (&a[..n], &b[..n], &s[..n], &mut out[..n]);
    debug_assert!(
        s.iter()
            .enumerate()
            .all(|(i, &p)| p == 0 || sprites.contains(&i))
    );
    if shadow_highlight {
        // Three lookups a pixel: the planes' pick, the sprite's effect on it, the colour at
        // its intensity.
        let colours = palette.intensity();
        for i in 0..n {
            let bg = planes_entry(a[i], b[i]) as usize;
            let merged = SHADOW_HIGHLIGHT[(bg << 7) | (s[i] as usize & 0x7F)];
            out[i] = colours[merged as usize];
        }
        return;
    }
    let pairs: &[u32; 1 << 16] = palette.pairs().try_into().unwrap();
    let single = palette.single();
    let mut indices = [0u8; BLOCK];
    let whole = n - n % BLOCK;
    for start in (0..whole).step_by(BLOCK) {
        let end = start + BLOCK;
        let (a, b) = (block(&a[start..end]), block(&b[start..end]));
        if sprites.start < end && start < sprites.end {
            block_sprites(a, b, block(&s[start..end]), &mut indices);
        } else {
            block_planes(a, b, &mut indices);
        }
        colour_block(
            &indices,
            single,
            pairs,
            (&mut out[start..end]).try_into().unwrap(),
        );
    }
    if whole < n {
        // The last, partial block, padded (transparent pixels; the padding's colours are
        // not kept).
        let pad = |l: &[u8]| {
            let mut x = [0u8; BLOCK];
            x[..n - whole].copy_from_slice(&l[whole..]);
            x
        };
        block_sprites(&pad(a), &pad(b), &pad(s), &mut indices);
        let mut colours = [0; BLOCK];
        colour_block(&indices, single, pairs, &mut colours);
        out[whole..].copy_from_slice(&colours[..n - whole]);
    }
}

#[cfg(test)]
mod table_tests {
    use super::{
        INTENSITY_HIGHLIGHT, INTENSITY_NORMAL, INTENSITY_SHADOW, PRIORITY, Palette, Pixel,
    };

    /// A palette of 64 distinct CRAM words (`----bbb-ggg-rrr-`, `high` in the blue bits),
    /// the full palette in use (not mode 4's), backdrop entry `backdrop`.
    fn distinct_palette(high: u16, backdrop: usize) -> Palette {
        let mut cram = [0u16; 64];
        for (i, c) in cram.iter_mut().enumerate() {
            *c = ((i as u16 & 7) << 1) | ((i as u16 >> 3) << 5) | high;
        }
        let mut palette = Palette::default();
        palette.update(&cram, true, backdrop, None);
        palette
    }

    /// Marsaglia's 32-bit xorshift (13, 17, 5) from `seed`.
    fn xorshift32(mut x: u32) -> impl FnMut() -> u32 {
        move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        }
    }

    /// A plane pixel as the decoded rows give it: `OPAQUE` set exactly when the colour is
    /// not 0.
    fn flagged(x: u8) -> u8 {
        if x & 0x0F != 0 {
            x | super::super::pattern::OPAQUE
        } else {
            x
        }
    }

    /// The byte rules of the vectorised merge choose what the per-pixel rules choose, for
    /// every triple of 7-bit layer pixels (plane A, plane B, sprite; the planes' with their
    /// opacity flag). A pick left with colour 0 stands for the backdrop (index 0 of the
    /// rules), whatever its palette bits.
    #[test]
    fn byte_rules_follow_the_rules() {
        let rule = |a: u8, b: u8, s: u8| {
            let (bg, bg_high) = super::planes(a, b);
            if s & 0x0F != 0 && (s & super::PRIORITY != 0 || !bg_high) {
                s & 0x3F
            } else {
                bg
            }
        };
        let shown = |x: u8| if x & 0x0F == 0 { 0 } else { x & 0x3F };
        for a in 0..0x80u8 {
            for b in 0..0x80u8 {
                let bg = super::pick_plane(flagged(a), flagged(b));
                // No sprite pixel (the blocks outside the sprites' span).
                assert_eq!(shown(bg), rule(a, b, 0), "{a:02x} {b:02x}");
                for s in 0..0x80u8 {
                    let got = super::pick_sprite(bg, s);
                    assert_eq!(shown(got), rule(a, b, s), "{a:02x} {b:02x} {s:02x}");
                }
            }
        }
    }

    /// Whole lines as the renderer gives them (widths 256 and 320, and odd lengths that end
    /// in a partial block), with sprite pixels only inside a span, merged with that span
    /// (blocks outside it skip the sprite rule) against the per-pixel rules: priorities,
    /// transparent pixels of every palette, high and low sprites at every block boundary.
    #[test]
    fn lines_with_a_sprite_span_follow_the_rules() {
        let palette = distinct_palette(0x0400, 9);
        let colour = |i: u8| palette.single()[i as usize];
        let mut next = xorshift32(0x2545_F491);
        for round in 0..3_000 {
            let n = [320, 256, 1, 63, 64, 65, 200, 319][round % 8];
            let start = next() as usize % (n + 1);
            let end = start + next() as usize % (n + 1 - start);
            // Sparse colours: many transparent pixels in every layer.
            let mut layer = |opaque_in: u32| -> u8 {
                let r = next();
                let colour = if r.is_multiple_of(opaque_in) {
                    0
                } else {
                    (r >> 8) as u8 & 0x0F
                };
                (r >> 16) as u8 & 0x70 | colour
            };
            let la: Vec<u8> = (0..n).map(|_| flagged(layer(3))).collect();
            let lb: Vec<u8> = (0..n).map(|_| flagged(layer(4))).collect();
            let ls: Vec<u8> = (0..n)
                .map(|i| {
                    if (start..end).contains(&i) {
                        layer(2)
                    } else {
                        0
                    }
                })
                .collect();
            let mut out = vec![0; n];
            super::compose(&la, &lb, &ls, start..end, &palette, false, &mut out);
            for i in 0..n {
                let (a, b, s) = (la[i], lb[i], ls[i]);
                let (bg, bg_high) = super::planes(a, b);
                let sprite = s & 0x0F != 0 && (s & PRIORITY != 0 || !bg_high);
                let want = colour(if sprite { s & 0x3F } else { bg });
                assert_eq!(
                    out[i], want,
                    "{round} {i} {a:02x} {b:02x} {s:02x} {start}..{end}"
                );
            }
        }
    }

    /// Blocks of one index throughout are filled with one colour: lines whose blocks repeat
    /// one triple of layer pixels (transparent ones of every palette, which all show the
    /// backdrop, high and low sprites), some with one pixel different at the block's first,
    /// last or any other place, against the per-pixel rules.
    #[test]
    fn uniform_blocks_follow_the_rules() {
        let palette = distinct_palette(0x0200, 37);
        let colour = |i: u8| palette.single()[i as usize];
        let mut next = xorshift32(0x6C07_8965);
        for round in 0..4_000 {
            let n = [320, 256, 130][round % 3];
            let (mut la, mut lb, mut ls) = (vec![0u8; n], vec![0u8; n], vec![0u8; n]);
            for start in (0..n).step_by(64) {
                let end = (start + 64).min(n);
                // Mostly transparent colours, so that many blocks show the backdrop.
                let pixel = |r: u32| {
                    let colour = if r.is_multiple_of(3) {
                        (r >> 4) as u8 & 0x0F
                    } else {
                        0
                    };
                    (r >> 8) as u8 & 0x70 | colour
                };
                let (pa, pb, ps) = (pixel(next()), pixel(next()), pixel(next()));
                la[start..end].fill(flagged(pa));
                lb[start..end].fill(flagged(pb));
                ls[start..end].fill(if next().is_multiple_of(2) { ps } else { 0 });
                if next().is_multiple_of(2) {
                    let at = match next() % 3 {
                        0 => start,
                        1 => end - 1,
                        _ => start + next() as usize % (end - start),
                    };
                    la[at] = flagged(pixel(next()));
                    lb[at] = flagged(pixel(next()));
                }
            }
            let mut out = vec![0; n];
            super::compose(&la, &lb, &ls, 0..n, &palette, false, &mut out);
            for i in 0..n {
                let (a, b, s) = (la[i], lb[i], ls[i]);
                let (bg, bg_high) = super::planes(a, b);
                let sprite = s & 0x0F != 0 && (s & PRIORITY != 0 || !bg_high);
                let want = colour(if sprite { s & 0x3F } else { bg });
                assert_eq!(out[i], want, "{round} {i} {a:02x} {b:02x} {s:02x}");
            }
        }
    }

    #[test]
    fn the_table_is_the_function() {
        for a in 0..=u8::MAX {
            for b in 0..=u8::MAX {
                let p = super::planes_entry(a, b);
                let got = (p & 0x3F, p & super::PLANES_HIGH != 0);
                assert_eq!(got, super::planes(a, b), "{a:02x} {b:02x}");
                let normal = (a | b) & super::PRIORITY != 0;
                assert_eq!(p & super::PLANES_NORMAL != 0, normal, "{a:02x} {b:02x}");
            }
        }
    }

    /// The shadow/highlight rules pixel by pixel, branch by branch as the module comment
    /// states them (the merge before it became tables).
    fn shadow_highlight_reference(a: u8, b: u8, s: u8, colour: impl Fn(u8) -> Pixel) -> Pixel {
        let (bg, bg_high) = super::planes(a, b);
        let bg_normal = (a | b) & PRIORITY != 0;
        let bg_intensity = if bg_normal {
            INTENSITY_NORMAL
        } else {
            INTENSITY_SHADOW
        };
        let sprite_opaque = s & 0x0F != 0;
        let sprite_high = s & PRIORITY != 0;
        if sprite_opaque && (sprite_high || !bg_high) {
            match s & 0x3F {
                0x3F => colour(bg) | INTENSITY_SHADOW,
                0x3E if bg_normal => colour(bg) | INTENSITY_HIGHLIGHT,
                0x3E => colour(bg) | INTENSITY_NORMAL,
                0x0E | 0x1E | 0x2E => colour(s & 0x3F) | INTENSITY_NORMAL,
                index if sprite_high => colour(index) | INTENSITY_NORMAL,
                index => colour(index) | bg_intensity,
            }
        } else {
            colour(bg) | bg_intensity
        }
    }

    /// Both merges of `compose` (shadow/highlight through tables, the normal one eight
    /// pixels and two colours at a time) against the per-pixel rules, for every triple of
    /// 7-bit layer pixels, over a palette whose colours all differ (backdrop: entry 5).
    #[test]
    fn compose_follows_the_rules_for_every_pixel_triple() {
        let palette = distinct_palette(0x0C00, 5);
        let colour = |i: u8| palette.single()[i as usize];
        let (mut la, mut lb, mut ls) = (vec![], vec![], vec![]);
        for a in 0..0x80u8 {
            for b in 0..0x80u8 {
                for s in 0..0x80u8 {
                    la.push(flagged(a));
                    lb.push(flagged(b));
                    ls.push(s);
                }
            }
        }
        // One extra pixel: the per-pixel tail of the normal merge.
        la.push(0xC1);
        lb.push(0x82);
        ls.push(0x03);
        for shadow in [false, true] {
            let mut out = vec![0; la.len()];
            super::compose(&la, &lb, &ls, 0..la.len(), &palette, shadow, &mut out);
            for (i, &got) in out.iter().enumerate() {
                let (a, b, s) = (la[i], lb[i], ls[i]);
                let want = if shadow {
                    shadow_highlight_reference(a, b, s, colour)
                } else {
                    let (bg, bg_high) = super::planes(a, b);
                    let sprite = s & 0x0F != 0 && (s & PRIORITY != 0 || !bg_high);
                    colour(if sprite { s & 0x3F } else { bg })
                };
                assert_eq!(got, want, "{shadow} {a:02x} {b:02x} {s:02x}");
            }
        }
    }
}
