//! One frame of Sonic: the pad read, `Obj01`'s routine dispatch and `Obj01_Control` (mode dispatch,
//! tilt copies, animation), and the primitives the modes share: `ObjectMove`, `ObjectMoveAndFall`,
//! `Sonic_LevelBound`, `KillCharacter` and the camera-bias step (spec §1, §3.1, §3.11).

use crate::air::{obj01_mdair, sonic_reset_on_floor_part2};
use crate::animate::sonic_animate;
use crate::ground::obj01_mdnormal_checks;
use crate::level::Level;
use crate::roll::obj01_mdroll;
use crate::stage::Stage;
use crate::state::{SonicState, anim, routine, status};

/// Whether a routine let its caller go on, or ended the mode routine by popping its return address
/// (`addq.l #4,sp`: a jump, a spin dash start or any charging frame; spec §8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on with the caller's next call.
    Continue,
    /// Return straight to `Obj01_Control`.
    Pop,
}

/// `Camera_Y_pos_bias` resting value ((screen_height / 2) − 16).
pub const CAMERA_BIAS_DEFAULT: u16 = 0x60;

/// The step shared by `Obj01_ResetScr_Part2`, `Obj01_Roll_ResetScr`, `Obj01_Jump_ResetScr` and
/// `Obj01_Spindash_ResetScr`: the bias moves 2 toward $60 (unsigned compare; +4 then −2 below).
#[inline]
pub fn cam_bias_step(s: &mut SonicState) {
    if s.camera_bias == CAMERA_BIAS_DEFAULT {
        return;
    }
    if s.camera_bias < CAMERA_BIAS_DEFAULT {
        s.camera_bias = s.camera_bias.wrapping_add(4);
    }
    s.camera_bias = s.camera_bias.wrapping_sub(2);
}

/// `ObjectMove` (s2.asm L30191–30206): 32-bit positions += velocity << 8 (sign-extended), so the
/// velocity's low byte lands in the high byte of the subpixel word.
#[inline]
pub fn object_move(s: &mut SonicState) {
    s.set_x32(s.x32().wrapping_add(((s.x_vel as i32) << 8) as u32));
    s.set_y32(s.y32().wrapping_add(((s.y_vel as i32) << 8) as u32));
}

/// `ObjectMoveAndFall` (s2.asm L30164–30180): move with the old y_vel, then y_vel += $38 (gravity).
#[inline]
pub fn object_move_and_fall(s: &mut SonicState) {
    object_move(s);
    s.y_vel = s.y_vel.wrapping_add(0x38);
}

/// `Sonic_LevelBound` (s2.asm L37233–37295).
///
/// The predicted x (high word of x32 + x_vel << 8) is held between Camera_Min_X + $10 and
/// Camera_Max_X + $128 + $40 (no boss): unsigned compares, L u> px or R u<= px. At a limit:
/// x_pos = limit, x_sub = 0, x_vel = inertia = 0. Then, always, the bottom: y_pos (signed) >
/// Camera_Max_Y + 224 kills Sonic; the caller goes on with its remaining calls.
#[inline]
pub fn sonic_level_bound(s: &mut SonicState) {
    let px = (s.x32().wrapping_add(((s.x_vel as i32) << 8) as u32) >> 16) as u16;
    let left = s.camera_min_x.wrapping_add(0x10);
    let right = s.camera_max_x.wrapping_add(320 - 24).wrapping_add(0x40);
    let limit = if left > px {
        Some(left)
    } else if right <= px {
        Some(right)
    } else {
        None
    };
    if let Some(l) = limit {
        s.x_pos = l;
        s.x_sub = 0;
        s.x_vel = 0;
        s.inertia = 0;
    }
    // Sonic_Boundary_CheckBottom: cmp.w y_pos(a0),d0 / blt → signed y_pos > Camera_Max_Y + 224.
    let bottom = s.camera_max_y.wrapping_add(224) as i16;
    if bottom < s.y_pos as i16 {
        kill_character(s);
    }
}

/// `KillCharacter` (s2.asm L85671–85696): routine 6 (dead), uncurl (`Sonic_ResetOnFloor_Part2`,
/// which also clears in_air and the rest), then in_air, y_vel = −$700, x_vel = inertia = 0, anim
/// Death. (art_tile's priority bit and the sound are not modelled.)
#[inline]
pub fn kill_character(s: &mut SonicState) {
    s.status_secondary = 0;
    s.routine = routine::DEAD;
    sonic_reset_on_floor_part2(s);
    s.set(status::IN_AIR);
    s.y_vel = -0x700;
    s.x_vel = 0;
    s.inertia = 0;
    s.anim = anim::DEATH;
}

/// `ReadJoypads`/`Joypad_Read` (s2.asm L1361–1387) for pad 1: pressed = held AND NOT the previous
/// held byte. Returns (held, pressed).
#[inline]
pub fn read_joypad(s: &mut SonicState, held: u8) -> (u8, u8) {
    let pressed = held & !s.ctrl_1_held;
    s.ctrl_1_held = held;
    s.ctrl_1_pressed = pressed;
    (held, pressed)
}

/// One level frame of Sonic: the V-int pad read with `held` (the buttons of this script frame, see
/// [`crate::state::buttons`]), then `Obj01` (s2.asm L36156) dispatching on `routine`.
#[inline]
pub fn step(s: &mut SonicState, stage: &impl Level, held: u8) {
    let (held, pressed) = read_joypad(s, held);
    match s.routine {
        routine::INIT | routine::CONTROL => {
            // Obj01_Init falls through into Obj01_Control; its setup (radii, speeds) is what
            // the recording wrote, so only the routine number changes here.
            if s.routine == routine::INIT {
                s.routine = routine::CONTROL;
            }
            // Obj01_Control's copy of Ctrl_1 to Ctrl_1_Logical, from the values just read (the
            // same bytes; passing them on avoids a store-to-load round trip in the hot path).
            if !s.control_locked {
                s.ctrl_held = held;
                s.ctrl_pressed = pressed;
            }
            obj01_control_modes(s, stage);
        }
        routine::DEAD => obj01_dead(s),
        _ => {
            // Hurt, Gone and Respawning do not occur on these stages; the model leaves the state
            // alone (the pad read above still happens in V-int).
        }
    }
}

/// `Obj01_Control` (s2.asm L36223–36260): the copy of `Ctrl_1` to `Ctrl_1_Logical` (unless
/// `Control_Locked`), then [`obj01_control_modes`].
#[inline]
pub fn obj01_control(s: &mut SonicState, stage: &impl Level) {
    if !s.control_locked {
        s.ctrl_held = s.ctrl_1_held;
        s.ctrl_pressed = s.ctrl_1_pressed;
    }
    obj01_control_modes(s, stage);
}

/// The rest of `Obj01_Control` (s2.asm L36236–36265): the mode routine chosen by status bits 1–2
/// (unless `obj_control` bit 0), the invulnerability countdown, the tilt copies
/// (`next_tilt` ← `Primary_Angle`, `tilt` ← `Secondary_Angle`, every frame) and `Sonic_Animate`.
#[inline]
pub fn obj01_control_modes(s: &mut SonicState, stage: &impl Level) {
    if s.obj_control & 1 == 0 {
        match s.status & (status::IN_AIR | status::ROLLING) {
            0 => obj01_mdnormal_checks(s, stage),
            status::ROLLING => obj01_mdroll(s, stage),
            // Obj01_MdAir and Obj01_MdJump are the same code.
            _ => obj01_mdair(s, stage),
        }
    }
    // (Camera_Min_Y_pos = −$100 wrapping: not in EHZ1.)
    // Sonic_Display: invulnerability countdown.
    if s.invulnerable_time != 0 {
        s.invulnerable_time -= 1;
    }
    // (Sonic_Super, Sonic_RecordPos, Sonic_Water: no effect on this state.)
    s.next_tilt = s.primary_angle;
    s.tilt = s.secondary_angle;
    // (Wind tunnel fix-up: WindTunnel_flag is 0.)
    sonic_animate(s);
    // (TouchResponse: no objects or rings; LoadSonicDynPLC: art only.)
}

/// `Obj01_Dead` (s2.asm L38255–38270) with `CheckGameOver`: spin dash flag cleared; below
/// Camera_Max_Y + $100 the routine becomes 8 (gone); then move and fall and animate. The reference
/// runs stop at the frame Sonic dies, so this is never compared; lives and the game-over objects are
/// not modelled.
#[inline]
pub fn obj01_dead(s: &mut SonicState) {
    s.spindash_flag = 0;
    let line = s.camera_max_y.wrapping_add(0x100) as i16;
    if line < s.y_pos as i16 {
        s.routine = routine::GONE;
    }
    object_move_and_fall(s);
    sonic_animate(s);
}

/// A Sonic on a level: the state plus the level it runs on (a flat [`Stage`] by default, or an
/// act's [`crate::Terrain`]). Path swappers are not run here: see
/// [`crate::terrain_scenario::run_terrain_scenario`].
#[derive(Clone, Debug)]
pub struct Model<L: Level = Stage> {
    /// Sonic's state after the last frame.
    pub state: SonicState,
    /// The level.
    pub stage: L,
}

impl<L: Level> Model<L> {
    /// A model starting from `state` on `stage`.
    pub fn new(stage: L, state: SonicState) -> Self {
        Model { state, stage }
    }

    /// Run one frame with the buttons `held` and return the new state.
    #[inline]
    pub fn step(&mut self, held: u8) -> &SonicState {
        step(&mut self.state, &self.stage, held);
        &self.state
    }
}
