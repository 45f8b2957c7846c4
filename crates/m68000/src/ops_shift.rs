//! ASL/ASR, LSL/LSR, ROXL/ROXR, ROL/ROR on registers and on memory words.

use crate::Bus;
use crate::cpu::{C, Cpu, N, Result, V, X, Z};
use crate::ea::{mask, msb};

impl Cpu {
    /// Shifts `v` (`size` bytes) `count` times; `kind` 0 AS, 1 LS, 2 ROX, 3 RO. Sets flags.
    /// In closed form: the bits that leave, the carry and the overflow of `count` single-bit
    /// steps (the last bit out is C; AS's V is whether the sign bit changed on any step).
    #[inline(always)]
    fn shift(&mut self, kind: u16, left: bool, size: u8, v: u32, count: u32) -> u32 {
        let bits = 8 * size as u32;
        let m = mask(size);
        let top = msb(size);
        let v = v & m;
        let x_in = self.sr & X != 0;
        // (result, C, X, V)
        let (res, c, x, overflow) = if count == 0 {
            // No shift: C is X for ROX, clear otherwise; X untouched.
            (v, kind == 2 && x_in, x_in, false)
        } else {
            match (kind, left) {
                (0 | 1, true) => {
                    let wide = (v as u64) << count;
                    let c = (wide >> bits) & 1 != 0;
                    // AS: the sign bit takes the top count+1 bits' values in turn.
                    let overflow = kind == 0
                        && if count >= bits {
                            v != 0
                        } else {
                            let high = (m as u64) & !((m as u64) >> (count + 1));
                            let w = v as u64 & high;
                            w != 0 && w != high
                        };
                    (wide as u32 & m, c, c, overflow)
                }
                (0, false) => {
                    let signed = ((v << (32 - bits)) as i32) >> (32 - bits);
                    let res = (signed >> count.min(31)) as u32 & m;
                    let c = (signed >> (count - 1).min(31)) & 1 != 0;
                    (res, c, c, false)
                }
                (1, false) => {
                    let res = ((v as u64) >> count) as u32;
                    let c = ((v as u64) >> (count - 1)) & 1 != 0;
                    (res, c, c, false)
                }
                (2, _) => {
                    // Through X: a rotation of the bits+1-bit value X:v.
                    let width = bits + 1;
                    let n = count % width;
                    let all = (1u64 << width) - 1;
                    let w = ((x_in as u64) << bits) | v as u64;
                    let r = if left {
                        ((w << n) | (w >> (width - n))) & all
                    } else {
                        ((w >> n) | (w << (width - n))) & all
                    };
                    let x = (r >> bits) & 1 != 0;
                    (r as u32 & m, x, x, false)
                }
                _ => {
                    let n = count % bits;
                    let w = v as u64;
                    let r = if left {
                        ((w << n) | (w >> (bits - n))) as u32 & m
                    } else {
                        ((w >> n) | (w << (bits - n))) as u32 & m
                    };
                    let c = if left { r & 1 != 0 } else { r & top != 0 };
                    (r, c, x_in, false)
                }
            }
        };
        let f = ((x as u16) * X)
            | ((c as u16) * C)
            | ((overflow as u16) * V)
            | (((res & top != 0) as u16) * N)
            | (((res == 0) as u16) * Z);
        self.set_ccr(f);
        res
    }

    /// A shift or rotate of Dn: one copy per size, operation `KIND` (as [`Cpu::shift`]) and
    /// direction, from the decode table, so only the count's source is decided here.
    #[inline(always)]
    pub(crate) fn shift_reg<const SIZE: u8, const KIND: u16, const LEFT: bool, B: Bus>(
        &mut self,
        bus: &mut B,
        op: u16,
    ) -> Result<()> {
        let size = SIZE;
        let r = (op & 7) as usize;
        let (v, count) = if op & 0x20 != 0 {
            let count = self.regs[((op >> 9) & 7) as usize] & 63;
            (self.shift(KIND, LEFT, size, self.regs[r], count), count)
        } else {
            // An immediate count is 1-8 (field 0 means 8): never the no-shift case, so this
            // copy of the shift drops that test.
            let count = (((op >> 9) as u32).wrapping_sub(1) & 7) + 1;
            (self.shift(KIND, LEFT, size, self.regs[r], count), count)
        };
        self.set_d(r, size, v);
        self.prefetch(bus)?;
        self.idle(if size == 4 { 4 } else { 2 } + 2 * count);
        Ok(())
    }

    pub(crate) fn shift_mem<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let loc = self.ea(bus, ((op >> 3) & 7) as usize, (op & 7) as usize, 2, true)?;
        let v = self.read_loc(bus, loc, 2)?;
        let r = self.shift((op >> 9) & 3, op & 0x100 != 0, 2, v, 1);
        self.prefetch(bus)?;
        self.write_loc(bus, loc, 2, r)
    }
}
