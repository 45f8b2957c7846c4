//! The 68000's bus: address decoding over cartridge, work RAM, the Z80 area, I/O and the VDP,
//! open-bus reads, the bus-side clock the scheduler runs the 68000 against, the Z80's view of
//! the same hardware, and DMA from the 68000's bus into the VDP.

use crate::cartridge::Cartridge;
use crate::clock::{
    M68K_DIVIDER, M68K_REFRESH_DELAY_MCLK, M68K_REFRESH_PERIOD_MCLK, MCLK_PER_LINE, Z80_DIVIDER,
};
use crate::cpu::cpu68k::M68kBus;
use crate::cpu::sound_cpu::SoundCpu;
use crate::io::Io;
use crate::psg::Psg;
use crate::vdp::dma::{self, DmaKind};
use crate::vdp::ports::PortEffect;
use crate::vdp::{Vdp, status};
use crate::ym2612::Ym2612;
use crate::z80_bus::{M68K_BANK_ACCESS_PENALTY_MCLK, M68K_Z80_ACCESS_MCLK, Z80Bus};

/// Bytes of 68000 work RAM.
pub const WORK_RAM_BYTES: usize = 0x1_0000;

/// Timing choices where emulators (and revisions of one emulator) differ. The default is the
/// reference the project measures against: Genesis Plus GX 1.7.x as shipped in stable-retro.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// The 68000 loses bus cycles while the Z80 reads through the bank window (hardware does;
    /// Genesis Plus GX does not model it).
    pub bank_contention: bool,
    /// The 68000 loses 2 of every 128 clocks to DRAM refresh (Genesis Plus GX since 2024).
    pub refresh_stall: bool,
    /// 68000 clocks of an auto-vectored interrupt entry, replacing the core's figure
    /// (Genesis Plus GX 1.7: 54; the 68000 manual: 44 plus the E-clock wait).
    pub interrupt_clocks: Option<u32>,
    /// Master clocks the 68000 waits on a read / a write of Z80 RAM (arbitration);
    /// Genesis Plus GX 1.7: 0 / 14 (Pacman 2 and Puyo Puyo 2 need the write delay).
    pub z80_ram_read_mclk: u64,
    pub z80_ram_write_mclk: u64,
    /// A DMA fill starts two slots after the data-port write that gives its value
    /// (Genesis Plus GX since 2024).
    pub fill_start_delay: bool,
    /// 68000 instruction clocks as Genesis Plus GX 1.7's Musashi table charges them where it
    /// differs from the 68000 (see [`crate::cpu::cpu68k::gpgx17_clocks`]).
    pub musashi_clocks: bool,
    /// A 68000 > CRAM/VSRAM DMA loses the refresh slots while blanking: 198 words a line in
    /// H40, 161 in H32 (later Genesis Plus GX; 1.7 moves 204/166, and Sonic 2's palette
    /// DMA in V-int then ends 32 master clocks earlier).
    pub color_dma_refresh: bool,
    /// A 68000 held by a full FIFO resumes on its own next clock edge (later Genesis Plus
    /// GX); Genesis Plus GX 1.7 resumes it on the slot's master clock, which Sonic 2's
    /// VRAM-clearing loops in its title-card code see as a few master clocks' difference.
    pub fifo_resume_on_cpu_clock: bool,
    /// The 68000 reads the VDP status as Genesis Plus GX 1.7 computes it: sampled 28 master
    /// clocks into the reading instruction, HBLANK set for the first 588 master clocks of a
    /// line (see [`crate::vdp::Vdp::read_status`]).
    pub gpgx17_status_read: bool,
    /// The VDP's ports as measured on hardware where Genesis Plus GX differs (Nemesis's
    /// VDPFIFOTesting, test 16): each 68000 access to them happens at its own bus cycle
    /// (not at the instruction's start), a full FIFO holds that bus cycle, a data-port read
    /// waits until the FIFO has drained ([`crate::vdp::Vdp::read_ready_at`]), and a short
    /// bus DMA goes through the FIFO ([`System::bus_dma_through_fifo`]).
    pub hardware_vdp: bool,
    /// A data-port write whose code selects no memory costs the 68000 2 master clocks more:
    /// Genesis Plus GX's stand-in for unmeasured 68000 wait states ("Clue", "Microcosm";
    /// `vdp_bus_w`, added in 2013, removed in February 2024), not a hardware behaviour.
    pub gpgx17_invalid_write_delay: bool,
}

impl Timing {
    /// Genesis Plus GX 1.7.4/1.7.5 (the stable-retro build the figures come from).
    pub const GPGX_1_7: Timing = Timing {
        bank_contention: false,
        refresh_stall: false,
        interrupt_clocks: Some(54),
        z80_ram_read_mclk: 0,
        z80_ram_write_mclk: 14,
        fill_start_delay: false,
        musashi_clocks: true,
        color_dma_refresh: false,
        fifo_resume_on_cpu_clock: false,
        gpgx17_status_read: true,
        hardware_vdp: false,
        gpgx17_invalid_write_delay: true,
    };
    /// Genesis Plus GX as of 2024-2026 (refresh stalls, 7-clock Z80 bus accesses).
    pub const GPGX_2024: Timing = Timing {
        bank_contention: false,
        refresh_stall: true,
        interrupt_clocks: None,
        z80_ram_read_mclk: M68K_Z80_ACCESS_MCLK,
        z80_ram_write_mclk: M68K_Z80_ACCESS_MCLK,
        fill_start_delay: true,
        musashi_clocks: false,
        color_dma_refresh: true,
        fifo_resume_on_cpu_clock: true,
        gpgx17_status_read: false,
        hardware_vdp: false,
        gpgx17_invalid_write_delay: false,
    };
    /// The hardware as documented and measured where it is known (the 68000 loses bus
    /// cycles to the Z80's bank-window reads, the FIFO's read wait), later Genesis Plus GX
    /// elsewhere. Nothing verified against Genesis Plus GX 1.7 runs in it.
    pub const HARDWARE: Timing = Timing {
        bank_contention: true,
        hardware_vdp: true,
        ..Timing::GPGX_2024
    };
}

impl Default for Timing {
    fn default() -> Self {
        Timing::GPGX_1_7
    }
}

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
    /// Sound synthesis on a second thread (`sound_thread`).
    pub sound_thread: crate::sound_thread::SoundThread,
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
    /// The Z80's idle-loop candidate ([`run_z80_skipping_idle`]), carried from one Z80 run
    /// to the next within a `Machine::run` call, which clears it first.
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

fn canonical(addr: u32) -> u32 {
    let addr = addr & 0xFF_FFFF;
    if addr >= 0xE0_0000 {
        0xFF_0000 | (addr & 0xFFFF)
    } else {
        addr
    }
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

    /// Works out `ram_watch_first`, `ram_watch_span` and `port_watched` from `watches`.
    pub(crate) fn derive_ram_watch(&mut self) {
        self.port_watched = self.watches.iter().any(|w| canonical(w.addr) < 0xFF_0000);
        let offsets = self
            .watches
            .iter()
            .map(|w| canonical(w.addr))
            .filter(|&a| a >= 0xFF_0000)
            .map(|a| a & 0xFFFF);
        let (first, last) = offsets.fold((u32::MAX, 0), |(lo, hi), a| (lo.min(a), hi.max(a)));
        self.ram_watch_first = first;
        self.ram_watch_span = last.saturating_sub(first);
        self.ram_watch_first_word = first.wrapping_sub(1);
        self.ram_watch_span_word = self.ram_watch_span + 1;
    }

    /// Whether a work RAM byte write at offset `a` may hit a watch: at or after the first
    /// watched offset and at or before the last (one compare; with no watch in RAM `first`
    /// is out of reach).
    #[inline(always)]
    fn ram_watched_byte(&self, a: u32) -> bool {
        a.wrapping_sub(self.ram_watch_first) <= self.ram_watch_span
    }

    /// [`System::ram_watched_byte`] for a word write at the even offset `a`: its second byte
    /// at or after the first watched offset (`a >= first - 1`) and its first at or before
    /// the last.
    #[inline(always)]
    fn ram_watched_word(&self, a: u32) -> bool {
        a.wrapping_sub(self.ram_watch_first_word) <= self.ram_watch_span_word
    }

    fn note_write(&mut self, addr: u32, bytes: &[u8]) {
        if self.watches.is_empty() || self.watch_hit.is_some() {
            return;
        }
        let base = canonical(addr);
        // Most writes hit no watch (the harness watches one byte while every RAM write of the
        // game comes here): one range test per watch before the per-byte search.
        let len = bytes.len() as u32;
        if !self
            .watches
            .iter()
            .any(|w| canonical(w.addr).wrapping_sub(base) < len)
        {
            return;
        }
        for (i, &b) in bytes.iter().enumerate() {
            let a = canonical(base + i as u32);
            if let Some(w) = self.watches.iter().find(|w| canonical(w.addr) == a)
                && w.value.is_none_or(|v| v == b)
            {
                self.sync_clock();
                self.watch_hit = Some(WatchHit {
                    addr: a,
                    value: b,
                    mclk: self.now,
                });
                self.ask_boundary();
                return;
            }
        }
    }

    /// Rounds an absolute clock up to the Z80's next clock edge, counted from the frame start
    /// (the Z80 restarts on its own clock).
    fn z80_edge(&self, t: u64) -> u64 {
        let base = self.vdp.frame_start;
        let rel = t.saturating_sub(base);
        base + rel.div_ceil(Z80_DIVIDER) * Z80_DIVIDER
    }

    // ---- VDP access -------------------------------------------------------------------

    /// The master clock of the 68000's current bus cycle: in the hardware profile the
    /// instruction's start plus the clocks our 68000 spent before that cycle; otherwise the
    /// instruction's start, where Genesis Plus GX 1.7 (and the `m68k` backend) make every
    /// access of an instruction.
    fn access_time(&self) -> u64 {
        if !self.timing.hardware_vdp {
            return self.now;
        }
        // No 68000 instruction has its bus cycles more than 200 clocks into it (MOVEM.L of
        // 16 registers ends at 132 clocks); anything else is a stale count.
        let before = self.access_clock.saturating_sub(self.instruction_clock);
        self.now + before.min(200) * M68K_DIVIDER
    }

    /// The VDP status as the 68000 reads it now.
    fn read_status_68k(&mut self) -> u16 {
        if self.timing.gpgx17_status_read {
            // Genesis Plus GX 1.7 samples the status at the end of the 4-clock read cycle
            // (the instruction's start plus 28 master clocks). Sonic 2's wait for the end of
            // a DMA fill (`move.w (a5),d1; btst #1,d1; bne.s`, Rev B $1254) leaves the loop
            // one pass earlier with it, as in Genesis Plus GX.
            let at = self.now + 4 * M68K_DIVIDER;
            self.vdp.read_status(at, true)
        } else {
            // The status as it stands two clocks into the read cycle (S4, where the 68000
            // samples DTACK, so the VDP drives its data by then). VDPFIFOTesting's test 16
            // passes all ten sub-tests with the sample 0.5, 1.5, 2, 2.5 or 3 clocks in and
            // fails one or two with 0, 1 or 3.5 or more: its 2,048 rounds each land at
            // another point of the slot pattern, and which rounds catch the FIFO full
            // depends on that to a few master clocks.
            let at = self.access_time() + 2 * M68K_DIVIDER;
            self.vdp.read_status(at, false)
        }
    }

    /// A data-port read: in the hardware profile the 68000 first waits for the FIFO.
    fn vdp_read_data(&mut self) -> u16 {
        if self.timing.hardware_vdp {
            let at = self.access_time();
            let ready = self
                .vdp
                .read_ready_at(at, self.timing.fifo_resume_on_cpu_clock);
            // The bus cycle ends at `ready`; the instruction's clocks after it follow.
            self.now = self.now.max(ready - (at - self.now));
        }
        self.vdp.read_data()
    }

    fn vdp_read_word(&mut self, addr: u32) -> u16 {
        match addr & 0x1C {
            0x00 => self.vdp_read_data(),
            0x04 => {
                let s = self.read_status_68k() & 0x3FF;
                s | (self.status_fill_word() & 0xFC00)
            }
            0x08 | 0x0C => self.vdp.hv_counter(self.access_time()),
            _ => self.open_bus_word(),
        }
    }

    fn vdp_read_byte(&mut self, addr: u32) -> u8 {
        match addr & 0x1D {
            0x00 => (self.vdp_read_data() >> 8) as u8,
            0x01 => self.vdp_read_data() as u8,
            0x04 => {
                ((self.read_status_68k() >> 8) as u8 & 3)
                    | ((self.status_fill_word() >> 8) as u8 & 0xFC)
            }
            0x05 => self.read_status_68k() as u8,
            0x08 | 0x0C => (self.vdp.hv_counter(self.access_time()) >> 8) as u8,
            0x09 | 0x0D => self.vdp.hv_counter(self.access_time()) as u8,
            _ => self.open_bus_byte(addr),
        }
    }

    fn vdp_write_word(&mut self, addr: u32, value: u16) {
        match addr & 0x1C {
            0x00 => {
                let at = self.access_time();
                // Genesis Plus GX 1.7 charges 2 master clocks for a write with an invalid
                // code (see `Timing::gpgx17_invalid_write_delay`); BlastEm's gen_test_hv
                // writes eight such longwords to sync after its register write, and its
                // HV samples move by one H unit without the charge.
                let invalid_delay =
                    if self.timing.gpgx17_invalid_write_delay && self.vdp.write_code_invalid() {
                        2
                    } else {
                        0
                    };
                let (resume, effect) =
                    self.vdp
                        .write_data(value, at, self.timing.fifo_resume_on_cpu_clock);
                // A full FIFO holds the write's bus cycle until `resume`; the instruction's
                // clocks after that cycle follow it.
                self.now = self.now.max(resume - (at - self.now)) + invalid_delay;
                if effect == PortEffect::StartDma {
                    self.dma_start(true);
                }
            }
            0x04 => {
                let (old0, old1) = (self.vdp.regs[0], self.vdp.regs[1]);
                let effect = self.vdp.write_control(value, self.now);
                if value & 0xC000 == 0x8000 {
                    // MOVE.L (opcode $2xxx) writes its first word before its last bus cycle.
                    let move_long = self.word_at_pc(self.instruction_pc()) & 0xF000 == 0x2000;
                    self.vdp.release_held_irq();
                    self.vdp.note_enable_write(old0, old1, move_long);
                }
                if effect == PortEffect::StartDma {
                    self.dma_start(false);
                }
            }
            0x10 | 0x14 => self.psg.write_at(value as u8, self.now),
            _ => {}
        }
    }

    fn vdp_write_byte(&mut self, addr: u32, value: u8) {
        match addr & 0x1F {
            0x00..=0x07 => self.vdp_write_word(addr, u16::from_be_bytes([value, value])),
            0x11 | 0x13 | 0x15 | 0x17 => self.psg.write_at(value, self.now),
            _ => {}
        }
    }

    // ---- DMA --------------------------------------------------------------------------

    fn dma_start(&mut self, from_fill: bool) {
        let at = self.now;
        self.dma_update(at, from_fill);
    }

    /// Runs as much of the pending DMA as fits between `at` and the end of the current line
    /// (or of vertical blanking), moving the 68000 past it when the DMA holds its bus.
    pub fn dma_update(&mut self, at: u64, fill_start: bool) {
        {
            let vdp = &mut self.vdp;
            if vdp.dma.length == 0 {
                return;
            }
            let kind = vdp.dma.kind;
            let blank = vdp.in_vblank() || !vdp.display_enabled();
            let rate = dma::rate_per_line(kind, blank, vdp.h40(), self.timing.color_dma_refresh);
            let mut start = at;
            if fill_start && kind == DmaKind::Fill && self.timing.fill_start_delay {
                // The fill starts after the data-port write that gave its value.
                start += 2 * (MCLK_PER_LINE / rate as u64);
            }
            let window_end = if vdp.in_vblank() {
                let lines = (vdp.lines_per_frame() - vdp.active_lines - 1) as u64;
                vdp.frame_start + lines * MCLK_PER_LINE
            } else {
                vdp.line_start + MCLK_PER_LINE
            };
            let mut span = window_end.saturating_sub(start);
            let mut units = dma::units_in(span, rate);
            if vdp.dma.length < units {
                units = vdp.dma.length;
                span = dma::mclk_for(units, rate);
            }
            if self.timing.hardware_vdp && kind.stalls_cpu() && !blank && vdp.dma.length == units {
                self.bus_dma_through_fifo(start, units);
                return;
            }
            vdp.dma.end = start + span;
            if kind.stalls_cpu() {
                self.now = self.now.max(start + span);
            } else {
                vdp.status |= status::DMA_BUSY;
            }
            if units == 0 {
                return;
            }
            self.vdp.dma.length -= units;
            match kind {
                DmaKind::Fill => self.vdp.run_fill(units),
                DmaKind::Copy => self.vdp.run_copy(units),
                DmaKind::BusToColor | DmaKind::BusToVram => self.dma_from_bus(units),
            }
            if self.vdp.dma.length > 0 {
                return;
            }
            self.vdp.finish_dma_registers();
            let Some(cached) = self.vdp.cached_ctrl.take() else {
                return;
            };
            if self.vdp.write_control(cached, self.now) != PortEffect::StartDma {
                return;
            }
            // The cached word started another DMA: run it from here.
            self.dma_update(self.now, false)
        }
    }

    /// `units` words of a bus DMA, read at the source address and written to the target in
    /// turn. The source walks a 128 KiB window (`base`, then its word offset wraps); when the
    /// whole window is work RAM or cartridge the words are read in runs and written as a
    /// run, the same reads and writes in the same order without a call for each.
    pub(crate) fn dma_from_bus(&mut self, units: u32) {
        let base = ((self.vdp.regs[23] & 0x7F) as u32) << 17;
        // $C00000-$FFFFFF all read work RAM (`dma_read_word`), $000000-$3FFFFF the cartridge.
        let from_ram = base >= 0xC0_0000;
        let from_cart = base < 0x40_0000;
        let ram: Option<&[u8; 0x1_0000]> = self.ram.as_slice().try_into().ok();
        let (true, Some(ram)) = (from_ram || from_cart, ram) else {
            for _ in 0..units {
                let src = base | ((self.vdp.dma.source as u32) << 1);
                let word = self.dma_read_word(src);
                self.vdp.write_target(word);
                self.vdp.dma.source = self.vdp.dma.source.wrapping_add(1);
            }
            return;
        };
        let mut left = units as usize;
        if from_cart {
            // A plain ROM to VRAM with an increment of 2, the same way: the run ends where the
            // source's word offset wraps in its window.
            loop {
                let room = self.vdp.vram_run_room();
                if left == 0 || room == 0 {
                    break;
                }
                let s = self.vdp.dma.source as usize;
                let n = left.min(room).min(0x1_0000 - s);
                let Some(bytes) = self.cart.plain_bytes(base as usize + 2 * s, 2 * n) else {
                    break;
                };
                self.vdp.write_vram_bytes(bytes);
                self.vdp.dma.source = self.vdp.dma.source.wrapping_add(n as u16);
                left -= n;
            }
        }
        if from_ram {
            // Work RAM to VRAM with an increment of 2 (nearly every transfer): the source
            // bytes are the target bytes, copied in runs up to either memory's end (the
            // source's RAM address wraps at 64 KiB, as `dma_read_word` reads it).
            loop {
                let room = self.vdp.vram_run_room();
                if left == 0 || room == 0 {
                    break;
                }
                let s = ((self.vdp.dma.source as usize) << 1) & 0xFFFF;
                let n = left.min(room).min((0x1_0000 - s) / 2);
                self.vdp.write_vram_bytes(&ram[s..s + 2 * n]);
                self.vdp.dma.source = self.vdp.dma.source.wrapping_add(n as u16);
                left -= n;
            }
        }
        let mut run = [0u16; 64];
        while left > 0 {
            let n = left.min(run.len());
            let mut source = self.vdp.dma.source;
            for word in &mut run[..n] {
                let src = base | ((source as u32) << 1);
                *word = if from_ram {
                    let a = (src & 0xFFFE) as usize;
                    u16::from_be_bytes([ram[a], ram[a + 1]])
                } else {
                    self.cart.read_word(src)
                };
                source = source.wrapping_add(1);
            }
            self.vdp.dma.source = source;
            self.vdp.write_targets(&run[..n]);
            left -= n;
        }
    }

    /// The hardware profile's bus DMA that ends within the active line it starts in: each
    /// word goes through the FIFO as a 68000 write would, and the 68000 gets its bus back
    /// once the last word is in the FIFO, which then still drains at slot speed. Nemesis's
    /// VDPFIFOTesting, test 16, sub-tests 9 and 10 (the hardware's recorded results): right
    /// after a bus DMA of 8 words (or of 3 behind 3 written words) the status shows the FIFO
    /// full, then partly full, then empty; Genesis Plus GX holds the 68000 until the last
    /// word is written and shows it empty.
    fn bus_dma_through_fifo(&mut self, start: u64, units: u32) {
        let base = ((self.vdp.regs[23] & 0x7F) as u32) << 17;
        let (line_start, h40) = (self.vdp.line_start, self.vdp.h40());
        let mut t = start;
        for _ in 0..units {
            t = self.vdp.fifo.schedule(t, line_start, h40);
            let src = base | ((self.vdp.dma.source as u32) << 1);
            let word = self.dma_read_word(src);
            self.vdp.write_target(word);
            self.vdp.dma.source = self.vdp.dma.source.wrapping_add(1);
        }
        if t > start && self.timing.fifo_resume_on_cpu_clock {
            let rel = t.saturating_sub(self.vdp.frame_start);
            t = self.vdp.frame_start + rel.div_ceil(M68K_DIVIDER) * M68K_DIVIDER;
        }
        self.vdp.dma.length = 0;
        self.vdp.dma.end = t;
        self.now = self.now.max(t);
        self.vdp.finish_dma_registers();
        if let Some(cached) = self.vdp.cached_ctrl.take()
            && self.vdp.write_control(cached, self.now) == PortEffect::StartDma
        {
            self.dma_update(self.now, false);
        }
    }

    /// What a bus DMA reads at `addr` (work RAM, cartridge, or the I/O area's quirks).
    fn dma_read_word(&self, addr: u32) -> u16 {
        let addr = addr & 0xFF_FFFE;
        match addr {
            0x00_0000..=0x3F_FFFF => self.cart.read_word(addr),
            0x40_0000..=0x7F_FFFF => 0xFFFF,
            0xA0_0000..=0xA0_FFFF => {
                // The Z80 area reads $FFFF unless the 68000 holds the Z80's bus.
                if self.zbus.m68k_has_bus() {
                    let a = (addr & 0xFFFF) as usize;
                    u16::from_be_bytes([self.ram[a], self.ram[a + 1]])
                } else {
                    0xFFFF
                }
            }
            0xA1_0000..=0xA1_001F => {
                let b = self.io.read(((addr >> 1) & 0xF) as usize, self.now) as u16;
                (b << 8) | b
            }
            _ => {
                let a = (addr & 0xFFFF) as usize;
                u16::from_be_bytes([self.ram[a], self.ram[a + 1]])
            }
        }
    }

    // ---- I/O and control area ($A10000-$A1FFFF) ----------------------------------------

    fn ctrl_read_byte(&mut self, addr: u32) -> u8 {
        match (addr >> 8) & 0xFF {
            0x00 if addr & 0xFF <= 0x1F => self.io.read(((addr >> 1) & 0xF) as usize, self.now),
            0x11 => {
                let ob = self.open_bus_byte(addr);
                if addr & 1 == 0 {
                    if self.zbus.m68k_has_bus() {
                        ob & 0xFE
                    } else {
                        ob | 1
                    }
                } else {
                    ob
                }
            }
            _ => self.open_bus_byte(addr),
        }
    }

    fn ctrl_read_word(&mut self, addr: u32) -> u16 {
        match (addr >> 8) & 0xFF {
            0x00 if addr & 0xFF <= 0x1F => {
                let b = self.io.read(((addr >> 1) & 0xF) as usize, self.now) as u16;
                (b << 8) | b
            }
            0x11 => {
                let ob = self.open_bus_word();
                if self.zbus.m68k_has_bus() {
                    ob & 0xFEFF
                } else {
                    ob | 0x0100
                }
            }
            _ => self.open_bus_word(),
        }
    }

    fn tmss_write(&mut self, addr: u32, value: u8) {
        let i = (addr & 3) as usize;
        self.tmss[i] = value;
    }
}

impl Bus {
    /// BUSREQ at $A11100 (bit 0 of the even byte).
    pub(crate) fn write_busreq(&mut self, request: bool) {
        let now = self.sys.now;
        if request {
            if self.sys.zbus.z80_running() {
                self.run_z80(now);
            }
            self.sys.zbus.busreq = true;
        } else {
            if self.sys.zbus.m68k_has_bus() {
                self.sys.z80_mclk = self.sys.z80_edge(now);
            }
            self.sys.zbus.busreq = false;
        }
    }

    /// RESET at $A11200 (bit 0 of the even byte; 0 holds the Z80 and the YM2612 in reset).
    pub(crate) fn write_zreset(&mut self, release: bool) {
        let now = self.sys.now;
        self.sys.z80_touched = true;
        if release {
            if !self.sys.zbus.reset_released {
                if !self.sys.zbus.busreq {
                    self.sys.z80_mclk = self.sys.z80_edge(now);
                }
                self.z80.reset();
                self.sys.ym.reset(now);
            }
            self.sys.zbus.reset_released = true;
        } else {
            if self.sys.zbus.z80_running() {
                self.run_z80(now);
            }
            self.sys.ym.reset(now);
            self.sys.zbus.reset_released = false;
        }
    }

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

    fn z80_area_read(&mut self, addr: u32) -> u8 {
        self.sys.now += self.sys.timing.z80_ram_read_mclk;
        match (addr >> 13) & 3 {
            2 => self.sys.ym.read(addr & 3, self.sys.now),
            3 => self.sys.open_bus_byte(addr) | 0xFF,
            _ => self.sys.zbus.ram_byte(addr as usize),
        }
    }

    fn z80_area_write(&mut self, addr: u32, value: u8) {
        // What the Z80's idle loop reads may change (its candidate is carried between runs).
        self.sys.z80_touched = true;
        self.sys.now += self.sys.timing.z80_ram_write_mclk;
        match (addr >> 13) & 3 {
            2 => self.sys.ym.write(addr & 3, value, self.sys.now),
            3 => {
                if (addr >> 8) & 0x7F == 0x60 {
                    self.sys.zbus.write_bank(value);
                }
            }
            _ => self.sys.zbus.write_ram(addr as usize, value),
        }
    }

    fn ctrl_write_byte(&mut self, addr: u32, value: u8) {
        match (addr >> 8) & 0xFF {
            0x00 if addr & 0xFF <= 0x1F && addr & 1 == 1 => {
                self.sys
                    .io
                    .write(((addr >> 1) & 0xF) as usize, value, self.sys.now)
            }
            0x11 if addr & 1 == 0 => self.write_busreq(value & 1 != 0),
            0x12 if addr & 1 == 0 => self.write_zreset(value & 1 != 0),
            0x30 => self.sys.cart.write_register(addr, value),
            0x40 => self.sys.tmss_write(addr, value),
            _ => {}
        }
    }

    fn ctrl_write_word(&mut self, addr: u32, value: u16) {
        match (addr >> 8) & 0xFF {
            0x00 if addr & 0xFF <= 0x1F => {
                self.sys
                    .io
                    .write(((addr >> 1) & 0xF) as usize, value as u8, self.sys.now)
            }
            0x11 => self.write_busreq(value & 0x100 != 0),
            0x12 => self.write_zreset(value & 0x100 != 0),
            0x30 => self.sys.cart.write_register(addr | 1, value as u8),
            0x40 => {
                self.sys.tmss_write(addr, (value >> 8) as u8);
                self.sys.tmss_write(addr | 1, value as u8);
            }
            _ => {}
        }
    }

    /// A 68000 byte read as the CPU would see it (also used for debugger/harness peeks of RAM
    /// and ROM, which have no side effects).
    #[inline(always)]
    pub fn read_u8(&mut self, addr: u32) -> u8 {
        self.read_u8_at(addr, None)
    }

    /// [`Bus::read_u8`] for our 68000, with the access's own clock: kept (`access_clock`,
    /// the hardware profile's port timing) only where it is used, on the way to the ports.
    #[inline(always)]
    fn read_u8_at(&mut self, addr: u32, cycle: Option<u64>) -> u8 {
        // The 68000's hot path, work RAM and ROM, inline; the ports out of line. Work RAM
        // first (one compare; the game's data reads are mostly there, its instruction
        // fetches come through `fetch_fast`), then a plain ROM's area in one length test.
        let addr = addr & 0xFF_FFFF;
        if addr >= 0xE0_0000 {
            return self.sys.ram[(addr & 0xFFFF) as usize];
        }
        if let Some(b) = self.sys.cart.plain_byte(addr) {
            return b;
        }
        if addr < 0x40_0000 {
            return self.sys.cart.read_byte(addr);
        }
        if let Some(cycle) = cycle {
            self.sys.access_clock = cycle;
        }
        self.read_u8_ports(addr)
    }

    #[inline(never)]
    fn read_u8_ports(&mut self, addr: u32) -> u8 {
        self.sys.enter_port();
        match addr >> 16 {
            0xA0 => {
                if self.sys.zbus.m68k_has_bus() {
                    self.z80_area_read(addr)
                } else {
                    self.sys.open_bus_byte(addr)
                }
            }
            0xA1 => self.sys.ctrl_read_byte(addr),
            0xC0..=0xDF if addr & 0xE7_00E0 == 0xC0_0000 => self.sys.vdp_read_byte(addr),
            _ => self.sys.open_bus_byte(addr),
        }
    }

    #[inline(always)]
    pub fn read_u16(&mut self, addr: u32) -> u16 {
        self.read_u16_at(addr, None)
    }

    /// [`Bus::read_u16`] with the access's clock (see [`Bus::read_u8_at`]).
    #[inline(always)]
    fn read_u16_at(&mut self, addr: u32, cycle: Option<u64>) -> u16 {
        let addr = addr & 0xFF_FFFE;
        if addr >= 0xE0_0000 {
            let a = (addr & 0xFFFE) as usize;
            return u16::from_be_bytes([self.sys.ram[a], self.sys.ram[a + 1]]);
        }
        if let Some(w) = self.sys.cart.plain_word(addr) {
            return w;
        }
        if addr < 0x40_0000 {
            return self.sys.cart.read_word(addr);
        }
        if let Some(cycle) = cycle {
            self.sys.access_clock = cycle;
        }
        self.read_u16_ports(addr)
    }

    #[inline(never)]
    fn read_u16_ports(&mut self, addr: u32) -> u16 {
        self.sys.enter_port();
        match addr >> 16 {
            0xA0 => {
                if self.sys.zbus.m68k_has_bus() {
                    // The Z80 bus is 8 bits wide: the byte appears in both halves.
                    let b = self.z80_area_read(addr) as u16;
                    (b << 8) | b
                } else {
                    self.sys.open_bus_word()
                }
            }
            0xA1 => self.sys.ctrl_read_word(addr),
            0xC0..=0xDF if addr & 0xE7_00E0 == 0xC0_0000 => self.sys.vdp_read_word(addr),
            _ => self.sys.open_bus_word(),
        }
    }

    /// A 68000 byte write: work RAM inline, everything else out of line.
    #[inline(always)]
    pub fn write_u8(&mut self, addr: u32, value: u8) {
        self.write_u8_at(addr, value, None)
    }

    /// [`Bus::write_u8`] with the access's clock (see [`Bus::read_u8_at`]).
    #[inline(always)]
    fn write_u8_at(&mut self, addr: u32, value: u8, cycle: Option<u64>) {
        let addr = addr & 0xFF_FFFF;
        self.sys.touched = true;
        if addr >= 0xE0_0000 {
            self.sys.ram[(addr & 0xFFFF) as usize] = value;
            if self.sys.ram_watched_byte(addr & 0xFFFF) {
                self.sys.note_write(addr, &[value]);
            }
            return;
        }
        if let Some(cycle) = cycle {
            self.sys.access_clock = cycle;
        }
        self.write_u8_ports(addr, value);
    }

    #[inline(never)]
    fn write_u8_ports(&mut self, addr: u32, value: u8) {
        self.sys.enter_port();
        match addr >> 16 {
            0x00..=0x3F => self.sys.cart.write_byte(addr, value),
            0xA0 if self.sys.zbus.m68k_has_bus() => self.z80_area_write(addr, value),
            0xA1 => self.ctrl_write_byte(addr, value),
            0xC0..=0xDF if addr & 0xE7_00E0 == 0xC0_0000 => self.sys.vdp_write_byte(addr, value),
            _ => {}
        }
        if self.sys.port_watched {
            self.sys.note_write(addr, &[value]);
        }
    }

    /// A 68000 word write: work RAM inline, everything else out of line.
    #[inline(always)]
    pub fn write_u16(&mut self, addr: u32, value: u16) {
        self.write_u16_at(addr, value, None)
    }

    /// [`Bus::write_u16`] with the access's clock (see [`Bus::read_u8_at`]).
    #[inline(always)]
    fn write_u16_at(&mut self, addr: u32, value: u16, cycle: Option<u64>) {
        let addr = addr & 0xFF_FFFE;
        self.sys.touched = true;
        if addr >= 0xE0_0000 {
            let a = (addr & 0xFFFE) as usize;
            self.sys.ram[a] = (value >> 8) as u8;
            self.sys.ram[a + 1] = value as u8;
            if self.sys.ram_watched_word(a as u32) {
                self.sys.note_write(addr, &value.to_be_bytes());
            }
            return;
        }
        if let Some(cycle) = cycle {
            self.sys.access_clock = cycle;
        }
        self.write_u16_ports(addr, value);
    }

    #[inline(never)]
    fn write_u16_ports(&mut self, addr: u32, value: u16) {
        self.sys.enter_port();
        match addr >> 16 {
            0x00..=0x3F => {
                self.sys.cart.write_byte(addr, (value >> 8) as u8);
                self.sys.cart.write_byte(addr | 1, value as u8);
            }
            // Only the high byte reaches the Z80's 8-bit bus.
            0xA0 if self.sys.zbus.m68k_has_bus() => self.z80_area_write(addr, (value >> 8) as u8),
            0xA1 => self.ctrl_write_word(addr, value),
            0xC0..=0xDF if addr & 0xE7_00E0 == 0xC0_0000 => self.sys.vdp_write_word(addr, value),
            _ => {}
        }
        if self.sys.port_watched {
            self.sys.note_write(addr, &value.to_be_bytes());
        }
    }

    /// Accounts one completed 68000 instruction (or exception entry) of `cpu_clocks`, with the
    /// DRAM refresh stall that the next instruction fetch pays.
    pub fn advance_cpu(&mut self, cpu_clocks: u32) {
        self.sys.now += cpu_clocks as u64 * crate::clock::M68K_DIVIDER;
        if self.sys.timing.refresh_stall && self.sys.now >= self.sys.refresh_at {
            self.sys.refresh_at = self.sys.now + M68K_REFRESH_PERIOD_MCLK;
            self.sys.now += M68K_REFRESH_DELAY_MCLK;
        }
    }
}

impl M68kBus for Bus {
    fn read_byte(&mut self, addr: u32) -> u8 {
        self.read_u8(addr)
    }
    fn read_word(&mut self, addr: u32) -> u16 {
        self.read_u16(addr)
    }
    fn write_byte(&mut self, addr: u32, value: u8) {
        self.write_u8(addr, value)
    }
    fn write_word(&mut self, addr: u32, value: u16) {
        self.write_u16(addr, value)
    }
    fn interrupt_acknowledge(&mut self, level: u8) {
        self.sys.enter_port();
        self.sys.vdp.acknowledge(level);
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

/// Our 68000 on the console's bus. Every access of an instruction is made at the clock the
/// instruction started (`sys.now`, brought up to it by [`System::sync_clock`] on the way to
/// the ports), as with `m68k`: the verified Sonic 2 results depend on it. The per-access `cycle` is kept
/// (`access_clock`) on the way to the ports and used only by the hardware profile
/// (`Timing::HARDWARE`).
impl m68000::Bus for Bus {
    // A plain ROM's instruction fetch has no side effect and no wait state.
    #[inline(always)]
    fn fetch_fast(&self, addr: u32) -> Option<u16> {
        self.sys.cart.plain_word(addr)
    }
    // The PC as it is: one past 24 bits indexes past the cartridge area, and the fetch goes
    // through `read_word`, which reads the same plain ROM word with no side effect.
    #[inline(always)]
    fn fetch_fast_pc(&self, pc: u32) -> Option<u16> {
        self.sys.cart.plain_word(pc)
    }
    #[inline(always)]
    fn fetch_fast_pair(&self, pc: u32) -> Option<(u16, u16)> {
        self.sys.cart.plain_pair(pc)
    }
    // Work RAM and a plain ROM: no side effect, no wait state (the scan loops' reads).
    #[inline(always)]
    fn peek_byte(&self, addr: u32) -> Option<u8> {
        if addr >= 0xE0_0000 {
            return Some(self.sys.ram[(addr & 0xFFFF) as usize]);
        }
        self.sys.cart.plain_byte(addr)
    }
    // A work RAM store nobody watches is only the store (the fill loops' writes).
    #[inline(always)]
    fn poke_word(&mut self, addr: u32, value: u16) -> bool {
        let a = addr & 0xFFFE;
        if addr < 0xE0_0000 || self.sys.ram_watched_word(a) {
            return false;
        }
        self.sys.touched = true;
        self.sys.ram[a as usize..a as usize + 2].copy_from_slice(&value.to_be_bytes());
        true
    }
    #[inline(always)]
    fn poke_byte(&mut self, addr: u32, value: u8) -> bool {
        let a = addr & 0xFFFF;
        if addr < 0xE0_0000 || self.sys.ram_watched_byte(a) {
            return false;
        }
        self.sys.touched = true;
        self.sys.ram[a as usize] = value;
        true
    }
    // Always inline: ROM and work RAM are a test and an index, less than the call. The
    // access's own clock is kept for the hardware profile's port timing (`access_time`).
    #[inline(always)]
    fn read_word(&mut self, addr: u32, _fc: m68000::FunctionCode, cycle: u64) -> u16 {
        self.read_u16_at(addr, Some(cycle))
    }
    #[inline(always)]
    fn read_byte(&mut self, addr: u32, _fc: m68000::FunctionCode, cycle: u64) -> u8 {
        self.read_u8_at(addr, Some(cycle))
    }
    #[inline(always)]
    fn write_word(&mut self, addr: u32, value: u16, _fc: m68000::FunctionCode, cycle: u64) {
        self.write_u16_at(addr, value, Some(cycle))
    }
    #[inline(always)]
    fn write_byte(&mut self, addr: u32, value: u8, _fc: m68000::FunctionCode, cycle: u64) {
        self.write_u8_at(addr, value, Some(cycle))
    }
    // The CPU's loop tests the attention flag only after a look (`machine::run_ours`).
    #[inline]
    fn attention_raised(&mut self) {
        self.sys.look_at = 0;
    }
    // TAS keeps its write-back (the trait's default), as the console has with `m68k` and the
    // Genesis Plus GX 1.7 results were verified with; the real bus arbiter drops it (Gargoyles).
    fn interrupt_acknowledge(&mut self, level: u8, _cycle: u64) -> m68000::InterruptAck {
        self.sys.enter_port();
        self.sys.vdp.acknowledge(level);
        // The Mega Drive autovectors every level.
        m68000::InterruptAck::Autovector
    }
}

/// The Z80's bus: its RAM, the YM2612, the bank window into 68000 space, the VDP and PSG.
pub struct Z80View<'a>(pub &'a mut System);

/// A Z80 byte write to the VDP's ports (at $7F00-$7F1F, or at $C00000 through the bank
/// window): the VDP takes the byte in both halves of a word (genvdp.txt, "Z80 access"),
/// $00-$03 the data port, $04-$07 the control port, odd $11-$17 the PSG. Before, writes at
/// $7F00-$7F07 were dropped; the test ROM's scene 13 (`sc_z80w_setup`) pins them.
#[inline(never)]
fn z80_vdp_write(sys: &mut System, addr: u32, value: u8, now: u64) {
    match addr & 0x1F {
        0x11 | 0x13 | 0x15 | 0x17 => sys.psg.write_at(value, now),
        0x00..=0x03 => {
            let w = u16::from_be_bytes([value, value]);
            let _ = sys.vdp.write_data(w, now, false);
        }
        0x04..=0x07 => {
            // A bus DMA cannot be started from the Z80.
            let _ = sys
                .vdp
                .write_control(u16::from_be_bytes([value, value]), now);
        }
        _ => {}
    }
}

/// The Z80's accesses outside its RAM, on the system itself (not on the [`Z80View`], whose
/// pointer then stays in a register in the step loop).
impl System {
    /// The master clock at the Z80's T-state `t` of the current run.
    fn z80_mclk(&self, t: u64) -> u64 {
        self.z80_mclk_base + t.saturating_sub(self.z80_t_base) * Z80_DIVIDER
    }

    /// A read through the bank window at T-state `t`: the cartridge (Sonic 2's DAC samples)
    /// inline, the rest out of line.
    #[inline(always)]
    fn z80_bank_read(&mut self, addr: u16, t: u64) -> u8 {
        let sys = self;
        let a = sys.zbus.bank | (addr as u32 & 0x7FFF);
        if sys.timing.bank_contention {
            sys.m68k_debt_mclk += M68K_BANK_ACCESS_PENALTY_MCLK;
        }
        if a < 0x40_0000 {
            return sys.cart.read_byte(a);
        }
        let now = sys.z80_mclk(t);
        sys.z80_bank_read_hardware(a, now)
    }

    /// [`System::z80_bank_read`] above the cartridge area (I/O, the VDP, work RAM).
    #[inline(never)]
    fn z80_bank_read_hardware(&mut self, a: u32, now: u64) -> u8 {
        let sys = self;
        match a >> 16 {
            0xA1 if a & 0xFFFF <= 0x1F => sys.io.read(((a >> 1) & 0xF) as usize, now),
            0xC0..=0xDF if a & 0xE7_00E0 == 0xC0_0000 => match a & 0x1F {
                0x04 | 0x06 => ((sys.vdp.read_status(now, false) >> 8) as u8 & 3) | 0xFC,
                0x05 | 0x07 => sys.vdp.read_status(now, false) as u8,
                0x08 | 0x0A | 0x0C | 0x0E => (sys.vdp.hv_counter(now) >> 8) as u8,
                0x09 | 0x0B | 0x0D | 0x0F => sys.vdp.hv_counter(now) as u8,
                0x00 | 0x02 => (sys.vdp.read_data() >> 8) as u8,
                0x01 | 0x03 => sys.vdp.read_data() as u8,
                _ => 0xFF,
            },
            0xE0..=0xFF => sys.ram[(a & 0xFFFF) as usize],
            _ => 0xFF,
        }
    }

    #[inline(never)]
    fn z80_bank_write(&mut self, addr: u16, value: u8, now: u64) {
        let sys = self;
        // Work RAM or the cartridge may change under a 68000 idle loop carried from the last
        // line (`machine::run_ours`): it must be proven idle again.
        sys.touched = true;
        let a = sys.zbus.bank | (addr as u32 & 0x7FFF);
        match a >> 16 {
            0x00..=0x3F => sys.cart.write_byte(a, value),
            0xA1 if a & 0xFFFF <= 0x1F && a & 1 == 1 => {
                sys.io.write(((a >> 1) & 0xF) as usize, value, now)
            }
            0xC0..=0xDF if a & 0xE7_00E0 == 0xC0_0000 => z80_vdp_write(sys, a, value, now),
            0xE0..=0xFF => sys.ram[(a & 0xFFFF) as usize] = value,
            _ => {}
        }
    }

    /// Everything above the Z80's own RAM (out of line: the RAM path is the hot one). Cold,
    /// as the write below: about one step in ten calls either, and LLVM then places the step
    /// loop's spills and reloads around these calls instead of on every step.
    #[cold]
    #[inline(never)]
    fn z80_read_outside_ram(&mut self, addr: u16, t: u64) -> u8 {
        self.z80_touched = true;
        if addr >= 0x8000 {
            return self.z80_bank_read(addr, t);
        }
        let now = self.z80_mclk(t);
        match addr {
            0x0000..=0x3FFF => self.zbus.z80_ram_read(addr),
            0x4000..=0x5FFF => self.ym.read(addr as u32 & 3, now),
            0x7F00..=0x7FFF => match addr & 0x1F {
                // The Z80 reads the data port like the 68000 does, a byte of each word the
                // port returns (testpico "z80 vdp read": LDIR from $7F00 gets $11 then $44 of
                // VRAM words $1122 $3344).
                0x00 | 0x02 => (self.vdp.read_data() >> 8) as u8,
                0x01 | 0x03 => self.vdp.read_data() as u8,
                0x04 | 0x06 => ((self.vdp.read_status(now, false) >> 8) as u8 & 3) | 0xFC,
                0x05 | 0x07 => self.vdp.read_status(now, false) as u8,
                0x08 | 0x0A | 0x0C | 0x0E => (self.vdp.hv_counter(now) >> 8) as u8,
                0x09 | 0x0B | 0x0D | 0x0F => self.vdp.hv_counter(now) as u8,
                _ => 0xFF,
            },
            // $6000-$7EFF (the bank register, unused space); the bank window is read above.
            _ => 0xFF,
        }
    }

    /// Writes above the Z80's own RAM (out of line, as for reads). The YM2612's address
    /// ports first, then its DAC byte in headless, in a path small enough to need no saved
    /// registers (no call log): Sonic 2's driver selects the DAC register before each sample
    /// byte and writes the byte.
    #[cold]
    #[inline(never)]
    fn z80_write_outside_ram(&mut self, addr: u16, value: u8, t: u64) {
        if addr & 0xE001 == 0x4000 {
            // An address latch needs the clock only for the call log.
            if !self.ym.latch_address_quiet(addr as u32 & 2, value) {
                self.ym.write(addr as u32 & 2, value, self.z80_mclk(t));
            }
            return;
        }
        let now = self.z80_mclk(t);
        // Its data port with the DAC selected (each sample byte), while no sample is
        // synthesised and the timers are stopped: the chip's clock, busy flag and register.
        if addr & 0xE003 == 0x4001 && self.ym.write_dac_quiet(value, now) {
            return;
        }
        self.z80_write_hardware(addr, value, now);
    }

    /// [`System::z80_write_outside_ram`] past the YM2612's address ports.
    #[inline(never)]
    fn z80_write_hardware(&mut self, addr: u16, value: u8, now: u64) {
        match addr {
            0x0000..=0x3FFF => self.zbus.write_ram(addr as usize, value),
            0x4000..=0x5FFF => self.ym.write(addr as u32 & 3, value, now),
            0x6000..=0x60FF => self.zbus.write_bank(value),
            0x7F00..=0x7FFF => z80_vdp_write(self, addr as u32, value, now),
            0x6100..=0x7EFF => {}
            0x8000..=0xFFFF => self.z80_bank_write(addr, value, now),
        }
    }
}

impl z80::Bus for Z80View<'_> {
    #[inline(always)]
    fn read(&mut self, addr: u16, t: u64) -> u8 {
        if addr < 0x4000 {
            return self.0.zbus.z80_ram_read(addr);
        }
        self.0.z80_read_outside_ram(addr, t)
    }

    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.0.z80_touched = true;
        if addr < 0x4000 {
            self.0.zbus.write_ram(addr as usize, value);
            return;
        }
        self.0.z80_write_outside_ram(addr, value, t)
    }

    /// Z80 RAM: reading it has no effect, and within a run only the Z80 writes it (the
    /// 68000 runs between runs).
    #[inline(always)]
    fn peek(&self, addr: u16) -> Option<u8> {
        (addr < 0x4000).then(|| self.0.zbus.z80_ram_read(addr))
    }

    fn port_in(&mut self, _port: u16, _t: u64) -> u8 {
        self.0.z80_touched = true;
        0xFF
    }

    fn port_out(&mut self, _port: u16, _value: u8, _t: u64) {
        self.0.z80_touched = true;
    }
}
