//! Table fill loops run in closed form: a `dbf` loop that widens the bytes of a table, adds
//! a base to each and stores it as a long (Sonic 2 builds a scroll table from a ROM table
//! this way, about 53 k passes in the bench script's 3,600 frames):
//!
//! ```text
//! L:  move.b (Ay)+,Dx
//!     ext.w  Dx
//!     add.w  Dy,Dx
//!     move.l Dx,(Az)+
//!     dbf    Dm,L
//! ```
//!
//! A pass reads one byte the host vouches is plain ROM ([`Bus::peek_byte`] below work RAM,
//! which a store cannot reach), stores one long through [`Bus::poke_word`] (work RAM nobody
//! watches) and changes Ay (+1), Az (+4), Dx's low word, the low word of Dm (less one), the
//! flags (X from the ADD's carry; N and Z of the long Dx, V and C clear from the MOVE) and
//! the clock (the manual's 8 + 4 + 4 + 12 + 10).

use crate::Bus;
use crate::cpu::{C, Cpu, N, V, X, Z};

/// Clocks of a pass: MOVE.B (An)+,Dn 8, EXT.W 4, ADD.W Dn,Dn 4, MOVE.L Dn,(An)+ 12, DBF
/// taken 10.
const PASS: u64 = 38;

/// Work RAM and its mirrors start here; a table below it is out of a store's reach.
const RAM_START: u32 = 0xE0_0000;

impl Cpu {
    /// Runs the passes of the table fill loop at `instruction_pc()`, if it is one (see
    /// [`Cpu::skip_loop_passes`]).
    pub(crate) fn skip_table_fill_passes<B: Bus>(&mut self, bus: &mut B, deadline: u64) -> bool {
        let start = self.instruction_pc();
        let ay = (self.ird & 7) as usize;
        let dx = ((self.ird >> 9) & 7) as usize;
        // The words after the load; IRC is the EXT.
        if self.irc != 0x4880 | dx as u16 {
            return false;
        }
        let (Some(add), Some(store), Some(dbf), Some(disp)) = (
            bus.fetch_fast(start.wrapping_add(4)),
            bus.fetch_fast(start.wrapping_add(6)),
            bus.fetch_fast(start.wrapping_add(8)),
            bus.fetch_fast(start.wrapping_add(10)),
        ) else {
            return false;
        };
        if add & 0xFFF8 != 0xD040 | (dx as u16) << 9
            || store & 0xF1FF != 0x20C0 | dx as u16
            || dbf & 0xFFF8 != 0x51C8
            || disp != 0xFFF6
            || bus.fetch_fast(start).is_none()
        {
            return false;
        }
        let dy = (add & 7) as usize;
        let az = ((store >> 9) & 7) as usize;
        let dm = (dbf & 7) as usize;
        // (A7)+ steps a byte by 2; one register for both pointers, or the counter in the
        // arithmetic, are left to the instructions.
        if ay == 7 || ay == az || dm == dx || dm == dy {
            return false;
        }
        let mut src = self.regs[8 + ay];
        let mut dst = self.regs[8 + az];
        if dst & 1 != 0 {
            // An address error: stepped.
            return false;
        }
        let limit = (self.regs[dm] as u16 as u64).min((deadline - self.cycles - 1) / PASS);
        // The whole table must lie below work RAM.
        if (src & 0xFF_FFFF) as u64 + limit > RAM_START as u64 {
            return false;
        }
        let mut value = self.regs[dx];
        let mut carry = false;
        let mut passes = 0;
        while passes < limit {
            let Some(byte) = bus.peek_byte(src & 0xFF_FFFF) else {
                break;
            };
            let widened = byte as i8 as i16 as u16;
            let base = if dy == dx {
                widened
            } else {
                self.regs[dy] as u16
            };
            let (sum, c) = widened.overflowing_add(base);
            let long = (value & 0xFFFF_0000) | sum as u32;
            if !(bus.poke_word(dst & 0xFF_FFFF, (long >> 16) as u16)
                && bus.poke_word(dst.wrapping_add(2) & 0xFF_FFFF, long as u16))
            {
                // Only the first word can have gone: the stepped pass stores it again, the
                // same value at the same place, from a table no store reaches.
                break;
            }
            value = long;
            carry = c;
            src = src.wrapping_add(1);
            dst = dst.wrapping_add(4);
            passes += 1;
        }
        if passes == 0 {
            return false;
        }
        self.regs[8 + ay] = src;
        self.regs[8 + az] = dst;
        self.regs[dx] = value;
        self.count_down(dm, passes as u16);
        let mut ccr = 0;
        if carry {
            ccr |= X;
        }
        if value & 0x8000_0000 != 0 {
            ccr |= N;
        }
        if value == 0 {
            ccr |= Z;
        }
        self.sr = (self.sr & !(X | N | Z | V | C)) | ccr;
        self.cycles += passes * PASS;
        true
    }
}
