//! Rolling on the ground: `Sonic_Roll` (curling up from a walk), `Obj01_MdRoll`, `Sonic_RollSpeed` and
//! `Sonic_RollRepel` (spec §3.5, §3.7, §3.8).

use crate::collision::anglepos;
use crate::frame::{Flow, cam_bias_step, object_move, sonic_level_bound};
use crate::ground::{obj01_check_walls_on_ground, sonic_jump, sonic_slope_repel};
use crate::level::Level;
use crate::state::{SonicState, anim, buttons, status};
use crate::trig::calc_sine;

/// `Sonic_Roll` (s2.asm L37297–37343): curl up when Down is held without Left/Right at a ground
/// speed of at least $80 (unsigned |inertia|). Radii $0E/7, anim Roll, y += 5. x_vel for this frame
/// was already computed from the same inertia by `Obj01_Traction`.
#[inline]
pub fn sonic_roll(s: &mut SonicState) {
    if s.status_secondary & 0x80 != 0 {
        return;
    }
    if s.inertia.unsigned_abs() < 0x80 {
        return;
    }
    if s.ctrl_held & (buttons::LEFT | buttons::RIGHT) != 0 {
        return;
    }
    if s.ctrl_held & buttons::DOWN == 0 {
        return;
    }
    if s.has(status::ROLLING) {
        return;
    }
    s.set(status::ROLLING);
    s.y_radius = 0x0E;
    s.x_radius = 7;
    s.anim = anim::ROLL;
    s.y_pos = s.y_pos.wrapping_add(5);
    if s.inertia == 0 {
        s.inertia = 0x200; // unreachable: |inertia| ≥ $80 was required
    }
}

/// `Obj01_MdRoll` (s2.asm L36511–36522): rolling on the ground. The jump check is skipped while
/// `pinball_mode` (the spin dash flag) is set.
#[inline]
pub fn obj01_mdroll(s: &mut SonicState, stage: &impl Level) {
    if s.spindash_flag == 0 && sonic_jump(s, stage) == Flow::Pop {
        return;
    }
    sonic_roll_repel(s);
    sonic_roll_speed(s, stage);
    sonic_level_bound(s);
    object_move(s);
    anglepos(s, stage);
    sonic_slope_repel(s);
}

/// `Sonic_RollSpeed` (s2.asm L37009–37117).
///
/// Braking with the opposite direction costs $20 (a constant, not the deceleration); crossing zero
/// gives ∓$80 with the same borrow/carry asymmetry as walking (RollLeft from exactly +$20 gives 0,
/// RollRight from −$20 gives +$80). Holding the direction of motion only sets facing and anim Roll.
/// Friction is acceleration/2 = 6 every frame. At inertia 0 Sonic unrolls: radii $13/9, anim Wait,
/// y −= 5. Then the camera bias steps, and x_vel = inertia·cos >> 8 clamped to ±$1000
/// (inertia itself is not clamped), then the wall check.
#[inline]
pub fn sonic_roll_speed(s: &mut SonicState, stage: &impl Level) {
    let friction = ((s.acceleration as i16) >> 1) as u16;
    const BRAKE: u16 = 0x20;
    if s.status_secondary & 0x80 == 0 {
        if s.move_lock == 0 {
            if s.ctrl_held & buttons::LEFT != 0 {
                // Sonic_RollLeft
                if s.inertia > 0 {
                    let (r, borrow) = (s.inertia as u16).overflowing_sub(BRAKE);
                    s.inertia = if borrow { -0x80 } else { r as i16 };
                } else {
                    s.set(status::FACING_LEFT);
                    s.anim = anim::ROLL;
                }
            }
            if s.ctrl_held & buttons::RIGHT != 0 {
                // Sonic_RollRight
                if s.inertia < 0 {
                    let (r, carry) = (s.inertia as u16).overflowing_add(BRAKE);
                    s.inertia = if carry { 0x80 } else { r as i16 };
                } else {
                    s.clear(status::FACING_LEFT);
                    s.anim = anim::ROLL;
                }
            }
        }
        // Sonic_ApplyRollSpeed
        if s.inertia > 0 {
            let (r, borrow) = (s.inertia as u16).overflowing_sub(friction);
            s.inertia = if borrow { 0 } else { r as i16 };
        } else if s.inertia < 0 {
            let (r, carry) = (s.inertia as u16).overflowing_add(friction);
            s.inertia = if carry { 0 } else { r as i16 };
        }
        // Sonic_CheckRollStop
        if s.inertia == 0 {
            if s.spindash_flag != 0 {
                // Sonic_KeepRolling (pinball mode; unreachable here)
                s.inertia = if s.has(status::FACING_LEFT) {
                    -0x400
                } else {
                    0x400
                };
            } else {
                s.clear(status::ROLLING);
                s.y_radius = 0x13;
                s.x_radius = 9;
                s.anim = anim::WAIT;
                s.y_pos = s.y_pos.wrapping_sub(5);
            }
        }
    }
    // Obj01_Roll_ResetScr
    cam_bias_step(s);
    // Sonic_SetRollSpeeds
    let (sin, cos) = calc_sine(s.angle);
    s.y_vel = ((s.inertia as i32 * sin as i32) >> 8) as i16;
    let xv = (s.inertia as i32 * cos as i32) >> 8;
    s.x_vel = (xv as i16).clamp(-0x1000, 0x1000);
    obj01_check_walls_on_ground(s, stage);
}

/// `Sonic_RollRepel` (s2.asm L37742–37779): gravity along a slope while rolling, a quarter as strong
/// uphill (no effect at angle 0).
#[inline]
pub fn sonic_roll_repel(s: &mut SonicState) {
    if s.angle.wrapping_add(0x60) >= 0xC0 {
        return;
    }
    let (sin, _) = calc_sine(s.angle);
    let mut d0 = (sin as i32 * 0x50) >> 8;
    if s.inertia >= 0 {
        if d0 < 0 {
            d0 >>= 2;
        }
    } else if d0 >= 0 {
        d0 >>= 2;
    }
    s.inertia = s.inertia.wrapping_add(d0 as i16);
}
