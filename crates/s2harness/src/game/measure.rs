//! Measurements: a scenario run in the game with extra state written before frame 0 (RAM by
//! address, objects placed in free slots) and extra RAM values sampled after every frame. This is
//! what `s2lab claims` runs. Unlike the suites' runs, a measurement may change what the suites
//! forbid (rings, shields, objects, Sonic's status): only the checks that keep the input and the
//! frame count exact remain (no lag, the pad read as scripted, the level still running).

use megadrive::machine::Machine;
use s2model::scenario::{Stop, stop_after_frame};
use s2model::script::format_buttons;
use s2model::terrain_scenario::{AnyScenario, terrain_stop_after_frame};
use s2model::trace::{Trace, TraceFrame, TraceHeader, field_names};
use s2model::{Scenario, SonicState};

use super::terrain::TerrainSymbols;
use super::{GAME_MODE_LEVEL, Game, HarnessError, fail, write_long};

/// A RAM write made before frame 0: `size` bytes (1, 2 or 4) at a 24-bit bus address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RamWrite {
    pub addr: u32,
    pub size: u8,
    pub value: u32,
}

/// An object placed in a free dynamic slot before frame 0, as the object manager loads one from
/// a layout entry: id, subtype, position, and the flip bits in `render_flags` and `status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedObject {
    pub id: u8,
    pub subtype: u8,
    pub x: u16,
    pub y: u16,
    pub flip_x: bool,
    pub flip_y: bool,
}

/// A RAM value sampled after every frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watch {
    pub name: String,
    pub addr: u32,
    pub size: u8,
    pub signed: bool,
}

impl Watch {
    /// The value in `m` now.
    pub fn read(&self, m: &Machine) -> i64 {
        match (self.size, self.signed) {
            (1, false) => m.read_u8(self.addr) as i64,
            (1, true) => m.read_u8(self.addr) as i8 as i64,
            (2, false) => m.read_u16(self.addr) as i64,
            (2, true) => m.read_u16(self.addr) as i16 as i64,
            (_, false) => {
                ((m.read_u16(self.addr) as u32) << 16 | m.read_u16(self.addr + 2) as u32) as i64
            }
            (_, true) => {
                ((m.read_u16(self.addr) as u32) << 16 | m.read_u16(self.addr + 2) as u32) as i32
                    as i64
            }
        }
    }
}

/// What a measurement writes and reads beyond its scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    pub writes: Vec<RamWrite>,
    pub objects: Vec<PlacedObject>,
    pub watch: Vec<Watch>,
}

/// A measurement's run: the trace (terrain runs carry the collision layer) and the watched
/// values, before frame 0 and after each frame.
#[derive(Clone, Debug)]
pub struct Measured {
    pub trace: Trace,
    pub watched_initial: Vec<i64>,
    pub watched: Vec<Vec<i64>>,
}

/// The object fields a placement writes (roms.toml's SST offsets).
struct ObjectOffsets {
    id: u32,
    render_flags: u32,
    x_pos: u32,
    y_pos: u32,
    status: u32,
    subtype: u32,
}

impl Game {
    /// Runs `sc` with `setup`: the start as [`Game::run`] (flat stages) or
    /// [`Game::run_terrain`] (this game must be in the scenario's act) makes it, then the writes
    /// and the objects, then the frames. Objects are placed on flat stages only: on the acts'
    /// terrain the harness removes every object but the path swappers after every frame.
    pub fn run_measurement(
        &self,
        sc: &AnyScenario,
        setup: &Setup,
    ) -> Result<Measured, HarnessError> {
        let (mut m, terrain) = match sc {
            AnyScenario::Built(b) => {
                let mut m = self.b0.clone()?;
                self.build_stage(&mut m, b)?;
                self.place_sonic(&mut m, b);
                (m, None)
            }
            AnyScenario::Terrain(t) => {
                if !setup.objects.is_empty() {
                    return fail(
                        None,
                        "objects can be placed on flat stages only (on an act's terrain the harness \
                         removes every object but the path swappers after each frame)",
                    );
                }
                if self.zone_act()? != (t.zone, t.act) {
                    let act = self.in_act(t.act)?;
                    return act.run_measurement(sc, setup);
                }
                let syms = TerrainSymbols::resolve(self)?;
                let (m, _bounds) = self.start_terrain(t, &syms)?;
                (m, Some((syms, t)))
            }
        };
        for w in &setup.writes {
            match w.size {
                1 => m.write_u8(w.addr, w.value as u8),
                2 => m.write_u16(w.addr, w.value as u16),
                _ => write_long(&mut m, w.addr, w.value),
            }
        }
        self.place_objects(&mut m, &setup.objects)?;

        let s = &self.sym;
        let layer_now = |m: &Machine| {
            [
                m.read_u8(s.sst + s.off.top_solid_bit),
                m.read_u8(s.sst + s.off.lrb_solid_bit),
            ]
        };
        let initial = self.sample(&m);
        let initial_layer = terrain.as_ref().map(|_| layer_now(&m));
        let watched_initial = setup.watch.iter().map(|w| w.read(&m)).collect();
        let (input, frames_opt, name) = match sc {
            AnyScenario::Built(b) => (&b.input, b.frames, &b.name),
            AnyScenario::Terrain(t) => (&t.input, t.frames, &t.name),
        };
        let n = frames_opt.unwrap_or(input.len());
        let floor_x = match sc {
            AnyScenario::Built(b) => Scenario::stage(b).floor_x(),
            AnyScenario::Terrain(_) => None,
        };
        let mut frames = Vec::with_capacity(n);
        let mut watched = Vec::with_capacity(n);
        let mut stop = Stop::End.as_str();
        let mut prev_held = 0u8;
        let mut counters = (
            m.read_u16(s.level_frame_counter),
            m.read_u16(s.vint_runcount + 2),
        );
        for k in 0..n {
            let held = input.get(k).copied().unwrap_or(0);
            m.set_pad(0, held as u16);
            self.to_boundary(&mut m, Some(k))?;
            if let Some((syms, _)) = &terrain {
                self.keep_only_swappers(&mut m, syms);
            }
            let values = self.sample(&m);
            self.check_measured_frame(&m, k, held, prev_held, &mut counters)?;
            prev_held = held;
            watched.push(setup.watch.iter().map(|w| w.read(&m)).collect());
            frames.push(TraceFrame {
                frame: k as u64,
                input: format_buttons(held),
                values,
                layer: terrain.as_ref().map(|_| layer_now(&m)),
            });
            let state = SonicState::from_trace_values(&values).map_err(|e| HarnessError {
                frame: Some(k),
                message: e,
            })?;
            let st = match &terrain {
                Some((_, t)) => terrain_stop_after_frame(&state, t.zone, t.act),
                None => stop_after_frame(&state, floor_x).map(Stop::as_str),
            };
            if let Some(st) = st {
                stop = st;
                break;
            }
        }
        let trace = Trace {
            header: TraceHeader {
                format: 1,
                scenario: name.clone(),
                source: "s2lab emulator".into(),
                rom_sha1: Some(self.sha1.clone()),
                fields: field_names(terrain.is_some()),
                initial,
                initial_layer,
                frames: Some(frames.len() as u64),
                stop: Some(stop.into()),
                floor_x: floor_x.map(|(lo, hi)| (lo as i64, hi as i64)),
                extra: Default::default(),
            },
            frames,
        };
        Ok(Measured {
            trace,
            watched_initial,
            watched,
        })
    }

    /// Writes each object into the next free dynamic slot (id 0), as the object manager would.
    fn place_objects(&self, m: &mut Machine, objects: &[PlacedObject]) -> Result<(), HarnessError> {
        if objects.is_empty() {
            return Ok(());
        }
        let get = |name: &str| {
            self.rom.symbol(name).ok_or_else(|| HarnessError {
                frame: None,
                message: format!("roms.toml has no symbol {name} for {}", self.rom.revision),
            })
        };
        let o = ObjectOffsets {
            id: get("id")?,
            render_flags: get("render_flags")?,
            x_pos: get("x_pos")?,
            y_pos: get("y_pos")?,
            status: get("status")?,
            subtype: get("subtype")?,
        };
        let (lo, hi) = (get("Dynamic_Object_RAM")?, get("Dynamic_Object_RAM_End")?);
        let free: Vec<u32> = (lo..hi)
            .step_by(0x40)
            .filter(|&a| m.read_u8(a) == 0)
            .collect();
        let mut slots = free.into_iter();
        for (i, obj) in objects.iter().enumerate() {
            let Some(slot) = slots.next() else {
                return fail(None, format!("objects[{i}]: no free object slot left"));
            };
            let flips = obj.flip_x as u8 | (obj.flip_y as u8) << 1;
            m.write_u8(slot + o.id, obj.id);
            m.write_u8(slot + o.subtype, obj.subtype);
            m.write_u16(slot + o.x_pos, obj.x);
            m.write_u16(slot + o.y_pos, obj.y);
            m.write_u8(slot + o.render_flags, flips);
            m.write_u8(slot + o.status, flips);
        }
        Ok(())
    }

    /// The per-frame checks a measurement keeps: no lag, the pad read as scripted, the level
    /// still running, no pause and no debug mode.
    fn check_measured_frame(
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
        if ctrl != (held, held & !prev_held) {
            return fail(
                Some(k),
                format!(
                    "Ctrl_1_Logical is held ${:02X} pressed ${:02X}, the script says ${held:02X} ${:02X}",
                    ctrl.0,
                    ctrl.1,
                    held & !prev_held
                ),
            );
        }
        for (name, addr) in [
            ("Debug_placement_mode", s.debug_placement),
            ("Game_paused", s.game_paused),
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
        Ok(())
    }
}
