//! Loops the core runs in closed form at a host's boundary: the passes of a few generic
//! `dbf` loop shapes (decoded, never matched against known code) whose every bus cycle the
//! host vouches is unobservable but for its effect on memory the loop owns: scan loops
//! (`scan.rs`), fill loops (`fill.rs`), table fills (`table_fill.rs`), window copies
//! (`window_copy.rs`), nybble-packing loops (`nybbles.rs`) and `dbf Dm,*` delay loops
//! (below).
//!
//! The host gives the CPU clock at which its next boundary must look (an interrupt level,
//! a target, a refresh stall): a pass is skipped only if every boundary in it comes before
//! that clock, so the host's boundaries that look see the same machine at the same clocks
//! as with stepping. The pass that ends a loop (the counter at 0, a byte found) is always
//! left to the instructions.

use crate::Bus;
use crate::cpu::Cpu;

/// One bit per opcode that may start a loop of these shapes: MOVE.B (An)/d16(An),Dn and
/// TST.B (An)/d16(An) (scans), MOVE.W/L Dn,(An)+ (fills), DBF (delays), LSL.L #n,Dn
/// (nybbles), MOVE.B (An)+,Dn (table fills), MOVE.B d8(An,Xi),Dn (window copies).
static LOOP_START: [u64; 1024] = loop_starts();

const fn loop_starts() -> [u64; 1024] {
    let mut t = [0u64; 1024];
    let mut r = 0;
    while r < 64 {
        // r: the register fields (bits 9-11 and 0-2).
        let regs = ((r >> 3) << 9 | (r & 7)) as usize;
        let ops = [
            0x1010 | regs,
            0x1028 | regs,
            0x20C0 | regs,
            0x30C0 | regs,
            0x4A10 | (r & 7) as usize,
            0x4A28 | (r & 7) as usize,
            0x51C8 | (r & 7) as usize,
            0xE188 | regs,
            0x1018 | regs,
            0x1030 | regs,
        ];
        let mut i = 0;
        while i < ops.len() {
            t[ops[i] >> 6] |= 1 << (ops[i] & 63);
            i += 1;
        }
        r += 1;
    }
    t
}

impl Cpu {
    /// At a boundary before the instruction at `instruction_pc()`: if it starts one of the
    /// loops above, runs its passes that end before `deadline` (a CPU clock) in closed form
    /// and says whether it ran any.
    ///
    /// Only for a host whose [`Bus::fetch_fast`], [`Bus::peek_byte`] and [`Bus::poke_word`]
    /// answer, at its boundary after an instruction (the CPU's attention flag down: T clear,
    /// running, no interrupt to take), where nothing but the CPU changes the machine before
    /// `deadline`.
    #[inline(always)]
    pub fn skip_loop_passes<B: Bus>(&mut self, bus: &mut B, deadline: u64) -> bool {
        let op = self.ird;
        if LOOP_START[(op >> 6) as usize] >> (op & 63) & 1 == 0
            || self.attention
            || deadline <= self.cycles
        {
            return false;
        }
        self.skip_loop_passes_decoded(bus, deadline)
    }

    #[inline(never)]
    fn skip_loop_passes_decoded<B: Bus>(&mut self, bus: &mut B, deadline: u64) -> bool {
        if self.ird & 0xE1F8 == 0x20C0 {
            self.skip_fill_passes(bus, deadline)
        } else if self.ird & 0xFFF8 == 0x51C8 {
            self.skip_delay_passes(bus, deadline)
        } else if self.ird & 0xF1F8 == 0xE188 {
            self.skip_nybble_passes(bus, deadline)
        } else if self.ird & 0xF1F8 == 0x1018 {
            self.skip_table_fill_passes(bus, deadline)
        } else if self.ird & 0xF1F8 == 0x1030 {
            self.skip_window_copy_passes(bus, deadline)
        } else {
            self.skip_scan_passes(bus, deadline)
        }
    }
}

impl Cpu {
    /// `dbf Dm,*`: a pass is 10 clocks (the branch taken) and the counter less one, its two
    /// fetches at the DBF itself (so the queue ends as it was); the flags are untouched.
    fn skip_delay_passes<B: Bus>(&mut self, bus: &B, deadline: u64) -> bool {
        let start = self.instruction_pc();
        if self.irc != 0xFFFE || bus.fetch_fast(start).is_none() {
            return false;
        }
        let dm = (self.ird & 7) as usize;
        let d = self.regs[dm];
        let passes = (d as u16 as u64).min((deadline - self.cycles - 1) / 10);
        if passes == 0 {
            return false;
        }
        self.count_down(dm, passes as u16);
        self.cycles += passes * 10;
        true
    }

    /// DBF's counter after `passes` taken branches: its low word less that many, the high
    /// word kept (DBcc counts in the low word only).
    pub(crate) fn count_down(&mut self, dm: usize, passes: u16) {
        let d = self.regs[dm];
        self.regs[dm] = (d & 0xFFFF_0000) | (d as u16).wrapping_sub(passes) as u32;
    }
}
