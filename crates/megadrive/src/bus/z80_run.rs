//! Running the Z80: to a clock, over the line ends it was left owing while it waited for an
//! interrupt, and past the passes of its idle loops.

use super::Bus;
use super::z80_view::Z80View;
use crate::clock::Z80_DIVIDER;
use crate::cpu::sound_cpu::SoundCpu;

impl Bus {
    /// Runs the Z80 (if it runs) up to the absolute master clock `until`, first over the
    /// line ends it was left unrun at.
    pub fn run_z80(&mut self, until: u64) {
        if self.z80_owed[1] != 0 {
            self.settle_z80();
        }
        self.run_z80_once(until);
    }

    /// At the end of a line: runs the Z80 to `end`, or leaves it owing the run while it waits
    /// in a loop only an interrupt ends ([`z80::Z80::waits_for_interrupt`]: Sonic 2's driver
    /// waiting for a DAC sample, most lines of a frame without drums) and /INT is released.
    ///
    /// Exact: such a Z80 touches nothing but its own RAM's loop code, so nothing it does
    /// between line ends can be seen, and where it stands at a clock depends only on that
    /// clock (the closed form of `Z80::fast_forward` and stepping agree on every span). What
    /// could change that goes through [`Bus::run_z80`], which runs the owed lines first: the
    /// /INT edge of the V-int (run to its clock before the line is raised), BUSREQ and RESET
    /// (the 68000 writes Z80 RAM only while holding the bus), and `Machine::run` before it
    /// returns (save states, the harness reading the Z80). The owed lines are run as two runs,
    /// to the one before the last and to the last, so the last starts where the line's own
    /// run would have and leaves the same run bases (`z80_t_base`, `z80_mclk_base`, saved
    /// in states). Such a Z80 makes no bank-window reads, so owes the 68000 no stall.
    pub fn run_z80_at_line_end(&mut self, end: u64) {
        if self.z80_deferral
            && !self.sys.vdp.z80_irq
            && self.sys.zbus.z80_running()
            && (self.z80_owed[1] != 0 || self.z80.waits_for_interrupt(&Z80View(&mut self.sys)))
        {
            self.z80_owed = [self.z80_owed[1], end];
            return;
        }
        self.run_z80(end);
    }

    /// Runs the Z80 over the line ends it owes ([`Bus::run_z80_at_line_end`]).
    #[inline(never)]
    pub fn settle_z80(&mut self) {
        let [before, last] = std::mem::take(&mut self.z80_owed);
        if before != 0 {
            self.run_z80_once(before);
        }
        if last != 0 {
            self.run_z80_once(last);
        }
    }

    fn run_z80_once(&mut self, until: u64) {
        if !self.sys.zbus.z80_running() {
            return;
        }
        if until <= self.sys.z80_mclk {
            return;
        }
        let t0 = self.z80.t_states();
        self.sys.z80_t_base = t0;
        self.sys.z80_mclk_base = self.sys.z80_mclk;
        let t_until = t0 + (until - self.sys.z80_mclk).div_ceil(Z80_DIVIDER);
        self.z80.set_irq(self.sys.vdp.z80_irq);
        let view = Z80View(&mut self.sys);
        // The line is fixed for the run (and the console raises no NMI): with /INT released,
        // steps need not test for an interrupt.
        if self.z80.irq_line || self.z80.nmi_pending {
            run_z80_skipping_idle::<false>(&mut self.z80, view, t_until, &mut self.z80_idle);
        } else {
            run_z80_skipping_idle::<true>(&mut self.z80, view, t_until, &mut self.z80_idle);
        }
        let t1 = self.z80.t_states();
        self.sys.z80_mclk += (t1 - t0) * Z80_DIVIDER;
    }

    /// Keeps the Z80's clock with the system's while it is stopped.
    pub fn idle_z80(&mut self, until: u64) {
        if !self.sys.zbus.z80_running() && self.sys.z80_mclk < until {
            self.sys.z80_mclk = until;
        }
    }
}

/// Runs the Z80 to T-state `t_until`, skipping the passes of idle loops.
///
/// Within one run nothing but the Z80 changes the machine (the 68000, DMA and the line events
/// run between runs, and the interrupt line is fixed for the run). So when the Z80 comes back
/// to the target of a backward jump in the state it left it (R aside, which only counts
/// opcode fetches) having done nothing but read its own RAM, every further pass is the same
/// pass: the clock and R jump over the whole passes that end before `t_until`, and the rest
/// runs normally, reaching `t_until` in the same state as without the skip. A HALT waiting
/// for an interrupt is such a loop too.
///
/// Delay and wait loops whose state changes each pass (a `djnz $` counting B down) are never
/// the same pass twice; the core runs those it models in closed form (`Z80::fast_forward`,
/// Sonic 2's DAC pacing and its wait for a DAC sample), tried where a run starts and after
/// each backward jump, exactly as stepping would run them.
///
/// The candidate (`idle`: the CPU at its target PC, with t_states and R as they were) carries
/// over to the next run: between runs the 68000 may write Z80 RAM or reset the Z80, which marks
/// the view `z80_touched` (so the next arrival re-arms instead of skipping), and a changed
/// interrupt line is part of the compared state; the T-state count is the Z80's own, which stops
/// with it, so a pass measured across runs is still one pass.
fn run_z80_skipping_idle<const INT_RELEASED: bool>(
    z80: &mut SoundCpu,
    mut view: Z80View<'_>,
    t_until: u64,
    idle: &mut Option<SoundCpu>,
) {
    // The view is the loop's own (by value, and the out-of-line accesses take the `System`
    // it holds, not the view): the pointer to the system stays in a register instead of
    // being loaded again at every memory access.
    let view = &mut view;
    // A run often starts inside a delay loop the last one stopped in.
    z80.fast_forward(view, t_until);
    while z80.t_states() < t_until {
        let from = z80.regs.pc;
        // Most instructions cannot jump, and the core says so at compile time in their
        // bodies: PC is compared only after one that may have.
        if !z80.step_may_branch::<INT_RELEASED, _>(view) {
            continue;
        }
        let pc = z80.regs.pc;
        if pc > from || z80.pending_prefix != 0 {
            continue;
        }
        // A backward jump: into a delay or wait loop the core runs in closed form
        // (`Z80::fast_forward`: Sonic 2's `djnz $` DAC pacing and its wait for a sample), or
        // into a loop the idle detection below may find.
        if z80.fast_forward(view, t_until) {
            continue;
        }
        if let Some(then) = idle.as_ref()
            && then.regs.pc == pc
            && !view.0.z80_touched
            && same_but_clock_and_r(then, z80)
        {
            skip_idle_passes(z80, then, t_until);
        }
        *idle = Some(*z80);
        view.0.z80_touched = false;
    }
}

/// [`run_z80_skipping_idle`] where the Z80 came back to the target of a backward jump in the
/// state `then` it left it: the clock and R jump over the whole passes that end before
/// `t_until`. Out of line and cold (a few hundred times a frame at most, against thousands
/// of steps): the step loop keeps its registers for the steps.
#[cold]
#[inline(never)]
fn skip_idle_passes(z80: &mut SoundCpu, then: &SoundCpu, t_until: u64) {
    let now = z80.t_states();
    let pass = now - then.t_states;
    // The pass's M1 cycles, mod 128 as R counts them.
    let r_step = z80.regs.r().wrapping_sub(then.regs.r()) & 0x7F;
    if pass > 0 && now < t_until {
        let passes = (t_until - 1 - now) / pass;
        z80.set_t_states(now + passes * pass);
        z80.regs.add_r(passes.wrapping_mul(r_step as u64));
    }
}

/// Whether two Z80 states are equal apart from the T-state count and the refresh counter.
///
/// Field by field, without copying either side (this runs at every backward jump, and the
/// register most likely to differ, a delay loop's counter B, is tested first); the exhaustive
/// destructuring makes a register added to the core a compile error here.
fn same_but_clock_and_r(a: &SoundCpu, b: &SoundCpu) -> bool {
    let z80::Registers {
        pc,
        sp,
        a: acc,
        f,
        b: reg_b,
        c,
        d,
        e,
        h,
        l,
        i,
        r_rotated: _,
        ix,
        iy,
        wz,
        af_,
        bc_,
        de_,
        hl_,
        im,
        iff1,
        iff2,
        q,
    } = &a.regs;
    let o = &b.regs;
    *reg_b == o.b
        && *c == o.c
        && *acc == o.a
        && *f == o.f
        && *d == o.d
        && *e == o.e
        && *h == o.h
        && *l == o.l
        && *pc == o.pc
        && *sp == o.sp
        && *ix == o.ix
        && *iy == o.iy
        && *wz == o.wz
        && *q == o.q
        && *i == o.i
        && *af_ == o.af_
        && *bc_ == o.bc_
        && *de_ == o.de_
        && *hl_ == o.hl_
        && *im == o.im
        && *iff1 == o.iff1
        && *iff2 == o.iff2
        && a.after_ei() == b.after_ei()
        && a.after_ld_a_ir() == b.after_ld_a_ir()
        && a.halted == b.halted
        && a.nmi_pending == b.nmi_pending
        && a.irq_line == b.irq_line
        && a.pending_prefix == b.pending_prefix
}
