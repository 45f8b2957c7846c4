//! The VDP's 68000-side ports: the two-word command/register port, the data port with its
//! FIFO, and the memory targets a command selects (genvdp.txt §"Control port", §"Data port").

use super::dma::{Dma, DmaKind};
use super::{Vdp, status};

/// What a port write asks the bus to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortEffect {
    None,
    /// A DMA is ready to run (bus DMA, copy, or a fill whose value just arrived).
    StartDma,
}

/// Code register targets (CD3-CD0).
const CODE_VRAM_WRITE: u8 = 0x01;
const CODE_CRAM_WRITE: u8 = 0x03;
const CODE_VSRAM_WRITE: u8 = 0x05;

impl Vdp {
    /// A word written to the control port at `now`.
    pub fn write_control(&mut self, value: u16, now: u64) -> PortEffect {
        if !self.pending {
            // The second half of a MOVE.L that started a bus DMA with its first word is
            // applied when the DMA ends (Formula One, Kawasaki Superbike Challenge).
            if self.dma.length > 0 && self.dma.kind.stalls_cpu() {
                self.cached_ctrl = Some(value);
                return PortEffect::None;
            }
            self.addr = self.addr_latch | (value & 0x3FFF);
            self.code = (self.code & 0x3C) | ((value >> 14) as u8 & 3);
            if value & 0xC000 == 0x8000 {
                self.write_register(((value >> 8) & 0x1F) as usize, value as u8, now);
            } else {
                // Only mode 5 takes a second word.
                self.pending = self.mode5();
            }
            // The FIFO's slot count per word (two for VRAM) follows only a complete command:
            // a first word or a register write leaves it (Genesis Plus GX; BlastEm's
            // gen_test_hv fills the FIFO with VRAM-speed words right after the register pair
            // `move.l #$8A718014`, and its HV samples then match only this).
            return PortEffect::None;
        }
        self.pending = false;
        self.addr_latch = (value & 3) << 14;
        self.addr = (self.addr & 0x3FFF) | self.addr_latch;
        self.code = (self.code & 3) | ((value >> 2) as u8 & 0x3C);
        self.fifo.byte_access = self.code & 0x06 == 0;
        if self.code & 0x20 == 0 || !self.dma_enabled() {
            return PortEffect::None;
        }
        let length = match self.dma_length_register() {
            0 => 0x1_0000,
            n => n,
        };
        match self.regs[23] >> 6 {
            2 => {
                self.dma = Dma {
                    length: 0,
                    source: self.dma.source,
                    kind: DmaKind::Fill,
                    fill_pending: true,
                    end: u64::MAX,
                };
                self.status |= status::DMA_BUSY;
                PortEffect::None
            }
            3 => {
                self.dma = Dma {
                    length,
                    source: self.dma_source_register(),
                    kind: DmaKind::Copy,
                    fill_pending: false,
                    end: now,
                };
                PortEffect::StartDma
            }
            _ => {
                let kind = if self.code & 0x06 != 0 {
                    DmaKind::BusToColor
                } else {
                    DmaKind::BusToVram
                };
                self.dma = Dma {
                    length,
                    source: self.dma_source_register(),
                    kind,
                    fill_pending: false,
                    end: now,
                };
                PortEffect::StartDma
            }
        }
    }

    pub fn dma_length_register(&self) -> u32 {
        ((self.regs[20] as u32) << 8) | self.regs[19] as u32
    }

    pub fn dma_source_register(&self) -> u16 {
        ((self.regs[22] as u16) << 8) | self.regs[21] as u16
    }

    /// A word written to the data port at `now`; returns the clock at which the 68000 may go on
    /// (it waits while the FIFO is full) and whether a fill now runs. `cpu_edge`: the 68000
    /// resumes on one of its own clock edges (Genesis Plus GX 1.7 resumes it on the slot's
    /// master clock).
    pub fn write_data(&mut self, value: u16, now: u64, cpu_edge: bool) -> (u64, PortEffect) {
        self.pending = false;
        let mut resume = now;
        if !self.in_vblank() && self.display_enabled() {
            resume = self.fifo.schedule(now, self.line_start, self.h40());
            if resume > now && cpu_edge {
                // The 68000 resumes on one of its own clock edges (counted from the frame).
                let rel = resume - self.frame_start;
                resume = self.frame_start + rel.div_ceil(7) * 7;
            }
        }
        self.write_target(value);
        if self.dma.fill_pending {
            self.dma.fill_pending = false;
            self.dma.length = match self.dma_length_register() {
                0 => 0x1_0000,
                n => n,
            };
            self.dma.end = resume;
            return (resume, PortEffect::StartDma);
        }
        (resume, PortEffect::None)
    }

    /// Whether the code register selects no memory for a data-port write (a register write
    /// leaves CD1-0 = 2, as after gen_test_hv's `move.l #$8A718014,(a1)`): the word is
    /// dropped and only the address advances.
    pub fn write_code_invalid(&self) -> bool {
        !matches!(
            self.code & 0x0F,
            CODE_VRAM_WRITE | CODE_CRAM_WRITE | CODE_VSRAM_WRITE
        )
    }

    /// Writes a word to the memory the code register selects and advances the address.
    pub fn write_target(&mut self, value: u16) {
        self.fifo.push(value);
        match self.code & 0x0F {
            CODE_VRAM_WRITE => {
                let a = (self.addr & 0xFFFE) as usize;
                // An odd address swaps the bytes (genvdp.txt).
                let v = if self.addr & 1 != 0 {
                    value.swap_bytes()
                } else {
                    value
                };
                self.vram[a] = (v >> 8) as u8;
                self.vram[a + 1] = v as u8;
                self.vram_written_at(a, 2);
            }
            CODE_CRAM_WRITE => {
                self.cram[((self.addr >> 1) & 0x3F) as usize] = value & 0x0EEE;
                self.cram_written();
            }
            CODE_VSRAM_WRITE => {
                let i = ((self.addr & 0x7E) >> 1) as usize;
                if i < self.vsram.len() {
                    self.vsram[i] = value & 0x07FF;
                }
            }
            _ => {}
        }
        self.addr = self.addr.wrapping_add(self.regs[15] as u16);
    }

    /// [`Vdp::write_target`] for each of `words` in turn (a bus DMA's run), the VRAM case
    /// without deciding the target again for every word.
    pub fn write_targets(&mut self, words: &[u16]) {
        if self.code & 0x0F == CODE_CRAM_WRITE && !words.is_empty() {
            // A palette transfer (Sonic 2's every frame): each word to CRAM in turn, CRAM
            // counted as written once.
            let step = self.regs[15] as u16;
            let mut addr = self.addr;
            for &value in words {
                self.cram[((addr >> 1) & 0x3F) as usize] = value & 0x0EEE;
                addr = addr.wrapping_add(step);
            }
            self.addr = addr;
            self.cram_written();
            self.push_last_four(words);
            return;
        }
        let vram: Option<&mut [u8; super::VRAM_BYTES]> = self.vram.as_mut_slice().try_into().ok();
        let (Some(vram), CODE_VRAM_WRITE) = (vram, self.code & 0x0F) else {
            for &word in words {
                self.write_target(word);
            }
            return;
        };
        self.vram_writes = self.vram_writes.wrapping_add(1);
        let dirty = &mut self.dirty_patterns;
        let step = self.regs[15] as u16;
        let mut addr = self.addr;
        if step == 2 && addr & 1 == 0 && words.len() <= (super::VRAM_BYTES - addr as usize) / 2 {
            // Consecutive byte pairs, no swap: a loop the compiler can widen.
            let a = addr as usize;
            dirty.mark_range(a, 2 * words.len());
            for (pair, &value) in vram[a..a + 2 * words.len()].chunks_exact_mut(2).zip(words) {
                pair.copy_from_slice(&value.to_be_bytes());
            }
            addr = addr.wrapping_add(2 * words.len() as u16);
        } else {
            for &value in words {
                let a = (addr & 0xFFFE) as usize;
                // An odd address swaps the bytes (genvdp.txt).
                let v = if addr & 1 != 0 {
                    value.swap_bytes()
                } else {
                    value
                };
                vram[a] = (v >> 8) as u8;
                vram[a + 1] = v as u8;
                dirty.mark(a);
                addr = addr.wrapping_add(step);
            }
        }
        self.addr = addr;
        self.push_last_four(words);
    }

    /// The FIFO after `words` were pushed in turn: it keeps the last four, so pushing only
    /// those (and moving its index past the rest) leaves it as pushing all.
    fn push_last_four(&mut self, words: &[u16]) {
        let kept = words.len().min(4);
        self.fifo.index = (self.fifo.index + words.len() - kept) & 3;
        for &value in &words[words.len() - kept..] {
            self.fifo.push(value);
        }
    }

    /// How many words from the address register on [`Vdp::write_vram_bytes`] can take: VRAM
    /// is the target, the increment is 2 and the address even, so the words land on
    /// consecutive byte pairs in the order they come, up to the end of VRAM; 0 otherwise.
    pub fn vram_run_room(&self) -> usize {
        if self.code & 0x0F != CODE_VRAM_WRITE
            || self.regs[15] != 2
            || self.addr & 1 != 0
            || self.vram.len() != super::VRAM_BYTES
        {
            return 0;
        }
        (super::VRAM_BYTES - self.addr as usize) / 2
    }

    /// [`Vdp::write_target`] for each big-endian word of `bytes` in turn, when
    /// [`Vdp::vram_run_room`] allows that many: with an even address and an increment of 2
    /// a word's two bytes go to `addr` and `addr + 1` as they are, so the run is a copy.
    pub fn write_vram_bytes(&mut self, bytes: &[u8]) {
        let words = bytes.len() / 2;
        debug_assert!(bytes.len().is_multiple_of(2) && words <= self.vram_run_room());
        let a = self.addr as usize;
        self.vram[a..a + 2 * words].copy_from_slice(&bytes[..2 * words]);
        self.vram_written_at(a, 2 * words);
        self.addr = self.addr.wrapping_add(2 * words as u16);
        // The FIFO keeps the last four words: pushing only those leaves it as pushing all.
        let kept = words.min(4);
        self.fifo.index = (self.fifo.index + words - kept) & 3;
        for pair in bytes[2 * (words - kept)..2 * words].chunks_exact(2) {
            self.fifo.push(u16::from_be_bytes([pair[0], pair[1]]));
        }
    }

    /// When a data-port read made at `now` can complete on hardware: the VDP serves a read
    /// only after every pending write has left the FIFO, in the next external slot (reads and
    /// writes share the slots of Nemesis's slot maps). Nemesis's VDPFIFOTesting, test 16
    /// "FIFO Wait States", sub-test 7: after six VRAM writes, a read command and a data-port
    /// read, every status read shows the FIFO empty (the hardware's recorded results);
    /// Genesis Plus GX returns at once and shows it partly full. `cpu_edge`: as in
    /// [`Vdp::write_data`].
    pub fn read_ready_at(&self, now: u64, cpu_edge: bool) -> u64 {
        if self.in_vblank() || !self.display_enabled() || self.fifo.is_empty_at(now) {
            return now;
        }
        let ready = self.fifo.slot_after_drain(self.line_start, self.h40());
        if cpu_edge {
            let rel = ready.saturating_sub(self.frame_start);
            return self.frame_start + rel.div_ceil(7) * 7;
        }
        ready
    }

    /// A word read from the data port.
    pub fn read_data(&mut self) -> u16 {
        self.pending = false;
        let next = self.fifo.next();
        let value = match self.code & 0x1F {
            0x00 => self.vram_word(self.addr),
            0x04 => {
                let mut i = ((self.addr & 0x7E) >> 1) as usize;
                if i >= self.vsram.len() {
                    i = 0;
                }
                (self.vsram[i] & 0x07FF) | (next & !0x07FF)
            }
            0x08 => {
                let c = self.cram[((self.addr >> 1) & 0x3F) as usize];
                (c & 0x0EEE) | (next & !0x0EEE)
            }
            // 8-bit VRAM read (undocumented): the byte at addr^1 in the low half.
            0x0C => {
                let b = self.vram[(self.addr ^ 1) as usize] as u16;
                b | (next & 0xFF00)
            }
            _ => next,
        };
        self.addr = self.addr.wrapping_add(self.regs[15] as u16);
        value
    }

    /// Runs `units` steps of a fill.
    pub fn run_fill(&mut self, units: u32) {
        match self.code & 0x0F {
            CODE_VRAM_WRITE => {
                // The fill writes the high byte of the data word to addr ^ 1 each step
                // (genvdp.txt; the first word was already written by the data port).
                let data = (self.fifo.newest() >> 8) as u8;
                self.vram_writes = self.vram_writes.wrapping_add(1);
                let step = self.regs[15] as usize;
                self.dirty_patterns
                    .mark_steps(self.addr as usize, units as usize, step);
                for _ in 0..units {
                    self.vram[(self.addr ^ 1) as usize] = data;
                    self.addr = self.addr.wrapping_add(self.regs[15] as u16);
                }
            }
            CODE_CRAM_WRITE => {
                let data = self.fifo.next() & 0x0EEE;
                self.cram_written();
                for _ in 0..units {
                    self.cram[((self.addr >> 1) & 0x3F) as usize] = data;
                    self.addr = self.addr.wrapping_add(self.regs[15] as u16);
                }
            }
            CODE_VSRAM_WRITE => {
                let data = self.fifo.next() & 0x07FF;
                for _ in 0..units {
                    let i = ((self.addr & 0x7E) >> 1) as usize;
                    if i < self.vsram.len() {
                        self.vsram[i] = data;
                    }
                    self.addr = self.addr.wrapping_add(self.regs[15] as u16);
                }
            }
            _ => {
                for _ in 0..units {
                    self.addr = self.addr.wrapping_add(self.regs[15] as u16);
                }
            }
        }
    }

    /// Runs `units` bytes of a VRAM copy (CD4 must be set, else the VDP writes nothing).
    pub fn run_copy(&mut self, units: u32) {
        let mut src = self.dma.source;
        if self.code & 0x10 != 0 {
            self.vram_writes = self.vram_writes.wrapping_add(1);
            let step = self.regs[15] as usize;
            self.dirty_patterns
                .mark_steps(self.addr as usize, units as usize, step);
            for _ in 0..units {
                let b = self.vram[(src ^ 1) as usize];
                self.vram[(self.addr ^ 1) as usize] = b;
                src = src.wrapping_add(1);
                self.addr = self.addr.wrapping_add(self.regs[15] as u16);
            }
        } else {
            src = src.wrapping_add(units as u16);
        }
        self.dma.source = src;
    }

    /// A DMA has finished: the source and length registers show where it stopped.
    pub fn finish_dma_registers(&mut self) {
        let end = self
            .dma_source_register()
            .wrapping_add(self.dma_length_register() as u16);
        self.regs[21] = end as u8;
        self.regs[22] = (end >> 8) as u8;
        self.regs[19] = 0;
        self.regs[20] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_read_waits_for_the_fifo_to_drain_in_active_display() {
        use crate::vdp::fifo::SLOTS_H40;
        let mut v = Vdp::new(false);
        v.regs[1] = 0x44; // display on, mode 5
        v.regs[12] = 0x81; // H40
        v.write_control(0x4000, 0);
        v.write_control(0x0000, 0);
        for _ in 0..4 {
            v.write_data(0, 0, false);
        }
        // Four VRAM words leave at the 2nd, 4th, 6th and 8th slots; the read takes the 9th.
        assert_eq!(v.fifo.drain_at.iter().max(), Some(&(SLOTS_H40[7] as u64)));
        assert_eq!(v.read_ready_at(0, false), SLOTS_H40[8] as u64);
        // Once the FIFO is empty, or in vertical blank, the read is served at once.
        let later = SLOTS_H40[7] as u64;
        assert_eq!(v.read_ready_at(later, false), later);
        v.status |= status::VBLANK;
        assert_eq!(v.read_ready_at(0, false), 0);
    }

    #[test]
    fn a_register_write_keeps_the_fifo_at_vram_speed() {
        let mut v = Vdp::new(false);
        v.regs[1] = 0x44;
        // VRAM write at $0000: two slots per word.
        v.write_control(0x4000, 0);
        v.write_control(0x0000, 0);
        assert!(v.fifo.byte_access);
        // Registers 10 and 0 (BlastEm's gen_test_hv, `move.l #$8A718014`) change CD1-CD0 but
        // not the FIFO's slot width, as in Genesis Plus GX.
        v.write_control(0x8A71, 0);
        v.write_control(0x8014, 0);
        assert!(v.fifo.byte_access);
        // A complete CRAM command does.
        v.write_control(0xC000, 0);
        v.write_control(0x0000, 0);
        assert!(!v.fifo.byte_access);
    }
}
