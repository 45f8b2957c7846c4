//! What a line is drawn from: the renderer's input (plain views of the VDP), the layer line
//! buffers and one line's view for the layer modules.

use super::config::Config;
use super::pattern::Vram;
use super::pattern_rows::Rows;

/// What the renderer reads of the VDP: plain views into the core's state.
pub struct RenderInput<'a> {
    /// The 24 mode registers, as last written.
    pub regs: &'a [u8; 24],
    /// 64 KiB of VRAM, byte-addressed in the VDP's own order (address 0 = high byte of word 0).
    pub vram: &'a [u8; 0x1_0000],
    /// 64 CRAM words as written (`----bbb-ggg-rrr-`).
    pub cram: &'a [u16; 64],
    /// 40 VSRAM words (10 bits used).
    pub vsram: &'a [u16; 40],
    /// `Some(n)`: VRAM has not been written since any earlier line given the same `n` (the
    /// VDP core counts its VRAM writes), so caches checked under `n` are still good without
    /// comparing; `None`: unknown, every cache compares VRAM.
    pub vram_version: Option<u64>,
    /// The same for CRAM (the colour tables).
    pub cram_version: Option<u64>,
}

/// Left margin of the layer line buffers: room for the partial plane column (up to 15 pixels
/// left of the screen) and sprites hanging off the left edge (up to 31).
pub(super) const MARGIN: usize = 32;
/// Layer line buffer: margin, 320 pixels, and room for the last scrolled column or sprite.
pub(super) const LINE_BUF: usize = MARGIN + 320 + 32;
pub(super) type LineBuf = [u8; LINE_BUF];

/// One line's view of the VDP for the layer modules.
pub(super) struct LineCtx<'a> {
    pub(super) cfg: &'a Config,
    pub(super) vram: &'a Vram,
    /// `vram` decoded as pattern rows, one a long word.
    pub(super) rows: &'a Rows,
    pub(super) vsram: &'a [u16; 40],
    /// [`RenderInput::vram_version`].
    pub(super) vram_version: Option<u64>,
    /// Line within the field (interlace mode 2: the field's line, in field lines).
    pub(super) line: u32,
    /// Odd field (only used in interlace mode 2).
    pub(super) odd: bool,
}
