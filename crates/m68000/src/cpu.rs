//! Registers, the prefetch queue, bus cycles and the instruction loop.

use crate::timing::Timing;
use crate::{Bus, FunctionCode};

pub(crate) const SR_T: u16 = 0x8000;
pub(crate) const SR_S: u16 = 0x2000;
pub(crate) const C: u16 = 1;
pub(crate) const V: u16 = 2;
pub(crate) const Z: u16 = 4;
pub(crate) const N: u16 = 8;
pub(crate) const X: u16 = 16;

/// A bus cycle the 68000 could not make: a word or long access at an odd address. The
/// instruction is abandoned and group 0 exception processing stacks what is recorded here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AddressError {
    pub addr: u32,
    pub write: bool,
    pub fc: FunctionCode,
    /// The access was an instruction fetch (the I/N bit of the stacked status word is clear).
    #[allow(dead_code)]
    pub fetch: bool,
}

/// An instruction abandoned on an address error. The details wait in [`Cpu::fault`], so the
/// `Result`s every bus cycle returns are one flag, not the fault's fields copied up each level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault;

pub(crate) type Result<T> = core::result::Result<T, Fault>;

/// What the CPU is doing between instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Running,
    /// Executed STOP: waits for an interrupt above the mask (or trace).
    Stopped,
    /// Double bus fault: an address error while processing a group 0 exception. Only a reset
    /// gets the CPU going again; the rest of the machine runs on.
    Halted,
}

/// The 68000's programmer-visible state plus the prefetch queue and the clock.
#[derive(Clone)]
pub struct Cpu {
    /// D0-D7 then A0-A7 (A7 is the active stack pointer), so an index word's register field
    /// (bits 12-15) indexes it directly.
    pub regs: [u32; 16],
    /// The inactive stack pointer: USP in supervisor mode, SSP in user mode.
    pub other_sp: u32,
    /// Status register, CCR included.
    pub sr: u16,
    /// Address of the next prefetch (the instruction's own address plus 4 while it runs).
    pub pc: u32,
    /// The instruction register (opcode of the instruction executing or about to).
    pub ird: u16,
    /// The prefetched word after IRD.
    pub irc: u16,
    /// Absolute CPU clock.
    pub cycles: u64,
    pub state: RunState,
    /// Interrupt level on IPL0-2 (0 = none).
    pub ipl: u8,
    /// Level 7 is edge-triggered: set once taken, until IPL drops below 7.
    pub nmi_taken: bool,
    /// Whether a set T bit raises the trace exception after the instruction. Test runners
    /// that replay vectors recorded without trace processing clear it.
    pub trace_exceptions: bool,
    pub timing: Timing,
    /// Trace was armed at the start of the instruction.
    pub(crate) trace_armed: bool,
    /// How far behind the prefetch address the PC stacked by an address error is; depends
    /// on where the microcode is (set by the addressing mode about to be used).
    pub(crate) fault_pc_back: u32,
    /// The address error being processed (transient: set where a bus cycle faults, read by
    /// exception processing within the same instruction).
    pub(crate) fault: AddressError,
    /// Whether the next boundary needs more than the next instruction: T set, an interrupt
    /// to take, or the CPU stopped or halted ([`Cpu::refresh_attention`]). Derived from `sr`,
    /// `ipl`, `nmi_taken` and `state`, and kept up to date wherever the core changes them,
    /// so the boundary makes one test instead of working out the mask each time (a level
    /// stays asserted but masked for about 40 % of Sonic 2's instructions).
    pub(crate) attention: bool,
}

/// Equal in registers, queue, clock, run state and interrupt line.
impl PartialEq for Cpu {
    fn eq(&self, o: &Self) -> bool {
        self.cycles == o.cycles && self.same_state_but_clock(o)
    }
}

impl Cpu {
    /// Equal in everything but the clock: what the console compares to recognise two passes
    /// of an idle loop.
    #[inline(always)]
    pub fn same_state_but_clock(&self, o: &Cpu) -> bool {
        // Folded rather than compared as slices (a call to memcmp for 64 bytes).
        let mut regs_differ = 0;
        for i in 0..16 {
            regs_differ |= self.regs[i] ^ o.regs[i];
        }
        regs_differ == 0
            && self.other_sp == o.other_sp
            && self.sr == o.sr
            && self.pc == o.pc
            && self.ird == o.ird
            && self.irc == o.irc
            && self.state == o.state
            && self.ipl == o.ipl
            && self.nmi_taken == o.nmi_taken
            && self.trace_exceptions == o.trace_exceptions
            && self.timing == o.timing
    }
}

impl Eq for Cpu {}

impl core::fmt::Debug for Cpu {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cpu")
            .field("regs", &self.regs)
            .field("other_sp", &self.other_sp)
            .field("sr", &self.sr)
            .field("pc", &self.pc)
            .field("ird", &self.ird)
            .field("irc", &self.irc)
            .field("cycles", &self.cycles)
            .field("state", &self.state)
            .field("ipl", &self.ipl)
            .finish_non_exhaustive()
    }
}

impl Default for Cpu {
    fn default() -> Self {
        Self::new()
    }
}

impl Cpu {
    pub fn new() -> Self {
        Self {
            regs: [0; 16],
            other_sp: 0,
            sr: 0x2700,
            pc: 0,
            ird: 0,
            irc: 0,
            cycles: 0,
            state: RunState::Running,
            ipl: 0,
            nmi_taken: false,
            trace_exceptions: true,
            timing: Timing::Hardware,
            trace_armed: false,
            fault_pc_back: 2,
            fault: AddressError {
                addr: 0,
                write: false,
                fc: 0,
                fetch: false,
            },
            attention: false,
        }
    }

    /// Works out [`Cpu::next_boundary`]'s one test again. The core does this wherever it
    /// changes SR's system byte, IPL or the run state; a host that writes `sr`, `ipl`,
    /// `nmi_taken` or `state` directly calls it before `next_boundary` (`run`, `step` and
    /// `run_with_boundaries` do).
    #[inline]
    pub fn refresh_attention(&mut self) {
        self.attention =
            self.sr & SR_T != 0 || self.state != RunState::Running || self.interrupt_pending();
    }

    /// Whether the next boundary needs more than the next instruction (see
    /// [`Cpu::unattended_instruction`]).
    #[inline(always)]
    pub fn attention(&self) -> bool {
        self.attention
    }

    /// Tells the bus when the instruction running has raised the attention flag
    /// ([`Bus::attention_raised`]): after every change of SR's system byte or the run state
    /// an instruction makes.
    #[inline]
    pub(crate) fn tell_attention<B: Bus>(&self, bus: &mut B) {
        if self.attention {
            bus.attention_raised();
        }
    }

    /// USP whatever the mode.
    pub fn usp(&self) -> u32 {
        if self.sr & SR_S != 0 {
            self.other_sp
        } else {
            self.regs[15]
        }
    }
    /// SSP whatever the mode.
    pub fn ssp(&self) -> u32 {
        if self.sr & SR_S != 0 {
            self.regs[15]
        } else {
            self.other_sp
        }
    }
    pub fn set_usp(&mut self, v: u32) {
        if self.sr & SR_S != 0 {
            self.other_sp = v
        } else {
            self.regs[15] = v
        }
    }
    pub fn set_ssp(&mut self, v: u32) {
        if self.sr & SR_S != 0 {
            self.regs[15] = v
        } else {
            self.other_sp = v
        }
    }

    /// Writes SR, swapping stack pointers when S changes. Unused bits read as 0.
    pub fn set_sr(&mut self, value: u16) {
        let value = value & 0xA71F;
        if (value ^ self.sr) & SR_S != 0 {
            core::mem::swap(&mut self.regs[15], &mut self.other_sp);
        }
        self.sr = value;
        self.refresh_attention();
    }

    /// Asserts an interrupt priority level on IPL0-2 (0 = none). Taking the interrupt
    /// clears it: the host re-asserts whatever is still pending.
    #[inline]
    pub fn set_ipl(&mut self, level: u8) {
        if level < 7 {
            self.nmi_taken = false;
        }
        let level = level & 7;
        // The same level leaves the attention flag as it was (the console re-asserts the
        // level at many boundaries; below 7, `nmi_taken` does not count).
        if level != self.ipl {
            self.ipl = level;
            self.refresh_attention();
        }
    }

    /// Address of the next instruction (the prefetch address less the two queued words).
    pub fn instruction_pc(&self) -> u32 {
        self.pc.wrapping_sub(4)
    }

    /// Hardware reset: supervisor mode, mask 7, SSP and PC from vectors 0 and 1, queue filled.
    pub fn reset<B: Bus>(&mut self, bus: &mut B) {
        self.state = RunState::Running;
        self.set_sr(0x2700 | (self.sr & SR_S));
        self.sr = 0x2700;
        // Reset processing: 40 clocks from the manual, the four vector reads and two fetches
        // among them.
        self.cycles += 16;
        if self.reset_sequence(bus).is_err() {
            self.state = RunState::Halted;
        }
        self.refresh_attention();
    }

    fn reset_sequence<B: Bus>(&mut self, bus: &mut B) -> Result<()> {
        let hi = self.read_word(bus, 0, crate::FC_SUPERVISOR_PROGRAM)? as u32;
        let lo = self.read_word(bus, 2, crate::FC_SUPERVISOR_PROGRAM)? as u32;
        self.regs[15] = hi << 16 | lo;
        let hi = self.read_word(bus, 4, crate::FC_SUPERVISOR_PROGRAM)? as u32;
        let lo = self.read_word(bus, 6, crate::FC_SUPERVISOR_PROGRAM)? as u32;
        self.jump_fill(bus, hi << 16 | lo)
    }

    // ---- the instruction loop ----

    /// Runs instructions (and exceptions) until the clock reaches `until`. An instruction is
    /// never split, so the clock may pass `until`.
    pub fn run<B: Bus>(&mut self, bus: &mut B, until: u64) {
        self.refresh_attention();
        while self.cycles < until {
            if self.next_boundary(bus) == crate::Step::Stopped {
                // Stopped or halted: nothing happens on the bus until an interrupt (or a
                // reset), which the host raises between runs.
                self.cycles = until;
                return;
            }
        }
    }

    /// Whether an interrupt would be taken at the next boundary.
    #[inline]
    pub fn interrupt_pending(&self) -> bool {
        // No level asserted is the common case: decided before the mask is looked at.
        if self.ipl == 0 {
            return false;
        }
        let mask = ((self.sr >> 8) & 7) as u8;
        // A masked level is the next most common case (a handler running with the level of
        // another pending interrupt asserted): decided in one more test. Level 7 is never
        // masked, only edge-triggered.
        if self.ipl <= mask && self.ipl != 7 {
            return false;
        }
        (self.ipl > mask || !self.nmi_taken) && self.state != RunState::Halted
    }

    /// One instruction, or one interrupt entry, or (stopped/halted) 4 idle clocks.
    pub fn step<B: Bus>(&mut self, bus: &mut B) {
        self.refresh_attention();
        if self.next_boundary(bus) == crate::Step::Stopped {
            self.cycles += 4;
        }
    }

    /// Takes the pending interrupt (the caller has seen [`Cpu::interrupt_pending`]).
    pub(crate) fn take_interrupt<B: Bus>(&mut self, bus: &mut B) {
        // STOP leaves the queue address on the STOP itself (the vectors' PC does not
        // advance); the interrupt returns after its immediate word.
        if self.state == RunState::Stopped {
            self.pc = self.pc.wrapping_add(4);
        }
        self.state = RunState::Running;
        let level = self.ipl;
        if level == 7 {
            self.nmi_taken = true;
        }
        if self.interrupt(bus, level).is_err() {
            self.address_error(bus);
        }
    }

    /// Records the address error an access raises, for exception processing.
    #[cold]
    #[inline(never)]
    pub(crate) fn fault_at(&mut self, fault: AddressError) -> Fault {
        self.fault = fault;
        Fault
    }

    /// One instruction with T clear at its start (no trace exception after it).
    #[inline(always)]
    pub(crate) fn untraced_instruction<B: Bus>(&mut self, bus: &mut B) {
        self.fault_pc_back = 2;
        let op = self.ird;
        if self.execute(bus, op).is_err() {
            self.address_error(bus);
            // A double bus fault halts.
            self.tell_attention(bus);
        }
    }

    /// [`Cpu::next_boundary`] without its test, for a host that knows the attention flag is
    /// down ([`Cpu::attention`]): it looked since its own last change of `sr`, `ipl`,
    /// `nmi_taken` or `state` and since the last [`Cpu::next_boundary`], and the bus has not
    /// heard [`Bus::attention_raised`] since. Runs one instruction with T clear. The console
    /// runs the instructions between two of its looks this way, one test fewer each.
    #[inline(always)]
    pub fn unattended_instruction<B: Bus>(&mut self, bus: &mut B) {
        debug_assert!(!self.attention);
        self.untraced_instruction(bus);
    }

    /// One instruction and the trace exception after it.
    #[inline(always)]
    pub(crate) fn instruction<B: Bus>(&mut self, bus: &mut B) {
        // Trace is decided by T at the start of the instruction; an exception the instruction
        // raises itself (illegal, privilege, address error) cancels it.
        let traced = self.sr & SR_T != 0;
        if traced {
            self.trace_armed = self.trace_exceptions;
        }
        self.fault_pc_back = 2;
        let op = self.ird;
        match self.execute(bus, op) {
            Ok(()) => {
                if traced && self.trace_armed {
                    self.trace_armed = false;
                    if self.trace(bus).is_err() {
                        self.address_error(bus);
                    }
                }
            }
            Err(Fault) => {
                self.address_error(bus);
                self.tell_attention(bus);
            }
        }
    }

    #[inline(always)]
    fn execute<B: Bus>(&mut self, bus: &mut B, op: u16) -> Result<()> {
        crate::dispatch::dispatch(self, bus, op)
    }
}
