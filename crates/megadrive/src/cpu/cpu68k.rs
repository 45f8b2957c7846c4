//! The 68000: the pinned `m68k` core behind the console's own bus trait.
//!
//! The console (or a test) implements [`M68kBus`]; [`Cpu68k`] adapts it to the crate's
//! `AddressBus`. The bus sees every access at its exact CPU clock through [`M68kBus::sync`],
//! so wait states, DMA stalls and Z80 contention are decided on our side, and a plain-RAM
//! bus can drive the same core in the vector tests.

use m68k::{
    AddressBus, CpuCore, CpuType, CycleBatchControl, CycleBatchExit, CycleBoundaryEvent,
    NoOpHleHandler, StepResult,
};

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

/// The 68000 clocks Genesis Plus GX 1.7 (stable-retro's build) charges for an instruction,
/// given the clocks the pinned core charged. That Genesis Plus GX runs Musashi with a fixed
/// per-opcode table; where the table differs from the core (which follows the 68000's
/// microcode), the table's figure wins here. Only instructions whose whole cost is in the
/// table are listed: the rest (branches, DBcc, Scc, shifts, MULU/MULS/DIVU/DIVS, MOVEM,
/// exceptions) agree with the core, data-dependent parts included.
pub fn gpgx17_clocks(opcode: u16, core_clocks: u32) -> u32 {
    // Dispatch on the top nibble first: every listed instruction is in line 0, 4 or 5, and
    // this runs after every instruction.
    match opcode >> 12 {
        0 => match opcode {
            // BCHG/BSET Dn,Dn: 8 whatever the bit number (the 68000: 6 below bit 16).
            op if matches!(op & 0xF1F8, 0x0140 | 0x01C0) => 8,
            // BCLR Dn,Dn: 10 (the 68000: 8 below bit 16).
            op if op & 0xF1F8 == 0x0180 => 10,
            // BCHG/BSET #n,Dn: 12; BCLR #n,Dn: 14 (the 68000: 2 less below bit 16).
            0x0840..=0x0847 | 0x08C0..=0x08C7 => 12,
            0x0880..=0x0887 => 14,
            // BTST Dn,#imm: 8 (the 68000: 10).
            op if op & 0xF1FF == 0x013C => 8,
            // ANDI.L #imm,Dn: 14 (the core: 16).
            0x0280..=0x0287 => 14,
            _ => core_clocks,
        },
        // TAS to memory: 4 more than the 68000 (the table's read-modify-write figure). Only
        // the memory modes TAS has, (An) to abs.l: the other encodings (An, PC-relative,
        // immediate) are illegal instructions and cost the exception alone, as in Musashi.
        4 if opcode & 0xFFC0 == 0x4AC0 && matches!(opcode & 0x3F, 0x10..=0x39) => core_clocks + 4,
        // ADDQ.W #q,An: 4 in the table (the 68000 takes 8). Sonic 2 (Rev B at $EC0E4, the
        // Saxman decompressor that unpacks the sound driver) runs `addq.w #4,sp` once per
        // call: with 8 clocks its SEGA screen ends on frame 329 instead of Genesis Plus GX's
        // 328.
        5 if opcode & 0xF1F8 == 0x5048 => 4,
        _ => core_clocks,
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
    /// Halted by a double bus fault: dead until reset (see [`Cpu68k::check_double_fault`]).
    halted: bool,
}

/// The group 0 exceptions (bus error, address error) whose own processing may not fault.
const VECTOR_BUS_ERROR: u32 = 2;
const VECTOR_ADDRESS_ERROR: u32 = 3;
/// Clocks of the address or bus error exception processing.
const GROUP0_ENTRY_CLOCKS: u32 = 50;

/// What a boundary callback of [`Cpu68k::run_with_boundaries`] tells the CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundaryControl {
    /// Return to the caller before the next instruction.
    pub stop: bool,
    /// The interrupt level now asserted on IPL0-2 (0 = none).
    pub irq_level: u8,
}

/// What [`Cpu68k::run_with_boundaries`] reports at each boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    /// CPU clocks of the instruction, interrupt entry or exception entry just completed.
    pub cpu_clocks: u32,
    /// PC of what runs next.
    pub pc: u32,
    /// The boundary ends an interrupt entry (not an instruction).
    pub interrupt: bool,
    /// The opcode word of the instruction just completed (meaningless after an interrupt
    /// entry).
    pub opcode: u16,
}

/// How [`Cpu68k::run_with_boundaries`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundaryExit {
    /// The callback asked to stop.
    Requested,
    /// The CPU executed STOP (or is halted) and waits for an interrupt.
    Stopped,
}

/// The 68000's registers and pipeline as plain data, for save states (`m68k::CpuCore` is not
/// `Clone`). Taken and restored at instruction boundaries only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cpu68kState {
    pub dar: [u32; 16],
    /// Stack pointer banks as the core keeps them (USP at 0, SSP at 4).
    pub sp: [u32; 8],
    pub pc: u32,
    pub ppc: u32,
    pub sr: u16,
    pub ir: u32,
    pub int_level: u32,
    pub stopped: u32,
    pub prefetch_queue: [u16; 2],
    pub prefetch_count: u8,
    pub pending_sync_clocks: u32,
    pub run_mode: u32,
    pub nmi_pending: u32,
    pub virq_state: u32,
    /// Halted by a double bus fault.
    pub halted: bool,
}

impl Clone for Cpu68k {
    fn clone(&self) -> Self {
        let mut cpu = Cpu68k::new();
        cpu.restore_state(&self.save_state());
        cpu
    }
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
        Self {
            core,
            halted: false,
        }
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
        self.core.last_exception_vector = None;
        // An odd initial PC faults the first prefetch of reset processing: a double fault.
        self.halted = self.core.pc & 1 != 0;
    }

    /// Whether a double bus fault halted the CPU (only reset revives it).
    pub fn is_halted(&self) -> bool {
        self.halted
    }

    /// Detects a double bus fault after an instruction or exception entry, and halts.
    ///
    /// The 68000 halts when an address or bus error occurs while it processes a bus error,
    /// address error or reset (MC68000 User's Manual §6.3.9, "double bus fault"): stacking the
    /// 14-byte group 0 frame with an odd SSP, or the handler's first prefetch from an odd
    /// vector (WinUAE's cycle-exact core halts on both). The pinned `m68k` 0.15.1 stacks with
    /// unchecked writes and charges 0 clocks for an address error taken on the opcode fetch, so
    /// an odd address-error vector made it loop through `trigger_address_error` (which also
    /// calls `getenv` on every fault) without time passing: random cartridge images hung the
    /// scheduler. The core's own halt (a bus error during bus error processing) is kept too.
    ///
    /// Returns the clocks of a group 0 exception entry the core took without charging them
    /// (it drops `exception_address_error`'s 50): MC68000 UM table 8-14, address and bus error
    /// 50(4/7). Without them an address-error storm (a handler that faults again) ran ~10,000
    /// faults a frame instead of ~2,500.
    fn check_double_fault(halted: &mut bool, core: &mut CpuCore) -> u32 {
        if core.is_halted() {
            *halted = true;
        }
        match core.last_exception_vector.take() {
            Some(v) if v == VECTOR_BUS_ERROR || v == VECTOR_ADDRESS_ERROR => {
                if core.pc & 1 != 0 || core.dar[15] & 1 != 0 {
                    *halted = true;
                }
                GROUP0_ENTRY_CLOCKS
            }
            _ => 0,
        }
    }

    /// Asserts the interrupt priority level on IPL0-2 (0 = none). The core forgets a level once
    /// it has taken it, so the host re-asserts whatever is still pending.
    pub fn set_irq(&mut self, level: u8) {
        self.core.set_irq(level);
    }

    /// One instruction (or interrupt entry), taking every exception the hardware would.
    /// Returns the CPU clocks used.
    ///
    /// This is the raw core, for the vector tests (which reuse one CPU for every vector and
    /// read `last_exception_vector` afterwards) and tools: no double-fault halt and no group 0
    /// clocks, which the console's runs ([`Cpu68k::run_with_boundaries`], [`Cpu68k::run`]) add.
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
            if self.halted {
                // A halted CPU burns its clocks until reset.
                return RunResult {
                    cycles: budget,
                    stopped: true,
                };
            }
            let result = self
                .core
                .run_for_cycles(&mut adapter, (budget - used).min(i32::MAX as u32) as i32);
            used += result.cycles.max(0) as u32;
            used += Self::check_double_fault(&mut self.halted, &mut self.core);
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

    /// Runs whole instructions, calling `boundary` with the CPU clocks of each completed
    /// instruction, interrupt entry or exception entry, and the PC of what runs next. The callback decides whether to stop
    /// and which interrupt level is asserted from then on, so the caller runs the 68000
    /// straight to its next scheduled event with interrupts raised at instruction boundaries.
    pub fn run_with_boundaries<B, F>(&mut self, bus: &mut B, mut boundary: F) -> BoundaryExit
    where
        B: M68kBus,
        F: FnMut(&mut B, Boundary, &CpuCore) -> BoundaryControl,
    {
        // Reset processing is accounted by the caller.
        self.core.reset_cycles = 0;
        let mut adapter = Adapter(bus);
        let halted = &mut self.halted;
        loop {
            if *halted {
                // The caller lets the clock run to its next event: the rest of the machine goes
                // on while the 68000 is dead.
                return BoundaryExit::Stopped;
            }
            let result = self.core.run_for_cycles_with_boundary_hook(
                &mut adapter,
                i32::MAX / 2,
                |cpu, adapter, event| {
                    let group0 = Self::check_double_fault(halted, cpu);
                    let (cycles, interrupt) = match event {
                        CycleBoundaryEvent::Instruction { cycles } => (cycles, false),
                        CycleBoundaryEvent::InterruptEntry { cycles } => (cycles, true),
                    };
                    let control = boundary(
                        adapter.0,
                        Boundary {
                            cpu_clocks: cycles.max(0) as u32 + group0,
                            pc: cpu.pc,
                            interrupt,
                            opcode: cpu.ir as u16,
                        },
                        cpu,
                    );
                    cpu.set_irq(control.irq_level);
                    if control.stop || *halted {
                        CycleBatchControl::Return
                    } else {
                        CycleBatchControl::Continue
                    }
                },
            );
            let group0 = Self::check_double_fault(halted, &mut self.core);
            let extra = match result.exit {
                CycleBatchExit::BoundaryRequested if *halted => return BoundaryExit::Stopped,
                CycleBatchExit::BoundaryRequested => return BoundaryExit::Requested,
                CycleBatchExit::Stopped => return BoundaryExit::Stopped,
                CycleBatchExit::BudgetExhausted => continue,
                CycleBatchExit::AlineTrap { .. } => self.core.take_aline_exception(&mut adapter),
                CycleBatchExit::FlineTrap { .. } => self.core.take_fline_exception(&mut adapter),
                CycleBatchExit::TrapInstruction { trap_num } => {
                    self.core.take_trap_exception(&mut adapter, trap_num)
                }
                CycleBatchExit::Breakpoint { .. } => self.core.take_bkpt_exception(&mut adapter),
                CycleBatchExit::IllegalInstruction { .. } => {
                    self.core.take_illegal_exception(&mut adapter)
                }
            };
            let group0 = group0 + Self::check_double_fault(halted, &mut self.core);
            let control = boundary(
                adapter.0,
                Boundary {
                    cpu_clocks: extra.max(0) as u32 + group0,
                    pc: self.core.pc,
                    interrupt: false,
                    opcode: self.core.ir as u16,
                },
                &self.core,
            );
            self.core.set_irq(control.irq_level);
            if control.stop {
                return BoundaryExit::Requested;
            }
        }
    }

    /// Whether the CPU waits in STOP for an interrupt.
    pub fn is_stopped(&self) -> bool {
        self.core.stopped != 0
    }

    /// Takes the registers and pipeline as plain data.
    pub fn save_state(&self) -> Cpu68kState {
        Cpu68kState {
            halted: self.halted,
            ..Self::state_of(&self.core)
        }
    }

    /// [`Cpu68k::save_state`] of a raw core (as a boundary callback sees it).
    pub fn state_of(c: &CpuCore) -> Cpu68kState {
        Cpu68kState {
            dar: c.dar,
            sp: c.sp,
            pc: c.pc,
            ppc: c.ppc,
            sr: c.get_sr(),
            ir: c.ir,
            int_level: c.int_level,
            stopped: c.stopped,
            prefetch_queue: c.prefetch_queue,
            prefetch_count: c.prefetch_count,
            pending_sync_clocks: c.pending_sync_clocks,
            run_mode: c.run_mode,
            nmi_pending: c.nmi_pending,
            virq_state: c.virq_state,
            halted: false,
        }
    }

    /// Restores what [`Cpu68k::save_state`] took.
    pub fn restore_state(&mut self, s: &Cpu68kState) {
        let c = &mut self.core;
        // Flags and mode bits first, without swapping stack banks; then the registers
        // and banks exactly as saved.
        c.set_sr_noint_nosp(s.sr);
        c.dar = s.dar;
        c.sp = s.sp;
        c.pc = s.pc;
        c.ppc = s.ppc;
        c.ir = s.ir;
        c.int_level = s.int_level;
        c.stopped = s.stopped;
        c.prefetch_queue = s.prefetch_queue;
        c.prefetch_count = s.prefetch_count;
        c.pending_sync_clocks = s.pending_sync_clocks;
        c.run_mode = s.run_mode;
        c.nmi_pending = s.nmi_pending;
        c.virq_state = s.virq_state;
        c.reset_cycles = 0;
        c.last_exception_vector = None;
        self.halted = s.halted;
    }

    pub fn sr(&self) -> u16 {
        self.core.get_sr()
    }
}
