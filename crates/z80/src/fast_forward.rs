//! Loops a program only waits in, run by whole iterations in closed form.
//!
//! A sound driver spends much of its time in delay and wait loops whose every access is an
//! opcode or operand read of memory that nothing but the CPU changes. Stepping them costs as
//! much as real work; [`Z80::fast_forward`] instead computes where stepping would leave the CPU
//! and puts it there: the same registers, flags, Q, WZ, R and T-state count at the same
//! instruction boundary. It only models the loops a program is known to need (each one names
//! it), and only where no interrupt can be accepted during the loop, so no interrupt is missed
//! or delayed.
//!
//! Two shapes, both from Sonic 2's sound driver: `DJNZ $` (the delays of `zWriteToDAC` and
//! `zPlaySegaSound`) and `LD A,r / OR r' / JR Z,$-4` entered at any of its three instructions
//! (`zWaitLoop`, waiting for a register pair to become non-zero). The loop's code is read
//! through [`Bus::peek`], so a loop runs in closed form only where the bus vouches that those
//! reads have no effect.
//! [`Z80::waits_for_interrupt`] says when stepping on would do nothing but wait in the second
//! shape, so a host may leave the CPU unrun over several of its time slices and run them at once.

use crate::Bus;
use crate::alu::szxyp;
use crate::cpu::Z80;
use crate::registers::ZF;

/// T-states of a DJNZ that jumps, and of one that falls through.
const DJNZ_TAKEN_T: u64 = 13;
const DJNZ_EXIT_T: u64 = 8;
/// T-states of one pass of `LD A,r / OR r' / JR Z,$-4` (4 + 4 + 12), and of the pass up to
/// the start of each of its three instructions.
const WAIT_PASS_T: u64 = 20;
const WAIT_AT: [u64; 3] = [0, 4, 8];

impl Z80 {
    /// Runs the loop at PC, if it is one this module models, as
    /// `while self.t_states() < until_t { self.step(bus) }` would run it, but in closed form.
    /// It stops where that loop would (the first instruction boundary at or past `until_t`) or
    /// earlier, where the modelled loop ends; the caller steps on from there. Returns whether
    /// it ran anything: false when the code at PC is not such a loop, when an interrupt could
    /// be accepted between its instructions, or during HALT or a prefix chain.
    ///
    /// The loop's code is read through [`Bus::peek`]; the reads stepping would make are not
    /// made (peek promises they have no effect). Inlined up to the first opcode's test, which
    /// turns most calls away.
    #[inline(always)]
    pub fn fast_forward<B: Bus>(&mut self, bus: &B, until_t: u64) -> bool {
        match bus.peek(self.regs.pc) {
            Some(op @ (0x10 | 0x28 | 0x78..=0x7D | 0xB0..=0xB5)) => {
                self.fast_forward_at(bus, op, until_t)
            }
            _ => false,
        }
    }

    /// [`Z80::fast_forward`] past the first opcode's test (`op`, the opcode at PC). The two
    /// loop models are inlined here: the console calls this about once a line, and a call
    /// each was a fifth of the cost.
    #[inline(never)]
    fn fast_forward_at<B: Bus>(&mut self, bus: &B, op: u8, until_t: u64) -> bool {
        if self.t_states >= until_t
            || self.halted
            || self.pending_prefix != 0
            || self.nmi_pending
            || (self.irq_line && self.regs.iff1)
        {
            return false;
        }
        let pc = self.regs.pc;
        match op {
            0x10 => bus.peek(pc.wrapping_add(1)) == Some(0xFE) && self.djnz_self(until_t),
            0x78..=0x7D => self.wait_for_zero(bus, pc, 0, until_t),
            0xB0..=0xB5 => self.wait_for_zero(bus, pc.wrapping_sub(1), 1, until_t),
            // Both forms move the T-state count whenever they run, which ends the EI and
            // LD A,I/R marks as an executed instruction does.
            _ => self.wait_for_zero(bus, pc.wrapping_sub(2), 2, until_t),
        }
    }

    /// `DJNZ $`: a delay of B iterations (B = 0: 256), 13 T-states each and 8 for the last,
    /// which falls through. Sonic 2's sound driver paces its DAC samples with two of these
    /// (`zWriteToDAC`, Z80 $0178 and $0194, B = the sample's rate) and its SEGA chant with two
    /// more (`zPlaySegaSound`, $0718 and $0729); a fifth of its steps were these iterations.
    #[inline(always)]
    fn djnz_self(&mut self, until_t: u64) -> bool {
        let b = self.regs.b;
        // Iterations that jump back, and how many of them start before `until_t`.
        let jumps = b.wrapping_sub(1) as u64;
        // min(jumps, ceil(left / 13)), the division only where the run ends inside the loop
        // (`left` is then at most 13 * 255, so in 32 bits); most calls find the whole delay
        // inside the run.
        let left = until_t - self.t_states;
        let k = if left > jumps * DJNZ_TAKEN_T {
            jumps
        } else {
            (left as u32).div_ceil(DJNZ_TAKEN_T as u32) as u64
        };
        if k > 0 {
            self.t_states += k * DJNZ_TAKEN_T;
            self.add_r(k);
            self.regs.b = b.wrapping_sub(k as u8);
            self.regs.wz = self.regs.pc;
        }
        if k == jumps && self.t_states < until_t {
            self.t_states += DJNZ_EXIT_T;
            self.add_r(1);
            self.regs.b = 0;
            self.regs.pc = self.regs.pc.wrapping_add(2);
        }
        // DJNZ leaves the flags alone, so Q is 0 after it.
        self.regs.q = 0;
        true
    }

    /// `LD A,r / OR r' / JR Z,$-4` at `start` with r and r' both 0, entered at its instruction
    /// `entry` (0 to 2): it waits, 20 T-states a pass, for an interrupt handler to make them
    /// non-zero, so with no interrupt to accept it runs to `until_t`. Sonic 2's sound driver
    /// waits in one (`zWaitLoop`, Z80 $0174, `LD A,D / OR E`) for its V-int handler to give it
    /// a DAC sample's length in DE, most of every frame when no drum plays, and a run of the
    /// Z80 (a line) often starts or stops inside it; before this model the driver spent a fifth
    /// of its steps there.
    #[inline(always)]
    fn wait_for_zero<B: Bus>(&mut self, bus: &B, start: u16, entry: u64, until_t: u64) -> bool {
        if !self.waits_for_zero(bus, start, entry) {
            return false;
        }
        // Instruction boundaries counted from the entry's pass start: boundary n is at
        // 20 * (n / 3) + WAIT_AT[n % 3], boundary 3k + 1 after the k-th pass's LD, 3k + 2
        // after its OR, 3k + 3 after its JR. Stepping stops at the first at or past `until_t`:
        // boundary 3 * passes + slot.
        let pass_start = self.t_states - WAIT_AT[entry as usize];
        let left = until_t - pass_start;
        let whole = left / WAIT_PASS_T;
        let (passes, slot) = match left - whole * WAIT_PASS_T {
            0 => (whole, 0),
            1..=4 => (whole, 1),
            5..=8 => (whole, 2),
            _ => (whole + 1, 0),
        };
        let stop = 3 * passes + slot;
        // Which of the three instructions ran at least once between `entry` and `stop`.
        if entry == 0 || stop > 3 {
            self.regs.a = 0;
        }
        let zero_flags = szxyp(0);
        if stop > if entry <= 1 { 1 } else { 4 } {
            self.regs.f = zero_flags;
        }
        if stop > 2 {
            self.regs.wz = start;
        }
        // Q is the OR's flags if it ran last, else 0 (LD and JR leave the flags alone).
        self.regs.q = if slot == 2 { zero_flags } else { 0 };
        self.regs.pc = start.wrapping_add(slot as u16);
        self.t_states = pass_start + WAIT_PASS_T * passes + WAIT_AT[slot as usize];
        self.add_r(stop - entry);
        true
    }

    /// Whether the CPU, at instruction `entry` (0 to 2) of the code at `start`, is in a
    /// `LD A,r / OR r' / JR Z,$-4` loop with r and r' both 0 that goes on: stepping it reads
    /// only those four bytes and writes nothing until an interrupt is accepted.
    #[inline(always)]
    fn waits_for_zero<B: Bus>(&self, bus: &B, start: u16, entry: u64) -> bool {
        let Some(ld @ 0x78..=0x7D) = bus.peek(start) else {
            return false;
        };
        // The loaded register before the rest of the code: where it is not zero the loop
        // ends, decided with one byte read (most arrivals at Sonic 2's `zWaitLoop` after a
        // backward jump find D or E not zero: a sample to play).
        if self.reg8::<0>(ld & 7) != 0 {
            return false;
        }
        let Some(or @ 0xB0..=0xB5) = bus.peek(start.wrapping_add(1)) else {
            return false;
        };
        // Entered at the OR, A is what it ORs; entered at the JR, Z decides.
        let goes_on = match entry {
            0 => true,
            1 => self.regs.a == 0,
            _ => self.regs.f & ZF != 0,
        };
        goes_on
            && self.reg8::<0>(or & 7) == 0
            && bus.peek(start.wrapping_add(2)) == Some(0x28)
            && bus.peek(start.wrapping_add(3)) == Some(0xFC)
    }

    /// Whether the CPU waits for an interrupt in a loop [`Z80::fast_forward`] models: with
    /// /INT released and no NMI, stepping it on from here, however far, reads nothing but
    /// the loop's own code (memory the bus vouches for through [`Bus::peek`]), writes nothing,
    /// touches no port and never leaves the loop, so where it stands at a later T-state
    /// depends on nothing but that T-state. A caller may then leave it unrun across several
    /// of its own time slices and run it once over all of them (the state reached is the
    /// same, [`Z80::fast_forward`] running the whole span in closed form), as long as the
    /// line stays released and nothing else writes the loop's code or registers meanwhile.
    /// The console does so while Sonic 2's driver waits for a DAC sample (`zWaitLoop`).
    pub fn waits_for_interrupt<B: Bus>(&self, bus: &B) -> bool {
        if self.halted || self.pending_prefix != 0 || self.nmi_pending {
            return false;
        }
        let pc = self.regs.pc;
        match bus.peek(pc) {
            Some(0x78..=0x7D) => self.waits_for_zero(bus, pc, 0),
            Some(0xB0..=0xB5) => self.waits_for_zero(bus, pc.wrapping_sub(1), 1),
            Some(0x28) => self.waits_for_zero(bus, pc.wrapping_sub(2), 2),
            _ => false,
        }
    }

    /// R after `n` more M1 cycles (7-bit counter, bit 7 kept; only `n` mod 128 matters).
    #[inline(always)]
    fn add_r(&mut self, n: u64) {
        self.regs.add_r(n);
    }
}
