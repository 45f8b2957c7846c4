//! What the console hands to the outside world and takes from it, behind small traits so a
//! window, a headless run and a test drive the same core.

use crate::vdp::render::{Pixel, to_rgb888};

/// A finished frame: `height` rows of `width` pixels, `stride` pixels apart.
#[derive(Clone, Copy, Debug)]
pub struct FrameView<'a> {
    pub width: usize,
    pub height: usize,
    pub stride: usize,
    pub pixels: &'a [Pixel],
}

impl FrameView<'_> {
    pub fn row(&self, y: usize) -> &[Pixel] {
        &self.pixels[y * self.stride..y * self.stride + self.width]
    }

    /// The frame as 0x00RRGGBB, row after row, `width * height` entries.
    pub fn to_rgb(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.width * self.height);
        for y in 0..self.height {
            out.extend(self.row(y).iter().map(|&p| to_rgb888(p)));
        }
        out
    }
}

/// Receives each finished frame.
pub trait VideoSink {
    fn frame(&mut self, frame: &FrameView<'_>);
}

/// Receives interleaved stereo samples at `rate` Hz (none are produced until the sound
/// chips are synthesised).
pub trait AudioSink {
    fn samples(&mut self, rate: u32, interleaved: &[i16]);
}

/// Supplies the pads' state before each frame: a button mask per port (see `io::buttons`).
pub trait InputSource {
    fn pads(&mut self, frame: u64) -> [u16; 2];
}

/// Discards everything (headless runs that only read RAM).
#[derive(Clone, Copy, Debug, Default)]
pub struct Null;

impl VideoSink for Null {
    fn frame(&mut self, _frame: &FrameView<'_>) {}
}

impl AudioSink for Null {
    fn samples(&mut self, _rate: u32, _interleaved: &[i16]) {}
}

impl InputSource for Null {
    fn pads(&mut self, _frame: u64) -> [u16; 2] {
        [0, 0]
    }
}
