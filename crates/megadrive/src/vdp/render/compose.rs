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

use super::pattern::{ONES, PRIORITY, opaque8};
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

/// [`planes`] for every pair of 7-bit layer pixels, indexed `a << 7 | b`: the CRAM index in
/// bits 0-5, bit 7 set for an opaque high-priority pixel. Layer pixels only use bits 0-6 and
/// [`planes`] ignores bit 7, so the table covers every input.
static PLANES: [u8; 1 << 14] = planes_table();

const fn planes_table() -> [u8; 1 << 14] {
    let mut t = [0u8; 1 << 14];
    let mut i = 0;
    while i < 1 << 14 {
        let a = (i >> 7) as u8;
        let b = (i & 0x7F) as u8;
        let (index, high) = planes(a, b);
        t[i] = index | if high { 0x80 } else { 0 };
        i += 1;
    }
    t
}

#[inline]
fn planes_fast(a: u8, b: u8) -> (u8, bool) {
    let p = PLANES[((a as usize & 0x7F) << 7) | (b as usize & 0x7F)];
    (p & 0x3F, p & 0x80 != 0)
}

/// Each byte of `x`: 0xFF where the layer pixel's priority bit is set, else 0.
#[inline]
fn high8(x: u64) -> u64 {
    ((x >> 6) & ONES) * 0xFF
}

/// The CRAM index (0 = backdrop) of eight pixels without shadow/highlight, from eight layer
/// pixels of plane A, plane B and sprites: [`planes`] and the sprite rule of [`compose`] as
/// byte masks. Plane A is picked when opaque and either high or B is not opaque-and-high;
/// otherwise B when opaque; the sprite when opaque and either high or over a non-high pick.
#[inline]
fn indices8(a: u64, b: u64, s: u64) -> u64 {
    let (a_opaque, b_opaque) = (opaque8(a), opaque8(b));
    let pick_a = a_opaque & (high8(a) | !(b_opaque & high8(b)));
    let bg = (a & pick_a) | (b & b_opaque & !pick_a);
    if s == 0 {
        return bg & (0x3F * ONES);
    }
    let pick_s = opaque8(s) & (high8(s) | !high8(bg));
    ((s & pick_s) | (bg & !pick_s)) & (0x3F * ONES)
}

/// Merges one line. The slices hold layer pixels for exactly the pixels of `out`; `colours`
/// maps a CRAM index (any byte, read modulo 64) to its pixel, index 0 to the backdrop's
/// (`cache::Caches::palette`): opaque layer pixels never have colour 0.
pub(super) fn compose(
    a: &[u8],
    b: &[u8],
    s: &[u8],
    colours: &[Pixel; 256],
    shadow_highlight: bool,
    out: &mut [Pixel],
) {
    let colour = |index: u8| colours[index as usize];
    // Indexed over slices cut to one length: the bounds checks go, which a four-way zip kept.
    let n = out.len().min(a.len()).min(b.len()).min(s.len());
    let (a, b, s, out) = (&a[..n], &b[..n], &s[..n], &mut out[..n]);
    if !shadow_highlight {
        // Eight pixels at a time: the priority rules as byte masks (`indices8`).
        let whole = n - n % 8;
        for i in (0..whole).step_by(8) {
            let word = |l: &[u8]| u64::from_le_bytes(l[i..i + 8].try_into().unwrap());
            let indices = indices8(word(a), word(b), word(s)).to_le_bytes();
            for (o, index) in out[i..i + 8].iter_mut().zip(indices) {
                *o = colour(index);
            }
        }
        for i in whole..n {
            let (a, b, s) = (a[i], b[i], s[i]);
            let (bg, bg_high) = planes_fast(a, b);
            let sprite_opaque = s & 0x0F != 0;
            let index = if sprite_opaque && (s & PRIORITY != 0 || !bg_high) {
                s & 0x3F
            } else {
                bg
            };
            out[i] = colour(index);
        }
        return;
    }
    for i in 0..n {
        let (a, b, s) = (a[i], b[i], s[i]);
        let (bg, bg_high) = planes_fast(a, b);
        let bg_normal = (a | b) & PRIORITY != 0;
        let bg_intensity = if bg_normal {
            INTENSITY_NORMAL
        } else {
            INTENSITY_SHADOW
        };
        let sprite_opaque = s & 0x0F != 0;
        let sprite_high = s & PRIORITY != 0;
        out[i] = if sprite_opaque && (sprite_high || !bg_high) {
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
        };
    }
}

#[cfg(test)]
mod table_tests {
    /// The eight-pixel masks choose what the per-pixel rules choose, for every triple of
    /// 7-bit layer pixels (plane A, plane B, sprite), with different triples in the other
    /// byte lanes so a carry or mask crossing lanes would show.
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
                        wa |= (x as u64) << (8 * k);
                        wb |= (y as u64) << (8 * k);
                        ws |= (z as u64) << (8 * k);
                    }
                    let got = super::indices8(wa, wb, ws).to_le_bytes();
                    // No sprite pixel at all in the eight (the early return).
                    let bare = super::indices8(wa, wb, 0).to_le_bytes();
                    for k in 0..8u8 {
                        let (x, y, z) = lane(k);
                        assert_eq!(got[k as usize], rule(x, y, z), "{x:02x} {y:02x} {z:02x}");
                        assert_eq!(bare[k as usize], rule(x, y, 0), "{x:02x} {y:02x}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_table_is_the_function() {
        for a in 0..=u8::MAX {
            for b in 0..=u8::MAX {
                assert_eq!(
                    super::planes_fast(a, b),
                    super::planes(a, b),
                    "{a:02x} {b:02x}"
                );
            }
        }
    }
}
