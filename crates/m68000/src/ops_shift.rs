//! ASL/ASR, LSL/LSR, ROXL/ROXR, ROL/ROR on registers and on memory words.

use crate::Bus;
use crate::cpu::{C, Cpu, N, Result, V, X, Z};
use crate::ea::{mask, msb};
use crate::ops_arith::size_field;

impl Cpu {
    /// Shifts `v` (`size` bytes) `count` times; `kind` 0 AS, 1 LS, 2 ROX, 3 RO. Sets flags.
    fn shift(&mut self, kind: u16, left: bool, size: u8, v: u32, count: u32) -> u32 {
        let m = mask(size);
        let top = msb(size);
        let mut v = v & m;
        let mut x = self.sr & X != 0;
        let mut c = false;
        let mut overflow = false;
        for _ in 0..count {
            if left {
                let out = v & top != 0;
                let inb = match kind {
                    2 => x,
                    3 => out,
                    _ => false,
                };
                let nv = ((v << 1) | inb as u32) & m;
                if kind == 0 && (nv & top != 0) != (v & top != 0) {
                    overflow = true;
                }
                v = nv;
                c = out;
            } else {
                let out = v & 1 != 0;
                let inb = match kind {
                    0 => v & top != 0,
                    1 => false,
                    2 => x,
                    _ => out,
                };
                v = (v >> 1) | if inb { top } else { 0 };
                c = out;
            }
            if kind != 3 {
                x = c;
            }
        }
        let mut f = 0;
        if count == 0 {
            // No shift: C is X for ROX, clear otherwise; X untouched.
            c = kind == 2 && x;
        }
        if kind != 3 {
            if x {
                f |= X;
            }
        } else {
            f |= self.sr & X;
        }
        if c {
            f |= C;
        }
        if overflow {
            f |= V;
        }
        if v & top != 0 {
            f |= N;
        }
        if v == 0 {
            f |= Z;
        }
        self.set_ccr(f);
        v
    }

    pub(crate) fn shift_reg<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        let size = size_field(op);
        let count = if op & 0x20 != 0 {
            self.regs[((op >> 9) & 7) as usize] & 63
        } else {
            match (op >> 9) & 7 {
                0 => 8,
                n => n as u32,
            }
        };
        let r = (op & 7) as usize;
        let v = self.shift((op >> 3) & 3, op & 0x100 != 0, size, self.regs[r], count);
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
