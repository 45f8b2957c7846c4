//! DDCB/FDCB: bit operations on (IX+d)/(IY+d); non-BIT forms also copy the result into the
//! register named by the low three bits (undocumented), unless that code is 6.

use crate::Bus;
use crate::cpu::Z80;
use crate::index::HL;

impl Z80 {
    /// Layout is DD CB d op: the displacement and the opcode are plain memory reads (no M1, no
    /// R increment); the address addition overlaps the opcode read, leaving 2 internal T-states.
    pub(crate) fn exec_index_cb<const IDX: u8, B: Bus>(&mut self, bus: &mut B) {
        let d = self.imm8(bus) as i8;
        let addr = self.idx::<IDX>().wrapping_add(d as u16);
        self.regs.wz = addr;
        let op = self.imm8(bus);
        self.idle(2);
        let v = self.read(bus, addr);
        self.idle(1);
        let n = (op >> 3) & 7;
        let r = match op >> 6 {
            0 => self.rot_shift(op, v),
            1 => {
                // X/Y from the high byte of the computed address (which is also WZ).
                self.bit(n, v, (addr >> 8) as u8);
                return;
            }
            2 => v & !(1 << n),
            _ => v | (1 << n),
        };
        self.write(bus, addr, r);
        if op & 7 != 6 {
            self.set_reg8::<HL>(op, r);
        }
    }
}
