//! Arithmetic and logic with the 68000's condition codes.

use crate::cpu::{C, Cpu, N, V, X, Z};
use crate::ea::{mask, msb};

/// For each condition (0-15), bit `NZVC` (the low four bits of the CCR) says whether it holds.
const CONDITIONS: [u16; 16] = conditions();

const fn conditions() -> [u16; 16] {
    let mut table = [0u16; 16];
    let mut cc = 0;
    while cc < 16 {
        let mut nzvc = 0;
        while nzvc < 16 {
            let c = nzvc & 1 != 0;
            let v = nzvc & 2 != 0;
            let z = nzvc & 4 != 0;
            let n = nzvc & 8 != 0;
            let holds = match cc {
                0 => true,
                1 => false,
                2 => !c && !z,
                3 => c || z,
                4 => !c,
                5 => c,
                6 => !z,
                7 => z,
                8 => !v,
                9 => v,
                10 => !n,
                11 => n,
                12 => n == v,
                13 => n != v,
                14 => n == v && !z,
                _ => z || n != v,
            };
            if holds {
                table[cc] |= 1 << nzvc;
            }
            nzvc += 1;
        }
        cc += 1;
    }
    table
}

impl Cpu {
    #[inline]
    pub(crate) fn set_ccr(&mut self, ccr: u16) {
        self.sr = (self.sr & 0xFF00) | (ccr & 0x1F);
    }

    #[inline]
    pub(crate) fn x(&self) -> u32 {
        ((self.sr & X) != 0) as u32
    }

    /// N and Z from `res`, V and C clear, X kept (MOVE, logic, TST, CLR...).
    #[inline]
    pub(crate) fn logic_flags(&mut self, size: u8, res: u32) {
        // Without branches: N is the masked result's top bit moved into place. The system
        // byte and X stay, V C and the unused bits 5-7 clear, as `set_ccr` does.
        let res = res & mask(size);
        let n = (res >> (8 * size as u32 - 1)) as u16 * N;
        let z = (res == 0) as u16 * Z;
        self.sr = (self.sr & (0xFF00 | X)) | n | z;
    }

    /// `dst + src + x`, setting X N Z V C (ADDX keeps Z when the result is zero).
    #[inline]
    pub(crate) fn add_op(&mut self, size: u8, src: u32, dst: u32, x: u32, keep_z: bool) -> u32 {
        let m = mask(size) as u64;
        let wide = (src as u64 & m) + (dst as u64 & m) + x as u64;
        let res = (wide & m) as u32;
        let mut f = 0;
        if wide > m {
            f |= C | X;
        }
        if (src ^ res) & (dst ^ res) & msb(size) != 0 {
            f |= V;
        }
        if res & msb(size) != 0 {
            f |= N;
        }
        if res == 0 && (!keep_z || self.sr & Z != 0) {
            f |= Z;
        }
        self.set_ccr(f);
        res
    }

    /// `dst - src - x`, setting X N Z V C (SUBX/NEGX keep Z when the result is zero).
    #[inline]
    pub(crate) fn sub_op(&mut self, size: u8, src: u32, dst: u32, x: u32, keep_z: bool) -> u32 {
        let m = mask(size) as u64;
        let s = src as u64 & m;
        let d = dst as u64 & m;
        let res = (d.wrapping_sub(s).wrapping_sub(x as u64) & m) as u32;
        let mut f = 0;
        if s + x as u64 > d {
            f |= C | X;
        }
        if (src ^ dst) & (res ^ dst) & msb(size) != 0 {
            f |= V;
        }
        if res & msb(size) != 0 {
            f |= N;
        }
        if res == 0 && (!keep_z || self.sr & Z != 0) {
            f |= Z;
        }
        self.set_ccr(f);
        res
    }

    /// `dst - src` for CMP: N Z V C, X kept.
    #[inline]
    pub(crate) fn cmp_op(&mut self, size: u8, src: u32, dst: u32) {
        let x = self.sr & X;
        self.sub_op(size, src, dst, 0, false);
        self.sr = (self.sr & !X) | x;
    }

    /// Condition code test (Bcc, DBcc, Scc): one bit of [`CONDITIONS`].
    #[inline(always)]
    pub(crate) fn cond(&self, cc: u16) -> bool {
        (CONDITIONS[(cc & 15) as usize] >> (self.sr & 15)) & 1 != 0
    }

    /// ABCD: `dst + src + X` in BCD. N and V follow the binary result around the decimal
    /// correction (the vectors' undocumented behaviour).
    pub(crate) fn abcd(&mut self, src: u32, dst: u32) -> u32 {
        let x = self.x();
        let bin = dst.wrapping_add(src).wrapping_add(x) & 0x1FF;
        let mut res = bin;
        let low_carry = (dst & 0xF) + (src & 0xF) + x > 9;
        if low_carry {
            res += 6;
        }
        let carry = res > 0x9F || bin > 0x99;
        if carry {
            res += 0x60;
        }
        let res8 = res & 0xFF;
        let mut f = self.sr & Z;
        if res8 != 0 {
            f = 0;
        }
        if carry {
            f |= C | X;
        }
        if res8 & 0x80 != 0 {
            f |= N;
        }
        if !bin & res8 & 0x80 != 0 {
            f |= V;
        }
        self.set_ccr(f);
        res8
    }

    /// SBCD/NBCD: `dst - src - X` in BCD.
    pub(crate) fn sbcd(&mut self, src: u32, dst: u32) -> u32 {
        let x = self.x();
        let bin = dst.wrapping_sub(src).wrapping_sub(x) & 0x1FF;
        let mut res = bin;
        let low_borrow = (dst & 0xF) < (src & 0xF) + x;
        if low_borrow {
            res = res.wrapping_sub(6);
        }
        let carry = bin & 0x100 != 0;
        if carry {
            res = res.wrapping_sub(0x60);
        }
        let borrow = carry || (low_borrow && bin < 6);
        let res8 = res & 0xFF;
        let mut f = self.sr & Z;
        if res8 != 0 {
            f = 0;
        }
        if borrow {
            f |= C | X;
        }
        if res8 & 0x80 != 0 {
            f |= N;
        }
        if bin & !res8 & 0x80 != 0 {
            f |= V;
        }
        self.set_ccr(f);
        res8
    }
}
