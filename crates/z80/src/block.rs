//! Block transfer, search and I/O instructions (LDI..OTDR), including the undocumented flags
//! and the extra flag changes made while a repeating form loops (PC-2 case).

use crate::Bus;
use crate::alu::{parity, szxy};
use crate::cpu::Z80;
use crate::registers::*;

impl Z80 {
    /// A repeating instruction loops: PC back onto the ED prefix, WZ = PC+1, 5 internal
    /// T-states, and X/Y taken from the high byte of PC (the address adder's last output).
    #[inline(always)]
    fn block_repeat(&mut self) -> u8 {
        self.idle(5);
        self.regs.pc = self.regs.pc.wrapping_sub(2);
        self.regs.wz = self.regs.pc.wrapping_add(1);
        (self.regs.pc >> 8) as u8 & XYF
    }

    /// `op` is one of ED A0-A3, A8-AB, B0-B3, B8-BB: bit 3 = decrement, bit 4 = repeat.
    pub(crate) fn exec_block<B: Bus>(&mut self, bus: &mut B, op: u8) {
        let dec = op & 0x08 != 0;
        let repeat = op & 0x10 != 0;
        let step: u16 = if dec { 0xFFFF } else { 1 };
        match op & 3 {
            0 => self.ldx(bus, step, repeat),
            1 => self.cpx(bus, step, repeat),
            2 => self.inx(bus, step, repeat),
            _ => self.outx(bus, step, repeat),
        }
    }

    /// LDI/LDD/LDIR/LDDR. X/Y come from bits 3 and 1 of (transferred byte + A).
    fn ldx<B: Bus>(&mut self, bus: &mut B, step: u16, repeat: bool) {
        let hl = self.regs.hl();
        let de = self.regs.de();
        let v = self.read(bus, hl);
        self.write(bus, de, v);
        self.idle(2);
        self.regs.set_hl(hl.wrapping_add(step));
        self.regs.set_de(de.wrapping_add(step));
        let bc = self.regs.bc().wrapping_sub(1);
        self.regs.set_bc(bc);
        let n = v.wrapping_add(self.regs.a);
        let mut f = (self.regs.f & (SF | ZF | CF)) | (n & XF) | ((n << 4) & YF);
        if bc != 0 {
            f |= PF;
            if repeat {
                f = (f & !XYF) | self.block_repeat();
            }
        }
        self.set_f(f);
    }

    /// CPI/CPD/CPIR/CPDR. X/Y come from bits 3 and 1 of (A - byte - H).
    fn cpx<B: Bus>(&mut self, bus: &mut B, step: u16, repeat: bool) {
        let hl = self.regs.hl();
        let v = self.read(bus, hl);
        self.idle(5);
        self.regs.set_hl(hl.wrapping_add(step));
        self.regs.wz = self.regs.wz.wrapping_add(step);
        let bc = self.regs.bc().wrapping_sub(1);
        self.regs.set_bc(bc);
        let a = self.regs.a;
        let r = a.wrapping_sub(v);
        let h = (a ^ v ^ r) & HF;
        let n = r.wrapping_sub(h >> 4);
        let mut f =
            (self.regs.f & CF) | NF | h | (szxy(r) & (SF | ZF)) | (n & XF) | ((n << 4) & YF);
        if bc != 0 {
            f |= PF;
            if repeat && r != 0 {
                f = (f & !XYF) | self.block_repeat();
            }
        }
        self.set_f(f);
    }

    /// Flags shared by the I/O block instructions: `k` is the byte plus the companion 8-bit
    /// value (C±1 for input, L after the HL update for output).
    fn io_block_flags(&mut self, v: u8, k: u16, repeat: bool) {
        let b = self.regs.b;
        let mut f = szxy(b) | ((v >> 6) & NF) | parity((k as u8 & 7) ^ b);
        let carry = k > 0xFF;
        if carry {
            f |= HF | CF;
        }
        if repeat && b != 0 {
            f = (f & !XYF) | self.block_repeat();
            // While looping the chip runs B through the incrementer/decrementer once more,
            // which changes P/V and (on carry) H.
            let pb = if carry {
                f &= !HF;
                if v & 0x80 != 0 {
                    if b & 0x0F == 0 {
                        f |= HF;
                    }
                    b.wrapping_sub(1)
                } else {
                    if b & 0x0F == 0x0F {
                        f |= HF;
                    }
                    b.wrapping_add(1)
                }
            } else {
                b
            };
            if (pb & 7).count_ones() & 1 == 1 {
                f ^= PF;
            }
        }
        self.set_f(f);
    }

    /// INI/IND/INIR/INDR: port (BC) to (HL); B is decremented after the port access.
    fn inx<B: Bus>(&mut self, bus: &mut B, step: u16, repeat: bool) {
        self.idle(1);
        let bc = self.regs.bc();
        let v = self.port_in(bus, bc);
        let hl = self.regs.hl();
        self.write(bus, hl, v);
        self.regs.wz = bc.wrapping_add(step);
        self.regs.b = self.regs.b.wrapping_sub(1);
        self.regs.set_hl(hl.wrapping_add(step));
        let k = v as u16 + (self.regs.c.wrapping_add(step as u8)) as u16;
        self.io_block_flags(v, k, repeat);
    }

    /// OUTI/OUTD/OTIR/OTDR: (HL) to port (BC) with B already decremented.
    fn outx<B: Bus>(&mut self, bus: &mut B, step: u16, repeat: bool) {
        self.idle(1);
        let hl = self.regs.hl();
        let v = self.read(bus, hl);
        self.regs.b = self.regs.b.wrapping_sub(1);
        let bc = self.regs.bc();
        self.port_out(bus, bc, v);
        self.regs.wz = bc.wrapping_add(step);
        self.regs.set_hl(hl.wrapping_add(step));
        let k = v as u16 + self.regs.l as u16;
        self.io_block_flags(v, k, repeat);
    }
}
