//! The console's 68000: our own core (`m68000`, the default) or the pinned `m68k` crate (the
//! cross-check backend), chosen when the machine is built.
//!
//! The scheduler runs either one straight to its next event: `m68k` with a callback at every
//! instruction boundary ([`BoundaryCore`]), ours with the same boundary work inline in the
//! scheduler's own loop (`machine::run_ours`, through `m68000::Cpu::next_boundary`). The
//! backend is matched once per scheduler run, not per instruction, so each core's loop stays
//! monomorphic.

use crate::bus::{Bus, Timing};
use crate::cpu::cpu68k::{Boundary, BoundaryControl, BoundaryExit, Cpu68k, Cpu68kState};

/// Which 68000 core runs the console.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CpuBackend {
    /// `crates/m68000`: every SingleStepTests vector, bus-cycle timing.
    #[default]
    Ours,
    /// The pinned `m68k` crate, kept to cross-check ours.
    M68k,
}

impl CpuBackend {
    pub const ALL: [CpuBackend; 2] = [CpuBackend::Ours, CpuBackend::M68k];

    /// The name the command line uses (`--cpu ours|m68k`).
    pub fn name(self) -> &'static str {
        match self {
            CpuBackend::Ours => "ours",
            CpuBackend::M68k => "m68k",
        }
    }
}

impl std::fmt::Display for CpuBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for CpuBackend {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        CpuBackend::ALL
            .into_iter()
            .find(|b| b.name() == s)
            .ok_or_else(|| format!("unknown 68000 core '{s}' (expected ours or m68k)"))
    }
}

/// The programmer-visible 68000 registers, the same whichever core runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Registers {
    pub d: [u32; 8],
    pub a: [u32; 8],
    pub usp: u32,
    pub ssp: u32,
    pub sr: u16,
    /// Address of the next instruction.
    pub pc: u32,
}

/// The console's 68000.
#[derive(Clone, Debug)]
pub enum MainCpu {
    Ours(m68000::Cpu),
    /// Boxed: `m68k`'s core is several times the size of ours.
    M68k(Box<Cpu68k>),
}

impl MainCpu {
    pub fn new(backend: CpuBackend) -> MainCpu {
        match backend {
            CpuBackend::Ours => MainCpu::Ours(m68000::Cpu::new()),
            CpuBackend::M68k => MainCpu::M68k(Box::default()),
        }
    }

    pub fn backend(&self) -> CpuBackend {
        match self {
            MainCpu::Ours(_) => CpuBackend::Ours,
            MainCpu::M68k(_) => CpuBackend::M68k,
        }
    }

    /// Hardware reset: SSP and PC from the vectors at 0 and 4 (the clocks are the caller's).
    pub fn reset(&mut self, bus: &mut Bus) {
        match self {
            MainCpu::Ours(c) => c.reset(bus),
            MainCpu::M68k(c) => c.reset(bus),
        }
    }

    /// Address of the next instruction.
    pub fn pc(&self) -> u32 {
        match self {
            MainCpu::Ours(c) => c.instruction_pc(),
            MainCpu::M68k(c) => c.pc(),
        }
    }

    pub fn registers(&self) -> Registers {
        match self {
            MainCpu::Ours(c) => Registers {
                d: c.regs[..8].try_into().expect("8 data registers"),
                a: c.regs[8..].try_into().expect("8 address registers"),
                usp: c.usp(),
                ssp: c.ssp(),
                sr: c.sr,
                pc: self.pc(),
            },
            MainCpu::M68k(c) => {
                let core = c.core();
                let sr = c.sr();
                let supervisor = sr & 0x2000 != 0;
                let a7 = core.dar[15];
                Registers {
                    d: core.dar[..8].try_into().expect("8 data registers"),
                    a: core.dar[8..].try_into().expect("8 address registers"),
                    usp: if supervisor { core.sp[0] } else { a7 },
                    ssp: if supervisor { a7 } else { core.sp[4] },
                    sr,
                    pc: self.pc(),
                }
            }
        }
    }

    /// Waiting in STOP for an interrupt (or, ours, halted by a double bus fault).
    pub fn is_stopped(&self) -> bool {
        match self {
            MainCpu::Ours(c) => c.state != m68000::RunState::Running,
            MainCpu::M68k(c) => c.is_stopped(),
        }
    }

    /// Whether a double bus fault halted the CPU (only reset revives it).
    pub fn is_halted(&self) -> bool {
        match self {
            MainCpu::Ours(c) => c.state == m68000::RunState::Halted,
            MainCpu::M68k(c) => c.is_halted(),
        }
    }
}

/// A 68000 the scheduler can run to its next event (see `Machine::run_cpu`).
pub(crate) trait BoundaryCore {
    /// What the boundary callback sees of the CPU.
    type View;
    /// The CPU state an idle-loop pass is compared with.
    type Snapshot;
    /// The console converts the core's instruction clocks to Genesis Plus GX 1.7's Musashi
    /// figures itself (`gpgx17_clocks`) rather than the core charging them.
    const TABLE_CLOCKS: bool;
    /// Adopts the console's timing switches before a run.
    fn prepare(&mut self, timing: &Timing);
    fn set_irq(&mut self, level: u8);
    fn snapshot(view: &Self::View) -> Self::Snapshot;
    /// The CPU is in the snapshot's state, its clock aside.
    fn same_but_clock(snapshot: &Self::Snapshot, view: &Self::View) -> bool;
    /// The core's own clock count at the next instruction's start, which the bus compares
    /// with each access's clock (0 for a core that does not report per-access clocks).
    fn clock(view: &Self::View) -> u64;
    fn own_clock(&self) -> u64;
    fn run_with_boundaries<F>(&mut self, bus: &mut Bus, boundary: F) -> BoundaryExit
    where
        F: FnMut(&mut Bus, Boundary, &Self::View) -> BoundaryControl;
}

impl BoundaryCore for m68000::Cpu {
    type View = m68000::Cpu;
    type Snapshot = m68000::Cpu;
    const TABLE_CLOCKS: bool = false;

    #[inline]
    fn prepare(&mut self, timing: &Timing) {
        // The core charges Genesis Plus GX 1.7's table itself, so the clocks reported at a
        // boundary are final (the console's gpgx17_clocks gives the same figures for m68k).
        self.timing = if timing.musashi_clocks {
            m68000::Timing::GPGX_1_7
        } else {
            m68000::Timing::Hardware
        };
    }
    #[inline]
    fn set_irq(&mut self, level: u8) {
        self.set_ipl(level);
    }
    #[inline]
    fn snapshot(view: &m68000::Cpu) -> m68000::Cpu {
        view.clone()
    }
    #[inline]
    fn same_but_clock(snapshot: &m68000::Cpu, view: &m68000::Cpu) -> bool {
        snapshot.same_state_but_clock(view)
    }
    #[inline]
    fn clock(view: &m68000::Cpu) -> u64 {
        view.cycles
    }
    #[inline]
    fn own_clock(&self) -> u64 {
        self.cycles
    }
    #[inline]
    fn run_with_boundaries<F>(&mut self, bus: &mut Bus, mut boundary: F) -> BoundaryExit
    where
        F: FnMut(&mut Bus, Boundary, &m68000::Cpu) -> BoundaryControl,
    {
        let exit = m68000::Cpu::run_with_boundaries(self, bus, |bus, b, cpu| {
            let c = boundary(
                bus,
                Boundary {
                    cpu_clocks: b.cpu_clocks,
                    pc: b.pc,
                    interrupt: b.interrupt,
                    opcode: b.opcode,
                },
                cpu,
            );
            m68000::BoundaryControl {
                stop: c.stop,
                irq_level: c.irq_level,
            }
        });
        match exit {
            m68000::BoundaryExit::Requested => BoundaryExit::Requested,
            m68000::BoundaryExit::Stopped => BoundaryExit::Stopped,
        }
    }
}

impl BoundaryCore for Cpu68k {
    type View = m68k::CpuCore;
    type Snapshot = Cpu68kState;
    const TABLE_CLOCKS: bool = true;

    #[inline]
    fn prepare(&mut self, _timing: &Timing) {}
    #[inline]
    fn set_irq(&mut self, level: u8) {
        Cpu68k::set_irq(self, level);
    }
    #[inline]
    fn snapshot(view: &m68k::CpuCore) -> Cpu68kState {
        Cpu68k::state_of(view)
    }
    #[inline]
    fn same_but_clock(snapshot: &Cpu68kState, view: &m68k::CpuCore) -> bool {
        *snapshot == Cpu68k::state_of(view)
    }
    #[inline]
    fn clock(_view: &m68k::CpuCore) -> u64 {
        0
    }
    #[inline]
    fn own_clock(&self) -> u64 {
        0
    }
    #[inline]
    fn run_with_boundaries<F>(&mut self, bus: &mut Bus, boundary: F) -> BoundaryExit
    where
        F: FnMut(&mut Bus, Boundary, &m68k::CpuCore) -> BoundaryControl,
    {
        Cpu68k::run_with_boundaries(self, bus, boundary)
    }
}
