//! Effective addresses: extension words, register updates and the idle clocks each mode adds.

use crate::Bus;
use crate::cpu::{Cpu, Result};

/// Where an operand lives once its effective address is calculated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    D(usize),
    A(usize),
    Mem(u32),
    /// Memory reached through the PC (program space).
    Prog(u32),
    Imm(u32),
}

#[inline(always)]
pub(crate) fn mask(size: u8) -> u32 {
    // size is 1, 2 or 4.
    u32::MAX >> (32 - 8 * size as u32)
}

/// Sign bit of `size`.
#[inline(always)]
pub(crate) fn msb(size: u8) -> u32 {
    1 << (8 * size as u32 - 1)
}

impl Cpu {
    /// Reads register `r` (0-15) through an index word: the index value with its size.
    #[inline(always)]
    pub(crate) fn index_value(&self, ext: u16) -> u32 {
        let r = self.regs[(ext >> 12) as usize];
        let x = if ext & 0x800 != 0 {
            r
        } else {
            r as u16 as i16 as i32 as u32
        };
        x.wrapping_add(ext as u8 as i8 as i32 as u32)
    }

    /// Step of (An)+ / -(An): A7 keeps the stack word-aligned for bytes.
    #[inline]
    pub(crate) fn step_size(reg: usize, size: u8) -> u32 {
        if size == 1 && reg == 7 {
            2
        } else {
            size as u32
        }
    }

    /// Calculates the effective address of `mode`/`reg` for an operand of `size`, fetching
    /// extension words. `predec_idle`: -(An) spends 2 clocks before its read (not before a
    /// MOVE's write). d8(An,Xn) spends 2 clocks before its extension word.
    #[inline(always)]
    pub(crate) fn ea<B: Bus>(
        &mut self,
        bus: &mut B,
        mode: usize,
        reg: usize,
        size: u8,
        predec_idle: bool,
    ) -> Result<Loc> {
        Ok(match mode {
            0 => Loc::D(reg),
            1 => Loc::A(reg),
            2 => {
                self.fault_pc_back = 2;
                Loc::Mem(self.regs[8 + reg])
            }
            3 => {
                self.fault_pc_back = 2;
                let a = self.regs[8 + reg];
                // An odd address faults on the first access, before the increment lands.
                if a & 1 == 0 || size != 4 {
                    self.regs[8 + reg] = a.wrapping_add(Self::step_size(reg, size));
                }
                Loc::Mem(a)
            }
            4 => {
                self.fault_pc_back = if size == 4 { 2 } else { 0 };
                if predec_idle {
                    self.idle(2);
                }
                let a = self.regs[8 + reg].wrapping_sub(Self::step_size(reg, size));
                self.regs[8 + reg] = a;
                Loc::Mem(a)
            }
            5 => {
                self.fault_pc_back = 4;
                let d = self.ext_word(bus)? as i16 as i32 as u32;
                Loc::Mem(self.regs[8 + reg].wrapping_add(d))
            }
            6 => {
                self.fault_pc_back = 4;
                self.idle(2);
                let ext = self.ext_word(bus)?;
                Loc::Mem(self.regs[8 + reg].wrapping_add(self.index_value(ext)))
            }
            _ => match reg {
                0 | 1 => {
                    self.fault_pc_back = 2;
                    Loc::Mem(if reg == 0 {
                        self.ext_word(bus)? as i16 as i32 as u32
                    } else {
                        self.ext_long(bus)?
                    })
                }

                2 => {
                    self.fault_pc_back = 4;
                    let base = self.pc.wrapping_sub(2);
                    let d = self.ext_word(bus)? as i16 as i32 as u32;
                    Loc::Prog(base.wrapping_add(d))
                }
                3 => {
                    self.fault_pc_back = 4;
                    self.idle(2);
                    let base = self.pc.wrapping_sub(2);
                    let ext = self.ext_word(bus)?;
                    Loc::Prog(base.wrapping_add(self.index_value(ext)))
                }
                _ => Loc::Imm(match size {
                    1 => self.ext_word(bus)? as u32 & 0xFF,
                    2 => self.ext_word(bus)? as u32,
                    _ => self.ext_long(bus)?,
                }),
            },
        })
    }

    #[inline(always)]
    pub(crate) fn read_loc<B: Bus>(&mut self, bus: &mut B, loc: Loc, size: u8) -> Result<u32> {
        Ok(match loc {
            Loc::D(r) => self.regs[r] & mask(size),
            Loc::A(r) => self.regs[8 + r] & mask(size),
            Loc::Mem(a) => {
                let fc = self.data_fc();
                self.read_data(bus, a, size, fc)?
            }
            Loc::Prog(a) => {
                let fc = self.program_fc();
                self.read_data(bus, a, size, fc)?
            }
            Loc::Imm(v) => v,
        })
    }

    /// Writes an operand; a long in memory goes high word first (MOVE's order).
    #[inline(always)]
    pub(crate) fn write_loc<B: Bus>(
        &mut self,
        bus: &mut B,
        loc: Loc,
        size: u8,
        value: u32,
    ) -> Result<()> {
        match loc {
            Loc::D(r) => self.set_d(r, size, value),
            Loc::A(r) => self.regs[8 + r] = value,
            Loc::Mem(a) | Loc::Prog(a) => self.write_data(bus, a, size, value)?,
            Loc::Imm(_) => {}
        }
        Ok(())
    }

    /// Writes the result of a read-modify-write instruction: a long low word first.
    #[inline]
    pub(crate) fn write_rmw<B: Bus>(
        &mut self,
        bus: &mut B,
        loc: Loc,
        size: u8,
        value: u32,
    ) -> Result<()> {
        match loc {
            Loc::Mem(a) | Loc::Prog(a) => self.write_data_low_first(bus, a, size, value),
            _ => self.write_loc(bus, loc, size, value),
        }
    }

    /// Writes the low `size` bytes of Dn.
    #[inline(always)]
    pub(crate) fn set_d(&mut self, r: usize, size: u8, value: u32) {
        let m = mask(size);
        self.regs[r] = (self.regs[r] & !m) | (value & m);
    }

    /// Reads a source operand: address calculation then the read.
    #[inline(always)]
    pub(crate) fn read_ea<B: Bus>(
        &mut self,
        bus: &mut B,
        mode: usize,
        reg: usize,
        size: u8,
    ) -> Result<u32> {
        let loc = self.ea(bus, mode, reg, size, true)?;
        self.read_loc(bus, loc, size)
    }
}
