//! BTST, BCHG, BCLR, BSET.

use crate::Bus;
use crate::Timing;
use crate::cpu::{Cpu, Result, Z};

impl Cpu {
    pub(crate) fn bit_op<B: Bus>(&mut self, bus: &mut B, op: u16, immediate: bool) -> Result<()> {
        let kind = (op >> 6) & 3;
        let mode = ((op >> 3) & 7) as usize;
        let reg = (op & 7) as usize;
        let bit = if immediate {
            self.ext_word(bus)? as u32
        } else {
            self.regs[((op >> 9) & 7) as usize]
        };
        if mode == 0 {
            let bit = bit & 31;
            let v = self.regs[reg];
            let was = v & (1 << bit) != 0;
            self.sr = if was { self.sr & !Z } else { self.sr | Z };
            self.prefetch(bus)?;
            // The microcode takes 2 clocks more from bit 16 up; Genesis Plus GX 1.7 always
            // charges the longer figure.
            let high = if bit >= 16 || self.timing == Timing::Gpgx17 {
                2
            } else {
                0
            };
            match kind {
                0 => self.idle(2),
                1 => {
                    self.regs[reg] = v ^ (1 << bit);
                    self.idle(2 + high);
                }
                2 => {
                    self.regs[reg] = v & !(1 << bit);
                    self.idle(4 + high);
                }
                _ => {
                    self.regs[reg] = v | (1 << bit);
                    self.idle(2 + high);
                }
            }
            return Ok(());
        }
        let bit = bit & 7;
        let loc = self.ea(bus, mode, reg, 1, true)?;
        let v = self.read_loc(bus, loc, 1)?;
        let was = v & (1 << bit) != 0;
        self.sr = if was { self.sr & !Z } else { self.sr | Z };
        self.prefetch(bus)?;
        let r = match kind {
            0 => {
                // BTST Dn,#imm: 10 clocks; Genesis Plus GX 1.7 charges 8.
                if mode == 7 && reg == 4 && self.timing == Timing::Hardware {
                    self.idle(2);
                }
                return Ok(());
            }
            1 => v ^ (1 << bit),
            2 => v & !(1 << bit),
            _ => v | (1 << bit),
        };
        self.write_loc(bus, loc, 1, r)
    }
}
