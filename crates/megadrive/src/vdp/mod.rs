//! The Video Display Processor (Sega 315-5313): registers, VRAM/CRAM/VSRAM, the command and
//! data ports, DMA, the FIFO, status, the HV counter and the interrupts it raises.
//!
//! The scheduler (`machine`) tells the VDP where the beam is (`begin_line`) and the bus
//! passes the 68000's current master clock to every port access, so the VDP answers as of that
//! moment. DMA that reads the 68000's bus is driven from `bus` (`bus/dma.rs`), which owns the
//! memories.
pub mod dma;
pub mod fifo;
pub mod hv;
pub mod irq;
pub mod irq_delay;
pub mod ports;
pub mod render;

use crate::clock::{LINES_NTSC, LINES_PAL, MCLK_PER_LINE};
use dma::Dma;
use fifo::Fifo;
use irq_delay::IrqDelay;
use render::{DirtyPatterns, Pixel, RenderInput, Renderer};

/// Bytes of VRAM.
pub const VRAM_BYTES: usize = 0x1_0000;
/// Widest active line.
pub const MAX_WIDTH: usize = 320;
/// Tallest frame (interlace mode 2, 240 lines per field).
pub const MAX_HEIGHT: usize = 480;
/// Pixels in a frame buffer.
pub const FRAME_PIXELS: usize = MAX_WIDTH * MAX_HEIGHT;

/// A frame buffer not yet made: all black.
static BLACK_FRAME: [Pixel; FRAME_PIXELS] = [0; FRAME_PIXELS];

fn pixels_or_black(buffer: &[Pixel]) -> &[Pixel] {
    if buffer.is_empty() {
        &BLACK_FRAME
    } else {
        buffer
    }
}

/// Master clocks into the line at which V-int fires on the first line of vertical blank
/// (H32, H40), after the VBLANK flag is set (Dracula, OutRunners and VR Troopers need the gap).
pub const VINT_H32_MCLK: u64 = 770;
pub const VINT_H40_MCLK: u64 = 788;
/// The HBLANK status flag's window within a line (H32 and H40), in master clocks from the
/// scheduler's line start.
pub const HBLANK_H32_MCLK: (u64, u64) = (280, 860);
pub const HBLANK_H40_MCLK: (u64, u64) = (228, 872);
/// Genesis Plus GX 1.7 reads HBLANK set for the first 588 master clocks of every line.
pub const GPGX17_HBLANK_END_MCLK: u64 = 588;

/// Status register bits.
pub mod status {
    pub const PAL: u16 = 1 << 0;
    pub const DMA_BUSY: u16 = 1 << 1;
    pub const HBLANK: u16 = 1 << 2;
    pub const VBLANK: u16 = 1 << 3;
    pub const ODD_FRAME: u16 = 1 << 4;
    pub const SPRITE_COLLISION: u16 = 1 << 5;
    pub const SPRITE_OVERFLOW: u16 = 1 << 6;
    pub const VINT_OCCURRED: u16 = 1 << 7;
    pub const FIFO_FULL: u16 = 1 << 8;
    pub const FIFO_EMPTY: u16 = 1 << 9;
}

#[derive(Clone, Debug)]
pub struct Vdp {
    pub regs: [u8; 24],
    /// Written through the port and DMA methods (`ports.rs`), which count the writes in
    /// `vram_writes`; anything else that writes it must call [`Vdp::vram_written`].
    pub vram: Vec<u8>,
    /// Counts writes to `vram` (any number of bytes each): the renderer skips comparing its
    /// caches with VRAM while this has not moved. Derived state, not saved (a state load
    /// starts a new renderer).
    pub vram_writes: u64,
    /// The 32-byte VRAM blocks written since the renderer last decoded them (its pattern
    /// rows), marked by the same write paths that count `vram_writes`. Derived state, not
    /// saved (a state load starts a new renderer, which decodes all of VRAM).
    pub dirty_patterns: DirtyPatterns,
    /// Counts writes to `cram`, as `vram_writes` does for VRAM (the renderer's colour
    /// tables); anything but the port and DMA methods that writes CRAM must call
    /// [`Vdp::cram_written`].
    pub cram_writes: u64,
    pub cram: [u16; 64],
    pub vsram: [u16; 40],

    /// Command: code bits CD5-CD0 and the address register.
    pub code: u8,
    pub addr: u16,
    /// A15-A14 from the last second command word (a first word keeps them).
    pub addr_latch: u16,
    /// First command word seen, waiting for the second.
    pub pending: bool,
    /// A second control word written while a bus DMA ran, applied when it ends (Formula One).
    pub cached_ctrl: Option<u16>,
    pub status: u16,
    pub hint_pending: bool,
    pub vint_pending: bool,
    /// The 68000's interrupt latency after a write that enables a pending interrupt.
    pub irq_delay: IrqDelay,
    /// The H-int line counter.
    pub hint_counter: u8,
    /// The line being displayed (0 = first active line).
    pub v_counter: u16,
    /// Absolute master clock at which the current line started.
    pub line_start: u64,
    /// Absolute master clock at which the current frame started (first line of vertical
    /// blanking), for the 68000-clock rounding the FIFO wait uses.
    pub frame_start: u64,
    /// Active lines of the frame being drawn (192, 224 or 240).
    pub active_lines: u16,
    pub pal: bool,
    pub dma: Dma,
    pub fifo: Fifo,
    /// Latched HV counter (bit 16 = latched), reg 0 bit 1.
    pub hv_latch: u32,
    pub odd_frame: bool,
    pub interlaced: bool,
    pub im2: bool,
    /// The Z80's /INT line, asserted from V-int to the end of that line.
    pub z80_irq: bool,

    pub renderer: Renderer,
    /// Draw pixels (video and full modes). When clear, lines are only evaluated for what the
    /// game can observe (the sprite status flags), and `frame` keeps the last drawn picture.
    pub draw: bool,
    /// The last complete frame and the one being drawn, `MAX_WIDTH * MAX_HEIGHT` pixels, or
    /// empty while all black (0): they are made at the first line drawn, so a headless
    /// machine and its copies go without their 600 KiB ([`Vdp::frame_pixels`]).
    pub frame: Vec<Pixel>,
    pub drawing: Vec<Pixel>,
    pub frame_width: u16,
    pub frame_height: u16,
    pub drawing_width: u16,
    pub h_tables: hv::HTables,
}

impl Vdp {
    pub fn new(pal: bool) -> Self {
        let mut vdp = Vdp {
            regs: [0; 24],
            vram: vec![0; VRAM_BYTES],
            vram_writes: 0,
            dirty_patterns: DirtyPatterns::default(),
            cram_writes: 0,
            cram: [0; 64],
            vsram: [0; 40],
            code: 0,
            addr: 0,
            addr_latch: 0,
            pending: false,
            cached_ctrl: None,
            status: u16::from(pal),
            hint_pending: false,
            vint_pending: false,
            irq_delay: IrqDelay::None,
            hint_counter: 0xFF,
            v_counter: 192,
            line_start: 0,
            frame_start: 0,
            active_lines: 192,
            pal,
            dma: Dma::default(),
            fifo: Fifo {
                byte_access: true,
                ..Fifo::default()
            },
            hv_latch: 0x1_0000,
            odd_frame: false,
            interlaced: false,
            im2: false,
            z80_irq: false,
            renderer: Renderer::new(),
            draw: true,
            frame: Vec::new(),
            drawing: Vec::new(),
            frame_width: 256,
            frame_height: 192,
            drawing_width: 256,
            h_tables: hv::HTables::new(),
        };
        // H-int is disabled at power-on (reg 10 = $FF, verified on a VA4 MD1 by Eke-Eke).
        vdp.regs[10] = 0xFF;
        vdp
    }

    pub fn lines_per_frame(&self) -> u16 {
        if self.pal { LINES_PAL } else { LINES_NTSC }
    }

    pub fn h40(&self) -> bool {
        self.regs[12] & 1 != 0
    }

    pub fn mode5(&self) -> bool {
        self.regs[1] & 4 != 0
    }

    pub fn display_enabled(&self) -> bool {
        self.regs[1] & 0x40 != 0
    }

    pub fn dma_enabled(&self) -> bool {
        self.regs[1] & 0x10 != 0
    }

    pub fn in_vblank(&self) -> bool {
        self.status & status::VBLANK != 0
    }

    pub fn vint_mclk(&self) -> u64 {
        if self.h40() {
            VINT_H40_MCLK
        } else {
            VINT_H32_MCLK
        }
    }

    /// Height of the active area the registers ask for.
    pub fn requested_active_lines(&self) -> u16 {
        if !self.mode5() {
            192
        } else if self.regs[1] & 8 != 0 {
            240
        } else {
            224
        }
    }

    /// The interrupt level the VDP asserts on the 68000 (6 = V-int, 4 = H-int).
    pub fn irq_level(&self) -> u8 {
        if self.vint_pending && self.regs[1] & 0x20 != 0 {
            6
        } else if self.hint_pending && self.regs[0] & 0x10 != 0 {
            4
        } else {
            0
        }
    }

    /// The 68000 acknowledges `level`: the VDP drops the matching pending flag.
    pub fn acknowledge(&mut self, level: u8) {
        self.release_held_irq();
        // The VDP clears the V-int whatever level the 68000 latched, when V-int is pending and
        // enabled (testpico "irq ack h-v 2": the H-int vector taken after V-int was enabled
        // clears the V-int; Fatal Rewind).
        if level == 6 || (self.vint_pending && self.regs[1] & 0x20 != 0) {
            self.vint_pending = false;
            self.status &= !status::VINT_OCCURRED;
        } else {
            self.hint_pending = false;
        }
    }

    /// VRAM was written other than through the ports or DMA (anywhere, as far as the
    /// renderer's decoded pattern rows know).
    pub fn vram_written(&mut self) {
        self.vram_writes = self.vram_writes.wrapping_add(1);
        self.dirty_patterns.mark_all();
    }

    /// The `len` bytes of VRAM from `addr` on were written through the ports or DMA.
    #[inline]
    fn vram_written_at(&mut self, addr: usize, len: usize) {
        self.vram_writes = self.vram_writes.wrapping_add(1);
        self.dirty_patterns.mark_range(addr, len);
    }

    /// CRAM was written other than through the ports or DMA.
    pub fn cram_written(&mut self) {
        self.cram_writes = self.cram_writes.wrapping_add(1);
    }

    /// The VRAM word at `addr` (even).
    pub fn vram_word(&self, addr: u16) -> u16 {
        let a = (addr & 0xFFFE) as usize;
        u16::from_be_bytes([self.vram[a], self.vram[a + 1]])
    }

    /// Renders active line `line` into the frame being drawn.
    #[inline]
    pub fn render_line(&mut self, line: u16) {
        self.settle_sprites();
        self.render_line_now(line, false);
    }

    /// The scheduler's start of active line `line`: [`Vdp::render_line`], except that a
    /// headless line that needs no drawing, under the registers and VRAM of the line before,
    /// is only counted (`render::deferred`) until something can see what it changed.
    #[inline]
    pub fn begin_active_line(&mut self, line: u16) {
        if self.renderer.defer_line(self.vram_writes, line) {
            return;
        }
        self.settle_sprites();
        self.render_line_now(line, true);
    }

    /// Applies the headless lines counted since the last line evaluated (see
    /// [`Vdp::begin_active_line`]): before the status is read, before a line is evaluated,
    /// at the end of a `Machine::run`.
    #[inline]
    pub fn settle_sprites(&mut self) {
        if let Some(overflow) = self.renderer.settle_deferred()
            && overflow
        {
            self.status |= status::SPRITE_OVERFLOW;
        }
    }

    /// [`Vdp::render_line`] with nothing owed; `defer`: the following lines may be counted.
    #[inline]
    fn render_line_now(&mut self, line: u16, defer: bool) {
        if !self.draw && !self.im2 {
            // Headless: most lines are decided by the sprite table's index alone (inline in
            // the scheduler's loop, the rest out of line).
            let want_collision = self.status & status::SPRITE_COLLISION == 0;
            // After a VRAM write (the title screens stream art during the display) the table's
            // bytes are compared here rather than on the full path.
            let vram = self.vram.as_slice().try_into().ok();
            if let Some(st) =
                self.renderer
                    .quick_line(&self.regs, vram, self.vram_writes, line, want_collision)
            {
                self.take_line_status(st);
                self.drawing_width = if self.h40() { 320 } else { 256 };
                if defer {
                    let want_collision = self.status & status::SPRITE_COLLISION == 0;
                    self.renderer
                        .open_deferral(&self.regs, self.vram_writes, line, want_collision);
                }
                return;
            }
        }
        self.render_line_in_full(line);
    }

    /// [`Vdp::render_line`] drawing the line, or evaluating it with the sprite table checked.
    #[inline(never)]
    fn render_line_in_full(&mut self, line: u16) {
        let width = if self.h40() { 320 } else { 256 };
        let row = if self.im2 {
            line as usize * 2 + usize::from(self.odd_frame)
        } else {
            line as usize
        };
        if row >= MAX_HEIGHT {
            return;
        }
        // VRAM is always 64 KiB here; anything else (only by replacing the public field) is
        // read as if zero-padded.
        let padded;
        let mut vram_version = Some(self.vram_writes);
        let vram: &[u8; VRAM_BYTES] = match self.vram.as_slice().try_into() {
            Ok(v) => v,
            Err(_) => {
                vram_version = None;
                let mut p = Box::new([0u8; VRAM_BYTES]);
                let n = self.vram.len().min(VRAM_BYTES);
                p[..n].copy_from_slice(&self.vram[..n]);
                padded = p;
                &padded
            }
        };
        let input = RenderInput {
            regs: &self.regs,
            vram,
            cram: &self.cram,
            vsram: &self.vsram,
            vram_version,
            cram_version: Some(self.cram_writes),
        };
        let st = if self.draw {
            if let Some(version) = vram_version {
                self.renderer
                    .sync_patterns(&self.regs, vram, &mut self.dirty_patterns, version);
            }
            if self.drawing.is_empty() {
                self.drawing = vec![0; FRAME_PIXELS];
            }
            let out = &mut self.drawing[row * MAX_WIDTH..row * MAX_WIDTH + width];
            self.renderer.render_line(&input, line, self.odd_frame, out)
        } else {
            let want_collision = self.status & status::SPRITE_COLLISION == 0;
            self.renderer
                .evaluate_line(&input, line, self.odd_frame, want_collision)
        };
        self.take_line_status(st);
        self.drawing_width = width as u16;
    }

    /// The sprite flags a line raised (sticky until the status is read).
    #[inline]
    fn take_line_status(&mut self, st: render::LineStatus) {
        if st.sprite_overflow {
            self.status |= status::SPRITE_OVERFLOW;
        }
        if st.sprite_collision {
            self.status |= status::SPRITE_COLLISION;
        }
    }

    /// The frame being drawn is complete: it becomes the visible frame.
    pub fn finish_frame(&mut self) {
        std::mem::swap(&mut self.frame, &mut self.drawing);
        self.frame_width = self.drawing_width;
        self.frame_height = if self.im2 {
            self.active_lines * 2
        } else {
            self.active_lines
        };
        if self.im2 {
            // The other field's lines carry over (an empty frame is all black).
            self.drawing.clone_from(&self.frame);
        }
    }

    /// The last complete frame, `MAX_WIDTH * MAX_HEIGHT` pixels (black before any line is
    /// drawn).
    pub fn frame_pixels(&self) -> &[Pixel] {
        pixels_or_black(&self.frame)
    }

    /// The frame being drawn, as [`Vdp::frame_pixels`].
    pub fn drawing_pixels(&self) -> &[Pixel] {
        pixels_or_black(&self.drawing)
    }

    /// The HV counter as the 68000 reads it at `now`.
    pub fn hv_counter(&self, now: u64) -> u16 {
        if self.hv_latch & 0x1_0000 != 0 && self.mode5() {
            return self.hv_latch as u16;
        }
        let rel = now.saturating_sub(self.line_start);
        let table = if self.h40() {
            &self.h_tables.h40
        } else {
            &self.h_tables.h32
        };
        let h = if self.hv_latch & 0x1_0000 != 0 {
            self.hv_latch as u8
        } else {
            table[(rel % MCLK_PER_LINE) as usize]
        };
        let mut line = self.v_counter;
        if rel >= MCLK_PER_LINE {
            line = (line + 1) % self.lines_per_frame();
        }
        let vc_max = hv::vc_max(self.pal, self.regs[1] & 8 != 0, self.mode5());
        let v = hv::v_counter_value(
            line,
            self.lines_per_frame(),
            vc_max,
            self.interlaced,
            self.im2,
        );
        ((v as u16) << 8) | h as u16
    }

    /// The status register as read at `now` (the read side effects are applied).
    /// `hblank_588`: the HBLANK flag reads set for the first 588 master clocks of each line
    /// (Genesis Plus GX 1.7's approximation) rather than in the measured window.
    pub fn read_status(&mut self, now: u64, hblank_588: bool) -> u16 {
        self.settle_sprites();
        if self.status & status::DMA_BUSY != 0 && self.dma.length == 0 && now >= self.dma.end {
            self.status &= !status::DMA_BUSY;
        }
        let mut value = self.status;
        self.pending = false;
        self.status &= !(status::SPRITE_COLLISION | status::SPRITE_OVERFLOW);
        if self.fifo.is_empty_at(now) {
            value |= status::FIFO_EMPTY;
        } else if self.fifo.is_full_at(now) {
            value |= status::FIFO_FULL;
        }
        if !self.display_enabled() {
            value |= status::VBLANK;
        }
        let rel = now.saturating_sub(self.line_start);
        // The V-int flag is visible a moment before the interrupt is taken (Ex-Mutants,
        // Marvel Land): on the first blank line, past the V-int point, before the Z80's
        // interrupt line (raised with V-int) shows it was already delivered.
        if self.v_counter == self.active_lines && rel >= self.vint_mclk() && !self.z80_irq {
            value |= status::VINT_OCCURRED;
        }
        let (start, end) = if hblank_588 {
            (0, GPGX17_HBLANK_END_MCLK)
        } else if self.h40() {
            HBLANK_H40_MCLK
        } else {
            HBLANK_H32_MCLK
        };
        let rel_line = rel % MCLK_PER_LINE;
        if rel_line >= start && rel_line < end {
            value |= status::HBLANK;
        }
        value
    }

    /// A register write from the command port (or a save-state restore).
    pub fn write_register(&mut self, reg: usize, value: u8, now: u64) {
        // The lines counted so far were counted under the registers as they are.
        self.settle_sprites();
        // Registers 11-23 are not writable in mode 4 (Captain Planet and the Planeteers).
        if !self.mode5() && reg > 10 {
            return;
        }
        if reg >= self.regs.len() {
            return;
        }
        let old = self.regs[reg];
        self.regs[reg] = value;
        match reg {
            0 if (old ^ value) & 2 != 0 && self.mode5() => {
                self.hv_latch = 0;
                if value & 2 != 0 {
                    self.hv_latch = self.hv_counter(now) as u32 | 0x1_0000;
                }
            }
            1 => {
                if (old ^ value) & 4 != 0 {
                    if value & 4 != 0 {
                        self.hv_latch = 0;
                        if self.regs[0] & 2 != 0 {
                            self.hv_latch = self.hv_counter(now) as u32 | 0x1_0000;
                        }
                    } else {
                        self.hv_latch = self.hv_counter(now) as u32 | 0x1_0000;
                    }
                }
                // Display switched on again in the left border of an active line: the
                // line is drawn with the new setting (Legend of Galahad, Lemmings 2).
                if (old ^ value) & 0x40 != 0
                    && self.v_counter < self.active_lines
                    && now.saturating_sub(self.line_start) <= HBLANK_H40_MCLK.1
                {
                    self.render_line(self.v_counter);
                }
            }
            _ => {}
        }
    }

    /// Sets the per-frame flags at the first line of vertical blanking.
    pub fn begin_frame(&mut self, now: u64) {
        self.frame_start = now;
        self.interlaced = self.regs[12] & 2 != 0;
        let new_im2 = self.regs[12] & 6 == 6;
        if new_im2 != self.im2 {
            self.im2 = new_im2;
        }
        if !self.interlaced {
            self.odd_frame = false;
        }
        self.active_lines = self.requested_active_lines();
        self.renderer.start_frame();
    }
}
