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
    ///
    /// The `(IX+d)`/`(IY+d)` forms most prefixed instructions are (Sonic 2's driver: `ADD
    /// A,(IY+d)` decoding each DAC nybble, its V-int's track work on `(IX+d)`) run here, in a
    /// function small enough to be cheap to enter; the rest in [`Z80::exec_prefixed_rest`],
    /// whose two copies of the whole decoder made every call save and restore the registers
    /// they use. Each form does what `exec_base::<IX|IY>` does for it, in the same order.
    #[inline(always)]
    pub(crate) fn exec_prefixed<B: Bus>(&mut self, bus: &mut B, prefix: u8, q: u8) {
        let op = self.fetch_opcode(bus);
        self.exec_prefixed_op(bus, prefix, op, q);
    }

    /// [`Z80::exec_prefixed`] once the opcode after the prefix is fetched.
    #[inline(never)]
    pub(crate) fn exec_prefixed_op<B: Bus>(&mut self, bus: &mut B, prefix: u8, op: u8, q: u8) {
        match op {
            // ALU A,(I+d), LD r,(I+d) (r the real H or L) and LD (I+d),r (0x76 is HALT):
            // one arm per opcode, so the register and the operation fold at compile time.
            0x86 => self.alu_indexed::<0x86, B>(bus, prefix),
            0x8E => self.alu_indexed::<0x8E, B>(bus, prefix),
            0x96 => self.alu_indexed::<0x96, B>(bus, prefix),
            0x9E => self.alu_indexed::<0x9E, B>(bus, prefix),
            0xA6 => self.alu_indexed::<0xA6, B>(bus, prefix),
            0xAE => self.alu_indexed::<0xAE, B>(bus, prefix),
            0xB6 => self.alu_indexed::<0xB6, B>(bus, prefix),
            0xBE => self.alu_indexed::<0xBE, B>(bus, prefix),
            0x46 => self.load_indexed::<0x46, B>(bus, prefix),
            0x4E => self.load_indexed::<0x4E, B>(bus, prefix),
            0x56 => self.load_indexed::<0x56, B>(bus, prefix),
            0x5E => self.load_indexed::<0x5E, B>(bus, prefix),
            0x66 => self.load_indexed::<0x66, B>(bus, prefix),
            0x6E => self.load_indexed::<0x6E, B>(bus, prefix),
            0x7E => self.load_indexed::<0x7E, B>(bus, prefix),
            0x70 => self.store_indexed::<0x70, B>(bus, prefix),
            0x71 => self.store_indexed::<0x71, B>(bus, prefix),
            0x72 => self.store_indexed::<0x72, B>(bus, prefix),
            0x73 => self.store_indexed::<0x73, B>(bus, prefix),
            0x74 => self.store_indexed::<0x74, B>(bus, prefix),
            0x75 => self.store_indexed::<0x75, B>(bus, prefix),
            0x77 => self.store_indexed::<0x77, B>(bus, prefix),
            // DDCB/FDCB: bit operations on (I+d).
            0xCB if prefix == 0xDD => self.exec_index_cb::<IX, B>(bus),
            0xCB => self.exec_index_cb::<IY, B>(bus),
            _ => self.exec_prefixed_rest(bus, prefix, op, q),
        }
    }

    /// ALU A,(I+d) of opcode `OP`.
    #[inline(always)]
    pub(crate) fn alu_indexed<const OP: u8, B: Bus>(&mut self, bus: &mut B, prefix: u8) {
        let addr = self.indexed_operand(bus, prefix);
        let v = self.read(bus, addr);
        self.alu_op(OP, v);
    }

    /// LD r,(I+d) of opcode `OP`.
    #[inline(always)]
    fn load_indexed<const OP: u8, B: Bus>(&mut self, bus: &mut B, prefix: u8) {
        let addr = self.indexed_operand(bus, prefix);
        let v = self.read(bus, addr);
        self.set_reg8::<HL>(OP >> 3, v);
    }

    /// LD (I+d),r of opcode `OP`.
    #[inline(always)]
    fn store_indexed<const OP: u8, B: Bus>(&mut self, bus: &mut B, prefix: u8) {
        let addr = self.indexed_operand(bus, prefix);
        self.write(bus, addr, self.reg8::<HL>(OP));
    }

    /// The address `(IX+d)` or `(IY+d)` for the prefix: the displacement byte, then 5
    /// internal T-states for the addition, which also loads WZ ([`Z80::mem_operand`]).
    #[inline(always)]
    fn indexed_operand<B: Bus>(&mut self, bus: &mut B, prefix: u8) -> u16 {
        let d = self.imm8(bus) as i8;
        self.idle(5);
        let base = if prefix == 0xDD {
            self.regs.ix
        } else {
            self.regs.iy
        };
        let addr = base.wrapping_add(d as u16);
        self.regs.wz = addr;
        addr
    }

    /// [`Z80::exec_prefixed`] for the other opcodes.
    #[inline(never)]
    fn exec_prefixed_rest<B: Bus>(&mut self, bus: &mut B, prefix: u8, op: u8, q: u8) {
        match (prefix, op) {
            (_, 0xDD | 0xFD) => self.pending_prefix = op,
            (0xDD, _) => {
                self.exec_base::<IX, B>(bus, op, q);
            }
            _ => {
                self.exec_base::<IY, B>(bus, op, q);
            }
        }
    }
}
