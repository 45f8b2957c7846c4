//! DD/FD prefixes: IX/IY substitution for HL, H and L, and (IX+d)/(IY+d) addressing.
//!
//! The unprefixed decoder is monomorphised over `IDX` (0 = HL, 1 = IX, 2 = IY), so a prefix
//! simply re-enters it with a different register selected; opcodes that do not touch HL
//! behave as their unprefixed form and only pay the prefix's 4 T-states and R increment.

use crate::Bus;
use crate::cpu::Z80;

pub(crate) const HL: u8 = 0;
pub(crate) const IX: u8 = 1;
pub(crate) const IY: u8 = 2;

impl Z80 {
    /// HL, IX or IY.
    #[inline(always)]
    pub(crate) fn idx<const IDX: u8>(&self) -> u16 {
        match IDX {
            HL => self.regs.hl(),
            IX => self.regs.ix,
            _ => self.regs.iy,
        }
    }

    #[inline(always)]
    pub(crate) fn set_idx<const IDX: u8>(&mut self, v: u16) {
        match IDX {
            HL => self.regs.set_hl(v),
            IX => self.regs.ix = v,
            _ => self.regs.iy = v,
        }
    }

    /// 8-bit register by its 3-bit code (B C D E H L - A); with a prefix, H/L mean the index
    /// register halves. Code 6 ((HL)) never reaches here.
    #[inline(always)]
    pub(crate) fn reg8<const IDX: u8>(&self, code: u8) -> u8 {
        match code & 7 {
            0 => self.regs.b,
            1 => self.regs.c,
            2 => self.regs.d,
            3 => self.regs.e,
            4 => (self.idx::<IDX>() >> 8) as u8,
            5 => self.idx::<IDX>() as u8,
            _ => self.regs.a,
        }
    }

    #[inline(always)]
    pub(crate) fn set_reg8<const IDX: u8>(&mut self, code: u8, v: u8) {
        match code & 7 {
            0 => self.regs.b = v,
            1 => self.regs.c = v,
            2 => self.regs.d = v,
            3 => self.regs.e = v,
            4 => {
                let x = self.idx::<IDX>();
                self.set_idx::<IDX>((x & 0x00FF) | ((v as u16) << 8));
            }
            5 => {
                let x = self.idx::<IDX>();
                self.set_idx::<IDX>((x & 0xFF00) | v as u16);
            }
            _ => self.regs.a = v,
        }
    }

    /// Register pair by 2-bit code for LD/INC/DEC/ADD: BC DE HL SP.
    #[inline(always)]
    pub(crate) fn rp<const IDX: u8>(&self, code: u8) -> u16 {
        match code & 3 {
            0 => self.regs.bc(),
            1 => self.regs.de(),
            2 => self.idx::<IDX>(),
            _ => self.regs.sp,
        }
    }

    #[inline(always)]
    pub(crate) fn set_rp<const IDX: u8>(&mut self, code: u8, v: u16) {
        match code & 3 {
            0 => self.regs.set_bc(v),
            1 => self.regs.set_de(v),
            2 => self.set_idx::<IDX>(v),
            _ => self.regs.sp = v,
        }
    }

    /// Address of the memory operand written `(HL)`: HL itself, or IX/IY plus a displacement
    /// byte followed by 5 internal T-states spent on the addition (which also loads WZ).
    #[inline(always)]
    pub(crate) fn mem_operand<const IDX: u8, B: Bus>(&mut self, bus: &mut B) -> u16 {
        if IDX == HL {
            self.regs.hl()
        } else {
            let d = self.imm8(bus) as i8;
            self.idle(5);
            let addr = self.idx::<IDX>().wrapping_add(d as u16);
            self.regs.wz = addr;
            addr
        }
    }

    /// After a DD/FD prefix byte: fetch the next opcode (another M1) and run it with the index
    /// register selected. A further DD/FD ends this instruction (the first prefix acted as a
    /// NOP) and is remembered in `pending_prefix`, so long prefix chains cannot stall `step`.
    pub(crate) fn exec_prefixed<B: Bus>(&mut self, bus: &mut B, prefix: u8, q: u8) {
        let op = self.fetch_opcode(bus);
        match (prefix, op) {
            (_, 0xDD | 0xFD) => self.pending_prefix = op,
            (0xDD, _) => self.exec_base::<IX, B>(bus, op, q),
            _ => self.exec_base::<IY, B>(bus, op, q),
        }
    }
}
