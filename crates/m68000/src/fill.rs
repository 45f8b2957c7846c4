//! Fill loops run in closed form: `move.w Dn,(An)+` or `move.l Dn,(An)+` and a `dbf Dm` back
//! to it (Sonic 2 clears its scroll and sprite tables this way every frame).
//!
//! A pass stores Dn at An (a long high word first) and changes An (by the size), the low
//! word of Dm (less one), the flags (N and Z of Dn, V and C clear, X kept) and the clock (a
//! fixed count). Its bus cycles are two instruction fetches and the writes, which the host
//! vouches are plain stores ([`Bus::poke_word`]: work RAM, no watch), so nothing outside
//! the CPU can tell them from stepped ones but what they store.

use crate::Bus;
use crate::cpu::{C, Cpu, N, V, Z};

impl Cpu {
    /// Runs the passes of the fill loop at `instruction_pc()`, if it is one (see
    /// [`Cpu::skip_loop_passes`]).
    pub(crate) fn skip_fill_passes<B: Bus>(&mut self, bus: &mut B, deadline: u64) -> bool {
        let op = self.ird;
        let start = self.instruction_pc();
        let dm = (self.irc & 7) as usize;
        // dbf Dm,start: IRC is its opcode; its displacement (-4) is the next word.
        if self.irc & 0xFFF8 != 0x51C8 || bus.fetch_fast(start.wrapping_add(4)) != Some(0xFFFC) {
            return false;
        }
        // The code itself must be plain (the fetches have no side effect).
        if bus.fetch_fast(start).is_none() {
            return false;
        }
        let an = ((op >> 9) & 7) as usize;
        let dn = (op & 7) as usize;
        let long = op & 0x1000 == 0;
        // MOVE.W Dn,(An)+ 8 clocks, MOVE.L 12; DBF branching 10.
        let (size, clocks) = if long { (4, 22) } else { (2, 18) };
        let mut a = self.regs[8 + an];
        let value = self.regs[dn];
        if a & 1 != 0 {
            // An address error: stepped.
            return false;
        }
        let limit = (self.regs[dm] as u16 as u64).min((deadline - self.cycles - 1) / clocks);
        let mut passes = 0;
        while passes < limit {
            let stored = if long {
                bus.poke_word(a & 0xFF_FFFF, (value >> 16) as u16)
                    && bus.poke_word(a.wrapping_add(2) & 0xFF_FFFF, value as u16)
            } else {
                bus.poke_word(a & 0xFF_FFFF, value as u16)
            };
            if !stored {
                // Only the first word of a long can have gone (a store the stepped pass makes
                // again, the same value at the same place).
                break;
            }
            a = a.wrapping_add(size);
            passes += 1;
        }
        if passes == 0 {
            return false;
        }
        self.regs[8 + an] = a;
        self.count_down(dm, passes as u16);
        let (negative, zero) = if long {
            (value & 0x8000_0000 != 0, value == 0)
        } else {
            (value & 0x8000 != 0, value as u16 == 0)
        };
        let mut ccr = 0;
        if negative {
            ccr |= N;
        }
        if zero {
            ccr |= Z;
        }
        self.sr = (self.sr & !(N | Z | V | C)) | ccr;
        self.cycles += passes * clocks;
        true
    }
}
