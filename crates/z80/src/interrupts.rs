//! Interrupt acceptance (NMI, IM 0/1/2) and the HALT idle cycle.
//!
//! IM 0 executes the byte the device places on the bus during the acknowledge. Only
//! single-byte opcodes are meaningful there: RST n (the Mega Drive's floating bus gives $FF =
//! RST 38h) is modelled exactly; any other byte is executed as if fetched, but operand bytes of
//! multi-byte instructions would come from memory at PC rather than from the device.

use crate::Bus;
use crate::cpu::Z80;
use crate::registers::*;

impl Z80 {
    /// Common entry bookkeeping: leave HALT, clear Q (the EI and LD A,I/R marks lapse as the
    /// T-state count moves on).
    #[inline(always)]
    fn enter_interrupt(&mut self) {
        self.halted = false;
        self.regs.q = 0;
        self.regs.inc_r();
    }

    /// NMI: an M1 whose opcode is discarded (5 T-states), then PC pushed and PC = $0066.
    /// IFF1 is cleared; IFF2 keeps the old state so RETN can restore it. 11 T-states.
    pub(crate) fn accept_nmi<B: Bus>(&mut self, bus: &mut B) {
        self.nmi_pending = false;
        self.enter_interrupt();
        let _ = bus.read(self.regs.pc, self.t_states + 1);
        self.idle(5);
        self.regs.iff1 = false;
        self.push(bus, self.regs.pc);
        self.regs.pc = 0x0066;
        self.regs.wz = 0x0066;
    }

    /// Maskable interrupt. The acknowledge is an M1 stretched by two wait states (6 T-states)
    /// during which the device supplies a byte. IM 1: 13 T-states, IM 2: 19, IM 0 + RST: 13.
    pub(crate) fn accept_irq<B: Bus>(&mut self, bus: &mut B) {
        // LD A,I / LD A,R interrupted: the chip samples IFF2 after the acknowledge reset it.
        if self.after_ld_a_ir() {
            self.regs.f &= !PF;
        }
        self.enter_interrupt();
        self.regs.iff1 = false;
        self.regs.iff2 = false;
        // The acknowledge cycle happens in every mode (IM 1 ignores the byte), so the bus
        // always learns that the interrupt was taken and when.
        let data = bus.int_ack(self.t_states + 3);
        self.idle(6);
        match self.regs.im {
            0 => {
                if data & 0xC7 == 0xC7 {
                    self.idle(1);
                    self.push(bus, self.regs.pc);
                    self.regs.pc = (data & 0x38) as u16;
                    self.regs.wz = self.regs.pc;
                } else {
                    let q = std::mem::take(&mut self.regs.q);
                    self.exec_base::<0, B>(bus, data, q);
                }
            }
            1 => {
                self.idle(1);
                self.push(bus, self.regs.pc);
                self.regs.pc = 0x0038;
                self.regs.wz = 0x0038;
            }
            _ => {
                // The full byte forms the table index (no masking of bit 0 on the NMOS part).
                self.idle(1);
                self.push(bus, self.regs.pc);
                let table = u16::from_be_bytes([self.regs.i, data]);
                self.regs.pc = self.read16(bus, table);
                self.regs.wz = self.regs.pc;
            }
        }
    }

    /// One HALT cycle: the CPU keeps fetching (and discarding) the byte at PC, refreshing memory.
    pub(crate) fn halt_cycle<B: Bus>(&mut self, bus: &mut B) {
        let _ = bus.read(self.regs.pc, self.t_states + 1);
        self.regs.inc_r();
        self.regs.q = 0;
        self.idle(4);
    }
}

#[cfg(test)]
mod tests;
