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
//! How: without shadow/highlight, eight pixels at a time as byte masks (`indices8`) and two
//! pixels per colour lookup (`palette::Palette` pairs); with it, three table lookups a pixel
//! (`PLANES`, `SHADOW_HIGHLIGHT`, the colour at its intensity). The tables are computed at
//! build time from the rules written out as functions, and tests hold both paths to the
//! per-pixel rules for every triple of layer pixels.

use super::palette::Palette;
use super::pattern::{ONES, OPAQUE, PRIORITY};
use super::{INTENSITY_HIGHLIGHT, INTENSITY_NORMAL, INTENSITY_SHADOW, Pixel};

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

/// Each byte of `x` (eight layer pixels): bit 6 set where the pixel is opaque (colour != 0),
/// every other bit clear. Colour + 15 carries into bit 4 exactly when the colour is not 0,
/// and no byte overflows.
#[inline]
fn opaque_bit6(x: u64) -> u64 {
    (((x & (0x0F * ONES)) + 0x0F * ONES) << 2) & (0x40 * ONES)
}

/// Eight pixels without shadow/highlight, from eight layer pixels of plane A, plane B and
/// sprites: [`planes`] and the sprite rule of [`compose`] as byte masks, one layer pixel a
/// byte. Plane A is picked when opaque and either high or B is not opaque-and-high;
/// otherwise B (its transparent pixel when neither is opaque); the sprite when opaque and
/// either high or over a pick that is not opaque-and-high. Plane pixels carry their
/// opacity in bit 7 ([`OPAQUE`]), so the flags are worked out in bit 7 of each byte, the
/// priority bit (6) shifted up to meet them. Bits 0-5 of each byte are the CRAM index to
/// show, except that a transparent pick keeps its palette bits: colour 0 of every palette
/// stands for the backdrop (`palette::Palette`).
#[inline]
fn indices8(a: u64, b: u64, s: u64) -> u64 {
    // Shifting left moves each byte's bit 6 to its bit 7 and its bit 7 into the next
    // byte's bit 0, which the flag mask drops.
    let flags = OPAQUE as u64 * ONES;
    let b_opaque_high = b & (b << 1);
    let pick_a = a & ((a << 1) | !b_opaque_high) & flags;
    let bg = b ^ ((a ^ b) & lane_mask7(pick_a));
    if s == 0 {
        return bg;
    }
    // The pick keeps its plane's opacity flag; sprite pixels have none.
    let bg_opaque_high = bg & (bg << 1);
    let pick_s = (opaque_bit6(s) << 1) & ((s << 1) | !bg_opaque_high);
    bg ^ ((s ^ bg) & lane_mask7(pick_s))
}

/// Widens bit 7 of each byte (the only bit set) to the whole byte.
#[inline]
fn lane_mask7(bit7: u64) -> u64 {
    (bit7 >> 7) * 0xFF
}

/// Eight CRAM indices (one a byte, 6 bits each, with the layer pixels' priority bit cleared)
/// as four pair-table indices, one in each 16-bit lane: `i0 | i1 << 8` for the lane's two
/// bytes (`palette::Palette` pairs are indexed by bytes).
#[inline]
fn pairs4(indices: u64) -> u64 {
    indices & (0x3F * ONES)
}

/// Merges one line. The slices hold layer pixels for exactly the pixels of `out`; the
/// palette maps CRAM indices to pixels, index 0 to the backdrop's (opaque layer pixels never
/// have colour 0).
pub(super) fn compose(
    a: &[u8],
    b: &[u8],
    s: &[u8],
    palette: &Palette,
    shadow_highlight: bool,
    out: &mut [Pixel],
) {
    // Cut to one length so the loops below index without bounds checks.
    let n = out.len().min(a.len()).min(b.len()).min(s.len());
    let (a, b, s, out) = (&a[..n], &b[..n], &s[..n], &mut out[..n]);
    let whole = n - n % 8;
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
    // Eight pixels at a time: the priority rules as byte masks (`indices8`), then two pixels
    // per colour lookup.
    let pairs: &[u32; 1 << 14] = palette.pairs().try_into().unwrap();
    let word = |l: &[u8]| u64::from_le_bytes(l.try_into().unwrap());
    let chunks = out[..whole]
        .chunks_exact_mut(8)
        .zip(a[..whole].chunks_exact(8))
        .zip(b[..whole].chunks_exact(8))
        .zip(s[..whole].chunks_exact(8));
    for (((out, a), b), s) in chunks {
        let lanes = pairs4(indices8(word(a), word(b), word(s)));
        for (k, out) in out.chunks_exact_mut(2).enumerate() {
            let two = pairs[(lanes >> (16 * k)) as usize & 0x3F3F];
            out[0] = two as Pixel;
            out[1] = (two >> 16) as Pixel;
        }
    }
    let colours = palette.single();
    for i in whole..n {
        let (bg, bg_high) = {
            let p = planes_entry(a[i], b[i]);
            (p & 0x3F, p & PLANES_HIGH != 0)
        };
        let sprite = s[i];
        let index = if sprite & 0x0F != 0 && (sprite & PRIORITY != 0 || !bg_high) {
            sprite & 0x3F
        } else {
            bg
        };
        out[i] = colours[index as usize];
    }
}

#[cfg(test)]
mod table_tests {
    use super::{
        INTENSITY_HIGHLIGHT, INTENSITY_NORMAL, INTENSITY_SHADOW, PRIORITY, Palette, Pixel,
    };

    /// A plane pixel as the decoded rows give it: `OPAQUE` set exactly when the colour is
    /// not 0.
    fn flagged(x: u8) -> u8 {
        if x & 0x0F != 0 { x | super::OPAQUE } else { x }
    }

    /// The eight-pixel masks choose what the per-pixel rules choose, for every triple of
    /// 7-bit layer pixels (plane A, plane B, sprite; the planes' with their opacity flag),
    /// with different triples in the other byte lanes so a carry or mask crossing lanes
    /// would show. A byte the masks leave with colour 0 stands for the backdrop (index 0 of
    /// the rules), whatever its palette bits.
    #[test]
    fn eight_pixels_at_once_follow_the_rules() {
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
                for s in 0..0x80u8 {
                    let lane = |k: u8| {
                        (
                            a.wrapping_add(17 * k) & 0x7F,
                            b.wrapping_add(29 * k) & 0x7F,
                            s.wrapping_add(41 * k) & 0x7F,
                        )
                    };
                    let (mut wa, mut wb, mut ws) = (0u64, 0u64, 0u64);
                    for k in 0..8u8 {
                        let (x, y, z) = lane(k);
                        wa |= (flagged(x) as u64) << (8 * k);
                        wb |= (flagged(y) as u64) << (8 * k);
                        ws |= (z as u64) << (8 * k);
                    }
                    let got = super::indices8(wa, wb, ws).to_le_bytes();
                    // No sprite pixel at all in the eight (the early return).
                    let bare = super::indices8(wa, wb, 0).to_le_bytes();
                    for k in 0..8u8 {
                        let (x, y, z) = lane(k);
                        let at = k as usize;
                        assert_eq!(shown(got[at]), rule(x, y, z), "{x:02x} {y:02x} {z:02x}");
                        assert_eq!(shown(bare[at]), rule(x, y, 0), "{x:02x} {y:02x}");
                    }
                }
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
        let mut cram = [0u16; 64];
        for (i, c) in cram.iter_mut().enumerate() {
            // 64 distinct CRAM words (`----bbb-ggg-rrr-`).
            *c = ((i as u16 & 7) << 1) | ((i as u16 >> 3) << 5) | 0x0C00;
        }
        let mut palette = Palette::default();
        palette.update(&cram, true, 5, None);
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
            super::compose(&la, &lb, &ls, &palette, shadow, &mut out);
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
