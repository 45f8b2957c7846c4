//! The 68000: the pinned `m68k` core behind the console's own bus trait.
//!
//! The console (or a test) implements [`M68kBus`]; [`Cpu68k`] adapts it to the crate's
//! `AddressBus`. The bus sees every access at its exact CPU clock through [`M68kBus::sync`],
//! so wait states, DMA stalls and Z80 contention are decided on our side, and a plain-RAM
//! bus can drive the same core in the vector tests.

use m68k::{AddressBus, CpuCore, CpuType, CycleBatchExit, NoOpHleHandler, StepResult};

/// The 68000's view of the machine: 24-bit addresses, big-endian, word accesses even.
pub trait M68kBus {
    fn read_byte(&mut self, addr: u32) -> u8;
    fn read_word(&mut self, addr: u32) -> u16;
    fn write_byte(&mut self, addr: u32, value: u8);
    fn write_word(&mut self, addr: u32, value: u16);
    /// Called before every bus access with the CPU clocks spent since the previous one
    /// (internal processing plus the previous access's 4 clocks are the core's business:
    /// see `m68k::AddressBus::sync`).
    fn sync(&mut self, _cpu_clocks: u32) {}
    /// An interrupt of `level` is being acknowledged (the VDP clears its pending flag here).
    fn interrupt_acknowledge(&mut self, _level: u8) {}
}

/// Adapts an [`M68kBus`] to the crate's trait; long accesses are two word cycles, high first,
/// as on the 68000's 16-bit bus.
struct Adapter<'a, B: M68kBus>(&'a mut B);

const ADDRESS_MASK: u32 = 0x00FF_FFFF;

impl<B: M68kBus> AddressBus for Adapter<'_, B> {
    #[inline]
    fn read_byte(&mut self, address: u32) -> u8 {
        self.0.read_byte(address & ADDRESS_MASK)
    }
    #[inline]
    fn read_word(&mut self, address: u32) -> u16 {
        self.0.read_word(address & ADDRESS_MASK)
    }
    #[inline]
    fn read_long(&mut self, address: u32) -> u32 {
        let hi = self.0.read_word(address & ADDRESS_MASK) as u32;
        let lo = self.0.read_word(address.wrapping_add(2) & ADDRESS_MASK) as u32;
        (hi << 16) | lo
    }
    #[inline]
    fn write_byte(&mut self, address: u32, value: u8) {
        self.0.write_byte(address & ADDRESS_MASK, value)
    }
    #[inline]
    fn write_word(&mut self, address: u32, value: u16) {
        self.0.write_word(address & ADDRESS_MASK, value)
    }
    #[inline]
    fn write_long(&mut self, address: u32, value: u32) {
        self.0
            .write_word(address & ADDRESS_MASK, (value >> 16) as u16);
        self.0
            .write_word(address.wrapping_add(2) & ADDRESS_MASK, value as u16);
    }
    #[inline]
    fn sync(&mut self, cpu_clocks: u32) {
        self.0.sync(cpu_clocks)
    }
    fn interrupt_acknowledge(&mut self, level: u8) -> u32 {
        self.0.interrupt_acknowledge(level);
        // The Mega Drive autovectors every level.
        u32::MAX
    }
}

/// How a run of the 68000 ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunResult {
    /// CPU clocks used (instructions are never split, so this may pass the budget).
    pub cycles: u32,
    /// The CPU executed STOP and waits for an interrupt.
    pub stopped: bool,
}

/// The console's 68000.
#[derive(Debug)]
pub struct Cpu68k {
    core: CpuCore,
}

impl Default for Cpu68k {
    fn default() -> Self {
        Self::new()
    }
}

impl Cpu68k {
    pub fn new() -> Self {
        let mut core = CpuCore::new();
        core.set_cpu_type(CpuType::M68000);
        Self { core }
    }

    /// The raw core, for tests and debuggers that need registers the wrapper does not name.
    pub fn core(&self) -> &CpuCore {
        &self.core
    }

    pub fn core_mut(&mut self) -> &mut CpuCore {
        &mut self.core
    }

    /// Hardware reset: loads SSP and PC from the vectors at 0 and 4.
    pub fn reset<B: M68kBus>(&mut self, bus: &mut B) {
        self.core.reset(&mut Adapter(bus));
    }

    /// Asserts the interrupt priority level on IPL0-2 (0 = none). The core forgets a level once
    /// it has taken it, so the host re-asserts whatever is still pending.
    pub fn set_irq(&mut self, level: u8) {
        self.core.set_irq(level);
    }

    /// One instruction (or interrupt entry), taking every exception the hardware would.
    /// Returns the CPU clocks used.
    pub fn step<B: M68kBus>(&mut self, bus: &mut B) -> u32 {
        let mut handler = NoOpHleHandler;
        match self
            .core
            .step_with_hle_handler(&mut Adapter(bus), &mut handler)
        {
            StepResult::Ok { cycles } => cycles.max(0) as u32,
            StepResult::Stopped => 0,
            // With no HLE handler every trap falls back to its hardware exception inside the
            // core; the remaining variants carry no extra clocks for us.
            _ => 0,
        }
    }

    /// Runs whole instructions until at least `budget` clocks are used or the CPU stops.
    pub fn run<B: M68kBus>(&mut self, bus: &mut B, budget: u32) -> RunResult {
        let mut used = 0u32;
        let mut adapter = Adapter(bus);
        while used < budget {
            let result = self
                .core
                .run_for_cycles(&mut adapter, (budget - used).min(i32::MAX as u32) as i32);
            used += result.cycles.max(0) as u32;
            match result.exit {
                CycleBatchExit::BudgetExhausted | CycleBatchExit::BoundaryRequested => {}
                CycleBatchExit::Stopped => {
                    return RunResult {
                        cycles: used,
                        stopped: true,
                    };
                }
                CycleBatchExit::AlineTrap { .. } => {
                    used += self.core.take_aline_exception(&mut adapter).max(0) as u32
                }
                CycleBatchExit::FlineTrap { .. } => {
                    used += self.core.take_fline_exception(&mut adapter).max(0) as u32
                }
                CycleBatchExit::TrapInstruction { trap_num } => {
                    used += self.core.take_trap_exception(&mut adapter, trap_num).max(0) as u32
                }
                CycleBatchExit::Breakpoint { .. } => {
                    used += self.core.take_bkpt_exception(&mut adapter).max(0) as u32
                }
                CycleBatchExit::IllegalInstruction { .. } => {
                    used += self.core.take_illegal_exception(&mut adapter).max(0) as u32
                }
            }
        }
        RunResult {
            cycles: used,
            stopped: false,
        }
    }

    pub fn pc(&self) -> u32 {
        self.core.pc
    }

    pub fn sr(&self) -> u16 {
        self.core.get_sr()
    }
}
