//! The VDP's picture: one line of planes A/B, window, sprites, priorities and shadow/highlight.
//!
//! Contract with the VDP core (`vdp/mod.rs`): the core owns registers and memories and calls
//! [`Renderer::render_line`] once per active line, at the moment the hardware fetches it, with
//! views of its current state. Output pixels are [`Pixel`]s (the 9-bit CRAM colour plus the
//! shadow/highlight intensity); converting to RGB is a separate, swappable step ([`to_rgb888`]).

/// One output pixel: bits 0-8 the colour as stored in CRAM, packed `bbbgggrrr`
/// (CRAM word `----bbb-ggg-rrr-` shifted right by one per channel), bits 9-10 the intensity:
/// 0 normal, 1 shadow, 2 highlight.
pub type Pixel = u16;

pub const INTENSITY_NORMAL: u16 = 0;
pub const INTENSITY_SHADOW: u16 = 1 << 9;
pub const INTENSITY_HIGHLIGHT: u16 = 2 << 9;

/// What the renderer reads of the VDP: plain views into the core's state.
pub struct RenderInput<'a> {
    /// The 24 mode registers, as last written.
    pub regs: &'a [u8; 24],
    /// 64 KiB of VRAM, byte-addressed in the VDP's own order (address 0 = high byte of word 0).
    pub vram: &'a [u8],
    /// 64 CRAM words as written (`----bbb-ggg-rrr-`).
    pub cram: &'a [u16; 64],
    /// 40 VSRAM words (10 bits used).
    pub vsram: &'a [u16; 40],
}

/// Status the line produced for the VDP's status register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineStatus {
    pub sprite_overflow: bool,
    pub sprite_collision: bool,
}

/// Renderer state kept between lines (sprite masking depends on the previous line). Plain data.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Renderer {}

impl Renderer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Renders active line `line` (0-based from the top of the active area; in interlace mode 2
    /// the core passes the field's line and `odd_field`) into `out`, whose length is the active
    /// width (256 in H32, 320 in H40). With the display disabled (reg 1 bit 6 clear) the line is
    /// the backdrop colour.
    pub fn render_line(
        &mut self,
        input: &RenderInput<'_>,
        line: u16,
        odd_field: bool,
        out: &mut [Pixel],
    ) -> LineStatus {
        let _ = (line, odd_field);
        let backdrop = cram_to_pixel(input.cram[(input.regs[7] & 0x3F) as usize]);
        out.fill(backdrop);
        LineStatus::default()
    }

    /// Called at the start of each frame (sprite limits and masking reset).
    pub fn start_frame(&mut self) {}
}

/// Packs a CRAM word into the 9-bit colour of a [`Pixel`] at normal intensity.
pub fn cram_to_pixel(word: u16) -> Pixel {
    ((word >> 1) & 0x7) | ((word >> 2) & 0x38) | ((word >> 3) & 0x1C0)
}

/// Converts a pixel to 0x00RRGGBB.
pub fn to_rgb888(pixel: Pixel) -> u32 {
    // Placeholder linear ramp; the renderer owner replaces it with the levels the reference
    // emulator uses so goldens compare pixel-exact.
    let level = |v: u16| -> u32 { (v as u32) * 255 / 7 };
    let r = level(pixel & 7);
    let g = level((pixel >> 3) & 7);
    let b = level((pixel >> 6) & 7);
    (r << 16) | (g << 8) | b
}
