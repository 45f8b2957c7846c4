//! Window copy loops run in closed form: the copy of an LZ decompressor that repeats bytes
//! from earlier in its own output (Kosinski's, about 63 k passes in the bench script's
//! 3,600 frames, most of them while a level loads):
//!
//! ```text
//! L:  move.b d8(An,Xi),Dx
//!     move.b Dx,(Az)+
//!     dbf    Dm,L
//! ```
//!
//! A pass reads one byte the host vouches is plain ([`Bus::peek_byte`]), stores it through
//! [`Bus::poke_byte`] (work RAM nobody watches) and changes Dx's low byte, Az (+1), the low
//! word of Dm (less one), the flags (N and Z of the byte, V and C clear, X kept) and the
//! clock (the manual's 14 + 8 + 10). The passes run one after the other, each reading after
//! the store before it, so a source that overlaps the output reads what stepping reads.

use crate::Bus;
use crate::cpu::{C, Cpu, N, V, Z};

/// Clocks of a pass: MOVE.B d8(An,Xn),Dn 14, MOVE.B Dn,(An)+ 8, DBF taken 10.
const PASS: u64 = 32;

impl Cpu {
    /// Runs the passes of the window copy loop at `instruction_pc()`, if it is one (see
    /// [`Cpu::skip_loop_passes`]).
    pub(crate) fn skip_window_copy_passes<B: Bus>(&mut self, bus: &mut B, deadline: u64) -> bool {
        let start = self.instruction_pc();
        let an = (self.ird & 7) as usize;
        let dx = ((self.ird >> 9) & 7) as usize;
        // IRC is the load's extension word: the index register (D0-7, A0-7 as 0-15), its
        // size (bit 11), the displacement; bits 8-10 are 0 in the 68000's brief format.
        let ext = self.irc;
        let (Some(store), Some(dbf), Some(disp)) = (
            bus.fetch_fast(start.wrapping_add(4)),
            bus.fetch_fast(start.wrapping_add(6)),
            bus.fetch_fast(start.wrapping_add(8)),
        ) else {
            return false;
        };
        if ext & 0x0700 != 0
            || store & 0xF1FF != 0x10C0 | dx as u16
            || dbf & 0xFFF8 != 0x51C8
            || disp != 0xFFF8
            || bus.fetch_fast(start).is_none()
        {
            return false;
        }
        let az = ((store >> 9) & 7) as usize;
        let dm = (dbf & 7) as usize;
        let xi = (ext >> 12) as usize;
        // (A7)+ steps a byte by 2; a counter the load or the index changes is left to the
        // instructions.
        if az == 7 || dm == dx || xi == dm {
            return false;
        }
        let long_index = ext & 0x0800 != 0;
        let d8 = ext as u8 as i8 as u32;
        let limit = (self.regs[dm] as u16 as u64).min((deadline - self.cycles - 1) / PASS);
        let mut byte = 0;
        let mut passes = 0;
        while passes < limit {
            let index = if long_index {
                self.regs[xi]
            } else {
                self.regs[xi] as u16 as i16 as u32
            };
            let from = self.regs[8 + an].wrapping_add(d8).wrapping_add(index);
            let Some(b) = bus.peek_byte(from & 0xFF_FFFF) else {
                break;
            };
            if !bus.poke_byte(self.regs[8 + az] & 0xFF_FFFF, b) {
                break;
            }
            byte = b;
            self.regs[dx] = (self.regs[dx] & 0xFFFF_FF00) | b as u32;
            self.regs[8 + az] = self.regs[8 + az].wrapping_add(1);
            passes += 1;
        }
        if passes == 0 {
            return false;
        }
        self.count_down(dm, passes as u16);
        let mut ccr = 0;
        if byte & 0x80 != 0 {
            ccr |= N;
        }
        if byte == 0 {
            ccr |= Z;
        }
        self.sr = (self.sr & !(N | Z | V | C)) | ccr;
        self.cycles += passes * PASS;
        true
    }
}
