//! ADD/SUB/AND/OR/EOR/CMP in all their forms, ADDQ/SUBQ, NEG/NEGX/NOT/CLR, TST, Scc.

use crate::cpu::{Cpu, Result};
use crate::ea::{Loc, mask};
use crate::{Bus, Timing};

#[inline(always)]
pub(crate) fn size_field(op: u16) -> u8 {
    [1, 2, 4, 4][((op >> 6) & 3) as usize]
}

#[inline]
fn reg_or_imm(mode: usize, reg: usize) -> bool {
    mode < 2 || (mode == 7 && reg == 4)
}

impl Cpu {
    /// `kind`: 0 OR, 1 AND, 2 SUB, 3 ADD, 4 EOR. Always inline: the hot callers pass `kind`
    /// as a constant, so the match folds away.
    #[inline(always)]
    fn alu(&mut self, kind: u8, size: u8, src: u32, dst: u32) -> u32 {
        match kind {
            0 => {
                let r = (src | dst) & mask(size);
                self.logic_flags(size, r);
                r
            }
            1 => {
                let r = src & dst & mask(size);
                self.logic_flags(size, r);
                r
            }
            2 => self.sub_op(size, src, dst, 0, false),
            3 => self.add_op(size, src, dst, 0, false),
            _ => {
                let r = (src ^ dst) & mask(size);
                self.logic_flags(size, r);
                r
            }
        }
    }

    #[inline]
    fn line_kind(op: u16) -> u8 {
        match op >> 12 {
            0x8 => 0,
            0xC => 1,
            0x9 => 2,
            0xD => 3,
            _ => 4,
        }
    }

    /// OR/AND/SUB/ADD <ea>,Dn.
    /// One copy per size and operation `KIND` (as for [`Cpu::alu`]) and for a data-register
    /// source (`FROM_DN`, mode 0) or any other: the decode table tells them apart.
    #[inline(always)]
    pub(crate) fn arith_to_reg<const SIZE: u8, const KIND: u8, const FROM_DN: bool, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) -> Result<()> {
        let size = SIZE;
        let mode = if FROM_DN { 0 } else { ((op >> 3) & 7) as usize };
        let reg = (op & 7) as usize;
        let src = self.read_ea(bus, mode, reg, size)?;
        let dn = ((op >> 9) & 7) as usize;
        let r = self.alu(KIND, size, src, self.regs[dn]);
        self.set_d(dn, size, r);
        self.prefetch(bus)?;
        if size == 4 {
            self.idle(if reg_or_imm(mode, reg) { 4 } else { 2 });
        }
        Ok(())
    }

    /// OR/AND/SUB/ADD/EOR Dn,<ea> (EOR also to Dn).
    pub(crate) fn arith_to_ea<const SIZE: u8, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) -> Result<()> {
        let size = SIZE;
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let src = self.regs[((op >> 9) & 7) as usize];
        let kind = Self::line_kind(op);
        if mode == 0 {
            let r = self.alu(kind, size, src, self.regs[reg]);
            self.set_d(reg, size, r);
            self.prefetch(bus)?;
            if size == 4 {
                self.idle(4);
            }
            return Ok(());
        }
        let loc = self.ea(bus, mode, reg, size, true)?;
        let dst = self.read_loc(bus, loc, size)?;
        let r = self.alu(kind, size, src, dst);
        self.prefetch(bus)?;
        self.write_rmw(bus, loc, size, r)
    }

    pub(crate) fn cmp<const SIZE: u8, B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = SIZE;
        let src = self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, size)?;
        let dst = self.regs[((op >> 9) & 7) as usize];
        self.cmp_op(size, src, dst);
        self.prefetch(bus)?;
        if size == 4 {
            self.idle(2);
        }
        Ok(())
    }

    pub(crate) fn cmpa<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = if op & 0x100 != 0 { 4 } else { 2 };
        let src = self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, size)?;
        let src = if size == 2 {
            src as u16 as i16 as i32 as u32
        } else {
            src
        };
        let dst = self.regs[8 + ((op >> 9) & 7) as usize];
        self.cmp_op(4, src, dst);
        self.prefetch(bus)?;
        self.idle(2);
        Ok(())
    }

    pub(crate) fn adda_suba<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = if op & 0x100 != 0 { 4 } else { 2 };
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let src = self.read_ea(bus, mode, reg, size)?;
        let src = if size == 2 {
            src as u16 as i16 as i32 as u32
        } else {
            src
        };
        let an = 8 + ((op >> 9) & 7) as usize;
        self.regs[an] = if op >> 12 == 9 {
            self.regs[an].wrapping_sub(src)
        } else {
            self.regs[an].wrapping_add(src)
        };
        self.prefetch(bus)?;
        self.idle(if size == 2 || reg_or_imm(mode, reg) {
            4
        } else {
            2
        });
        Ok(())
    }

    pub(crate) fn addx_subx<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = size_field(op);
        let rx = ((op >> 9) & 7) as usize;
        let ry = (op & 7) as usize;
        let sub = op >> 12 == 9;
        if op & 8 == 0 {
            let x = self.x();
            let r = if sub {
                self.sub_op(size, self.regs[ry], self.regs[rx], x, true)
            } else {
                self.add_op(size, self.regs[ry], self.regs[rx], x, true)
            };
            self.set_d(rx, size, r);
            self.prefetch(bus)?;
            if size == 4 {
                self.idle(4);
            }
            return Ok(());
        }
        self.idle(2);
        let src = self.read_predec(bus, ry, size)?;
        let dst = self.read_predec(bus, rx, size)?;
        let addr = self.regs[8 + rx];
        let x = self.x();
        let r = if sub {
            self.sub_op(size, src, dst, x, true)
        } else {
            self.add_op(size, src, dst, x, true)
        };
        if size == 4 {
            // The low word goes out before the prefetch, the high word after it.
            let fc = self.data_fc();
            self.write_word(bus, addr.wrapping_add(2), r as u16, fc)?;
            self.prefetch(bus)?;
            return self.write_word(bus, addr, (r >> 16) as u16, fc);
        }
        self.prefetch(bus)?;
        self.write_data(bus, addr, size, r)
    }

    /// Predecrements An and reads: a long low word first (ADDX/SUBX/ABCD/SBCD memory forms).
    pub(crate) fn read_predec<B: Bus>(&mut self, bus: &mut B, r: usize, size: u8) -> Result<u32> {
        let a = self.regs[8 + r].wrapping_sub(Self::step_size(r, size));
        self.fault_pc_back = 0;
        if size == 4 && a & 1 != 0 {
            // The low word is read first: the fault is there, before An is written.
            let fc = self.data_fc();
            return Err(self.fault_at(crate::cpu::AddressError {
                addr: a.wrapping_add(2),
                write: false,
                fc,
                fetch: false,
            }));
        }
        self.regs[8 + r] = a;
        self.read_data_low_first(bus, a, size)
    }

    pub(crate) fn read_data_low_first<B: Bus>(
        &mut self,
        bus: &mut B,
        a: u32,
        size: u8,
    ) -> Result<u32> {
        let fc = self.data_fc();
        if size == 4 {
            if a & 1 != 0 {
                return self.read_data(bus, a, size, fc);
            }
            let lo = self.read_word(bus, a.wrapping_add(2), fc)? as u32;
            let hi = self.read_word(bus, a, fc)? as u32;
            Ok(hi << 16 | lo)
        } else {
            self.read_data(bus, a, size, fc)
        }
    }

    pub(crate) fn cmpm<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = size_field(op);
        let ry = (op & 7) as usize;
        let loc = self.ea(bus, 3, ry, size, true)?;
        self.fault_pc_back = 0;
        if let Loc::Mem(a) = loc
            && a & 1 != 0
            && size == 4
        {
            // A long's first operand faults with Ay one word on.
            self.regs[8 + ry] = a.wrapping_add(2);
        }
        let src = self.read_loc(bus, loc, size)?;
        let rx = ((op >> 9) & 7) as usize;
        let loc = self.ea(bus, 3, rx, size, true)?;
        if let Loc::Mem(a) = loc
            && a & 1 != 0
            && size != 1
        {
            // The second operand's fault leaves Ax alone and stacks PC past the queue.
            self.regs[8 + rx] = a;
            self.fault_pc_back = 0;
        }
        let dst = self.read_loc(bus, loc, size)?;
        self.cmp_op(size, src, dst);
        self.prefetch(bus)
    }

    /// ORI/ANDI/SUBI/ADDI/EORI #imm,<ea>, one copy per size and operation `KIND` (as for
    /// [`Cpu::alu`]) and for a data-register destination (`TO_DN`) or any other.
    #[inline(always)]
    pub(crate) fn arith_imm<const SIZE: u8, const KIND: u8, const TO_DN: bool, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) -> Result<()> {
        let size = SIZE;
        let kind = KIND;
        if TO_DN && size != 4 {
            // One immediate word and nothing else on the bus: the result first, then both
            // fetches at once, last (`past_ext_word`).
            let imm = self.irc as u32 & mask(size);
            let reg = (op & 7) as usize;
            let r = self.alu(kind, size, imm, self.regs[reg]);
            self.set_d(reg, size, r);
            self.past_ext_word(bus);
            return Ok(());
        }
        let imm = self.read_ea(bus, 7, 4, size)?;
        let mode = if TO_DN { 0 } else { ((op >> 3) & 7) as usize };
        let reg = (op & 7) as usize;
        if mode == 0 {
            let r = self.alu(kind, size, imm, self.regs[reg]);
            self.set_d(reg, size, r);
            self.prefetch(bus)?;
            if size == 4 {
                // ANDI.L #imm,Dn: 14 clocks in Genesis Plus GX 1.7's table (16 here).
                let andi_gpgx = kind == 1 && self.timing == Timing::Gpgx17;
                self.idle(if andi_gpgx { 2 } else { 4 });
            }
            return Ok(());
        }
        let loc = self.ea(bus, mode, reg, size, true)?;
        let dst = self.read_loc(bus, loc, size)?;
        let r = self.alu(kind, size, imm, dst);
        self.prefetch(bus)?;
        self.write_rmw(bus, loc, size, r)
    }

    /// CMPI, one copy per size and for a data-register destination (`TO_DN`) or any other.
    #[inline(always)]
    pub(crate) fn cmpi<const SIZE: u8, const TO_DN: bool, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) -> Result<()> {
        let size = SIZE;
        if TO_DN && size != 4 {
            // One immediate word and nothing else on the bus: the flags first, then both
            // fetches at once, last (`past_ext_word`).
            let imm = self.irc as u32 & mask(size);
            let dst = self.regs[(op & 7) as usize] & mask(size);
            self.cmp_op(size, imm, dst);
            self.past_ext_word(bus);
            return Ok(());
        }
        let imm = self.read_ea(bus, 7, 4, size)?;
        let mode = if TO_DN { 0 } else { ((op >> 3) & 7) as usize };
        let reg = (op & 7) as usize;
        let dst = self.read_ea(bus, mode, reg, size)?;
        self.cmp_op(size, imm, dst);
        self.prefetch(bus)?;
        if size == 4 && mode == 0 {
            self.idle(2);
        }
        Ok(())
    }

    /// One copy per size, for ADDQ and SUBQ, and per destination `TO` (0 Dn, 1 An, 2 memory):
    /// the decode table tells them apart, so the register forms are a few instructions.
    #[inline(always)]
    pub(crate) fn addq_subq<const SIZE: u8, const SUB: bool, const TO: u8, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) -> Result<()> {
        let size = SIZE;
        let q = match (op >> 9) & 7 {
            0 => 8,
            n => n as u32,
        };
        let sub = SUB;
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        match TO {
            1 => {
                // Address registers: always the whole register, no flags.
                let a = &mut self.regs[8 + reg];
                *a = if sub {
                    a.wrapping_sub(q)
                } else {
                    a.wrapping_add(q)
                };
                self.prefetch(bus)?;
                // ADDQ.W #q,An: 4 clocks in Genesis Plus GX 1.7's table (8 here). Sonic 2's
                // Saxman decompressor (Rev B $EC0E4) runs `addq.w #4,sp` once per call: with 8
                // its SEGA screen ends on frame 329 instead of Genesis Plus GX's 328.
                let gpgx_short = !sub && size == 2 && self.timing == Timing::Gpgx17;
                if !gpgx_short {
                    self.idle(4);
                }
                Ok(())
            }
            0 => {
                let d = self.regs[reg];
                let r = if sub {
                    self.sub_op(size, q, d, 0, false)
                } else {
                    self.add_op(size, q, d, 0, false)
                };
                self.set_d(reg, size, r);
                self.prefetch(bus)?;
                if size == 4 {
                    self.idle(4);
                }
                Ok(())
            }
            _ => {
                let loc = self.ea(bus, mode, reg, size, true)?;
                let d = self.read_loc(bus, loc, size)?;
                let r = if sub {
                    self.sub_op(size, q, d, 0, false)
                } else {
                    self.add_op(size, q, d, 0, false)
                };
                self.prefetch(bus)?;
                self.write_rmw(bus, loc, size, r)
            }
        }
    }

    /// NEGX, CLR, NEG, NOT.
    pub(crate) fn unary<const SIZE: u8, B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = SIZE;
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let loc = self.ea(bus, mode, reg, size, true)?;
        let v = self.read_loc(bus, loc, size)?;
        let r = match (op >> 9) & 3 {
            0 => {
                let x = self.x();
                self.sub_op(size, v, 0, x, true)
            }
            1 => {
                self.logic_flags(size, 0);
                0
            }
            2 => self.sub_op(size, v, 0, 0, false),
            _ => {
                let r = !v & mask(size);
                self.logic_flags(size, r);
                r
            }
        };
        self.prefetch(bus)?;
        if let Loc::D(_) = loc
            && size == 4
        {
            self.idle(2);
        }
        self.write_rmw(bus, loc, size, r)
    }

    #[inline(always)]
    pub(crate) fn tst<const SIZE: u8, B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = SIZE;
        let v = self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, size)?;
        self.logic_flags(size, v);
        self.prefetch(bus)
    }

    pub(crate) fn scc<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let t = self.cond(op >> 8);
        let v = if t { 0xFF } else { 0 };
        if mode == 0 {
            self.set_d(reg, 1, v);
            self.prefetch(bus)?;
            if t {
                self.idle(2);
            }
            return Ok(());
        }
        let loc = self.ea(bus, mode, reg, 1, true)?;
        self.read_loc(bus, loc, 1)?;
        self.prefetch(bus)?;
        self.write_loc(bus, loc, 1, v)
    }

    /// ABCD/SBCD Dy,Dx and -(Ay),-(Ax).
    pub(crate) fn bcd_op<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let rx = ((op >> 9) & 7) as usize;
        let ry = (op & 7) as usize;
        let add = op >> 12 == 0xC;
        if op & 8 == 0 {
            let (s, d) = (self.regs[ry] & 0xFF, self.regs[rx] & 0xFF);
            let r = if add {
                self.abcd(s, d)
            } else {
                self.sbcd(s, d)
            };
            self.set_d(rx, 1, r);
            self.prefetch(bus)?;
            self.idle(2);
            return Ok(());
        }
        self.idle(2);
        let s = self.read_predec(bus, ry, 1)?;
        let d = self.read_predec(bus, rx, 1)?;
        let r = if add {
            self.abcd(s, d)
        } else {
            self.sbcd(s, d)
        };
        self.prefetch(bus)?;
        let a = self.regs[8 + rx];
        let fc = self.data_fc();
        self.write_byte(bus, a, r as u8, fc);
        Ok(())
    }

    pub(crate) fn nbcd<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let loc = self.ea(bus, mode, reg, 1, true)?;
        let v = self.read_loc(bus, loc, 1)?;
        let r = self.sbcd(v, 0);
        self.prefetch(bus)?;
        if mode == 0 {
            self.idle(2);
        }
        self.write_loc(bus, loc, 1, r)
    }
}
