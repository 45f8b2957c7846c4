//! Nybble-packing loops run in closed form: a register-only `dbf` loop that shifts a value
//! into a long a nybble at a time and counts down to its next output (Sonic 2's Nemesis
//! decompressor writes a run of one nybble this way, about 145 k passes while a level
//! loads):
//!
//! ```text
//! L:  lsl.l  #n,Dx
//!     or.b   Dy,Dx
//!     subq.w #1,Dz
//!     bne.s  D         (to the dbf; the fall-through outputs the long)
//!     ...
//! D:  dbf    Dm,L
//! ```
//!
//! A pass whose `subq` leaves Dz non-zero touches only the four registers, the flags and the
//! clock (LSL.L #n 8 + 2n clocks, OR.B and SUBQ.W to a register 4 each, BNE.S taken 10, DBF
//! taken 10), and its bus cycles are instruction fetches from code the host vouches is plain.

use crate::Bus;
use crate::cpu::{C, Cpu, N, V, X, Z};

impl Cpu {
    /// Runs the passes of the nybble loop at `instruction_pc()`, if it is one (see
    /// [`Cpu::skip_loop_passes`]).
    pub(crate) fn skip_nybble_passes<B: Bus>(&mut self, bus: &B, deadline: u64) -> bool {
        let start = self.instruction_pc();
        let word = |at: u32| bus.fetch_fast(at & 0xFF_FFFE);
        let lsl = self.ird;
        let x = (lsl & 7) as usize;
        let shift = match (lsl >> 9) & 7 {
            0 => 8,
            n => n as u32,
        };
        // OR.B Dy,Dx (IRC), SUBQ.W #1,Dz, BNE.S to the DBF, DBF Dm back to L.
        let or = self.irc;
        if or & 0xF1F8 != 0x8000 || (or >> 9) & 7 != x as u16 {
            return false;
        }
        let y = (or & 7) as usize;
        let Some(subq) = word(start.wrapping_add(4)) else {
            return false;
        };
        if subq & 0xFFF8 != 0x5340 {
            return false;
        }
        let z = (subq & 7) as usize;
        let Some(bne) = word(start.wrapping_add(6)) else {
            return false;
        };
        if bne & 0xFF01 != 0x6600 || bne as u8 == 0 {
            return false;
        }
        let dbf_at = start
            .wrapping_add(8)
            .wrapping_add(bne as u8 as i8 as i32 as u32);
        let (Some(dbf), Some(back)) = (word(dbf_at), word(dbf_at.wrapping_add(2))) else {
            return false;
        };
        if dbf & 0xFFF8 != 0x51C8
            || dbf_at
                .wrapping_add(2)
                .wrapping_add(back as i16 as i32 as u32)
                != start
        {
            return false;
        }
        let m = (dbf & 7) as usize;
        // Four different registers, so each pass is the formula below.
        if x == y || x == z || x == m || y == z || y == m || z == m {
            return false;
        }
        let clocks = 8 + 2 * shift as u64 + 4 + 4 + 10 + 10;
        let count = self.regs[z] as u16;
        // The passes before the one whose SUBQ reaches 0, and before the counter's last.
        let limit = (count.wrapping_sub(1) as u64)
            .min(self.regs[m] as u16 as u64)
            .min((deadline - self.cycles - 1) / clocks);
        if limit == 0 {
            return false;
        }
        // OR.B leaves the upper three bytes as the shift made them and ORs Dy's low byte in.
        let or_byte = self.regs[y] & 0xFF;
        let mut v = self.regs[x];
        for _ in 0..limit {
            v = (v << shift) | or_byte;
        }
        self.regs[x] = v;
        let last = count.wrapping_sub(limit as u16 - 1);
        let result = last.wrapping_sub(1);
        self.regs[z] = (self.regs[z] & 0xFFFF_0000) | result as u32;
        self.count_down(m, limit as u16);
        // The flags of the last SUBQ: Z clear (the result is not 0), borrow from 0.
        let mut ccr = 0;
        if result & 0x8000 != 0 {
            ccr |= N;
        }
        if last == 0x8000 {
            ccr |= V;
        }
        if last == 0 {
            ccr |= C | X;
        }
        self.sr = (self.sr & !(X | N | Z | V | C)) | ccr;
        self.cycles += limit * clocks;
        true
    }
}
