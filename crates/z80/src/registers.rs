//! The programmer-visible register file plus the hidden registers (WZ/MEMPTR, Q) that leak into flags.

/// Sign.
pub const SF: u8 = 0x80;
/// Zero.
pub const ZF: u8 = 0x40;
/// Undocumented bit 5 ("Y"): usually a copy of bit 5 of some result.
pub const YF: u8 = 0x20;
/// Half carry.
pub const HF: u8 = 0x10;
/// Undocumented bit 3 ("X"): usually a copy of bit 3 of some result.
pub const XF: u8 = 0x08;
/// Parity / overflow.
pub const PF: u8 = 0x04;
/// Add/subtract.
pub const NF: u8 = 0x02;
/// Carry.
pub const CF: u8 = 0x01;
/// Both undocumented bits.
pub const XYF: u8 = XF | YF;

/// Register file. 8-bit halves are stored separately because most instructions address them
/// individually; pair accessors assemble them on demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Registers {
    pub pc: u16,
    pub sp: u16,
    pub a: u8,
    pub f: u8,
    pub b: u8,
    pub c: u8,
    pub d: u8,
    pub e: u8,
    pub h: u8,
    pub l: u8,
    /// Interrupt vector base (high byte of the IM 2 table address).
    pub i: u8,
    /// The refresh counter R rotated left by one bit: R's 7-bit count of M1 cycles in bits
    /// 1-7, R's bit 7 (which only LD R,A changes) in bit 0, so an M1 cycle adds 2 and the
    /// count wraps at 128 by itself (one add instead of a masked increment; the fetch does it
    /// about 2.7 million times a second of Sonic 2). Read and written through [`Registers::r`]
    /// and [`Registers::set_r`].
    pub r_rotated: u8,
    pub ix: u16,
    pub iy: u16,
    /// MEMPTR: internal address latch; visible only through BIT n,(HL) X/Y flags.
    pub wz: u16,
    /// Shadow pairs (AF', BC', DE', HL').
    pub af_: u16,
    pub bc_: u16,
    pub de_: u16,
    pub hl_: u16,
    /// Interrupt mode 0, 1 or 2.
    pub im: u8,
    pub iff1: bool,
    pub iff2: bool,
    /// Q latch: F if the last instruction wrote the flags, else 0. SCF/CCF take X/Y from `(Q ^ F) | A`.
    pub q: u8,
}

macro_rules! pair {
    ($get:ident, $set:ident, $hi:ident, $lo:ident) => {
        #[inline(always)]
        pub fn $get(&self) -> u16 {
            u16::from_be_bytes([self.$hi, self.$lo])
        }
        #[inline(always)]
        pub fn $set(&mut self, v: u16) {
            [self.$hi, self.$lo] = v.to_be_bytes();
        }
    };
}

impl Registers {
    pair!(af, set_af, a, f);
    pair!(bc, set_bc, b, c);
    pair!(de, set_de, d, e);
    pair!(hl, set_hl, h, l);

    /// The refresh counter R.
    #[inline(always)]
    pub fn r(&self) -> u8 {
        self.r_rotated.rotate_right(1)
    }

    #[inline(always)]
    pub fn set_r(&mut self, v: u8) {
        self.r_rotated = v.rotate_left(1);
    }

    /// Bump the 7-bit refresh counter once per M1 cycle; bit 7 is left alone as on the chip
    /// (it sits in bit 0 of `r_rotated`, below the count, whose carry out of bit 7 is lost).
    #[inline(always)]
    pub fn inc_r(&mut self) {
        self.r_rotated = self.r_rotated.wrapping_add(2);
    }

    /// R after `n` more M1 cycles (only `n` mod 128 matters).
    #[inline(always)]
    pub fn add_r(&mut self, n: u64) {
        self.r_rotated = self.r_rotated.wrapping_add((n as u8) << 1);
    }
}
