//! The 68000's bus: address decoding over cartridge, work RAM, the Z80 area, I/O and the VDP,
//! open-bus reads, the bus-side clock the scheduler runs the 68000 against, the Z80's view of
//! the same hardware, and DMA from the 68000's bus into the VDP.
//!
//! Here: the hardware on the bus ([`System`]), the bus with the Z80 ([`Bus`]), open-bus reads
//! and the clock. Then one file a seam: `memory_map` (the 68000's reads and writes),
//! `vdp_ports`, `dma`, `control` (I/O, BUSREQ/RESET, TMSS, the Z80 area), `watch` (watched
//! writes), `timing` (the switches where emulators differ), `z80_bus` (the Z80's bus
//! arbitration, bank register and RAM), `z80_view` (the Z80's view of the console) and
//! `z80_run` (running the Z80, its idle-loop skip).

mod control;
mod dma;
mod memory_map;
mod sound;
mod timing;
mod vdp_ports;
mod watch;
pub mod z80_bus;
mod z80_run;
pub mod z80_view;

pub use timing::Timing;

use crate::cartridge::Cartridge;
use crate::clock::M68K_DIVIDER;
use crate::cpu::sound_cpu::SoundCpu;
use crate::io::Io;
use crate::sound::psg::Psg;
use crate::sound::ym2612::Ym2612;
use crate::vdp::Vdp;
use z80_bus::Z80Bus;

/// Bytes of 68000 work RAM.
pub const WORK_RAM_BYTES: usize = 0x1_0000;

/// A watched write: the run stops at the next instruction boundary after the 68000 writes
/// `value` (or anything, when `None`) to the byte at `addr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    pub addr: u32,
    pub value: Option<u8>,
}

/// A watch that fired: which, what was written, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchHit {
    pub addr: u32,
    pub value: u8,
    /// Absolute master clock of the write.
    pub mclk: u64,
}

/// Everything on the 68000's bus but the 68000 and the Z80 core.
#[derive(Clone, Debug)]
pub struct System {
    pub cart: Cartridge,
    /// Work RAM: a fixed size, so the 68000's accesses (`addr & $FFFF`) need no bounds test.
    pub ram: Box<[u8; WORK_RAM_BYTES]>,
    pub io: Io,
    pub vdp: Vdp,
    pub zbus: Z80Bus,
    pub ym: Ym2612,
    pub psg: Psg,
    /// Sound synthesis on a second thread (`sound::thread`).
    pub sound_thread: crate::sound::thread::SoundThread,
    /// The 68000's absolute master clock (start of the instruction being executed). While
    /// our 68000 runs (`machine::run_ours`) it is kept lazily: it holds the clock at the CPU
    /// clock `now_cycles`, and the instruction starts `instruction_clock`, so the true clock is
    /// `now + (instruction_clock - now_cycles) * M68K_DIVIDER`. Everything that reads or
    /// moves it during a run (the ports, a watch hit) brings it up to date first
    /// ([`System::sync_clock`]); between runs the two CPU clocks are equal and it is exact.
    pub now: u64,
    /// Next DRAM refresh stall.
    pub refresh_at: u64,
    /// The Z80's absolute master clock.
    pub z80_mclk: u64,
    /// During a Z80 run: its T-state and master clock at the run's start.
    pub z80_t_base: u64,
    pub z80_mclk_base: u64,
    /// 68000 clocks owed to Z80 bank-window reads, paid at its next run.
    pub m68k_debt_mclk: u64,
    /// Our 68000's own clock count at the start of the instruction being executed, and at
    /// the start of its latest bus cycle: the hardware profile places VDP port accesses at
    /// that bus cycle rather than at the instruction's start (transient within an
    /// instruction, so not in save states).
    pub instruction_clock: u64,
    pub access_clock: u64,
    /// The CPU clock at which `now` holds (see `now`).
    pub now_cycles: u64,
    /// The CPU clock from which our 68000's loop must look at its boundary again (the
    /// target, the next refresh stall; 0 after an access that set `boundary_check`), so
    /// that every other boundary is one compare (`machine::run_ours`).
    pub look_at: u64,
    /// PC of the instruction being executed plus 4: our 68000's prefetch address at the
    /// instruction's boundary (`Cpu::pc`), stored as it is so the boundary makes no
    /// subtraction; [`System::instruction_pc`] is the PC (open-bus reads return its prefetch).
    pub pc_ahead: u32,
    /// TMSS register $A14000.
    pub tmss: [u8; 4],
    pub timing: Timing,
    pub watches: Vec<Watch>,
    pub watch_hit: Option<WatchHit>,
    /// The work RAM offsets the watches cover, as the first and the span to the last
    /// (`u32::MAX`, 0 when none is in work RAM): a RAM write outside them skips
    /// [`System::note_write`]. Derived from `watches` at the start of every `Machine::run`
    /// ([`System::derive_ram_watch`]), the only time the 68000 writes.
    pub(crate) ram_watch_first: u32,
    pub(crate) ram_watch_span: u32,
    /// The same for word writes, whose first byte may lie one before the first watched
    /// offset: `ram_watch_first - 1` (wrapping) and `ram_watch_span + 1`, so that their test
    /// is one subtraction and one compare too.
    pub(crate) ram_watch_first_word: u32,
    pub(crate) ram_watch_span_word: u32,
    /// A watch lies outside work RAM: only then can a write past ROM and work RAM (the
    /// ports, Z80 RAM, SRAM) hit one. Derived with `ram_watch_first`; the suite's one watch
    /// is in work RAM, and every port write went through [`System::note_write`]'s search.
    pub(crate) port_watched: bool,
    /// The 68000 wrote somewhere, read something other than ROM or work RAM, or took an
    /// interrupt, or the Z80 wrote through its bank window, since the scheduler last cleared
    /// this (its idle-loop detection).
    pub touched: bool,
    /// The same for the Z80: it wrote, or read something other than its own RAM, since
    /// [`Bus::run_z80`] last cleared this.
    pub z80_touched: bool,
    /// The 68000 made an access that can change what its scheduler loop decides at an
    /// instruction boundary (a port, an interrupt acknowledge, a watched write) since the loop
    /// last looked: the loop recomputes the interrupt level and checks for a watch hit only
    /// then (`machine::run_ours`).
    pub boundary_check: bool,
}

/// The 68000's bus: the hardware plus the Z80 it must catch up on BUSREQ/RESET writes.
#[derive(Clone, Debug)]
pub struct Bus {
    pub sys: System,
    pub z80: SoundCpu,
    /// The Z80's idle-loop candidate
    /// ([`run_z80_skipping_idle`](z80_run::run_z80_skipping_idle)), carried from one Z80 run to
    /// the next within a `Machine::run` call, which clears it first.
    pub(crate) z80_idle: Option<SoundCpu>,
    /// Line ends the Z80 was not run to while it waited for an interrupt
    /// ([`Bus::run_z80_at_line_end`]): the one before the last and the last, 0 for none.
    /// Any run first runs to them, and `Machine::run` does before it returns, so between
    /// calls (save states, the harness) this is always `[0, 0]`.
    pub(crate) z80_owed: [u64; 2],
    /// Whether line ends may leave a waiting Z80 unrun (on by default; the tests compare
    /// against a run at every line end).
    pub z80_deferral: bool,
}

/// Extension words a 68000 instruction fetches before it reads its source operand: an
/// immediate operand (ORI...CMPI, static bit operations) and the source effective address's
/// displacement or address words. Only needed for what the status register's unused bits
/// read in Genesis Plus GX 1.7's model.
fn words_before_source(op: u16) -> u32 {
    let immediate = if op >> 12 == 0 && op & 0x0100 == 0 && op & 0x0E00 != 0x0800 {
        // ORI/ANDI/SUBI/ADDI/EORI/CMPI: one word, two for .L.
        if op & 0x00C0 == 0x0080 { 2 } else { 1 }
    } else if op & 0xFF00 == 0x0800 {
        // BTST/BCHG/BCLR/BSET #n: the bit number.
        1
    } else {
        0
    };
    let mode = (op >> 3) & 7;
    let reg = op & 7;
    let ea = match (mode, reg) {
        (5, _) | (6, _) => 1,
        (7, 0) | (7, 2) | (7, 3) => 1,
        (7, 1) => 2,
        (7, 4) => match op >> 12 {
            2 => 2,
            _ => 1,
        },
        _ => 0,
    };
    immediate + ea
}

impl System {
    /// The PC of the instruction being executed.
    #[inline(always)]
    fn instruction_pc(&self) -> u32 {
        self.pc_ahead.wrapping_sub(4)
    }

    fn open_bus_word(&self) -> u16 {
        self.word_at_pc(self.instruction_pc())
    }

    /// What fills the status register's unused bits. Genesis Plus GX 1.7 reads the word at
    /// its 68000's PC at the moment of the read, which has moved past the opcode and the
    /// extension words fetched before the source operand is read: for Sonic 2's
    /// `move.w ($C00004).l,d1` (Rev B $306) that is the next instruction, `btst #1,d1`.
    fn status_fill_word(&self) -> u16 {
        // The hardware profile too: the bits float at the 68000's prefetched next word
        // (VDPFIFOTesting's tests 35-40, "DMA Busy Flag ...", compare the whole status word
        // and pass only with it).
        if !self.timing.gpgx17_status_read && !self.timing.hardware_vdp {
            return self.open_bus_word();
        }
        let pc = self.instruction_pc();
        let op = self.word_at_pc(pc);
        self.word_at_pc(pc.wrapping_add(2 + 2 * words_before_source(op)))
    }

    fn word_at_pc(&self, pc: u32) -> u16 {
        let pc = pc & 0xFF_FFFE;
        match pc >> 16 {
            0x00..=0x3F => self.cart.read_word(pc),
            0xE0..=0xFF => {
                let a = (pc & 0xFFFF) as usize;
                u16::from_be_bytes([self.ram[a], self.ram[a + 1]])
            }
            _ => 0xFFFF,
        }
    }

    fn open_bus_byte(&self, addr: u32) -> u8 {
        let w = self.open_bus_word();
        if addr & 1 == 0 {
            (w >> 8) as u8
        } else {
            w as u8
        }
    }

    /// Brings the lazily kept clock up to the start of the instruction being executed (see
    /// `now`): a no-op between runs and under the `m68k` backend, which keep it exact.
    #[inline(always)]
    pub(crate) fn sync_clock(&mut self) {
        self.now += (self.instruction_clock - self.now_cycles) * M68K_DIVIDER;
        self.now_cycles = self.instruction_clock;
    }

    /// Makes our 68000's loop look at the next boundary (the interrupt level, a watch hit,
    /// the target against a clock that may have moved).
    #[inline(always)]
    pub(crate) fn ask_boundary(&mut self) {
        self.boundary_check = true;
        self.look_at = 0;
    }

    /// What every 68000 access past ROM and work RAM does first: marks the bus touched (the
    /// idle-loop detection), brings the clock up to date, asks for a look at the boundary.
    #[inline(always)]
    fn enter_port(&mut self) {
        self.touched = true;
        self.sync_clock();
        self.ask_boundary();
    }
}
