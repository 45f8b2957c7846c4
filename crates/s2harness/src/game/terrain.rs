//! Terrain scenarios in the real game: the act's own terrain kept, every object and ring removed,
//! Sonic placed with the scenario's position, facing and speeds; and the terrain as data, read
//! from the game's RAM after the level has loaded (layout, chunks, collision indexes) and from the
//! ROM (`ColArrayVertical`, `ColArrayHorizontal`, `ColCurveMap`) at the addresses in `roms.toml`.
//!
//! The act's path swappers (object $03) stay: the object manager is restarted at the frame
//! boundary before frame 0 (it loads the objects around the camera at the end of that frame), and
//! at every frame boundary every freshly loaded object other than $03 is deleted before it runs.

use megadrive::machine::Machine;
use s2model::scenario::Stop;
use s2model::script::format_buttons;
use s2model::state::{FIELDS, status};
use s2model::terrain::{
    ANGLE_MAP_BYTES, Bounds, CHUNK_WORDS, COLLISION_ARRAY_BYTES, COLLISION_INDEX_BYTES,
    LAYOUT_BYTES, PathSwapper, TerrainParts,
};
use s2model::terrain_scenario::{TerrainScenario, layer_byte, terrain_stop_after_frame};
use s2model::trace::{Trace, TraceFrame, TraceHeader, field_names};
use s2model::{SonicState, Terrain};

use super::{
    BOOT_FRAME_LIMIT, GAME_MODE_LEVEL, Game, HarnessError, SETTLE_FRAMES, fail, write_long,
};
use crate::rom::RomImage;

/// The addresses terrain needs beyond the flat stages' (`roms.toml`).
pub(super) struct TerrainSymbols {
    zone_and_act: u32,
    level_inactive: u32,
    star_pole: u32,
    secondary_collision: u32,
    cam_min_x: u32,
    cam_max_x: u32,
    cam_min_y: u32,
    cam_max_y: u32,
    obj_placement_routine: u32,
    off_objects: u32,
    dynamic_objects: (u32, u32),
    col_vertical: u32,
    col_horizontal: u32,
    curve_map: u32,
}

impl TerrainSymbols {
    pub(super) fn resolve(g: &Game) -> Result<TerrainSymbols, HarnessError> {
        let get = |name: &str| {
            g.rom.symbol(name).ok_or_else(|| HarnessError {
                frame: None,
                message: format!("roms.toml has no symbol {name} for {}", g.rom.revision),
            })
        };
        Ok(TerrainSymbols {
            zone_and_act: get("Current_ZoneAndAct")?,
            level_inactive: get("Level_Inactive_flag")?,
            star_pole: get("Last_star_pole_hit")?,
            secondary_collision: get("Secondary_Collision")?,
            cam_min_x: get("Camera_Min_X_pos")?,
            cam_max_x: get("Camera_Max_X_pos")?,
            cam_min_y: get("Camera_Min_Y_pos")?,
            cam_max_y: get("Camera_Max_Y_pos")?,
            obj_placement_routine: get("Obj_placement_routine")?,
            off_objects: get("Off_Objects")?,
            dynamic_objects: (get("Dynamic_Object_RAM")?, get("Dynamic_Object_RAM_End")?),
            col_vertical: get("ColArrayVertical")?,
            col_horizontal: get("ColArrayHorizontal")?,
            curve_map: get("ColCurveMap")?,
        })
    }
}

fn ram(m: &Machine, addr: u32, n: usize) -> Vec<u8> {
    (0..n as u32).map(|i| m.read_u8(addr + i)).collect()
}

fn rom_slice<'a>(
    rom: &'a RomImage,
    at: u32,
    n: usize,
    what: &str,
) -> Result<&'a [u8], HarnessError> {
    rom.bytes
        .get(at as usize..at as usize + n)
        .ok_or_else(|| HarnessError {
            frame: None,
            message: format!("{what} at ${at:X} lies past the ROM's end"),
        })
}

/// The object id of the path swapper (`ObjID_PlaneSwitcher`, object $03).
const OBJ_ID_PATH_SWAPPER: u8 = 0x03;

/// The act's path swappers from its object layout in the ROM, found as `ObjectsManager_Init`
/// finds the layout (s2.asm L32935–32942): the word at `Off_Objects` + zone·4 + act·2 is the
/// layout's offset from `Off_Objects`. Entries are 6 bytes (x; y with the flip bits 13–14 and the
/// respawn bit 15; id; subtype) up to an x of $FFFF (`ChkLoadObj`, L33598–33625).
fn read_swappers(
    rom: &RomImage,
    t: &TerrainSymbols,
    zone: u8,
    act: u8,
) -> Result<Vec<PathSwapper>, HarnessError> {
    let word = |at: u32| -> Result<u16, HarnessError> {
        let b = rom_slice(rom, at, 2, "the object layout")?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    };
    let rel = word(t.off_objects + zone as u32 * 4 + act as u32 * 2)? as i16;
    let mut at = t.off_objects.wrapping_add(rel as i32 as u32);
    let mut out = Vec::new();
    loop {
        let e = rom_slice(rom, at, 6, "the object layout")?;
        let x = u16::from_be_bytes([e[0], e[1]]);
        if x == 0xFFFF {
            return Ok(out);
        }
        let yw = u16::from_be_bytes([e[2], e[3]]);
        if e[4] == OBJ_ID_PATH_SWAPPER {
            out.push(PathSwapper {
                x,
                y: yw & 0xFFF,
                subtype: e[5],
                x_flip: yw & 0x2000 != 0,
            });
        }
        at += 6;
        if out.len() > 4096 {
            return fail(None, "the object layout has no end marker");
        }
    }
}

impl Game {
    /// (zone, act) the ready state is in.
    pub fn zone_act(&self) -> Result<(u8, u8), HarnessError> {
        let t = TerrainSymbols::resolve(self)?;
        Ok((
            self.ready.read_u8(t.zone_and_act),
            self.ready.read_u8(t.zone_and_act + 1),
        ))
    }

    /// This game moved to Emerald Hill act `act` (0 or 1): at a frame boundary the act is written
    /// to `Current_ZoneAndAct` and `Level_Inactive_flag` set, so `Level_MainLoop` restarts `Level`
    /// (s2.asm L5096–5097), which loads the act; then the same wait as the boot (level started,
    /// control free, 30 frames).
    pub fn in_act(&self, act: u8) -> Result<Game, HarnessError> {
        if self.zone_act()? == (0, act) {
            return Ok(self.clone());
        }
        let t = TerrainSymbols::resolve(self)?;
        let s = &self.sym;
        let mut g = self.clone();
        let m = &mut g.ready;
        self.to_boundary(m, None)?;
        m.write_u16(t.zone_and_act, act as u16);
        m.write_u8(t.star_pole, 0);
        m.write_u16(t.level_inactive, 1);
        let mut frames = 0u64;
        let mut step = |m: &mut Machine| -> Result<(), HarnessError> {
            m.set_pad(0, 0);
            m.run_frame();
            frames += 1;
            if frames > BOOT_FRAME_LIMIT {
                return fail(None, format!("act {} did not load", act + 1));
            }
            Ok(())
        };
        while m.read_u8(s.level_started_flag) != 0 {
            step(m)?;
        }
        while !(m.read_u8(s.game_mode) == GAME_MODE_LEVEL
            && m.read_u8(s.level_started_flag) == 1
            && m.read_u8(s.control_locked) == 0)
        {
            step(m)?;
        }
        for _ in 0..SETTLE_FRAMES {
            step(m)?;
        }
        g.boot_frames += frames;
        g.b0 = g.run_to_b0();
        if g.zone_act()? != (0, act) {
            return fail(
                None,
                format!("the game is not in act {} after loading it", act + 1),
            );
        }
        Ok(g)
    }

    /// The act's terrain as the collision routines read it: RAM after the level load (layout,
    /// chunks, both collision indexes, the boundaries) and the ROM's collision arrays and angle map.
    pub fn read_terrain(&self, rom: &RomImage) -> Result<Terrain, HarnessError> {
        if rom.sha1 != self.sha1 {
            return fail(None, "read_terrain: the ROM is not the one this game runs");
        }
        let t = TerrainSymbols::resolve(self)?;
        let s = &self.sym;
        let m = &self.ready;
        let (zone, act) = self.zone_act()?;
        let mut sha = [0u8; 20];
        for (i, b) in sha.iter_mut().enumerate() {
            *b = u8::from_str_radix(&self.sha1[2 * i..2 * i + 2], 16).unwrap_or(0);
        }
        let bounds = Bounds {
            min_x: m.read_u16(t.cam_min_x),
            max_x: m.read_u16(t.cam_max_x),
            min_y: m.read_u16(t.cam_min_y),
            max_y: m.read_u16(t.cam_max_y),
        };
        let layout = ram(m, s.level_layout, LAYOUT_BYTES);
        let chunk_bytes = ram(m, s.chunk_table, 2 * CHUNK_WORDS);
        let primary = ram(m, s.primary_collision, COLLISION_INDEX_BYTES);
        let secondary = ram(m, t.secondary_collision, COLLISION_INDEX_BYTES);
        let heights = rom_slice(
            rom,
            t.col_vertical,
            COLLISION_ARRAY_BYTES,
            "ColArrayVertical",
        )?;
        let widths = rom_slice(
            rom,
            t.col_horizontal,
            COLLISION_ARRAY_BYTES,
            "ColArrayHorizontal",
        )?;
        let angles = rom_slice(rom, t.curve_map, ANGLE_MAP_BYTES, "ColCurveMap")?;
        let swappers = read_swappers(rom, &t, zone, act)?;
        Terrain::from_parts(
            zone,
            act,
            sha,
            bounds,
            &TerrainParts {
                layout: &layout,
                chunk_bytes: &chunk_bytes,
                primary: &primary,
                secondary: &secondary,
                heights,
                widths,
                angles,
            },
        )
        .map(|mut terrain| {
            terrain.swappers = swappers;
            terrain
        })
        .map_err(|e| HarnessError {
            frame: None,
            message: e,
        })
    }

    /// Deletes every dynamic object that is not a path swapper (id $03).
    pub(super) fn keep_only_swappers(&self, m: &mut Machine, t: &TerrainSymbols) {
        let (lo, hi) = t.dynamic_objects;
        for slot in (lo..hi).step_by(0x40) {
            let id = m.read_u8(slot);
            if id != 0 && id != OBJ_ID_PATH_SWAPPER {
                for a in (slot..slot + 0x40).step_by(2) {
                    m.write_u16(a, 0);
                }
            }
        }
    }

    /// B_0 with the act's objects and rings removed, the object manager restarted and Sonic
    /// placed with the scenario's position, facing, speeds and air flag, the camera on him: frame
    /// 0 not run yet. Also the act's boundaries (`Camera_Min/Max_X/Y_pos`) as they are then.
    pub(super) fn start_terrain(
        &self,
        sc: &TerrainScenario,
        t: &TerrainSymbols,
    ) -> Result<(Machine, [u16; 4]), HarnessError> {
        let s = &self.sym;
        let mut m = self.b0.clone()?;
        self.clear_objects(&mut m);
        // ObjectsManager_Init at the end of frame 0: load what lies around the new camera.
        m.write_u8(t.obj_placement_routine, 0);
        self.place_sonic_at(&mut m, sc.x, sc.y, sc.facing_left);
        let f = |name: &str| s.field_offsets[FIELDS.iter().position(|n| *n == name).unwrap()];
        m.write_u16(f("x_vel"), sc.x_vel as u16);
        m.write_u16(f("y_vel"), sc.y_vel as u16);
        m.write_u16(f("inertia"), sc.inertia as u16);
        if sc.in_air {
            let st = m.read_u8(s.sst + s.off.status);
            m.write_u8(s.sst + s.off.status, st | status::IN_AIR);
        }
        // The camera as the flat stages place it, clamped to the act's boundaries instead.
        let bounds = [t.cam_min_x, t.cam_max_x, t.cam_min_y, t.cam_max_y].map(|a| m.read_u16(a));
        let cam_x = (sc.x as i32 - 0xA0).clamp(bounds[0] as i32, bounds[1] as i32) as u32;
        let cam_y = (sc.y as i32 - 0x60).clamp(bounds[2] as i32, bounds[3] as i32) as u32;
        write_long(&mut m, s.camera_x, cam_x << 16);
        write_long(&mut m, s.camera_y, cam_y << 16);
        Ok((m, bounds))
    }

    /// Runs a terrain scenario in this game (which must be in the scenario's act: see
    /// [`Game::in_act`]) and returns its trace. Per frame: the flat stages' checks, and the act's
    /// boundaries unchanged (a level event that moves them ends the run with an error).
    pub fn run_terrain(&self, sc: &TerrainScenario) -> Result<Trace, HarnessError> {
        self.run_terrain_with_layers(sc).map(|r| r.0)
    }

    /// [`Game::run_terrain`] and Sonic's collision layer after every frame (`layer_byte`).
    pub fn run_terrain_with_layers(
        &self,
        sc: &TerrainScenario,
    ) -> Result<(Trace, Vec<u8>), HarnessError> {
        let mut layers = Vec::new();
        if self.zone_act()? != (sc.zone, sc.act) {
            return fail(
                None,
                format!(
                    "the game is in act {} but the scenario is for act {}",
                    self.zone_act()?.1 + 1,
                    sc.act + 1
                ),
            );
        }
        let t = TerrainSymbols::resolve(self)?;
        let s = &self.sym;
        let (mut m, bounds) = self.start_terrain(sc, &t)?;
        let initial = self.sample(&m);
        let layer_now = |m: &Machine| {
            [
                m.read_u8(s.sst + s.off.top_solid_bit),
                m.read_u8(s.sst + s.off.lrb_solid_bit),
            ]
        };
        let initial_layer = Some(layer_now(&m));

        let n = sc.frame_count();
        let mut frames = Vec::with_capacity(n);
        let mut stop = Stop::End.as_str();
        let mut prev_held = 0u8;
        let mut counters = (
            m.read_u16(s.level_frame_counter),
            m.read_u16(s.vint_runcount + 2),
        );
        for k in 0..n {
            let held = sc.input.get(k).copied().unwrap_or(0);
            m.set_pad(0, held as u16);
            self.to_boundary(&mut m, Some(k))?;
            self.keep_only_swappers(&mut m, &t);
            let values = self.sample(&m);
            let layer = layer_now(&m);
            layers.push(layer_byte(layer[0], layer[1]));
            self.check_frame(&m, k, held, prev_held, &mut counters)?;
            prev_held = held;
            frames.push(TraceFrame {
                frame: k as u64,
                input: format_buttons(held),
                values,
                layer: Some(layer),
            });
            let state = SonicState::from_trace_values(&values).map_err(|e| HarnessError {
                frame: Some(k),
                message: e,
            })?;
            let st = terrain_stop_after_frame(&state, sc.zone, sc.act);
            // Past the event line the boundaries may move in this very frame; before it they
            // must not.
            let now = [t.cam_min_x, t.cam_max_x, t.cam_min_y, t.cam_max_y].map(|a| m.read_u16(a));
            if st != Some("event_line") && now != bounds {
                return fail(
                    Some(k),
                    format!("a level event moved the act's boundaries {bounds:04X?} -> {now:04X?}"),
                );
            }
            if let Some(st) = st {
                stop = st;
                break;
            }
        }
        let trace = Trace {
            header: TraceHeader {
                format: 1,
                scenario: sc.name.clone(),
                source: "s2lab emulator".into(),
                rom_sha1: Some(self.sha1.clone()),
                fields: field_names(true),
                initial,
                initial_layer,
                frames: Some(frames.len() as u64),
                stop: Some(stop.into()),
                floor_x: None,
                extra: Default::default(),
            },
            frames,
        };
        Ok((trace, layers))
    }
}
