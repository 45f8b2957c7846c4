//! CB prefix: rotates/shifts, BIT, RES and SET on registers and (HL).

use crate::Bus;
use crate::cpu::Z80;
use crate::index::HL;

impl Z80 {
    /// Execute CB `op` (its M1 already done).
    pub(crate) fn exec_cb<B: Bus>(&mut self, bus: &mut B, op: u8) {
        let n = (op >> 3) & 7;
        if op & 7 == 6 {
            // (HL): read, one internal T-state for the operation, then write back unless BIT.
            let addr = self.regs.hl();
            let v = self.read(bus, addr);
            self.idle(1);
            let r = match op >> 6 {
                0 => self.rot_shift(op, v),
                1 => {
                    // X/Y leak from the high byte of MEMPTR.
                    self.bit(n, v, (self.regs.wz >> 8) as u8);
                    return;
                }
                2 => v & !(1 << n),
                _ => v | (1 << n),
            };
            self.write(bus, addr, r);
        } else {
            let v = self.reg8::<HL>(op);
            let r = match op >> 6 {
                0 => self.rot_shift(op, v),
                1 => {
                    self.bit(n, v, v);
                    return;
                }
                2 => v & !(1 << n),
                _ => v | (1 << n),
            };
            self.set_reg8::<HL>(op, r);
        }
    }
}
