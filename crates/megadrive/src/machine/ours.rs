//! The console's loop for our 68000 (`m68000`): [`run_ours`] runs it to a target with the
//! scheduler's boundary work inline, the idle-loop skip, the closed-form waits in a proven
//! idle loop, and the look at the boundaries that must look.

use crate::bus::Bus;
use crate::clock::{M68K_DIVIDER, M68K_REFRESH_DELAY_MCLK, M68K_REFRESH_PERIOD_MCLK};
use crate::cpu::cpu68k::BoundaryExit;
use crate::cpu::main_cpu::BoundaryCore;
use crate::vdp::irq_delay::IrqDelay;

/// The idle-loop candidate of [`run_ours`]: the target of the last backward branch, the CPU
/// clock when the CPU was last there, the CPU then once a pass without an access that touches
/// the machine has been seen; `end`: the master clock at which the run that armed it returned.
pub(super) struct OursIdle {
    /// The target's prefetch address (its PC plus 4, as `System::pc_ahead`).
    pc: u32,
    at: u64,
    state: Option<m68000::Cpu>,
    end: u64,
    /// The CPU was `state` (but the clock) at the last arrival: a full compare proved it, or
    /// the pass before it was already proven. A pass from `state` that touched nothing reads
    /// the same ROM and work RAM as the proven one and so ends in `state` again, except for the
    /// interrupt level, which the scheduler sets from outside (a masked level changes nothing
    /// the pass does; one taken is an interrupt, which touches). So the next arrival compares
    /// the level alone.
    proven: bool,
    /// Arrivals still to pass without recording or comparing, after a pass changed the CPU
    /// (a scan counting down a register), and the wait set after the next such pass: doubling
    /// up to [`IDLE_BACKOFF_MAX`]. The skip stays exact (it is only taken after a compare);
    /// the wait only delays it for a loop that settles after changing.
    wait: u8,
    backoff: u8,
    /// Counts the CPUs recorded in `state`, so a recorded pass knows which one it is of.
    epoch: u32,
    /// One pass of the proven loop from `state`, recorded for [`wait_in_closed_form`].
    pass: Option<IdlePass>,
}

/// A proven idle loop's pass, recorded by stepping a copy of the CPU from the candidate
/// ([`record_pass`]): the CPU at the candidate's boundary and at each after it up to the
/// loop's branch, with its clock offset from the candidate, and the pass's CPU clocks (0: the
/// pass could not be recorded). `epoch`: the `OursIdle::epoch` of the `state` it started from.
struct IdlePass {
    epoch: u32,
    len: u64,
    bounds: Vec<PassBoundary>,
}

/// The CPU at one boundary of a recorded pass: the fields an instruction of the pass can
/// change. The others (run state, interrupt level, NMI edge, attention flag, timing) are
/// those of the candidate's state at every boundary ([`record_pass`] refuses a pass where
/// they are not), so putting these back is putting the whole CPU back, a few stores instead
/// of a copy of the whole CPU.
#[derive(Clone, Copy)]
struct PassBoundary {
    /// CPU clocks from the candidate's boundary.
    off: u64,
    regs: [u32; 16],
    other_sp: u32,
    pc: u32,
    sr: u16,
    ird: u16,
    irc: u16,
}

impl PassBoundary {
    fn of(off: u64, c: &m68000::Cpu) -> Self {
        Self {
            off,
            regs: c.regs,
            other_sp: c.other_sp,
            pc: c.pc,
            sr: c.sr,
            ird: c.ird,
            irc: c.irc,
        }
    }

    #[inline(always)]
    fn put(&self, c: &mut m68000::Cpu) {
        c.regs = self.regs;
        c.other_sp = self.other_sp;
        c.pc = self.pc;
        c.sr = self.sr;
        c.ird = self.ird;
        c.irc = self.irc;
    }
}

/// The longest wait between compares of a loop whose passes change the CPU: Sonic 2's
/// object scans run 16 to 144 passes (a `dbf` over the object table).
const IDLE_BACKOFF_MAX: u8 = 15;

/// [`run_core`](super::run_core) for our 68000, with the scheduler's boundary work inline and only what changed
/// looked at. The clock moves once per instruction at its boundary as there (every access of
/// an instruction at its start clock), but it is kept as the CPU's own clock during the run
/// (`System::now` is brought up to date where the bus needs it, `System::sync_clock`), so the
/// boundary after an instruction stores where the next one starts and makes one compare
/// against `System::look_at`: the CPU clock of the next boundary that must look (the target,
/// the next refresh stall), or 0 after an access that can change what a boundary decides (a
/// port, an interrupt acknowledge, a watched write, `System::ask_boundary`). Only then are
/// the interrupt level, the watch hit, the refresh stall and the target worked out, as
/// [`run_core`](super::run_core) does at every boundary; the interrupt level and the watch hit only after such
/// an access or while the VDP's one-instruction latency is running (`System::boundary_check`).
/// The idle-loop skip is [`run_core`](super::run_core)'s, except that the CPU is taken to be back at the
/// candidate only at a backward branch (the end of a pass), and that a candidate is compared
/// from its third arrival (the first pass that touched nothing records the CPU), so a busy
/// loop's backward branches do not copy the CPU each pass; the skip is exact, so finding it
/// a pass later changes nothing.
///
/// The candidate carries over from one run to the next within a [`Machine::run`](super::Machine::run) call: between
/// the two only the line events, DMA and the Z80 run, none of which a loop that reads only ROM
/// and work RAM can see, except a Z80 write through the bank window (which marks the bus
/// `touched`) and a clock moved by a DMA stall or owed bank clocks (the candidate is dropped
/// then: a pass is measured on an unbroken clock). A newly asserted interrupt level is part of
/// the compared state. So a loop proven idle on one line is skipped from the next line's
/// first pass instead of after two more passes on every line.
pub(super) fn run_ours(
    cpu: &mut m68000::Cpu,
    bus: &mut Bus,
    target: u64,
    carried: &mut Option<OursIdle>,
) -> BoundaryExit {
    // A run that waits in a proven idle loop, as Sonic 2 waits for V-int on most lines of a
    // frame: its end worked out from the recorded pass instead of running the instructions.
    // Tested first, with only the entry work below that it needs: half of the bench's runs
    // end here.
    if let Some(idle) = carried.as_mut()
        && idle.proven
        && idle.wait == 0
        && idle.end == bus.sys.now
        && !bus.sys.touched
        && !bus.sys.timing.refresh_stall
        && bus.sys.watch_hit.is_none()
        && matches!(bus.sys.vdp.irq_delay, IrqDelay::None | IrqDelay::Held(_))
    {
        // The entry work of a quiet run below, as it would leave the system.
        let sys = &mut bus.sys;
        sys.instruction_clock = cpu.cycles;
        sys.now_cycles = cpu.cycles;
        cpu.set_ipl(sys.vdp.cpu_irq_level());
        sys.boundary_check = false;
        sys.look_at = sys.now_cycles + cpu_clocks_ceil(target - sys.now);
        if !cpu.attention() && wait_in_closed_form(cpu, bus, target, idle) {
            idle.end = bus.sys.now;
            return BoundaryExit::Requested;
        }
    }
    if carried.is_none() {
        // The first run of a `Machine::run` call (or the first after a STOP or a watch hit):
        // since the last call the host may have changed the timing profile, and a state load
        // or a debugger may have written SR, IPL or the run state directly. Within a call
        // only the core changes them, and keeps the attention flag up to date as it does.
        cpu.prepare(&bus.sys.timing);
        cpu.refresh_attention();
    }
    let sys = &mut bus.sys;
    sys.instruction_clock = cpu.cycles;
    sys.now_cycles = cpu.cycles;
    cpu.set_ipl(sys.vdp.cpu_irq_level());
    // With refresh stalls the clock does not advance by whole passes.
    let skip_idle = !sys.timing.refresh_stall;
    let quiet = skip_idle
        && sys.watch_hit.is_none()
        && matches!(sys.vdp.irq_delay, IrqDelay::None | IrqDelay::Held(_));
    if quiet {
        // The look the first boundary would make, made here: with no latency running the
        // level it would take is the one just set (the VDP's lines move only on an access that
        // asks for a look of its own), no watch has hit, and `now` is short of the target
        // (`Machine::run_cpu`), so all it would do is work out `look_at`.
        sys.boundary_check = false;
        sys.look_at = sys.now_cycles + cpu_clocks_ceil(target - sys.now);
    } else {
        // A latency may be running from the last run, or a refresh stall be due.
        sys.ask_boundary();
    }
    // Worked on in place: the candidate holds a copy of the CPU, too big to move in and out
    // of `carried` on every run.
    let idle = match carried {
        Some(idle) if skip_idle && idle.end == sys.now => idle,
        _ => carried.insert(OursIdle {
            pc: u32::MAX,
            at: 0,
            state: None,
            end: 0,
            proven: false,
            wait: 0,
            backoff: 0,
            epoch: 0,
            pass: None,
        }),
    };
    // One copy of the loop each way, so the per-instruction path does not test it.
    let exit = if skip_idle {
        run_ours_loop::<true>(cpu, bus, target, idle)
    } else {
        run_ours_loop::<false>(cpu, bus, target, idle)
    };
    // Exact again for the scheduler (a STOP returns without a look).
    let sys = &mut bus.sys;
    sys.instruction_clock = cpu.cycles;
    sys.sync_clock();
    if exit == BoundaryExit::Requested && sys.watch_hit.is_none() {
        idle.end = sys.now;
    } else {
        *carried = None;
    }
    exit
}

#[inline(always)]
fn run_ours_loop<const SKIP_IDLE: bool>(
    cpu: &mut m68000::Cpu,
    bus: &mut Bus,
    target: u64,
    idle: &mut OursIdle,
) -> BoundaryExit {
    loop {
        if cpu.attention() {
            if let Some(exit) = attended_boundary::<SKIP_IDLE>(cpu, bus, target, idle) {
                return exit;
            }
            continue;
        }
        // Until the next look only an instruction can raise the CPU's attention flag (the
        // interrupt level is set at a look), and one that does asks for a look
        // (`Bus::attention_raised`): so the instructions up to it need no test of the flag.
        while {
            cpu.unattended_instruction(bus);
            !pass_boundary::<SKIP_IDLE>(cpu, bus, target, false, idle)
        } {}
        if let Some(exit) = look::<SKIP_IDLE>(cpu, bus, target) {
            return exit;
        }
    }
}

/// The boundary when the CPU's attention flag is up (an interrupt to take, a traced
/// instruction, a stopped or halted CPU), with the scheduler's boundary work after it. Out of
/// line, so the instruction path is one copy of the dispatch.
#[cold]
#[inline(never)]
fn attended_boundary<const SKIP_IDLE: bool>(
    cpu: &mut m68000::Cpu,
    bus: &mut Bus,
    target: u64,
    idle: &mut OursIdle,
) -> Option<BoundaryExit> {
    match cpu.attended_boundary(bus) {
        m68000::Step::Instruction => boundary::<SKIP_IDLE>(cpu, bus, target, false, idle),
        m68000::Step::Stopped => Some(BoundaryExit::Stopped),
        m68000::Step::Interrupt => interrupt_boundary::<SKIP_IDLE>(cpu, bus, target, idle),
    }
}

/// The boundary after an interrupt entry: its clocks are the profile's figure where it has
/// one (Genesis Plus GX 1.7 charges 54), not the core's, so the clock is brought up to date
/// here, and the boundary looks (the acknowledge asked for it already).
#[cold]
#[inline(never)]
fn interrupt_boundary<const SKIP_IDLE: bool>(
    cpu: &mut m68000::Cpu,
    bus: &mut Bus,
    target: u64,
    idle: &mut OursIdle,
) -> Option<BoundaryExit> {
    let sys = &mut bus.sys;
    // `instruction_clock` is still the entry's start.
    sys.sync_clock();
    let clocks = match sys.timing.interrupt_clocks {
        Some(c) => c as u64,
        None => cpu.cycles - sys.instruction_clock,
    };
    sys.now += clocks * M68K_DIVIDER;
    sys.now_cycles = cpu.cycles;
    sys.look_at = 0;
    boundary::<SKIP_IDLE>(cpu, bus, target, true, idle)
}

/// The scheduler's work at the boundary after an instruction or an interrupt entry: where
/// the next instruction starts, the idle-loop detection, and the look when one is due. `Some`
/// ends the run.
#[inline(always)]
fn boundary<const SKIP_IDLE: bool>(
    cpu: &mut m68000::Cpu,
    bus: &mut Bus,
    target: u64,
    interrupt: bool,
    idle: &mut OursIdle,
) -> Option<BoundaryExit> {
    if pass_boundary::<SKIP_IDLE>(cpu, bus, target, interrupt, idle) {
        return look::<SKIP_IDLE>(cpu, bus, target);
    }
    None
}

/// [`boundary`] but the look: whether one is due.
#[inline(always)]
fn pass_boundary<const SKIP_IDLE: bool>(
    cpu: &mut m68000::Cpu,
    bus: &mut Bus,
    target: u64,
    interrupt: bool,
    idle: &mut OursIdle,
) -> bool {
    // The prefetch address, 4 past the PC (`System::pc_ahead`): compared and stored as it is.
    let pc = cpu.pc;
    let from = std::mem::replace(&mut bus.sys.pc_ahead, pc);
    // A loop's passes end in a backward branch to its start: only then is the CPU back at
    // the candidate or at a new one (one compare after the usual forward step).
    if SKIP_IDLE && pc <= from && !interrupt {
        // A scan or fill loop's passes up to the next look, in closed form: they read only
        // work RAM or ROM and write only unwatched work RAM, so nothing but the CPU and the
        // RAM they fill can tell (no refresh stalls in this profile; the interrupt level
        // changes only at a look). The idle-loop candidate starts again after them, as
        // after a pass that touched something (the passes skipped are not the pass an
        // arrival's compare measures).
        let look_at = bus.sys.look_at;
        if cpu.skip_loop_passes(bus, look_at) {
            bus.sys.touched = true;
        }
        if pc == idle.pc {
            arrive(cpu, bus, target, idle);
        } else {
            idle.pc = pc;
            idle.at = cpu.cycles;
            idle.state = None;
            idle.proven = false;
            idle.wait = 0;
            idle.backoff = 0;
            bus.sys.touched = false;
        }
    }
    let cycles = cpu.cycles;
    // Where the next instruction's accesses count from (the lazily kept clock, and
    // `Bus::access_time`, the hardware profile's own bus cycles).
    bus.sys.instruction_clock = cycles;
    cycles >= bus.sys.look_at
}

/// The CPU is back at the idle-loop candidate: the pass since it was last there touched
/// nothing and left the CPU as it was, so the clock jumps over the whole passes that end
/// before the target; or it touched nothing, and the CPU is recorded for the next arrival; or
/// it touched something, and the candidate starts again from here.
#[inline(always)]
fn arrive(cpu: &m68000::Cpu, bus: &mut Bus, target: u64, idle: &mut OursIdle) {
    let sys = &mut bus.sys;
    if sys.touched {
        idle.state = None;
        idle.proven = false;
    } else if idle.wait > 0 {
        idle.wait -= 1;
    } else {
        match &idle.state {
            Some(state)
                if (idle.proven && state.ipl == cpu.ipl) || state.same_state_but_clock(cpu) =>
            {
                idle.proven = true;
                // No access touched the machine since the last arrival, so nothing moved the
                // clock but the instructions.
                sys.sync_clock();
                let now = sys.now;
                let pass = (cpu.cycles - idle.at) * M68K_DIVIDER;
                if now < target && pass > 0 {
                    sys.now += (target - 1 - now) / pass * pass;
                    sys.look_at = 0;
                }
            }
            Some(_) => {
                idle.state = None;
                idle.proven = false;
                idle.backoff = (idle.backoff * 2 + 1).min(IDLE_BACKOFF_MAX);
                idle.wait = idle.backoff;
            }
            None => {
                idle.state = Some(cpu.clone());
                idle.epoch = idle.epoch.wrapping_add(1);
            }
        }
    }
    idle.at = cpu.cycles;
    sys.touched = false;
}

/// A run from inside a proven idle loop (the candidate proven, nothing touched since its last
/// arrival, the level the one it was proven with, no latency or watch to look at, the
/// attention flag down): the CPU can only be going round the loop, each pass the recorded one
/// ([`IdlePass`]; a pass's boundaries other than the candidate's have increasing PCs, so the
/// PC says where in it the CPU is). Works out the boundary the run would end at and the
/// clocks [`arrive`]'s skip and [`look`] would leave, and puts the CPU in its recorded state
/// there: the same state at the same clock as running the instructions. `false` (nothing
/// changed) when the pass cannot be recorded or the CPU is not where the record says.
#[inline(always)]
fn wait_in_closed_form(
    cpu: &mut m68000::Cpu,
    bus: &mut Bus,
    target: u64,
    idle: &mut OursIdle,
) -> bool {
    let Some(s0) = idle.state.as_ref() else {
        return false;
    };
    if s0.ipl != cpu.ipl {
        return false;
    }
    if idle.pass.as_ref().is_none_or(|p| p.epoch != idle.epoch) {
        idle.pass = Some(record_pass(s0, bus, idle.epoch));
    }
    let Some(pass) = idle.pass.as_ref().filter(|p| p.len > 0) else {
        return false;
    };
    let bounds = &pass.bounds[..];
    let k = bounds.len();
    // The candidate's boundary is the first, at the candidate's PC.
    let Some(j) = bounds.iter().position(|b| b.pc == cpu.pc) else {
        return false;
    };
    let off_j = bounds[j].off;
    // The last arrival was at the candidate of the pass the CPU is in.
    if cpu.cycles.checked_sub(off_j) != Some(idle.at) {
        return false;
    }
    let base = idle.at;
    let sys = &mut bus.sys;
    // Exact between runs: `now_cycles` is the CPU's clock.
    let n0 = sys.now;
    // The boundaries up to the loop's branch: the run ends at the first at or past the target.
    let mut end = None;
    for (i, b) in bounds.iter().enumerate().skip(j + 1) {
        let t = n0 + (b.off - off_j) * M68K_DIVIDER;
        if t >= target {
            end = Some((i, base + b.off, t, base));
            break;
        }
    }
    if end.is_none() {
        // The branch back starts before the target: `arrive` skips the whole passes that end
        // before it, counted from the branch's start, and the run ends at the first boundary
        // of the next pass at or past it (the branch's own start is, one pass on).
        let branch = bounds[k - 1].off;
        let now_branch = n0 + (branch - off_j) * M68K_DIVIDER;
        let p = pass.len * M68K_DIVIDER;
        let now0 =
            now_branch + (target - 1 - now_branch) / p * p + (pass.len - branch) * M68K_DIVIDER;
        let at0 = base + pass.len;
        end = bounds
            .iter()
            .enumerate()
            .map(|(i, b)| (i, at0 + b.off, now0 + b.off * M68K_DIVIDER, at0))
            .find(|e| e.2 >= target);
    }
    let Some((i, cycles, now, at)) = end else {
        return false;
    };
    bounds[i].put(cpu);
    cpu.cycles = cycles;
    sys.now = now;
    sys.now_cycles = cycles;
    sys.instruction_clock = cycles;
    sys.pc_ahead = cpu.pc;
    idle.at = at;
    true
}

/// One pass of a proven idle loop from its candidate `s0`, stepped on a copy of the CPU: it
/// reads the same ROM and work RAM as the proven passes (nothing touched them since), so it
/// makes no other access. Refused (`len` 0) if it touches anything, raises the attention flag,
/// changes the CPU other than in the fields [`PassBoundary`] keeps, branches back anywhere but
/// to the candidate, takes more than 16 instructions, or does not end in `s0` again.
#[cold]
#[inline(never)]
fn record_pass(s0: &m68000::Cpu, bus: &mut Bus, epoch: u32) -> IdlePass {
    let refused = IdlePass {
        epoch,
        len: 0,
        bounds: Vec::new(),
    };
    let look_at = bus.sys.look_at;
    let mut c = s0.clone();
    let start = c.cycles;
    let mut from = c.pc;
    let mut bounds = vec![PassBoundary::of(0, s0)];
    loop {
        if c.attention() || bounds.len() > 17 {
            return refused;
        }
        c.unattended_instruction(bus);
        if bus.sys.touched || bus.sys.look_at != look_at {
            return refused;
        }
        if c.pc <= from {
            if c.pc != s0.pc || !c.same_state_but_clock(s0) {
                return refused;
            }
            return IdlePass {
                epoch,
                len: c.cycles - start,
                bounds,
            };
        }
        from = c.pc;
        // What `PassBoundary::put` leaves alone must be the candidate's.
        let mut kept = s0.clone();
        PassBoundary::of(0, &c).put(&mut kept);
        kept.cycles = c.cycles;
        if kept != c || c.attention() {
            return refused;
        }
        bounds.push(PassBoundary::of(c.cycles - start, &c));
    }
}

/// `mclk.div_ceil(M68K_DIVIDER)`, the CPU clocks a span of master clocks takes up: one
/// multiply for the spans a run or a look sees (a line, a frame), the division past them.
#[inline(always)]
fn cpu_clocks_ceil(mclk: u64) -> u64 {
    if mclk < 1 << 30 {
        // 0x2492_4925 is 2^32 / 7 rounded up: (n * it) >> 32 is n / 7 for n below 2^32 / 3,
        // and (mclk + 6) / 7 is the quotient rounded up.
        ((mclk + 6) * 0x2492_4925) >> 32
    } else {
        mclk.div_ceil(M68K_DIVIDER)
    }
}

/// The look at a boundary that may need one: brings the clock up to date, takes the refresh
/// stall that is due (the hardware and later Genesis Plus GX profiles), works out the
/// interrupt level and the watch hit when an access asked for them, stops at the target, and
/// otherwise works out the CPU clock of the next boundary that must look.
#[inline(never)]
fn look<const SKIP_IDLE: bool>(
    cpu: &mut m68000::Cpu,
    bus: &mut Bus,
    target: u64,
) -> Option<BoundaryExit> {
    let sys = &mut bus.sys;
    sys.sync_clock();
    if !SKIP_IDLE && sys.timing.refresh_stall && sys.now >= sys.refresh_at {
        // `Bus::advance_cpu`'s stall: the next instruction fetch waits for the refresh.
        sys.refresh_at = sys.now + M68K_REFRESH_PERIOD_MCLK;
        sys.now += M68K_REFRESH_DELAY_MCLK;
    }
    if sys.boundary_check {
        let vdp = &mut sys.vdp;
        cpu.set_ipl(vdp.cpu_irq_level_at_boundary());
        // The latency's next steps happen at the following boundaries.
        sys.boundary_check = matches!(vdp.irq_delay, IrqDelay::Armed(_) | IrqDelay::Next(_));
        if sys.watch_hit.is_some() {
            return Some(BoundaryExit::Requested);
        }
    }
    if sys.now >= target {
        return Some(BoundaryExit::Requested);
    }
    sys.look_at = if sys.boundary_check {
        0
    } else {
        // The first CPU clock at which the clock reaches the target or the next refresh
        // stall (the refresh is always ahead of `now` here).
        let until = if SKIP_IDLE {
            target
        } else {
            target.min(sys.refresh_at)
        };
        sys.now_cycles + cpu_clocks_ceil(until - sys.now)
    };
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_clocks_round_up() {
        for n in 0..1_000_000u64 {
            assert_eq!(cpu_clocks_ceil(n), n.div_ceil(M68K_DIVIDER), "{n}");
        }
        let edges = [0u64, 1 << 30, (1 << 32) / 3, u32::MAX as u64, u64::MAX / 8];
        for edge in edges {
            for d in 0..20_000u64 {
                for n in [edge.saturating_sub(d), edge.saturating_add(d)] {
                    assert_eq!(cpu_clocks_ceil(n), n.div_ceil(M68K_DIVIDER), "{n}");
                }
            }
        }
    }
}
