//! Status register moves, CHK, TAS, multiplication and division.

use crate::Bus;
use crate::cpu::{C, Cpu, N, Result, SR_S, V, Z};
use crate::exceptions::{VEC_CHK, VEC_ZERO_DIVIDE};

impl Cpu {
    /// After SR or CCR changes the queue is refetched from the next instruction.
    fn refetch<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        let at = self.pc.wrapping_sub(2);
        self.fetch_irc_at(bus, at)?;
        self.prefetch(bus)
    }

    fn logic_imm(op: u16, imm: u16, value: u16) -> u16 {
        match (op >> 9) & 7 {
            0 => value | imm,
            1 => value & imm,
            _ => value ^ imm,
        }
    }

    pub(crate) fn logic_to_ccr<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let imm = self.ext_word(bus)?;
        let ccr = Self::logic_imm(op, imm, self.sr & 0xFF);
        self.set_ccr(ccr);
        self.idle(8);
        self.refetch(bus)
    }

    pub(crate) fn logic_to_sr<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        if self.sr & SR_S == 0 {
            return self.privilege(bus);
        }
        let imm = self.ext_word(bus)?;
        let sr = Self::logic_imm(op, imm, self.sr);
        self.set_sr(sr);
        self.tell_attention(bus);
        self.idle(8);
        self.refetch(bus)
    }

    pub(crate) fn move_to_ccr<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let v = self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, 2)?;
        self.set_ccr(v as u16);
        self.idle(4);
        self.refetch(bus)
    }

    pub(crate) fn move_to_sr<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        if self.sr & SR_S == 0 {
            return self.privilege(bus);
        }
        let v = self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, 2)?;
        self.set_sr(v as u16);
        self.tell_attention(bus);
        self.idle(4);
        self.refetch(bus)
    }

    pub(crate) fn move_from_sr<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let sr = self.sr as u32;
        if mode == 0 {
            self.set_d(reg, 2, sr);
            self.prefetch(bus)?;
            self.idle(2);
            return Ok(());
        }
        let loc = self.ea(bus, mode, reg, 2, true)?;
        self.read_loc(bus, loc, 2)?;
        self.prefetch(bus)?;
        self.write_loc(bus, loc, 2, sr)
    }

    pub(crate) fn move_usp<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        if self.sr & SR_S == 0 {
            return self.privilege(bus);
        }
        let r = 8 + (op & 7) as usize;
        if op & 8 != 0 {
            self.regs[r] = self.other_sp;
        } else {
            self.other_sp = self.regs[r];
        }
        self.prefetch(bus)
    }

    pub(crate) fn chk<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let bound =
            self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, 2)? as u16 as i16;
        let dn = self.regs[((op >> 9) & 7) as usize] as u16 as i16;
        // Z, V and C end up clear; N tells which bound was crossed.
        let f = self.sr & 0x10;
        if dn < 0 {
            self.set_ccr(f | N);
            // The microcode tests the sign of `bound - Dn` (overflow ignored) before the sign
            // of Dn: 2 clocks more when that difference is not negative.
            let later = (bound as u16).wrapping_sub(dn as u16) & 0x8000 == 0;
            self.idle(if later { 10 } else { 8 });
            let pc = self.pc.wrapping_sub(2);
            return self.exception(bus, VEC_CHK, pc);
        }
        if dn > bound {
            self.set_ccr(f);
            self.idle(8);
            let pc = self.pc.wrapping_sub(2);
            return self.exception(bus, VEC_CHK, pc);
        }
        self.set_ccr(f);
        self.idle(6);
        self.prefetch(bus)
    }

    pub(crate) fn tas<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        if mode == 0 {
            let v = self.regs[reg] & 0xFF;
            self.logic_flags(1, v);
            self.set_d(reg, 1, v | 0x80);
            return self.prefetch(bus);
        }
        let loc = self.ea(bus, mode, reg, 1, true)?;
        let crate::ea::Loc::Mem(addr) = loc else {
            return self.prefetch(bus);
        };
        let fc = self.data_fc();
        let v = self.read_byte(bus, addr, fc) as u32;
        self.logic_flags(1, v);
        self.idle(2);
        bus.tas_write(addr & 0xFF_FFFF, (v | 0x80) as u8, fc, self.cycles);
        self.cycles += 4 + bus.wait_states() as u64;
        self.prefetch(bus)?;
        // Genesis Plus GX 1.7's table charges TAS to memory 4 clocks more.
        if self.timing == crate::Timing::Gpgx17 {
            self.idle(4);
        }
        Ok(())
    }

    pub(crate) fn mulu<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let src = self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, 2)?;
        let r = ((op >> 9) & 7) as usize;
        let res = (self.regs[r] & 0xFFFF) * src;
        self.regs[r] = res;
        self.logic_flags(4, res);
        self.prefetch(bus)?;
        self.idle(34 + 2 * src.count_ones());
        Ok(())
    }

    pub(crate) fn muls<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let src = self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, 2)?;
        let r = ((op >> 9) & 7) as usize;
        let res = (self.regs[r] as i16 as i32).wrapping_mul(src as i16 as i32) as u32;
        self.regs[r] = res;
        self.logic_flags(4, res);
        self.prefetch(bus)?;
        // One 2-clock step per change between adjacent bits of the source with a 0 below it.
        let transitions = ((src << 1) ^ src) & 0xFFFF;
        self.idle(34 + 2 * transitions.count_ones());
        Ok(())
    }

    fn divide_by_zero<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        self.sr &= !(N | Z | V | C);
        self.idle(8);
        let pc = self.pc.wrapping_sub(2);
        self.exception(bus, VEC_ZERO_DIVIDE, pc)
    }

    pub(crate) fn divu<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let divisor = self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, 2)?;
        if divisor == 0 {
            return self.divide_by_zero(bus);
        }
        let r = ((op >> 9) & 7) as usize;
        let dividend = self.regs[r];
        let clocks = divu_clocks(dividend, divisor as u16);
        let x = self.sr & 0x10;
        if dividend >> 16 >= divisor {
            self.set_ccr(x | N | V);
        } else {
            let q = dividend / divisor;
            let rem = dividend % divisor;
            self.regs[r] = rem << 16 | q;
            let mut f = x;
            if q & 0x8000 != 0 {
                f |= N;
            }
            if q == 0 {
                f |= Z;
            }
            self.set_ccr(f);
        }
        self.idle(clocks - 4);
        self.prefetch(bus)
    }

    pub(crate) fn divs<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let divisor =
            self.read_ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, 2)? as u16 as i16;
        if divisor == 0 {
            return self.divide_by_zero(bus);
        }
        let r = ((op >> 9) & 7) as usize;
        let dividend = self.regs[r] as i32;
        let clocks = divs_clocks(dividend, divisor);
        let x = self.sr & 0x10;
        let q = dividend as i64 / divisor as i64;
        if q > i16::MAX as i64 || q < i16::MIN as i64 {
            self.set_ccr(x | N | V);
        } else {
            let rem = (dividend as i64 % divisor as i64) as i32;
            let q = q as i32;
            self.regs[r] = (rem as u32) << 16 | (q as u32 & 0xFFFF);
            let mut f = x;
            if q < 0 {
                f |= N;
            }
            if q == 0 {
                f |= Z;
            }
            self.set_ccr(f);
        }
        self.idle(clocks - 4);
        self.prefetch(bus)
    }
}

/// DIVU's clocks (with a register source), from the microcode's shift-and-subtract loop:
/// each of the 15 steps takes longer when the partial remainder's top bit is clear.
fn divu_clocks(dividend: u32, divisor: u16) -> u32 {
    let divisor = divisor as u32;
    if dividend >> 16 >= divisor {
        return 10;
    }
    let mut clocks = 38 * 2;
    let hdivisor = divisor << 16;
    let mut rem = dividend;
    for _ in 0..15 {
        let top = rem & 0x8000_0000 != 0;
        rem <<= 1;
        if top {
            rem = rem.wrapping_sub(hdivisor);
        } else {
            clocks += 4;
            if rem >= hdivisor {
                rem -= hdivisor;
                clocks -= 2;
            }
        }
    }
    clocks
}

/// DIVS's clocks (with a register source): a fixed part by signs, then 2 per quotient bit.
fn divs_clocks(dividend: i32, divisor: i16) -> u32 {
    let mut clocks = 6 * 2;
    if dividend < 0 {
        clocks += 2;
    }
    let adividend = dividend.unsigned_abs();
    let adivisor = (divisor as i32).unsigned_abs();
    if adividend >> 16 >= adivisor {
        return clocks + 4;
    }
    let mut aquot = adividend / adivisor;
    clocks += 55 * 2;
    if divisor >= 0 {
        if dividend >= 0 {
            clocks -= 2;
        } else {
            clocks += 2;
        }
    }
    for _ in 0..15 {
        if aquot & 0x8000 == 0 {
            clocks += 2;
        }
        aquot <<= 1;
    }
    clocks
}
