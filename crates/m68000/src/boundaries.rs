//! Running with a callback at every instruction boundary: the shape of the console's CPU loop
//! (`megadrive::cpu68k::Cpu68k::run_with_boundaries`), so the core can replace `m68k` there
//! without changing the scheduler.
//!
//! Hosts that keep their own loop (the console's) call the boundary directly:
//! [`Cpu::next_boundary`] runs one instruction, or the out-of-line interrupt, trace and STOP
//! path, decided by one attention flag that the core keeps up to date wherever SR, IPL and the
//! run state change. A host that tests the flag only when the bus has heard
//! [`Bus::attention_raised`] (the console, after a look) calls [`Cpu::attended_boundary`] then
//! and [`Cpu::unattended_instruction`] otherwise.

use crate::Bus;
use crate::cpu::{Cpu, RunState};

/// What [`Cpu::run_with_boundaries`] reports after each instruction or interrupt entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    /// CPU clocks of the instruction (exception processing included) or interrupt entry.
    pub cpu_clocks: u32,
    /// Address of what runs next.
    pub pc: u32,
    /// The boundary ends an interrupt entry, not an instruction.
    pub interrupt: bool,
    /// The opcode of the instruction just completed (meaningless after an interrupt entry).
    pub opcode: u16,
}

/// What the callback tells the CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundaryControl {
    /// Return before the next instruction.
    pub stop: bool,
    /// The interrupt level now asserted on IPL0-2 (0 = none).
    pub irq_level: u8,
}

/// How [`Cpu::run_with_boundaries`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundaryExit {
    /// The callback asked to stop.
    Requested,
    /// The CPU is stopped (STOP) or halted (double bus fault) with no interrupt to take.
    Stopped,
}

/// What [`Cpu::next_boundary`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Ran one instruction (and the trace exception after it, if any).
    Instruction,
    /// Took an interrupt.
    Interrupt,
    /// Stopped (STOP) or halted with no interrupt to take: nothing ran.
    Stopped,
}

impl Cpu {
    /// Runs to the next instruction boundary: one interrupt entry if one is pending, else one
    /// instruction, else (stopped or halted) nothing. The body of
    /// [`Cpu::run_with_boundaries`], for hosts that keep their own loop (the console runs its
    /// scheduler's checks inline instead of through a callback).
    ///
    /// A host that writes `sr`, `ipl`, `nmi_taken` or `state` directly calls
    /// [`Cpu::refresh_attention`] before this.
    #[inline(always)]
    pub fn next_boundary<B: Bus>(&mut self, bus: &mut B) -> Step {
        // T clear, running, no interrupt to take: the usual case, decided by one flag.
        if !self.attention {
            self.untraced_instruction(bus);
            return Step::Instruction;
        }
        self.attended_boundary(bus)
    }

    /// [`Cpu::next_boundary`] when the flag is up: an interrupt, a traced instruction, or a
    /// stopped or halted CPU. Out of line, so the usual path is one instruction and a test.
    /// (With the flag down it runs an instruction as [`Cpu::next_boundary`] does.)
    #[inline(never)]
    pub fn attended_boundary<B: Bus>(&mut self, bus: &mut B) -> Step {
        let step = if self.interrupt_pending() {
            self.take_interrupt(bus);
            Step::Interrupt
        } else if self.state != RunState::Running {
            Step::Stopped
        } else {
            self.instruction(bus);
            Step::Instruction
        };
        // Whatever the entry or the exception changed is worked out once more (cheap here).
        self.refresh_attention();
        step
    }

    /// Runs instructions and interrupt entries, calling `boundary` after each with its clocks
    /// and the next PC; the callback decides whether to go on and which level is asserted.
    pub fn run_with_boundaries<B, F>(&mut self, bus: &mut B, mut boundary: F) -> BoundaryExit
    where
        B: Bus,
        F: FnMut(&mut B, Boundary, &Cpu) -> BoundaryControl,
    {
        self.refresh_attention();
        loop {
            let start = self.cycles;
            let opcode = self.ird;
            let interrupt = match self.next_boundary(bus) {
                Step::Stopped => return BoundaryExit::Stopped,
                Step::Interrupt => true,
                Step::Instruction => false,
            };
            let b = Boundary {
                cpu_clocks: (self.cycles - start) as u32,
                pc: self.instruction_pc(),
                interrupt,
                opcode,
            };
            let control = boundary(bus, b, self);
            self.set_ipl(control.irq_level);
            if control.stop {
                return BoundaryExit::Requested;
            }
        }
    }
}
