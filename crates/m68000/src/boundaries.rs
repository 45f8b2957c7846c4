//! Running with a callback at every instruction boundary: the shape of the console's CPU loop
//! (`megadrive::cpu68k::Cpu68k::run_with_boundaries`), so the core can replace `m68k` there
//! without changing the scheduler.

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

impl Cpu {
    /// Runs instructions and interrupt entries, calling `boundary` after each with its clocks
    /// and the next PC; the callback decides whether to go on and which level is asserted.
    pub fn run_with_boundaries<B, F>(&mut self, bus: &mut B, mut boundary: F) -> BoundaryExit
    where
        B: Bus,
        F: FnMut(&mut B, Boundary, &Cpu) -> BoundaryControl,
    {
        loop {
            let start = self.cycles;
            let opcode = self.ird;
            let interrupt = self.ipl != 0 && self.interrupt_pending();
            if !interrupt && self.state != RunState::Running {
                return BoundaryExit::Stopped;
            }
            if interrupt {
                self.step(bus);
            } else {
                // What `step` does with no interrupt to take and the CPU running, without
                // deciding both again.
                self.instruction(bus);
            }
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
