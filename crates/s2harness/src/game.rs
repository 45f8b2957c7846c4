//! Scenarios in the real game: boot to Emerald Hill Act 1 with Sonic alone, build the stage in
//! RAM at a frame boundary, drive the script through the emulated pad, and sample Sonic's RAM at
//! the end of every game frame (`sonic2-physics.md` §5, `traces/README.md`).

use std::fmt;

use megadrive::CpuBackend;
use megadrive::io::PadKind;
use megadrive::machine::{Machine, Options};
use megadrive::mode::Mode;
use s2model::scenario::{Stop, stop_after_frame};
use s2model::script::format_buttons;
use s2model::state::{FIELD_COUNT, FIELDS};
use s2model::trace::{Trace, TraceFrame, TraceHeader};
use s2model::{Scenario, SonicState};

use crate::rom::{KnownRom, RomImage, require_known};

mod measure;
mod terrain;

pub use measure::{Measured, PlacedObject, RamWrite, Setup, Watch};

/// The game's values the harness relies on (disassembly names).
const GAME_MODE_TITLE: u8 = 0x04;
const GAME_MODE_LEVEL: u8 = 0x0C;
/// `Vint_routine` value the main loop writes when its frame is done (`VintID_Level`).
const VINT_LEVEL: u8 = 0x08;
/// A frame is 262 lines of 3420 master clocks; a run waits at most this long for one game frame.
const MCLK_PER_VIDEO_FRAME: u64 = 262 * 3420;
/// Boot: frames allowed to reach the level before giving up.
const BOOT_FRAME_LIMIT: u64 = 3000;
/// Frames to wait after the level has started and control is free, before the ready state.
const SETTLE_FRAMES: u64 = 30;
/// Highest chunk id the stage may use: $F8-$FF belong to the background.
const MAX_CHUNK_ID: usize = 0xF7;

/// Why a run could not be made or was aborted: which frame (when known) and what broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HarnessError {
    pub frame: Option<usize>,
    pub message: String,
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.frame {
            Some(k) => write!(f, "frame {k}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for HarnessError {}

fn fail<T>(frame: Option<usize>, message: impl Into<String>) -> Result<T, HarnessError> {
    Err(HarnessError {
        frame,
        message: message.into(),
    })
}

/// A long write as the 68000 makes it: two words, high first.
fn write_long(m: &mut Machine, addr: u32, value: u32) {
    m.write_u16(addr, (value >> 16) as u16);
    m.write_u16(addr + 2, value as u16);
}

/// Zeroes the bytes from `start` to `end` (exclusive) as [`Machine::write_u8`] would: in one
/// fill when they all lie in work RAM, where a poke is a plain store (thousands per run).
fn zero(m: &mut Machine, start: u32, end: u32) {
    let one_ram_bank = start < end
        && start >> 16 == (end - 1) >> 16
        && (0xFF_0000..=0xFF_FFFF).contains(&(start & 0xFF_FFFF));
    if one_ram_bank {
        m.bus.sys.ram[(start & 0xFFFF) as usize..=((end - 1) & 0xFFFF) as usize].fill(0);
    } else {
        for addr in start..end {
            m.write_u8(addr, 0);
        }
    }
}

/// The camera the flat stages start with for Sonic at (x, y): on him, within Emerald Hill 1's
/// boundaries.
pub fn flat_camera(x: u16, y: u16) -> (u32, u32) {
    (
        (x as i32 - 0xA0).clamp(0, 0x29A0) as u32,
        (y as i32 - 0x60).clamp(0, 0x320) as u32,
    )
}

/// Addresses the harness uses, resolved once from `roms.toml` for the revision at hand.
#[derive(Clone, Debug)]
struct Symbols {
    sst: u32,
    game_mode: u32,
    vint_routine: u32,
    level_frame_counter: u32,
    vint_runcount: u32,
    ctrl_1_logical: u32,
    player_option: u32,
    title_screen_option: u32,
    intro_sonic: u32,
    level_started_flag: u32,
    control_locked: u32,
    boss_id: u32,
    debug_placement: u32,
    game_paused: u32,
    water_flag: u32,
    ring_count: u32,
    ring_positions: u32,
    obj_load_addr: u32,
    objects_null: u32,
    level_layout: u32,
    chunk_table: u32,
    primary_collision: u32,
    primary_angle: u32,
    secondary_angle: u32,
    look_delay: u32,
    camera_bias: u32,
    top_speed: u32,
    acceleration: u32,
    deceleration: u32,
    timer: u32,
    camera_x: u32,
    camera_y: u32,
    /// Object field offsets, in FIELDS order for the compared ones.
    field_offsets: [u32; FIELD_COUNT],
    off: Offsets,
}

/// SST offsets written at setup but not compared.
#[derive(Clone, Debug)]
struct Offsets {
    routine: u32,
    status: u32,
    angle: u32,
    flip_angle: u32,
    air_left: u32,
    flip_turned: u32,
    obj_control: u32,
    status_secondary: u32,
    flips_remaining: u32,
    flip_speed: u32,
    invulnerable_time: u32,
    invincibility_time: u32,
    speedshoes_time: u32,
    stick_to_convex: u32,
    interact: u32,
    top_solid_bit: u32,
    lrb_solid_bit: u32,
}

impl Symbols {
    fn resolve(rom: &KnownRom) -> Result<Symbols, HarnessError> {
        let get = |name: &str| -> Result<u32, HarnessError> {
            rom.symbol(name).ok_or_else(|| HarnessError {
                frame: None,
                message: format!("roms.toml has no symbol {name} for {}", rom.revision),
            })
        };
        let sst = get("MainCharacter")?;
        // The object fields, then the globals, in the trace's field order.
        let mut field_offsets = [0u32; FIELD_COUNT];
        for (i, name) in FIELDS.iter().enumerate() {
            field_offsets[i] = match *name {
                "look_delay" => get("Sonic_Look_delay_counter")?,
                "ctrl_held" => get("Ctrl_1_Logical")?,
                "ctrl_pressed" => get("Ctrl_1_Logical")? + 1,
                "primary_angle" => get("Primary_Angle")?,
                "secondary_angle" => get("Secondary_Angle")?,
                "camera_bias" => get("Camera_Y_pos_bias")?,
                field => sst + get(field)?,
            };
        }
        Ok(Symbols {
            sst,
            game_mode: get("Game_Mode")?,
            vint_routine: get("Vint_routine")?,
            level_frame_counter: get("Level_frame_counter")?,
            vint_runcount: get("Vint_runcount")?,
            ctrl_1_logical: get("Ctrl_1_Logical")?,
            player_option: get("Player_option")?,
            title_screen_option: get("Title_screen_option")?,
            intro_sonic: get("IntroSonic")?,
            level_started_flag: get("Level_started_flag")?,
            control_locked: get("Control_Locked")?,
            boss_id: get("Current_Boss_ID")?,
            debug_placement: get("Debug_placement_mode")?,
            game_paused: get("Game_paused")?,
            water_flag: get("Water_flag")?,
            ring_count: get("Ring_count")?,
            ring_positions: get("Ring_Positions")?,
            obj_load_addr: get("Obj_load_addr_right")?,
            objects_null: get("Objects_Null")?,
            level_layout: get("Level_Layout")?,
            chunk_table: get("Chunk_Table")?,
            primary_collision: get("Primary_Collision")?,
            primary_angle: get("Primary_Angle")?,
            secondary_angle: get("Secondary_Angle")?,
            look_delay: get("Sonic_Look_delay_counter")?,
            camera_bias: get("Camera_Y_pos_bias")?,
            top_speed: get("Sonic_top_speed")?,
            acceleration: get("Sonic_acceleration")?,
            deceleration: get("Sonic_deceleration")?,
            timer: get("Timer")?,
            camera_x: get("Camera_X_pos")?,
            camera_y: get("Camera_Y_pos")?,
            field_offsets,
            off: Offsets {
                routine: get("routine")?,
                status: get("status")?,
                angle: get("angle")?,
                flip_angle: get("flip_angle")?,
                air_left: get("air_left")?,
                flip_turned: get("flip_turned")?,
                obj_control: get("obj_control")?,
                status_secondary: get("status_secondary")?,
                flips_remaining: get("flips_remaining")?,
                flip_speed: get("flip_speed")?,
                invulnerable_time: get("invulnerable_time")?,
                invincibility_time: get("invincibility_time")?,
                speedshoes_time: get("speedshoes_time")?,
                stick_to_convex: get("stick_to_convex")?,
                interact: get("interact")?,
                top_solid_bit: get("top_solid_bit")?,
                lrb_solid_bit: get("lrb_solid_bit")?,
            },
        })
    }
}

/// One Sonic 2 ROM booted to Emerald Hill Act 1 with Sonic alone, ready to run scenarios.
/// The ready state is a copy of the whole machine: every run starts from the same bits.
#[derive(Clone)]
pub struct Game {
    ready: Machine,
    /// `ready` run on to B_0, the main loop's write of 8 to `Vint_routine` (what every run
    /// begins with, the same for all; or why it could not get there).
    b0: Result<Machine, HarnessError>,
    rom: &'static KnownRom,
    sha1: String,
    sym: Symbols,
    /// Frames from power-on to the ready state.
    pub boot_frames: u64,
}

/// A run part-way: the machine after `frames`, and what the next frame's checks need.
#[derive(Clone)]
struct Running {
    m: Machine,
    initial: [i32; FIELD_COUNT],
    frames: Vec<TraceFrame>,
    prev_held: u8,
    counters: (u16, u16),
}

/// Where a run stood after its first frames, for a later run to go on from: one whose stage,
/// block, Sonic's place and facing (all the start state depends on) and input up to there are
/// the same. The machine is deterministic, so that run's first frames would be these bits
/// again ([`Game::run_shared`]).
pub struct Checkpoint(Shared);

impl Checkpoint {
    fn stopped(initial: &[i32; FIELD_COUNT], frames: &[TraceFrame], stop: Stop) -> Checkpoint {
        Checkpoint(Shared::Stopped {
            initial: *initial,
            frames: frames.to_vec(),
            stop,
        })
    }
}

/// Where [`Game::run_shared`] goes on from.
pub enum Resume<'a> {
    /// The start: no frame shared.
    Start,
    /// A copy of a checkpoint later runs still need.
    Copy(&'a Checkpoint),
    /// A checkpoint no later run needs (no copy of the machine).
    Take(Checkpoint),
}

enum Shared {
    /// Still running after the shared frames.
    Running(Box<Running>),
    /// Stopped within them (`stop` says why).
    Stopped {
        initial: [i32; FIELD_COUNT],
        frames: Vec<TraceFrame>,
        stop: Stop,
    },
}

impl Game {
    /// Boots `rom` (a known revision) to the ready state (§5.1) on the default 68000 core.
    pub fn boot(rom: &RomImage) -> Result<Game, HarnessError> {
        Game::boot_with_cpu(rom, CpuBackend::default())
    }

    /// [`Game::boot`] with the console's 68000 core chosen (every scenario runs on it too).
    pub fn boot_with_cpu(rom: &RomImage, cpu: CpuBackend) -> Result<Game, HarnessError> {
        let known = require_known(rom).map_err(|m| HarnessError {
            frame: None,
            message: m,
        })?;
        let sym = Symbols::resolve(known)?;
        let options = Options {
            // MAME's genesis driver, which recorded the reference traces, plugs in 3-button pads.
            pads: [PadKind::ThreeButton, PadKind::ThreeButton],
            cpu,
            ..Options::default()
        };
        let mut m = Machine::new(rom.bytes.clone(), options).map_err(|e| HarnessError {
            frame: None,
            message: format!("the console refused the ROM: {e}"),
        })?;
        // Scenarios read RAM only: no pixels, no sound (the game sees the same console).
        m.set_mode(Mode::Headless);
        let mut frame = 0u64;
        let mut step = |m: &mut Machine, pad: u16| -> Result<(), HarnessError> {
            m.set_pad(0, pad);
            m.run_frame();
            frame += 1;
            if frame > BOOT_FRAME_LIMIT {
                return fail(
                    None,
                    format!(
                        "boot did not reach Emerald Hill within {BOOT_FRAME_LIMIT} frames (Game_Mode ${:02X})",
                        m.read_u8(sym.game_mode)
                    ),
                );
            }
            Ok(())
        };
        // SEGA screen: wait for the title screen.
        while m.read_u8(sym.game_mode) != GAME_MODE_TITLE {
            step(&mut m, 0)?;
        }
        // Title: Sonic alone, then Start once the intro Sonic has finished (IntroSonic+$2F).
        m.write_u16(sym.player_option, 1);
        m.write_u16(sym.title_screen_option, 0);
        while m.read_u8(sym.intro_sonic + 0x2F) == 0 {
            step(&mut m, 0)?;
        }
        step(&mut m, megadrive::io::buttons::START)?;
        step(&mut m, 0)?;
        while !(m.read_u8(sym.game_mode) == GAME_MODE_LEVEL
            && m.read_u8(sym.level_started_flag) == 1
            && m.read_u8(sym.control_locked) == 0)
        {
            step(&mut m, 0)?;
        }
        for _ in 0..SETTLE_FRAMES {
            step(&mut m, 0)?;
        }
        let mut game = Game {
            boot_frames: frame,
            b0: Ok(m.clone()),
            ready: m,
            rom: known,
            sha1: rom.sha1.clone(),
            sym,
        };
        game.b0 = game.run_to_b0();
        Ok(game)
    }

    /// The ready state run on to B_0.
    fn run_to_b0(&self) -> Result<Machine, HarnessError> {
        let mut m = self.ready.clone();
        self.to_boundary(&mut m, None)?;
        Ok(m)
    }

    pub fn revision(&self) -> &'static KnownRom {
        self.rom
    }

    /// Runs a scenario in the game and returns its trace (`source: "s2lab emulator"`).
    pub fn run(&self, sc: &Scenario) -> Result<Trace, HarnessError> {
        self.run_until(sc, &std::sync::atomic::AtomicBool::new(false))
    }

    /// [`Game::run`], stopping between frames once `stop` is set (Ctrl-C): the trace then holds
    /// the frames run so far and its header says `"stop":"interrupted"`.
    pub fn run_until(
        &self,
        sc: &Scenario,
        stop_flag: &std::sync::atomic::AtomicBool,
    ) -> Result<Trace, HarnessError> {
        self.run_observed_until(sc, stop_flag, |_, _| {})
    }

    /// [`Game::run`], showing `observe` the machine at the end of every scenario frame.
    pub fn run_observed(
        &self,
        sc: &Scenario,
        observe: impl FnMut(usize, &Machine),
    ) -> Result<Trace, HarnessError> {
        self.run_observed_until(sc, &std::sync::atomic::AtomicBool::new(false), observe)
    }

    /// [`Game::run_observed`] with [`Game::run_until`]'s stop flag.
    pub fn run_observed_until(
        &self,
        sc: &Scenario,
        stop_flag: &std::sync::atomic::AtomicBool,
        observe: impl FnMut(usize, &Machine),
    ) -> Result<Trace, HarnessError> {
        self.run_from(sc, stop_flag, observe, Resume::Start, &[]).0
    }

    /// [`Game::run`] resumed from `from` (taken in a run of the same start whose input equals
    /// `sc`'s up to there, [`Checkpoint`]), or from the start without one; also gives the
    /// checkpoints after each of the `keep` frame counts (ascending) it reaches beyond `from`,
    /// for later runs that share those frames.
    pub fn run_shared(
        &self,
        sc: &Scenario,
        from: Resume<'_>,
        keep: &[usize],
    ) -> (Result<Trace, HarnessError>, Vec<(usize, Checkpoint)>) {
        let never = std::sync::atomic::AtomicBool::new(false);
        self.run_from(sc, &never, |_, _| {}, from, keep)
    }

    fn run_from(
        &self,
        sc: &Scenario,
        stop_flag: &std::sync::atomic::AtomicBool,
        mut observe: impl FnMut(usize, &Machine),
        from: Resume<'_>,
        keep: &[usize],
    ) -> (Result<Trace, HarnessError>, Vec<(usize, Checkpoint)>) {
        let floor_x = sc.stage().floor_x();
        let n = sc.frame_count();
        let mut kept = Vec::new();
        let taken;
        let from: Option<Result<Running, &Shared>> = match from {
            Resume::Start => None,
            Resume::Copy(Checkpoint(Shared::Running(at))) => Some(Ok((**at).clone())),
            Resume::Take(Checkpoint(Shared::Running(at))) => Some(Ok(*at)),
            Resume::Copy(Checkpoint(stopped)) => Some(Err(stopped)),
            Resume::Take(Checkpoint(stopped)) => {
                taken = stopped;
                Some(Err(&taken))
            }
        };
        let mut at = match from {
            Some(Ok(at)) => at,
            Some(Err(Shared::Running(_))) => unreachable!("running checkpoints matched above"),
            Some(Err(Shared::Stopped {
                initial,
                frames,
                stop,
            })) => {
                // The run this came from stopped within the shared frames: so does this one,
                // and so does a later run sharing them all.
                for &d in keep.iter().filter(|&&d| d >= frames.len()) {
                    kept.push((d, Checkpoint::stopped(initial, frames, *stop)));
                }
                let trace = self.trace(sc, *initial, frames.clone(), floor_x, stop.as_str());
                return (Ok(trace), kept);
            }
            None => match self.start(sc) {
                Ok(at) => at,
                Err(e) => return (Err(e), kept),
            },
        };
        let resumed_at = at.frames.len();
        let mut stop = None;
        let mut interrupted = false;
        for k in resumed_at..n {
            if stop_flag.load(std::sync::atomic::Ordering::Relaxed) {
                interrupted = true;
                break;
            }
            match self.frame(sc, &mut at, k, floor_x, &mut observe) {
                Ok(None) => {}
                Ok(Some(st)) => {
                    stop = Some(st);
                    break;
                }
                Err(e) => return (Err(e), Vec::new()),
            }
            if keep.contains(&(k + 1)) {
                kept.push((k + 1, Checkpoint(Shared::Running(Box::new(at.clone())))));
            }
        }
        if let Some(stop) = stop {
            for &d in keep.iter().filter(|&&d| d >= at.frames.len()) {
                kept.push((d, Checkpoint::stopped(&at.initial, &at.frames, stop)));
            }
        }
        let label = if interrupted {
            "interrupted"
        } else {
            stop.unwrap_or(Stop::End).as_str()
        };
        let trace = self.trace(sc, at.initial, at.frames, floor_x, label);
        (Ok(trace), kept)
    }

    /// Runs frame `k` of `sc` and records it: why the run stops after it, if it does.
    fn frame(
        &self,
        sc: &Scenario,
        at: &mut Running,
        k: usize,
        floor_x: Option<(u16, u16)>,
        observe: &mut impl FnMut(usize, &Machine),
    ) -> Result<Option<Stop>, HarnessError> {
        let m = &mut at.m;
        let held = sc.input.get(k).copied().unwrap_or(0);
        // Ctrl_1 and the pad share the SACBRLDU bit order.
        m.set_pad(0, held as u16);
        self.to_boundary(m, Some(k))?;
        observe(k, m);
        let values = self.sample(m);
        self.check_frame(m, k, held, at.prev_held, &mut at.counters)?;
        at.prev_held = held;
        at.frames.push(TraceFrame {
            frame: k as u64,
            input: format_buttons(held),
            values,
            layer: None,
        });
        let state = SonicState::from_trace_values(&values).map_err(|e| HarnessError {
            frame: Some(k),
            message: e,
        })?;
        Ok(stop_after_frame(&state, floor_x))
    }

    /// B_0 and the stage built (§5.2, §5.3): frame 0 not run yet.
    fn start(&self, sc: &Scenario) -> Result<Running, HarnessError> {
        let s = &self.sym;
        // B_0: the main loop's write of 8 to Vint_routine.
        let mut m = self.b0.clone()?;
        self.build_stage(&mut m, sc)?;
        self.place_sonic(&mut m, sc);
        let initial = self.sample(&m);
        let counters = (
            m.read_u16(s.level_frame_counter),
            m.read_u16(s.vint_runcount + 2),
        );
        Ok(Running {
            m,
            initial,
            frames: Vec::with_capacity(sc.frame_count()),
            prev_held: 0,
            counters,
        })
    }

    /// The trace of a run that has ended (`stop`: its header's word for why).
    fn trace(
        &self,
        sc: &Scenario,
        initial: [i32; FIELD_COUNT],
        frames: Vec<TraceFrame>,
        floor_x: Option<(u16, u16)>,
        stop: &str,
    ) -> Trace {
        Trace {
            header: TraceHeader {
                format: 1,
                scenario: sc.name.clone(),
                source: "s2lab emulator".into(),
                rom_sha1: Some(self.sha1.clone()),
                fields: FIELDS.iter().map(|f| f.to_string()).collect(),
                initial,
                initial_layer: None,
                frames: Some(frames.len() as u64),
                stop: Some(stop.into()),
                floor_x: floor_x.map(|(lo, hi)| (lo as i64, hi as i64)),
                extra: Default::default(),
            },
            frames,
        }
    }

    /// Runs to the game's next end of frame: its write of 8 to `Vint_routine`.
    fn to_boundary(&self, m: &mut Machine, frame: Option<usize>) -> Result<(), HarnessError> {
        match m.run_until_write(
            self.sym.vint_routine,
            Some(VINT_LEVEL),
            2 * MCLK_PER_VIDEO_FRAME,
        ) {
            Some(_) => Ok(()),
            None => fail(
                frame,
                "the game did not finish a frame within two video frames (it lagged or left the level)",
            ),
        }
    }

    /// Clears every object slot but Sonic's and his dust's, stops object spawning and removes the
    /// rings (§5.2).
    fn clear_objects(&self, m: &mut Machine) {
        let s = &self.sym;
        // Every object slot but Sonic's and his dust's.
        zero(m, s.sst + 0x40, 0xFF_D100);
        zero(m, 0xFF_D140, 0xFF_D400);
        for i in 0..4 {
            write_long(m, s.obj_load_addr + 4 * i, s.objects_null);
        }
        // Rings: records of (status, x, y) words from Ring_Positions+6, up to the $FFFF terminator.
        let mut rec = s.ring_positions + 6;
        while m.read_u16(rec + 2) != 0xFFFF && rec < s.ring_positions + 0x600 {
            m.write_u16(rec, 0xFFFF);
            rec += 6;
        }
    }

    /// Clears objects and rings, stops object spawning and writes the stage's chunks (§5.2, §5.3).
    fn build_stage(&self, m: &mut Machine, sc: &Scenario) -> Result<(), HarnessError> {
        let s = &self.sym;
        self.clear_objects(m);
        let block = sc.block;
        if m.read_u8(s.primary_collision + block as u32) != 0xFF {
            return fail(
                None,
                format!(
                    "block {block} is not a full square here (its primary collision id is not $FF)"
                ),
            );
        }
        // The foreground half of all 16 layout rows.
        for row in 0..16u32 {
            let start = s.level_layout + row * 0x100;
            zero(m, start, start + 0x80);
        }
        let stage = sc.stage();
        let mut chunks: Vec<[u16; 64]> = Vec::new();
        for cy in 0..16u16 {
            for cx in 0..(688 / 8) as u16 {
                let mut words = [0u16; 64];
                let mut any = false;
                for r in 0..8u16 {
                    for c in 0..8u16 {
                        if stage.is_solid_cell(cx * 8 + c, cy * 8 + r) {
                            words[(r * 8 + c) as usize] = 0x3000 | block;
                            any = true;
                        }
                    }
                }
                if !any {
                    continue;
                }
                let id = match chunks.iter().position(|c| *c == words) {
                    Some(i) => i + 1,
                    None => {
                        chunks.push(words);
                        chunks.len()
                    }
                };
                if id > MAX_CHUNK_ID {
                    return fail(None, "the stage needs more than 247 distinct 128-px chunks");
                }
                m.write_u8(s.level_layout + cy as u32 * 0x100 + cx as u32, id as u8);
            }
        }
        for (i, words) in chunks.iter().enumerate() {
            let base = s.chunk_table + (i as u32 + 1) * 0x80;
            for (j, &w) in words.iter().enumerate() {
                m.write_u16(base + 2 * j as u32, w);
            }
        }
        Ok(())
    }

    /// Writes Sonic's object and the globals (traces/README.md step 2).
    fn place_sonic(&self, m: &mut Machine, sc: &Scenario) {
        self.place_sonic_at(m, sc.x, sc.y, sc.facing_left);
    }

    /// Sonic standing at (x, y) with everything else as the flat stages write it.
    fn place_sonic_at(&self, m: &mut Machine, x: u16, y: u16, facing_left: bool) {
        let s = &self.sym;
        let o = &s.off;
        let f = |name: &str| s.field_offsets[FIELDS.iter().position(|n| *n == name).unwrap()];
        let b = s.sst;
        m.write_u8(b + o.routine, 2);
        m.write_u8(b + o.status, facing_left as u8);
        m.write_u8(b + o.angle, 0);
        m.write_u16(f("x_pos"), x);
        m.write_u16(f("x_sub"), 0);
        m.write_u16(f("y_pos"), y);
        m.write_u16(f("y_sub"), 0);
        for name in ["x_vel", "y_vel", "inertia", "move_lock", "spindash_counter"] {
            m.write_u16(f(name), 0);
        }
        m.write_u8(f("y_radius"), 0x13);
        m.write_u8(f("x_radius"), 9);
        m.write_u8(f("anim"), 5);
        m.write_u8(f("prev_anim"), 5);
        for name in [
            "anim_frame",
            "anim_frame_duration",
            "spindash_flag",
            "jumping",
        ] {
            m.write_u8(f(name), 0);
        }
        m.write_u8(f("next_tilt"), 0xFF);
        m.write_u8(f("tilt"), 0xFF);
        for off in [
            o.flip_angle,
            o.flip_turned,
            o.obj_control,
            o.status_secondary,
            o.flips_remaining,
            o.stick_to_convex,
            o.interact,
        ] {
            m.write_u8(b + off, 0);
        }
        m.write_u8(b + o.air_left, 0x1E);
        m.write_u8(b + o.flip_speed, 4);
        for off in [o.invulnerable_time, o.invincibility_time, o.speedshoes_time] {
            m.write_u16(b + off, 0);
        }
        m.write_u8(b + o.top_solid_bit, 0x0C);
        m.write_u8(b + o.lrb_solid_bit, 0x0D);

        m.write_u8(s.primary_angle, 0xFF);
        m.write_u8(s.secondary_angle, 0xFF);
        m.write_u16(s.look_delay, 0);
        m.write_u16(s.camera_bias, 0x60);
        m.write_u16(s.top_speed, 0x600);
        m.write_u16(s.acceleration, 0xC);
        m.write_u16(s.deceleration, 0x80);
        write_long(m, s.timer, 0);
        let (cam_x, cam_y) = flat_camera(x, y);
        write_long(m, s.camera_x, cam_x << 16);
        write_long(m, s.camera_y, cam_y << 16);
    }

    /// The compared fields, read from RAM.
    fn sample(&self, m: &Machine) -> [i32; FIELD_COUNT] {
        let mut v = [0i32; FIELD_COUNT];
        for (i, spec) in s2model::state::FIELD_SPECS.iter().enumerate() {
            let addr = self.sym.field_offsets[i];
            v[i] = match spec.1 {
                s2model::state::FieldType::U8 => m.read_u8(addr) as i32,
                s2model::state::FieldType::U16 => m.read_u16(addr) as i32,
                s2model::state::FieldType::S16 => m.read_u16(addr) as i16 as i32,
            };
        }
        v
    }

    /// The per-frame assumptions: no lag, the pad read as scripted, nothing else running.
    fn check_frame(
        &self,
        m: &Machine,
        k: usize,
        held: u8,
        prev_held: u8,
        counters: &mut (u16, u16),
    ) -> Result<(), HarnessError> {
        let s = &self.sym;
        let now = (
            m.read_u16(s.level_frame_counter),
            m.read_u16(s.vint_runcount + 2),
        );
        if now.0 != counters.0.wrapping_add(1) || now.1 != counters.1.wrapping_add(1) {
            return fail(
                Some(k),
                format!(
                    "lag: Level_frame_counter {} -> {}, Vint_runcount {} -> {} (each must advance by 1)",
                    counters.0, now.0, counters.1, now.1
                ),
            );
        }
        *counters = now;
        let ctrl = (m.read_u8(s.ctrl_1_logical), m.read_u8(s.ctrl_1_logical + 1));
        let want = (held, held & !prev_held);
        if ctrl != want {
            return fail(
                Some(k),
                format!(
                    "Ctrl_1_Logical is held ${:02X} pressed ${:02X}, the script says ${:02X} ${:02X}",
                    ctrl.0, ctrl.1, want.0, want.1
                ),
            );
        }
        for (name, addr) in [
            ("Current_Boss_ID", s.boss_id),
            ("Debug_placement_mode", s.debug_placement),
            ("Game_paused", s.game_paused),
            ("Water_flag", s.water_flag),
            ("Control_Locked", s.control_locked),
        ] {
            if m.read_u8(addr) != 0 {
                return fail(
                    Some(k),
                    format!("{name} is ${:02X}, not 0", m.read_u8(addr)),
                );
            }
        }
        if m.read_u8(s.game_mode) != GAME_MODE_LEVEL {
            return fail(
                Some(k),
                format!("Game_Mode is ${:02X}, not $0C", m.read_u8(s.game_mode)),
            );
        }
        if m.read_u16(s.ring_count) != 0 {
            return fail(Some(k), "Sonic collected a ring (Ring_count is not 0)");
        }
        Ok(())
    }
}
