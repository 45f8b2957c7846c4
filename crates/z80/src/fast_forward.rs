//! Loops a program only waits in, run by whole iterations in closed form.
//!
//! A sound driver spends much of its time in delay and wait loops whose every access is an
//! opcode or operand read of memory that nothing but the CPU changes. Stepping them costs as
//! much as real work; [`Z80::fast_forward`] instead computes where stepping would leave the CPU
//! and puts it there: the same registers, flags, Q, WZ, R and T-state count at the same
//! instruction boundary. It only models the loops a program is known to need (each one names
//! it), and only where no interrupt can be accepted during the loop, so no interrupt is missed
//! or delayed.

use crate::Bus;
use crate::alu::szxyp;
use crate::cpu::Z80;

/// T-states of a DJNZ that jumps, and of one that falls through.
const DJNZ_TAKEN_T: u64 = 13;
const DJNZ_EXIT_T: u64 = 8;
/// T-states of one pass of `LD A,r / OR r' / JR Z,$-4`: 4 + 4 + 12, with the instruction
/// boundaries 4 and 8 T-states into it.
const WAIT_PASS_T: u64 = 20;

impl Z80 {
    /// Runs the loop at PC, if it is one this module models, as
    /// `while self.t_states() < until_t { self.step(bus) }` would run it, but in closed form.
    /// It stops where that loop would (the first instruction boundary at or past `until_t`) or
    /// earlier, where the modelled loop ends; the caller steps on from there. Returns whether
    /// it ran anything: false when the code at PC is not such a loop, when an interrupt could
    /// be accepted between its instructions, or during HALT or a prefix chain.
    ///
    /// The loop's code is read through [`Bus::peek`]; the reads stepping would make are not
    /// made (peek promises they have no effect).
    pub fn fast_forward<B: Bus>(&mut self, bus: &B, until_t: u64) -> bool {
        if self.t_states >= until_t
            || self.halted
            || self.pending_prefix != 0
            || self.nmi_pending
            || (self.irq_line && self.regs.iff1)
        {
            return false;
        }
        let pc = self.regs.pc;
        let ran = match bus.peek(pc) {
            Some(0x10) => bus.peek(pc.wrapping_add(1)) == Some(0xFE) && self.djnz_self(until_t),
            Some(op @ 0x78..=0x7D) => self.wait_for_zero(bus, op & 7, until_t),
            _ => false,
        };
        if ran {
            // What every executed instruction does to the step-to-step state.
            self.after_ei = false;
            self.after_ld_a_ir = false;
        }
        ran
    }

    /// `DJNZ $`: a delay of B iterations (B = 0: 256), 13 T-states each and 8 for the last,
    /// which falls through. Sonic 2's sound driver paces its DAC samples with two of these
    /// (`zWriteToDAC`, Z80 $0178 and $0194, B = the sample's rate) and its SEGA chant with two
    /// more (`zPlaySegaSound`, $0718 and $0729); a fifth of its steps were these iterations.
    fn djnz_self(&mut self, until_t: u64) -> bool {
        let b = self.regs.b;
        // Iterations that jump back, and how many of them start before `until_t`.
        let jumps = b.wrapping_sub(1) as u64;
        let fit = (until_t - self.t_states).div_ceil(DJNZ_TAKEN_T);
        let k = jumps.min(fit);
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

    /// `LD A,r / OR r' / JR Z,$-4` with r and r' both 0: it waits, 20 T-states a pass, for an
    /// interrupt handler to make them non-zero, so with no interrupt to accept it runs to
    /// `until_t`. Sonic 2's sound driver waits in one (`zWaitLoop`, Z80 $0174, `LD A,D / OR E`)
    /// for its V-int handler to give it a DAC sample's length in DE, most of every frame when
    /// no drum plays; the driver's other big share of steps before this model.
    fn wait_for_zero<B: Bus>(&mut self, bus: &B, r: u8, until_t: u64) -> bool {
        let pc = self.regs.pc;
        let Some(or_op @ 0xB0..=0xB5) = bus.peek(pc.wrapping_add(1)) else {
            return false;
        };
        if bus.peek(pc.wrapping_add(2)) != Some(0x28) || bus.peek(pc.wrapping_add(3)) != Some(0xFC)
        {
            return false;
        }
        if self.reg8::<0>(r) | self.reg8::<0>(or_op & 7) != 0 {
            return false;
        }
        // Stepping stops at the first boundary at or past `until_t`: after `whole` passes, and
        // then after the LD (1) or the OR (2) of the next one, or at its start (0).
        let left = until_t - self.t_states;
        let (whole, into) = match left % WAIT_PASS_T {
            0 => (left / WAIT_PASS_T, 0),
            1..=4 => (left / WAIT_PASS_T, 1),
            5..=8 => (left / WAIT_PASS_T, 2),
            _ => (left / WAIT_PASS_T + 1, 0),
        };
        let zero_flags = szxyp(0);
        if whole > 0 {
            // A pass ends with A = 0, the OR's flags, and the JR's WZ and Q.
            self.t_states += whole * WAIT_PASS_T;
            self.add_r(3 * whole);
            self.regs.a = 0;
            self.regs.f = zero_flags;
            self.regs.wz = pc;
        }
        self.regs.q = 0;
        if into >= 1 {
            self.t_states += 4;
            self.add_r(1);
            self.regs.a = 0;
            self.regs.pc = pc.wrapping_add(1);
        }
        if into == 2 {
            self.t_states += 4;
            self.add_r(1);
            self.regs.f = zero_flags;
            self.regs.q = zero_flags;
            self.regs.pc = pc.wrapping_add(2);
        }
        true
    }

    /// R after `n` more M1 cycles (7-bit counter, bit 7 kept).
    fn add_r(&mut self, n: u64) {
        let r = self.regs.r;
        self.regs.r = (r & 0x80) | ((r as u64 + n) & 0x7F) as u8;
    }
}
