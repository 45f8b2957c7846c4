//! Arithmetic and logic: results plus the full flag byte, including the undocumented X/Y bits.

use crate::cpu::Z80;
use crate::registers::*;

/// S, Z, X and Y for an 8-bit result (X/Y are bits 3/5 of the result on almost every ALU op).
#[inline(always)]
pub(crate) fn szxy(v: u8) -> u8 {
    (v & (SF | XYF)) | if v == 0 { ZF } else { 0 }
}

/// P/V as even parity.
#[inline(always)]
pub(crate) fn parity(v: u8) -> u8 {
    if v.count_ones() & 1 == 0 { PF } else { 0 }
}

/// S, Z, X, Y and parity: the flags of logic ops and shifts.
#[inline(always)]
pub(crate) fn szxyp(v: u8) -> u8 {
    szxy(v) | parity(v)
}

impl Z80 {
    /// ADD/ADC A,v.
    #[inline(always)]
    pub(crate) fn add8(&mut self, v: u8, carry_in: bool) {
        let a = self.regs.a;
        let wide = a as u16 + v as u16 + carry_in as u16;
        let r = wide as u8;
        let mut f = szxy(r) | ((a ^ v ^ r) & HF);
        // Overflow: operands had the same sign and the result's sign differs.
        f |= ((!(a ^ v) & (a ^ r)) >> 5) & PF;
        f |= (wide >> 8) as u8 & CF;
        self.regs.a = r;
        self.set_f(f);
    }

    /// SUB/SBC/CP core: returns the difference and its flags (X/Y from the difference).
    #[inline(always)]
    fn sub8_flags(&self, v: u8, carry_in: bool) -> (u8, u8) {
        let a = self.regs.a;
        let wide = (a as u16)
            .wrapping_sub(v as u16)
            .wrapping_sub(carry_in as u16);
        let r = wide as u8;
        let mut f = szxy(r) | NF | ((a ^ v ^ r) & HF);
        // Overflow: operands had different signs and the result's sign differs from A.
        f |= (((a ^ v) & (a ^ r)) >> 5) & PF;
        f |= ((wide >> 8) as u8) & CF;
        (r, f)
    }

    #[inline(always)]
    pub(crate) fn sub8(&mut self, v: u8, carry_in: bool) {
        let (r, f) = self.sub8_flags(v, carry_in);
        self.regs.a = r;
        self.set_f(f);
    }

    /// CP: flags of A-v, but X/Y come from the operand, not the result.
    #[inline(always)]
    pub(crate) fn cp8(&mut self, v: u8) {
        let (_, f) = self.sub8_flags(v, false);
        self.set_f((f & !XYF) | (v & XYF));
    }

    #[inline(always)]
    pub(crate) fn and8(&mut self, v: u8) {
        self.regs.a &= v;
        let f = szxyp(self.regs.a) | HF;
        self.set_f(f);
    }

    #[inline(always)]
    pub(crate) fn xor8(&mut self, v: u8) {
        self.regs.a ^= v;
        let f = szxyp(self.regs.a);
        self.set_f(f);
    }

    #[inline(always)]
    pub(crate) fn or8(&mut self, v: u8) {
        self.regs.a |= v;
        let f = szxyp(self.regs.a);
        self.set_f(f);
    }

    /// The eight accumulator operations selected by bits 5..3 of ALU opcodes.
    #[inline(always)]
    pub(crate) fn alu_op(&mut self, op: u8, v: u8) {
        let c = self.regs.f & CF != 0;
        match (op >> 3) & 7 {
            0 => self.add8(v, false),
            1 => self.add8(v, c),
            2 => self.sub8(v, false),
            3 => self.sub8(v, c),
            4 => self.and8(v),
            5 => self.xor8(v),
            6 => self.or8(v),
            _ => self.cp8(v),
        }
    }

    /// INC r: carry untouched.
    #[inline(always)]
    pub(crate) fn inc8(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        let mut f = (self.regs.f & CF) | szxy(r);
        if v & 0x0F == 0x0F {
            f |= HF;
        }
        if v == 0x7F {
            f |= PF;
        }
        self.set_f(f);
        r
    }

    /// DEC r: carry untouched.
    #[inline(always)]
    pub(crate) fn dec8(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        let mut f = (self.regs.f & CF) | szxy(r) | NF;
        if v & 0x0F == 0 {
            f |= HF;
        }
        if v == 0x80 {
            f |= PF;
        }
        self.set_f(f);
        r
    }

    /// ADD HL/IX/IY,rr: only H, N, C and X/Y (from the high byte) change.
    #[inline(always)]
    pub(crate) fn add16(&mut self, a: u16, b: u16) -> u16 {
        let wide = a as u32 + b as u32;
        let r = wide as u16;
        let hi = (r >> 8) as u8;
        let f = (self.regs.f & (SF | ZF | PF))
            | (hi & XYF)
            | ((((a ^ b ^ r) >> 8) as u8) & HF)
            | ((wide >> 16) as u8 & CF);
        self.set_f(f);
        self.regs.wz = a.wrapping_add(1);
        r
    }

    /// ADC HL,rr.
    #[inline(always)]
    pub(crate) fn adc16(&mut self, b: u16) {
        let a = self.regs.hl();
        let c = (self.regs.f & CF) as u32;
        let wide = a as u32 + b as u32 + c;
        let r = wide as u16;
        let hi = (r >> 8) as u8;
        let mut f = (hi & (SF | XYF)) | ((((a ^ b ^ r) >> 8) as u8) & HF);
        if r == 0 {
            f |= ZF;
        }
        f |= ((((!(a ^ b) & (a ^ r)) >> 13) as u8) & PF) | ((wide >> 16) as u8 & CF);
        self.set_f(f);
        self.regs.wz = a.wrapping_add(1);
        self.regs.set_hl(r);
    }

    /// SBC HL,rr.
    #[inline(always)]
    pub(crate) fn sbc16(&mut self, b: u16) {
        let a = self.regs.hl();
        let c = (self.regs.f & CF) as u32;
        let wide = (a as u32).wrapping_sub(b as u32).wrapping_sub(c);
        let r = wide as u16;
        let hi = (r >> 8) as u8;
        let mut f = (hi & (SF | XYF)) | NF | ((((a ^ b ^ r) >> 8) as u8) & HF);
        if r == 0 {
            f |= ZF;
        }
        f |= ((((a ^ b) & (a ^ r)) >> 13) as u8 & PF) | ((wide >> 16) as u8 & CF);
        self.set_f(f);
        self.regs.wz = a.wrapping_add(1);
        self.regs.set_hl(r);
    }

    /// CB-group rotates and shifts (including the undocumented SLL), selected by bits 5..3.
    #[inline(always)]
    pub(crate) fn rot_shift(&mut self, op: u8, v: u8) -> u8 {
        let cin = self.regs.f & CF;
        let (r, c) = match (op >> 3) & 7 {
            0 => (v.rotate_left(1), v >> 7),
            1 => (v.rotate_right(1), v & 1),
            2 => ((v << 1) | cin, v >> 7),
            3 => ((v >> 1) | (cin << 7), v & 1),
            4 => (v << 1, v >> 7),
            5 => ((v >> 1) | (v & 0x80), v & 1),
            6 => ((v << 1) | 1, v >> 7),
            _ => (v >> 1, v & 1),
        };
        self.set_f(szxyp(r) | c);
        r
    }

    /// BIT n: Z and P/V both say "bit clear", S only for bit 7; X/Y come from `xy_src`,
    /// which depends on the addressing mode (operand, WZ high byte, or indexed address high byte).
    #[inline(always)]
    pub(crate) fn bit(&mut self, n: u8, v: u8, xy_src: u8) {
        let m = v & (1 << n);
        let mut f = (self.regs.f & CF) | HF | (xy_src & XYF) | (m & SF);
        if m == 0 {
            f |= ZF | PF;
        }
        self.set_f(f);
    }

    /// RLCA/RRCA/RLA/RRA: S, Z, P/V preserved; X/Y from the new A.
    #[inline(always)]
    pub(crate) fn rot_a(&mut self, op: u8) {
        let a = self.regs.a;
        let cin = self.regs.f & CF;
        let (r, c) = match (op >> 3) & 3 {
            0 => (a.rotate_left(1), a >> 7),
            1 => (a.rotate_right(1), a & 1),
            2 => ((a << 1) | cin, a >> 7),
            _ => ((a >> 1) | (cin << 7), a & 1),
        };
        self.regs.a = r;
        let f = (self.regs.f & (SF | ZF | PF)) | (r & XYF) | c;
        self.set_f(f);
    }

    pub(crate) fn daa(&mut self) {
        let a = self.regs.a;
        let f = self.regs.f;
        let mut adjust = 0u8;
        let mut carry = f & CF;
        if f & HF != 0 || a & 0x0F > 9 {
            adjust |= 0x06;
        }
        if carry != 0 || a > 0x99 {
            adjust |= 0x60;
            carry = CF;
        }
        let (r, h) = if f & NF != 0 {
            (a.wrapping_sub(adjust), f & HF != 0 && a & 0x0F < 6)
        } else {
            (a.wrapping_add(adjust), a & 0x0F > 9)
        };
        self.regs.a = r;
        self.set_f(szxyp(r) | (f & NF) | carry | if h { HF } else { 0 });
    }

    pub(crate) fn cpl(&mut self) {
        self.regs.a = !self.regs.a;
        let f = (self.regs.f & (SF | ZF | PF | CF)) | HF | NF | (self.regs.a & XYF);
        self.set_f(f);
    }

    /// SCF/CCF X/Y: `(Q ^ F) | A` — if the previous instruction wrote F, only A contributes.
    #[inline(always)]
    fn scf_ccf_xy(&self, q: u8) -> u8 {
        ((q ^ self.regs.f) | self.regs.a) & XYF
    }

    /// `q`: the Q latch as the instruction started.
    pub(crate) fn scf(&mut self, q: u8) {
        let f = (self.regs.f & (SF | ZF | PF)) | self.scf_ccf_xy(q) | CF;
        self.set_f(f);
    }

    pub(crate) fn ccf(&mut self, q: u8) {
        let old = self.regs.f;
        let f = (old & (SF | ZF | PF)) | self.scf_ccf_xy(q) | ((old & CF) << 4) | ((old & CF) ^ CF);
        self.set_f(f);
    }
}
