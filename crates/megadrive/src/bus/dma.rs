//! DMA from the 68000's bus into the VDP: as much of it as fits in the line (or in vertical
//! blanking), run as copies where the source allows, and the hardware profile's short DMA
//! through the FIFO.

use super::System;
use crate::clock::{M68K_DIVIDER, MCLK_PER_LINE};
use crate::vdp::dma::{self, DmaKind};
use crate::vdp::ports::PortEffect;
use crate::vdp::status;

impl System {
    pub(super) fn dma_start(&mut self, from_fill: bool) {
        let at = self.now;
        self.dma_update(at, from_fill);
    }

    /// Runs as much of the pending DMA as fits between `at` and the end of the current line
    /// (or of vertical blanking), moving the 68000 past it when the DMA holds its bus.
    pub fn dma_update(&mut self, at: u64, fill_start: bool) {
        {
            let vdp = &mut self.vdp;
            if vdp.dma.length == 0 {
                return;
            }
            let kind = vdp.dma.kind;
            let blank = vdp.in_vblank() || !vdp.display_enabled();
            let rate = dma::rate_per_line(kind, blank, vdp.h40(), self.timing.color_dma_refresh);
            let mut start = at;
            if fill_start && kind == DmaKind::Fill && self.timing.fill_start_delay {
                // The fill starts after the data-port write that gave its value.
                start += 2 * (MCLK_PER_LINE / rate as u64);
            }
            let window_end = if vdp.in_vblank() {
                let lines = (vdp.lines_per_frame() - vdp.active_lines - 1) as u64;
                vdp.frame_start + lines * MCLK_PER_LINE
            } else {
                vdp.line_start + MCLK_PER_LINE
            };
            let mut span = window_end.saturating_sub(start);
            let mut units = dma::units_in(span, rate);
            if vdp.dma.length < units {
                units = vdp.dma.length;
                span = dma::mclk_for(units, rate);
            }
            if self.timing.hardware_vdp && kind.stalls_cpu() && !blank && vdp.dma.length == units {
                self.bus_dma_through_fifo(start, units);
                return;
            }
            vdp.dma.end = start + span;
            if kind.stalls_cpu() {
                self.now = self.now.max(start + span);
            } else {
                vdp.status |= status::DMA_BUSY;
            }
            if units == 0 {
                return;
            }
            self.vdp.dma.length -= units;
            match kind {
                DmaKind::Fill => self.vdp.run_fill(units),
                DmaKind::Copy => self.vdp.run_copy(units),
                DmaKind::BusToColor | DmaKind::BusToVram => self.dma_from_bus(units),
            }
            if self.vdp.dma.length > 0 {
                return;
            }
            self.vdp.finish_dma_registers();
            let Some(cached) = self.vdp.cached_ctrl.take() else {
                return;
            };
            if self.vdp.write_control(cached, self.now) != PortEffect::StartDma {
                return;
            }
            // The cached word started another DMA: run it from here.
            self.dma_update(self.now, false)
        }
    }

    /// `units` words of a bus DMA, read at the source address and written to the target in
    /// turn. The source walks a 128 KiB window (`base`, then its word offset wraps); when the
    /// whole window is work RAM or cartridge the words are read in runs and written as a
    /// run, the same reads and writes in the same order without a call for each.
    pub(crate) fn dma_from_bus(&mut self, units: u32) {
        let base = ((self.vdp.regs[23] & 0x7F) as u32) << 17;
        // $C00000-$FFFFFF all read work RAM (`dma_read_word`), $000000-$3FFFFF the cartridge.
        let from_ram = base >= 0xC0_0000;
        let from_cart = base < 0x40_0000;
        let ram: Option<&[u8; 0x1_0000]> = self.ram.as_slice().try_into().ok();
        let (true, Some(ram)) = (from_ram || from_cart, ram) else {
            for _ in 0..units {
                let src = base | ((self.vdp.dma.source as u32) << 1);
                let word = self.dma_read_word(src);
                self.vdp.write_target(word);
                self.vdp.dma.source = self.vdp.dma.source.wrapping_add(1);
            }
            return;
        };
        let mut left = units as usize;
        if from_cart {
            // A plain ROM to VRAM with an increment of 2, the same way: the run ends where the
            // source's word offset wraps in its window.
            loop {
                let room = self.vdp.vram_run_room();
                if left == 0 || room == 0 {
                    break;
                }
                let s = self.vdp.dma.source as usize;
                let n = left.min(room).min(0x1_0000 - s);
                let Some(bytes) = self.cart.plain_bytes(base as usize + 2 * s, 2 * n) else {
                    break;
                };
                self.vdp.write_vram_bytes(bytes);
                self.vdp.dma.source = self.vdp.dma.source.wrapping_add(n as u16);
                left -= n;
            }
        }
        if from_ram {
            // Work RAM to VRAM with an increment of 2 (nearly every transfer): the source
            // bytes are the target bytes, copied in runs up to either memory's end (the
            // source's RAM address wraps at 64 KiB, as `dma_read_word` reads it).
            loop {
                let room = self.vdp.vram_run_room();
                if left == 0 || room == 0 {
                    break;
                }
                let s = ((self.vdp.dma.source as usize) << 1) & 0xFFFF;
                let n = left.min(room).min((0x1_0000 - s) / 2);
                self.vdp.write_vram_bytes(&ram[s..s + 2 * n]);
                self.vdp.dma.source = self.vdp.dma.source.wrapping_add(n as u16);
                left -= n;
            }
        }
        let mut run = [0u16; 64];
        while left > 0 {
            let n = left.min(run.len());
            let mut source = self.vdp.dma.source;
            for word in &mut run[..n] {
                let src = base | ((source as u32) << 1);
                *word = if from_ram {
                    let a = (src & 0xFFFE) as usize;
                    u16::from_be_bytes([ram[a], ram[a + 1]])
                } else {
                    self.cart.read_word(src)
                };
                source = source.wrapping_add(1);
            }
            self.vdp.dma.source = source;
            self.vdp.write_targets(&run[..n]);
            left -= n;
        }
    }

    /// The hardware profile's bus DMA that ends within the active line it starts in: each
    /// word goes through the FIFO as a 68000 write would, and the 68000 gets its bus back
    /// once the last word is in the FIFO, which then still drains at slot speed. Nemesis's
    /// VDPFIFOTesting, test 16, sub-tests 9 and 10 (the hardware's recorded results): right
    /// after a bus DMA of 8 words (or of 3 behind 3 written words) the status shows the FIFO
    /// full, then partly full, then empty; Genesis Plus GX holds the 68000 until the last
    /// word is written and shows it empty.
    fn bus_dma_through_fifo(&mut self, start: u64, units: u32) {
        let base = ((self.vdp.regs[23] & 0x7F) as u32) << 17;
        let (line_start, h40) = (self.vdp.line_start, self.vdp.h40());
        let mut t = start;
        for _ in 0..units {
            t = self.vdp.fifo.schedule(t, line_start, h40);
            let src = base | ((self.vdp.dma.source as u32) << 1);
            let word = self.dma_read_word(src);
            self.vdp.write_target(word);
            self.vdp.dma.source = self.vdp.dma.source.wrapping_add(1);
        }
        if t > start && self.timing.fifo_resume_on_cpu_clock {
            let rel = t.saturating_sub(self.vdp.frame_start);
            t = self.vdp.frame_start + rel.div_ceil(M68K_DIVIDER) * M68K_DIVIDER;
        }
        self.vdp.dma.length = 0;
        self.vdp.dma.end = t;
        self.now = self.now.max(t);
        self.vdp.finish_dma_registers();
        if let Some(cached) = self.vdp.cached_ctrl.take()
            && self.vdp.write_control(cached, self.now) == PortEffect::StartDma
        {
            self.dma_update(self.now, false);
        }
    }

    /// What a bus DMA reads at `addr` (work RAM, cartridge, or the I/O area's quirks).
    fn dma_read_word(&self, addr: u32) -> u16 {
        let addr = addr & 0xFF_FFFE;
        match addr {
            0x00_0000..=0x3F_FFFF => self.cart.read_word(addr),
            0x40_0000..=0x7F_FFFF => 0xFFFF,
            0xA0_0000..=0xA0_FFFF => {
                // The Z80 area reads $FFFF unless the 68000 holds the Z80's bus.
                if self.zbus.m68k_has_bus() {
                    let a = (addr & 0xFFFF) as usize;
                    u16::from_be_bytes([self.ram[a], self.ram[a + 1]])
                } else {
                    0xFFFF
                }
            }
            0xA1_0000..=0xA1_001F => {
                let b = self.io.read(((addr >> 1) & 0xF) as usize, self.now) as u16;
                (b << 8) | b
            }
            _ => {
                let a = (addr & 0xFFFF) as usize;
                u16::from_be_bytes([self.ram[a], self.ram[a + 1]])
            }
        }
    }
}
