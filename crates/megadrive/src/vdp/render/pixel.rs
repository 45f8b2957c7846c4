//! The renderer's output pixel: a CRAM colour and its shadow/highlight intensity.

/// One output pixel: bits 0-8 the colour as stored in CRAM, packed `bbbgggrrr`
/// (CRAM word `----bbb-ggg-rrr-` shifted right by one per channel), bits 9-10 the intensity:
/// 0 normal, 1 shadow, 2 highlight.
pub type Pixel = u16;

pub const INTENSITY_NORMAL: u16 = 0;
pub const INTENSITY_SHADOW: u16 = 1 << 9;
pub const INTENSITY_HIGHLIGHT: u16 = 2 << 9;
