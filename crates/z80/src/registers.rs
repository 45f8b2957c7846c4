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
    /// Refresh counter: the low 7 bits count M1 cycles, bit 7 only changes through LD R,A.
    pub r: u8,
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

    /// Bump the 7-bit refresh counter once per M1 cycle; bit 7 is left alone as on the chip.
    #[inline(always)]
    pub fn inc_r(&mut self) {
        self.r = (self.r & 0x80) | (self.r.wrapping_add(1) & 0x7F);
    }
}
