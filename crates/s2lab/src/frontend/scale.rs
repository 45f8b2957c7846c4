//! The picture in the window: the largest whole vertical scale that fits, the console's pixel
//! aspect ratio (or square pixels), centred on black.
//!
//! A console pixel is as wide as one dot clock period; a square pixel on a 4:3 TV in 240-line
//! mode lasts 1 / (12 3/11 MHz / 2) on NTSC and 1 / (14.75 MHz / 2) on PAL (the square-pixel
//! sampling rates of 480i and 576i). The dot clock is the master clock / 8 in H40 (320 pixels)
//! and / 10 in H32 (256 pixels), so an NTSC H40 pixel is 32:35 as wide as it is tall and an
//! H32 one 8:7; PAL 1.109 and 1.386.

use megadrive::clock::{MCLK_NTSC_HZ, MCLK_PAL_HZ};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aspect {
    /// The console's pixels as a TV shows them.
    Tv,
    /// One console pixel, one square of window pixels.
    Square,
}

/// Width over height of one console pixel on a 4:3 TV.
pub fn pixel_aspect(width: usize, pal: bool) -> f64 {
    let (mclk, square_hz) = if pal {
        (MCLK_PAL_HZ as f64, 14_750_000.0 / 2.0)
    } else {
        (MCLK_NTSC_HZ as f64, 135_000_000.0 / 11.0 / 2.0)
    };
    let divider = match width {
        320 => 8.0,
        256 => 10.0,
        _ => return 1.0,
    };
    square_hz / (mclk / divider)
}

/// Where the picture goes in the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Window pixels per console line.
    pub scale: usize,
    pub width: usize,
    pub height: usize,
    pub x0: usize,
    pub y0: usize,
}

/// The scaled picture's width for a vertical scale.
fn scaled_width(src_w: usize, scale: usize, par: f64) -> usize {
    ((src_w * scale) as f64 * par).round().max(1.0) as usize
}

/// The window size for `scale`.
pub fn window_size(src_w: usize, src_h: usize, scale: usize, par: f64) -> (usize, usize) {
    (scaled_width(src_w, scale, par), src_h * scale)
}

/// The largest whole scale (at least 1) whose picture fits the window, centred.
pub fn layout(src_w: usize, src_h: usize, win_w: usize, win_h: usize, par: f64) -> Layout {
    let mut scale = 1;
    while src_h * (scale + 1) <= win_h && scaled_width(src_w, scale + 1, par) <= win_w {
        scale += 1;
    }
    let (width, height) = window_size(src_w, src_h, scale, par);
    Layout {
        scale,
        width,
        height,
        x0: win_w.saturating_sub(width) / 2,
        y0: win_h.saturating_sub(height) / 2,
    }
}

/// Draws `src` (0x00RRGGBB, `src_w` by `src_h`) into `dst` (`win_w` by `win_h`, cleared to
/// black) by nearest neighbour: whole rows repeated `scale` times, columns by the aspect.
pub fn blit(
    src: &[u32],
    src_w: usize,
    src_h: usize,
    dst: &mut Vec<u32>,
    win_w: usize,
    win_h: usize,
    l: &Layout,
) {
    dst.clear();
    dst.resize(win_w * win_h, 0);
    let cols: Vec<usize> = (0..l.width.min(win_w))
        .map(|x| (x * src_w / l.width).min(src_w - 1))
        .collect();
    for y in 0..l.height.min(win_h) {
        let sy = y / l.scale;
        if sy >= src_h {
            break;
        }
        let row = &src[sy * src_w..(sy + 1) * src_w];
        let out = &mut dst[(l.y0 + y) * win_w + l.x0..];
        for (o, &sx) in out.iter_mut().zip(&cols) {
            *o = row[sx];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_aspect_matches_the_documented_ratios() {
        // NTSC: 32:35 in H40, 8:7 in H32 (the dot clock against 12 3/11 MHz / 2).
        assert!((pixel_aspect(320, false) - 32.0 / 35.0).abs() < 1e-4);
        assert!((pixel_aspect(256, false) - 8.0 / 7.0).abs() < 1e-4);
        assert!((pixel_aspect(320, true) - 1.109).abs() < 1e-3);
        assert_eq!(pixel_aspect(300, false), 1.0);
    }

    #[test]
    fn layout_takes_the_largest_whole_scale_and_centres() {
        let par = 32.0 / 35.0;
        let l = layout(320, 224, 1920, 1080, par);
        assert_eq!((l.scale, l.height), (4, 896));
        assert_eq!(l.width, 1170);
        assert_eq!((l.x0, l.y0), ((1920 - 1170) / 2, (1080 - 896) / 2));
        let l = layout(320, 224, 100, 100, 1.0);
        assert_eq!(l.scale, 1);
    }

    #[test]
    fn blit_repeats_rows_and_maps_columns() {
        let src = [1, 2, 3, 4];
        let l = layout(2, 2, 4, 4, 1.0);
        let mut dst = Vec::new();
        blit(&src, 2, 2, &mut dst, 4, 4, &l);
        assert_eq!(dst, vec![1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
        let l = layout(2, 2, 6, 4, 1.0);
        blit(&src, 2, 2, &mut dst, 6, 4, &l);
        assert_eq!(&dst[..6], &[0, 1, 1, 2, 2, 0]);
    }
}
