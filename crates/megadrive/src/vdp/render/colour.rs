//! Colour: packing CRAM words into [`Pixel`]s and converting pixels to the RGB levels the
//! reference emulator produces, so our frames compare pixel-exact with recorded ones.
//!
//! Where the levels come from (stable-retro at commit cfced64, Jan 2025, which vendors Genesis
//! Plus GX as its `genesis` core):
//! - `cores/genesis/Makefile.libretro` sets `FRONTEND_SUPPORTS_RGB565 = 1`, so the core is built
//!   with `USE_16BPP_RENDERING` and asks the frontend for `RETRO_PIXEL_FORMAT_RGB565`
//!   (`libretro/libretro.c`); stable-retro's `cbEnvironment` accepts it (`src/emulator.cpp`).
//! - `core/vdp_render.c` `palette_init`: each channel is a 4-bit level; for a 3-bit CRAM value
//!   `c` the level is `c` in shadow, `2c` at normal intensity and `c + 7` in highlight.
//! - Same file, `MAKE_PIXEL` for 16 bpp widens the 4-bit level `v` by bit replication:
//!   red/blue 5 bits = `v << 1 | v >> 3`, green 6 bits = `v << 2 | v >> 2`.
//! - stable-retro's `get_screen` (`src/retro.cpp`) converts that RGB565 frame to RGB888 with
//!   `image565To888` (`src/imageops.cpp`, scalar and SSSE3 paths agree): `r8 = r5 << 3`,
//!   `g8 = g6 << 2`, `b8 = b5 << 3`, with no low-bit replication.
//!
//! So normal-intensity red/blue levels are 0, 32, 64, 96, 136, 168, 200, 232 and green levels
//! 0, 32, 68, 100, 136, 168, 204, 236: not a linear ramp, and never 255.

use super::pixel::{INTENSITY_HIGHLIGHT, INTENSITY_SHADOW, Pixel};

/// Packs a CRAM word into the 9-bit colour of a [`Pixel`] at normal intensity.
pub fn cram_to_pixel(word: u16) -> Pixel {
    ((word >> 1) & 0x7) | ((word >> 2) & 0x38) | ((word >> 3) & 0x1C0)
}

/// The 64 CRAM entries as pixel colours for this line. With reg 0 bit 2 clear the VDP only
/// passes the least significant bit of each channel (Genesis Plus GX models this as
/// `data &= 0x49` in `color_update_m5`); every game sets the bit, but a half-initialised VDP
/// shows the dark colours this produces.
pub(super) fn line_palette(cram: &[u16; 64], full_palette: bool) -> [Pixel; 64] {
    let mask = if full_palette { 0x1FF } else { 0x049 };
    let mut out = [0; 64];
    for (dst, &word) in out.iter_mut().zip(cram.iter()) {
        *dst = cram_to_pixel(word) & mask;
    }
    out
}

/// The 4-bit channel level of a 3-bit CRAM channel at the pixel's intensity
/// (Genesis Plus GX `palette_init`). The unused intensity value 3 is treated as normal.
fn level4(channel: u16, pixel: Pixel) -> u16 {
    match pixel & (3 << 9) {
        INTENSITY_SHADOW => channel,
        INTENSITY_HIGHLIGHT => channel + 7,
        _ => channel << 1,
    }
}

/// Converts a pixel to the RGB565 word Genesis Plus GX hands a libretro frontend.
pub fn to_rgb565(pixel: Pixel) -> u16 {
    let r = level4(pixel & 7, pixel);
    let g = level4((pixel >> 3) & 7, pixel);
    let b = level4((pixel >> 6) & 7, pixel);
    let five = |v: u16| (v << 1) | (v >> 3);
    let six = |v: u16| (v << 2) | (v >> 2);
    (five(r) << 11) | (six(g) << 5) | five(b)
}

/// Converts a pixel to 0x00RRGGBB exactly as stable-retro's `get_screen` returns it for a
/// Genesis Plus GX frame (RGB565 expanded by shifting, see the module comment).
pub fn to_rgb888(pixel: Pixel) -> u32 {
    let rgb = to_rgb565(pixel) as u32;
    let r = (rgb & 0xF800) >> 8;
    let g = (rgb & 0x07E0) >> 3;
    let b = (rgb & 0x001F) << 3;
    (r << 16) | (g << 8) | b
}
