//! The whole console and its scheduler: one master clock, lines of 3420 master clocks, the
//! 68000 run straight to the next event of the line (V-int, line end) or to a watched write,
//! the Z80 caught up at line ends and whenever the 68000 touches its bus.
//!
//! The frame is counted the way Genesis Plus GX counts it (and so the figures issue 3 is
//! measured against): a frame starts on the first line of vertical blanking and ends after the
//! last active line, so "the end of frame N" is the moment the next frame's first line starts.
//! At power-on the VDP starts at that point and the 68000 leaves reset 229 lines and 1004
//! master clocks later (Eke-Eke's measurement on a VA4 MD1: the first HV counter read after
//! reset is $9F21 on an NTSC console).

use crate::bus::{Bus, System, Timing, WORK_RAM_BYTES, Watch, WatchHit};
use crate::cartridge::{Cartridge, RomError};
use crate::clock::{
    M68K_DIVIDER, M68K_REFRESH_DELAY_MCLK, M68K_REFRESH_PERIOD_MCLK, MCLK_PER_LINE, Region,
};
use crate::cpu68k::{BoundaryControl, BoundaryExit, gpgx17_clocks};
use crate::frontend::FrameView;
use crate::io::{Io, PadKind};
use crate::main_cpu::{BoundaryCore, CpuBackend, MainCpu};
use crate::psg::Psg;
use crate::sound_cpu::SoundCpu;
use crate::vdp::irq::IrqDelay;
use crate::vdp::{MAX_WIDTH, Vdp, status};
use crate::ym2612::Ym2612;
use crate::z80_bus::Z80Bus;

/// 68000 clocks of reset exception processing before the first instruction.
const M68K_RESET_CLOCKS: u64 = 40;
/// Lines from the scheduler's power-on point to the 68000's first instruction (NTSC), and the
/// extra top-border lines PAL has.
const POWER_ON_LINES: u64 = 262 - 192 + 159;
const POWER_ON_PAL_LINES_LESS: u64 = 27;
/// Master clocks into that line.
const POWER_ON_MCLK: u64 = 1004;

/// A candidate idle loop of [`Machine::run_cpu`]: the CPU state at the target of the last
/// backward branch and the clock then.
struct IdleLoop<S> {
    pc: u32,
    at: u64,
    /// `None` until a backward branch arms it.
    state: Option<S>,
}

impl<S> IdleLoop<S> {
    fn arm<C: BoundaryCore<Snapshot = S>>(&mut self, pc: u32, bus: &mut Bus, core: &C::View) {
        self.pc = pc;
        self.at = bus.sys.now;
        self.state = Some(C::snapshot(core));
        bus.sys.touched = false;
    }
}

/// How to build a console.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// `None`: from the cartridge header.
    pub region: Option<Region>,
    pub pads: [PadKind; 2],
    pub timing: Timing,
    /// Which 68000 core runs the console.
    pub cpu: CpuBackend,
    /// The Model 1's discrete YM2612 (its DAC's ladder distortion) instead of the integrated
    /// YM3438 of later consoles. Only the synthesised sound differs: the game sees the same chip.
    pub discrete_ym2612: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            region: None,
            // Genesis Plus GX (and stable-retro) plug a 6-button pad into port 1 by default.
            pads: [PadKind::SixButton, PadKind::SixButton],
            timing: Timing::default(),
            cpu: CpuBackend::default(),
            discrete_ym2612: false,
        }
    }
}

/// Where the scheduler is within the current line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The line's start-of-line work has not run yet.
    LineStart,
    /// First line of vertical blanking, before V-int.
    BeforeVint,
    /// Running to the end of the line.
    ToLineEnd,
}

/// Why a run returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunStop {
    /// A frame ended (the next frame's first line is about to start).
    FrameEnd,
    /// A watched write happened; the machine stopped at the next instruction boundary.
    Watch(WatchHit),
    /// The clock budget ran out.
    Budget,
}

/// The console.
#[derive(Clone, Debug)]
pub struct Machine {
    pub cpu: MainCpu,
    pub bus: Bus,
    pub region: Region,
    /// Lines since the frame started (0 = first line of vertical blanking).
    pub frame_line: u16,
    pub phase: Phase,
    /// Frames completed since power-on.
    pub frame_count: u64,
    /// Absolute master clock of the current line's start.
    pub line_start: u64,
    /// The sound output stage, when sound is on (`audio`).
    pub audio: Option<Box<crate::audio::AudioOut>>,
}

impl Machine {
    pub fn new(rom: Vec<u8>, options: Options) -> Result<Machine, RomError> {
        let cart = Cartridge::new(rom)?;
        let region = options.region.unwrap_or_else(|| cart.header_region());
        let sys = System {
            cart,
            ram: Box::new([0; WORK_RAM_BYTES]),
            io: Io::new(region, options.pads),
            vdp: Vdp::new(region.pal),
            zbus: Z80Bus::new(),
            ym: Ym2612::new(),
            psg: Psg::new(),
            sound_thread: Default::default(),
            now: 0,
            refresh_at: 0,
            z80_mclk: 0,
            z80_t_base: 0,
            z80_mclk_base: 0,
            m68k_debt_mclk: 0,
            instruction_clock: 0,
            access_clock: 0,
            now_cycles: 0,
            look_at: 0,
            pc_ahead: 4,
            tmss: [0; 4],
            timing: options.timing,
            watches: Vec::new(),
            watch_hit: None,
            ram_watch_first: u32::MAX,
            ram_watch_span: 0,
            ram_watch_first_word: u32::MAX - 1,
            ram_watch_span_word: 1,
            port_watched: false,
            touched: false,
            z80_touched: false,
            boundary_check: false,
        };
        let mut m = Machine {
            cpu: MainCpu::new(options.cpu),
            bus: Bus {
                sys,
                z80: SoundCpu::new(),
                z80_idle: None,
                z80_owed: [0; 2],
                z80_deferral: true,
            },
            region,
            frame_line: 0,
            phase: Phase::LineStart,
            frame_count: 0,
            line_start: 0,
            audio: None,
        };
        m.bus.sys.ym.discrete = options.discrete_ym2612;
        m.power_on();
        Ok(m)
    }

    fn power_on(&mut self) {
        let lines = POWER_ON_LINES
            - if self.region.pal {
                POWER_ON_PAL_LINES_LESS
            } else {
                0
            };
        let start = (lines * MCLK_PER_LINE + POWER_ON_MCLK) / M68K_DIVIDER * M68K_DIVIDER;
        self.cpu.reset(&mut self.bus);
        let now = start + M68K_RESET_CLOCKS * M68K_DIVIDER;
        self.bus.sys.now = now;
        self.bus.sys.refresh_at =
            now / M68K_REFRESH_PERIOD_MCLK * M68K_REFRESH_PERIOD_MCLK + M68K_REFRESH_PERIOD_MCLK;
        self.bus.sys.z80_mclk = start / 15 * 15;
        self.bus.sys.pc_ahead = self.cpu.pc().wrapping_add(4);
    }

    // ---- running ----------------------------------------------------------------------

    /// Runs to the end of the next frame (watches are ignored).
    pub fn run_frame(&mut self) {
        let watches = std::mem::take(&mut self.bus.sys.watches);
        while self.run(u64::MAX) != RunStop::FrameEnd {}
        self.bus.sys.watches = watches;
    }

    /// Runs until a frame ends, a watched write happens, or `max_mclk` master clocks pass.
    pub fn run(&mut self, max_mclk: u64) -> RunStop {
        let stop = self.run_lines(max_mclk);
        // Headless lines counted but not applied (`Vdp::begin_active_line`): the host sees
        // the VDP as a line-by-line evaluation leaves it.
        self.bus.sys.vdp.settle_sprites();
        // The Z80 may have been left unrun at line ends while it waited (`Bus::run_z80_at_line_end`):
        // whoever looks next sees it where a run at every line end leaves it.
        self.bus.settle_z80();
        stop
    }

    fn run_lines(&mut self, max_mclk: u64) -> RunStop {
        let deadline = self.bus.sys.now.saturating_add(max_mclk);
        // The 68000's idle-loop candidate, carried from line to line within this call (nothing
        // outside the machine runs in between; see `run_ours`).
        let mut idle = None;
        // Anything may have changed since the last call (the harness pokes RAM, loads states,
        // sets watches).
        self.bus.z80_idle = None;
        self.bus.sys.derive_ram_watch();
        loop {
            match self.phase {
                Phase::LineStart => self.begin_line(),
                Phase::BeforeVint => {
                    let at = self.line_start + self.bus.sys.vdp.vint_mclk();
                    if let Some(hit) = self.run_cpu(at.min(deadline), &mut idle) {
                        return RunStop::Watch(hit);
                    }
                    if self.bus.sys.now < at {
                        return RunStop::Budget;
                    }
                    self.bus.run_z80(at);
                    let vdp = &mut self.bus.sys.vdp;
                    vdp.status |= status::VINT_OCCURRED;
                    vdp.vint_pending = true;
                    vdp.release_held_irq();
                    vdp.z80_irq = true;
                    self.phase = Phase::ToLineEnd;
                }
                Phase::ToLineEnd => {
                    let end = self.line_start + MCLK_PER_LINE;
                    if let Some(hit) = self.run_cpu(end.min(deadline), &mut idle) {
                        return RunStop::Watch(hit);
                    }
                    if self.bus.sys.now < end {
                        return RunStop::Budget;
                    }
                    self.bus.run_z80_at_line_end(end);
                    self.bus.idle_z80(end);
                    let sys = &mut self.bus.sys;
                    // `sync_sound`'s own test, inline: headless keeps no sound, and the call
                    // cost 20 host instructions a line for nothing.
                    if sys.ym.render || sys.ym.calls.on {
                        sys.sync_sound(end);
                    }
                    // The Z80's interrupt lasts until the end of the V-int line.
                    self.bus.sys.vdp.z80_irq = false;
                    self.line_start = end;
                    self.frame_line += 1;
                    self.phase = Phase::LineStart;
                    if self.frame_line == self.bus.sys.vdp.lines_per_frame() {
                        self.frame_line = 0;
                        self.frame_count += 1;
                        self.bus.sys.vdp.finish_frame();
                        return RunStop::FrameEnd;
                    }
                }
            }
        }
    }

    /// Runs until the 68000 writes `value` to `addr` (any value when `None`), stopping at the
    /// next instruction boundary, or until `max_mclk` master clocks pass. Frame ends do not
    /// stop it. Returns the hit.
    pub fn run_until_write(
        &mut self,
        addr: u32,
        value: Option<u8>,
        max_mclk: u64,
    ) -> Option<WatchHit> {
        let saved = std::mem::replace(&mut self.bus.sys.watches, vec![Watch { addr, value }]);
        let deadline = self.bus.sys.now.saturating_add(max_mclk);
        let result = loop {
            let left = deadline.saturating_sub(self.bus.sys.now);
            if left == 0 {
                break None;
            }
            match self.run(left) {
                RunStop::Watch(hit) => break Some(hit),
                RunStop::Budget => break None,
                RunStop::FrameEnd => {}
            }
        };
        self.bus.sys.watches = saved;
        result
    }

    /// The watch list consulted by [`Machine::run`].
    pub fn set_watches(&mut self, watches: Vec<Watch>) {
        self.bus.sys.watches = watches;
    }

    /// Runs the 68000 to `target`; returns a watch hit if one stopped it.
    ///
    /// Idle loops are skipped: when the CPU comes back to the target of a backward branch in
    /// exactly the state it left it, having touched nothing but ROM and work RAM reads in
    /// between (no write, no port, no interrupt), every further pass is the same pass again
    /// until something outside the 68000 changes, and nothing does before `target` (line
    /// events, the Z80 and DMA only run between calls). The clock then jumps over the whole
    /// passes that end before `target`; the rest run normally, so the CPU reaches every
    /// later boundary in the same state at the same clock as without the skip. Sonic 2 waits
    /// for V-int that way (`tst.b (Vint_routine).w; bne.s`, Rev B $3346).
    #[inline(always)]
    fn run_cpu(&mut self, target: u64, idle: &mut Option<OursIdle>) -> Option<WatchHit> {
        let sys = &mut self.bus.sys;
        sys.now += std::mem::take(&mut sys.m68k_debt_mclk);
        if sys.now >= target {
            return None;
        }
        // One match per run; each core's instruction loop is its own monomorphic copy.
        let exit = match &mut self.cpu {
            MainCpu::Ours(cpu) => run_ours(cpu, &mut self.bus, target, idle),
            MainCpu::M68k(cpu) => run_core(cpu.as_mut(), &mut self.bus, target),
        };
        let sys = &mut self.bus.sys;
        if let Some(hit) = sys.watch_hit.take() {
            return Some(hit);
        }
        if exit == BoundaryExit::Stopped && sys.now < target {
            // STOP: the 68000 idles until an interrupt, which only a line event raises.
            sys.now = target;
        }
        None
    }

    /// Start-of-line work: counters, blanking flags, DMA progress, the line's picture and
    /// H-int, in the order Genesis Plus GX performs them.
    fn begin_line(&mut self) {
        let k = self.frame_line;
        let line_start = self.line_start;
        self.bus.sys.io.line_tick();
        let sys = &mut self.bus.sys;
        sys.vdp.line_start = line_start;
        if k == 0 {
            sys.vdp.begin_frame(line_start);
        }
        let vdp = &mut sys.vdp;
        vdp.release_held_irq();
        let h = vdp.active_lines;
        let lpf = vdp.lines_per_frame();
        // Line k of the frame is line h + k of the count from the first active line (the
        // frame starts at the first blank line), wrapping at the frame's lines.
        let mut v = h + k;
        if v >= lpf {
            v -= lpf;
        }
        self.phase = Phase::ToLineEnd;
        if k == 0 {
            vdp.status &= !(status::DMA_BUSY | status::ODD_FRAME | status::FIFO_FULL);
            vdp.status |= status::VBLANK;
            if vdp.interlaced {
                vdp.odd_frame = !vdp.odd_frame;
                if vdp.odd_frame {
                    vdp.status |= status::ODD_FRAME;
                }
            }
            if vdp.dma.length > 0 {
                sys.dma_update(line_start, false);
            }
            let vdp = &mut sys.vdp;
            if vdp.hint_counter == 0 {
                vdp.hint_pending = true;
            }
            // The VDP starts in vertical blank, so there is no V-int in the first frame
            // after power-on.
            if vdp.v_counter != h {
                vdp.v_counter = h;
                self.phase = Phase::BeforeVint;
            }
        } else if v < h {
            // An active line (k > 0, so v is not h).
            vdp.v_counter = v;
            if vdp.dma.length > 0 {
                sys.dma_update(line_start, false);
            }
            let vdp = &mut sys.vdp;
            vdp.begin_active_line(v);
            if vdp.hint_counter == 0 {
                vdp.hint_counter = vdp.regs[10];
                vdp.hint_pending = true;
            } else {
                vdp.hint_counter -= 1;
            }
        } else if v == lpf - 1 {
            vdp.v_counter = v;
            vdp.hint_counter = vdp.regs[10];
            vdp.status &= !status::VBLANK;
            if vdp.dma.length > 0 {
                sys.dma_update(line_start, false);
            }
        } else {
            vdp.v_counter = v;
        }
    }

    // ---- the harness's view -----------------------------------------------------------

    /// Reads a byte of the 68000's address space without side effects: cartridge, work RAM
    /// and Z80 RAM (at $A00000-$A0FFFF, whoever holds the Z80's bus); other areas read $FF.
    pub fn read_u8(&self, addr: u32) -> u8 {
        let addr = addr & 0xFF_FFFF;
        let sys = &self.bus.sys;
        match addr >> 16 {
            0x00..=0x3F => sys.cart.read_byte(addr),
            0xA0 => sys.zbus.ram_byte(addr as usize),
            0xE0..=0xFF => sys.ram[(addr & 0xFFFF) as usize],
            _ => 0xFF,
        }
    }

    pub fn read_u16(&self, addr: u32) -> u16 {
        u16::from_be_bytes([self.read_u8(addr), self.read_u8(addr.wrapping_add(1))])
    }

    pub fn read_u32(&self, addr: u32) -> u32 {
        ((self.read_u16(addr) as u32) << 16) | self.read_u16(addr.wrapping_add(2)) as u32
    }

    /// Writes a byte as the harness pokes RAM: work RAM, Z80 RAM and cartridge SRAM directly;
    /// elsewhere as a 68000 write would (ports included).
    pub fn write_u8(&mut self, addr: u32, value: u8) {
        let addr = addr & 0xFF_FFFF;
        match addr >> 16 {
            0xA0 if addr & 0xFFFF < 0x4000 => self.bus.sys.zbus.write_ram(addr as usize, value),
            0xE0..=0xFF => self.bus.sys.ram[(addr & 0xFFFF) as usize] = value,
            _ => {
                // The watches may have changed since the last run (a poke may hit one).
                self.bus.sys.derive_ram_watch();
                self.bus.write_u8(addr, value)
            }
        }
    }

    pub fn write_u16(&mut self, addr: u32, value: u16) {
        let [hi, lo] = value.to_be_bytes();
        if addr & 1 == 0 && !matches!((addr >> 16) & 0xFF, 0xA0 | 0xE0..=0xFF) {
            self.bus.sys.derive_ram_watch();
            self.bus.write_u16(addr, value);
        } else {
            self.write_u8(addr, hi);
            self.write_u8(addr.wrapping_add(1), lo);
        }
    }

    /// Sets the buttons held on `port` (0 or 1), as `io::buttons` bits.
    pub fn set_pad(&mut self, port: usize, buttons: u16) {
        if let Some(p) = self.bus.sys.io.pads.get_mut(port) {
            p.buttons = buttons;
        }
    }

    /// The last complete frame at the active resolution.
    pub fn frame_buffer(&self) -> FrameView<'_> {
        let vdp = &self.bus.sys.vdp;
        FrameView {
            width: vdp.frame_width as usize,
            height: vdp.frame_height as usize,
            stride: MAX_WIDTH,
            pixels: vdp.frame_pixels(),
        }
    }

    /// Whether a double bus fault halted the 68000 (the rest of the machine runs on).
    pub fn halted(&self) -> bool {
        self.cpu.is_halted()
    }

    /// The 68000's absolute master clock.
    pub fn master_clock(&self) -> u64 {
        self.bus.sys.now
    }

    /// The frame being run is `frame_count + 1`; lines since it started.
    pub fn position(&self) -> (u64, u16) {
        (self.frame_count, self.frame_line)
    }
}

/// [`Machine::run_cpu`]'s loop for one core: runs it to `target`, moving the clock once per
/// instruction at its boundary (every access of an instruction happens at its start clock, which
/// the Genesis Plus GX 1.7 results depend on) and skipping idle-loop passes.
fn run_core<C: BoundaryCore>(cpu: &mut C, bus: &mut Bus, target: u64) -> BoundaryExit {
    cpu.prepare(&bus.sys.timing);
    bus.sys.instruction_clock = cpu.own_clock();
    // This loop keeps `now` exact at every boundary: nothing to sync.
    bus.sys.now_cycles = bus.sys.instruction_clock;
    cpu.set_irq(bus.sys.vdp.cpu_irq_level());
    // With refresh stalls the clock does not advance by whole passes.
    let skip_idle = !bus.sys.timing.refresh_stall;
    let mut idle = IdleLoop::<C::Snapshot> {
        pc: 0,
        at: 0,
        state: None,
    };
    cpu.run_with_boundaries(bus, |bus, b, core| {
        let timing = bus.sys.timing;
        let clocks = match timing.interrupt_clocks {
            Some(c) if b.interrupt => c,
            _ if C::TABLE_CLOCKS && timing.musashi_clocks && !b.interrupt => {
                gpgx17_clocks(b.opcode, b.cpu_clocks)
            }
            _ => b.cpu_clocks,
        };
        bus.advance_cpu(clocks);
        bus.sys.instruction_clock = C::clock(core);
        bus.sys.now_cycles = bus.sys.instruction_clock;
        let from = std::mem::replace(&mut bus.sys.pc_ahead, b.pc.wrapping_add(4)).wrapping_sub(4);
        if skip_idle {
            if b.pc == idle.pc
                && let Some(state) = &idle.state
            {
                if !bus.sys.touched && C::same_but_clock(state, core) {
                    let now = bus.sys.now;
                    let pass = now - idle.at;
                    if now < target && pass > 0 {
                        bus.sys.now += (target - 1 - now) / pass * pass;
                    }
                }
                idle.arm::<C>(b.pc, bus, core);
            } else if b.pc <= from && !b.interrupt {
                idle.arm::<C>(b.pc, bus, core);
            }
        }
        BoundaryControl {
            stop: bus.sys.now >= target || bus.sys.watch_hit.is_some(),
            irq_level: bus.sys.vdp.cpu_irq_level_at_boundary(),
        }
    })
}

/// The idle-loop candidate of [`run_ours`]: the target of the last backward branch, the CPU
/// clock when the CPU was last there, the CPU then once a pass without an access that touches
/// the machine has been seen; `end`: the master clock at which the run that armed it returned.
struct OursIdle {
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
/// ([`record_pass`]): the CPU at each boundary after the candidate's up to the loop's
/// branch, with its clock offset from the candidate, and the pass's CPU clocks (0: the pass
/// could not be recorded). `epoch`: the `OursIdle::epoch` of the `state` it started from.
struct IdlePass {
    epoch: u32,
    len: u64,
    bounds: Vec<(u64, m68000::Cpu)>,
}

/// The longest wait between compares of a loop whose passes change the CPU: Sonic 2's
/// object scans run 16 to 144 passes (a `dbf` over the object table).
const IDLE_BACKOFF_MAX: u8 = 15;

/// [`run_core`] for our 68000, with the scheduler's boundary work inline and only what changed
/// looked at. The clock moves once per instruction at its boundary as there (every access of
/// an instruction at its start clock), but it is kept as the CPU's own clock during the run
/// (`System::now` is brought up to date where the bus needs it, `System::sync_clock`), so the
/// boundary after an instruction stores where the next one starts and makes one compare
/// against `System::look_at`: the CPU clock of the next boundary that must look (the target,
/// the next refresh stall), or 0 after an access that can change what a boundary decides (a
/// port, an interrupt acknowledge, a watched write, `System::ask_boundary`). Only then are
/// the interrupt level, the watch hit, the refresh stall and the target worked out, as
/// [`run_core`] does at every boundary; the interrupt level and the watch hit only after such
/// an access or while the VDP's one-instruction latency is running (`System::boundary_check`).
/// The idle-loop skip is [`run_core`]'s, except that the CPU is taken to be back at the
/// candidate only at a backward branch (the end of a pass), and that a candidate is compared
/// from its third arrival (the first pass that touched nothing records the CPU), so a busy
/// loop's backward branches do not copy the CPU each pass; the skip is exact, so finding it
/// a pass later changes nothing.
///
/// The candidate carries over from one run to the next within a [`Machine::run`] call: between
/// the two only the line events, DMA and the Z80 run, none of which a loop that reads only ROM
/// and work RAM can see, except a Z80 write through the bank window (which marks the bus
/// `touched`) and a clock moved by a DMA stall or owed bank clocks (the candidate is dropped
/// then: a pass is measured on an unbroken clock). A newly asserted interrupt level is part of
/// the compared state. So a loop proven idle on one line is skipped from the next line's
/// first pass instead of after two more passes on every line.
fn run_ours(
    cpu: &mut m68000::Cpu,
    bus: &mut Bus,
    target: u64,
    carried: &mut Option<OursIdle>,
) -> BoundaryExit {
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
    // A run that waits in a proven idle loop, as Sonic 2 waits for V-int on most lines of a
    // frame: its end worked out from the recorded pass instead of running the instructions.
    if quiet
        && idle.proven
        && idle.wait == 0
        && !bus.sys.touched
        && !cpu.attention()
        && wait_in_closed_form(cpu, bus, target, idle)
    {
        idle.end = bus.sys.now;
        return BoundaryExit::Requested;
    }
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
#[inline(never)]
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
    let k = pass.bounds.len() + 1;
    let off = |i: usize| if i == 0 { 0 } else { pass.bounds[i - 1].0 };
    let j = if cpu.pc == idle.pc {
        0
    } else {
        match pass.bounds.iter().position(|b| b.1.pc == cpu.pc) {
            Some(p) => p + 1,
            None => return false,
        }
    };
    // The last arrival was at the candidate of the pass the CPU is in.
    if cpu.cycles.checked_sub(off(j)) != Some(idle.at) {
        return false;
    }
    let base = idle.at;
    let sys = &mut bus.sys;
    // Exact between runs: `now_cycles` is the CPU's clock.
    let n0 = sys.now;
    // The boundaries up to the loop's branch: the run ends at the first at or past the target.
    let mut end = None;
    for i in j + 1..k {
        let t = n0 + (off(i) - off(j)) * M68K_DIVIDER;
        if t >= target {
            end = Some((i, base + off(i), t, base));
            break;
        }
    }
    if end.is_none() {
        // The branch back starts before the target: `arrive` skips the whole passes that end
        // before it, counted from the branch's start, and the run ends at the first boundary
        // of the next pass at or past it (the branch's own start is, one pass on).
        let branch = off(k - 1);
        let now_branch = n0 + (branch - off(j)) * M68K_DIVIDER;
        let p = pass.len * M68K_DIVIDER;
        let now0 =
            now_branch + (target - 1 - now_branch) / p * p + (pass.len - branch) * M68K_DIVIDER;
        let at0 = base + pass.len;
        end = (0..k)
            .map(|i| (i, at0 + off(i), now0 + off(i) * M68K_DIVIDER, at0))
            .find(|e| e.2 >= target);
    }
    let Some((i, cycles, now, at)) = end else {
        return false;
    };
    cpu.clone_from(if i == 0 { s0 } else { &pass.bounds[i - 1].1 });
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
/// branches back anywhere but to the candidate, takes more than 16 instructions, or does not
/// end in `s0` again.
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
    let mut bounds = Vec::new();
    loop {
        if c.attention() || bounds.len() > 16 {
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
        bounds.push((c.cycles - start, c.clone()));
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
