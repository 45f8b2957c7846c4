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

use crate::bus::z80_bus::Z80Bus;
use crate::bus::{Bus, System, Timing, WORK_RAM_BYTES, Watch, WatchHit};
use crate::cartridge::{Cartridge, RomError};
use crate::clock::{M68K_DIVIDER, M68K_REFRESH_PERIOD_MCLK, MCLK_PER_LINE, Region};
use crate::cpu::cpu68k::{BoundaryControl, BoundaryExit, gpgx17_clocks};
use crate::cpu::main_cpu::{BoundaryCore, CpuBackend, MainCpu};
use crate::cpu::sound_cpu::SoundCpu;
use crate::frontend::FrameView;
use crate::io::{Io, PadKind};
use crate::sound::psg::Psg;
use crate::sound::ym2612::Ym2612;
use crate::vdp::{MAX_WIDTH, Vdp, status};

mod ours;
mod sound;
use ours::{OursIdle, run_ours};

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
    /// The sound output stage, when sound is on (`sound::mixer`).
    pub audio: Option<Box<crate::sound::mixer::AudioOut>>,
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
                    // The next line starts at once (what the loop's next turn would do first).
                    self.begin_line();
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
