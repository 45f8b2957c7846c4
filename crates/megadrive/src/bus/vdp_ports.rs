//! The VDP's ports as the 68000 reads and writes them: the access's clock, the status read
//! each profile samples, the FIFO's waits, and the PSG behind the same ports.

use super::System;
use crate::clock::M68K_DIVIDER;
use crate::vdp::ports::PortEffect;

impl System {
    /// The master clock of the 68000's current bus cycle: in the hardware profile the
    /// instruction's start plus the clocks our 68000 spent before that cycle; otherwise the
    /// instruction's start, where Genesis Plus GX 1.7 (and the `m68k` backend) make every
    /// access of an instruction.
    fn access_time(&self) -> u64 {
        if !self.timing.hardware_vdp {
            return self.now;
        }
        // No 68000 instruction has its bus cycles more than 200 clocks into it (MOVEM.L of
        // 16 registers ends at 132 clocks); anything else is a stale count.
        let before = self.access_clock.saturating_sub(self.instruction_clock);
        self.now + before.min(200) * M68K_DIVIDER
    }

    /// The VDP status as the 68000 reads it now.
    fn read_status_68k(&mut self) -> u16 {
        if self.timing.gpgx17_status_read {
            // Genesis Plus GX 1.7 samples the status at the end of the 4-clock read cycle
            // (the instruction's start plus 28 master clocks). Sonic 2's wait for the end of
            // a DMA fill (`move.w (a5),d1; btst #1,d1; bne.s`, Rev B $1254) leaves the loop
            // one pass earlier with it, as in Genesis Plus GX.
            let at = self.now + 4 * M68K_DIVIDER;
            self.vdp.read_status(at, true)
        } else {
            // The status as it stands two clocks into the read cycle (S4, where the 68000
            // samples DTACK, so the VDP drives its data by then). VDPFIFOTesting's test 16
            // passes all ten sub-tests with the sample 0.5, 1.5, 2, 2.5 or 3 clocks in and
            // fails one or two with 0, 1 or 3.5 or more: its 2,048 rounds each land at
            // another point of the slot pattern, and which rounds catch the FIFO full
            // depends on that to a few master clocks.
            let at = self.access_time() + 2 * M68K_DIVIDER;
            self.vdp.read_status(at, false)
        }
    }

    /// A data-port read: in the hardware profile the 68000 first waits for the FIFO.
    fn vdp_read_data(&mut self) -> u16 {
        if self.timing.hardware_vdp {
            let at = self.access_time();
            let ready = self
                .vdp
                .read_ready_at(at, self.timing.fifo_resume_on_cpu_clock);
            // The bus cycle ends at `ready`; the instruction's clocks after it follow.
            self.now = self.now.max(ready - (at - self.now));
        }
        self.vdp.read_data()
    }

    pub(super) fn vdp_read_word(&mut self, addr: u32) -> u16 {
        match addr & 0x1C {
            0x00 => self.vdp_read_data(),
            0x04 => {
                let s = self.read_status_68k() & 0x3FF;
                s | (self.status_fill_word() & 0xFC00)
            }
            0x08 | 0x0C => self.vdp.hv_counter(self.access_time()),
            _ => self.open_bus_word(),
        }
    }

    pub(super) fn vdp_read_byte(&mut self, addr: u32) -> u8 {
        match addr & 0x1D {
            0x00 => (self.vdp_read_data() >> 8) as u8,
            0x01 => self.vdp_read_data() as u8,
            0x04 => {
                ((self.read_status_68k() >> 8) as u8 & 3)
                    | ((self.status_fill_word() >> 8) as u8 & 0xFC)
            }
            0x05 => self.read_status_68k() as u8,
            0x08 | 0x0C => (self.vdp.hv_counter(self.access_time()) >> 8) as u8,
            0x09 | 0x0D => self.vdp.hv_counter(self.access_time()) as u8,
            _ => self.open_bus_byte(addr),
        }
    }

    pub(super) fn vdp_write_word(&mut self, addr: u32, value: u16) {
        match addr & 0x1C {
            0x00 => {
                let at = self.access_time();
                // Genesis Plus GX 1.7 charges 2 master clocks for a write with an invalid
                // code (see `Timing::gpgx17_invalid_write_delay`); BlastEm's gen_test_hv
                // writes eight such longwords to sync after its register write, and its
                // HV samples move by one H unit without the charge.
                let invalid_delay =
                    if self.timing.gpgx17_invalid_write_delay && self.vdp.write_code_invalid() {
                        2
                    } else {
                        0
                    };
                let (resume, effect) =
                    self.vdp
                        .write_data(value, at, self.timing.fifo_resume_on_cpu_clock);
                // A full FIFO holds the write's bus cycle until `resume`; the instruction's
                // clocks after that cycle follow it.
                self.now = self.now.max(resume - (at - self.now)) + invalid_delay;
                if effect == PortEffect::StartDma {
                    self.dma_start(true);
                }
            }
            0x04 => {
                let (old0, old1) = (self.vdp.regs[0], self.vdp.regs[1]);
                let effect = self.vdp.write_control(value, self.now);
                if value & 0xC000 == 0x8000 {
                    // MOVE.L (opcode $2xxx) writes its first word before its last bus cycle.
                    let move_long = self.word_at_pc(self.instruction_pc()) & 0xF000 == 0x2000;
                    self.vdp.release_held_irq();
                    self.vdp.note_enable_write(old0, old1, move_long);
                }
                if effect == PortEffect::StartDma {
                    self.dma_start(false);
                }
            }
            0x10 | 0x14 => self.psg.write_at(value as u8, self.now),
            _ => {}
        }
    }

    pub(super) fn vdp_write_byte(&mut self, addr: u32, value: u8) {
        match addr & 0x1F {
            0x00..=0x07 => self.vdp_write_word(addr, u16::from_be_bytes([value, value])),
            0x11 | 0x13 | 0x15 | 0x17 => self.psg.write_at(value, self.now),
            _ => {}
        }
    }
}
