//! Sonic in the air: `Obj01_MdAir`/`Obj01_MdJump`, jump height, air control and drag, the jump angle,
//! `Sonic_DoLevelCollision` in its four quadrants, and landing (`Sonic_ResetOnFloor`)
//! (spec §3.9, §3.10, §4.6).

use crate::collision::{
    check_left_wall_dist, check_right_wall_dist, sonic_check_ceiling, sonic_check_floor,
};
use crate::frame::{cam_bias_step, object_move_and_fall, sonic_level_bound};
use crate::level::Level;
use crate::state::{SonicState, anim, buttons, status};
use crate::trig::calc_angle;

/// `Obj01_MdAir` (s2.asm L36494–36509) and `Obj01_MdJump` (L36530–36546), which are identical:
/// jump height, air control, level bounds (a kill there does not end the routine), move and fall,
/// jump angle, level collision.
#[inline]
pub fn obj01_mdair(s: &mut SonicState, stage: &impl Level) {
    sonic_jump_height(s);
    sonic_chg_jump_dir(s);
    sonic_level_bound(s);
    object_move_and_fall(s);
    if s.has(status::UNDERWATER) {
        s.y_vel = s.y_vel.wrapping_sub(0x28);
    }
    sonic_jump_angle(s);
    sonic_do_level_collision(s, stage);
}

/// `Sonic_JumpHeight` (s2.asm L37416–37434) and `Sonic_UpVelCap` (L37437–37445).
///
/// After a jump: while y_vel < −$400 (signed) and no jump button is held, y_vel = −$400 (a short
/// hop). (`Sonic_CheckGoSuper` at the peak returns at once without emeralds.) Without a jump: the
/// upward speed is capped at −$FC0 unless in pinball mode.
#[inline]
pub fn sonic_jump_height(s: &mut SonicState) {
    if s.jumping != 0 {
        let cap: i16 = if s.has(status::UNDERWATER) {
            -0x200
        } else {
            -0x400
        };
        if cap > s.y_vel && s.ctrl_held & buttons::ABC == 0 {
            s.y_vel = cap;
        }
    } else if s.spindash_flag == 0 && s.y_vel < -0xFC0 {
        s.y_vel = -0xFC0;
    }
}

/// `Sonic_ChgJumpDir` (s2.asm L37158–37194) and `Sonic_JumpPeakDecelerate` (L37196–37222).
///
/// Unless roll-jumping: Left subtracts 2·acceleration ($18) and faces left, capping at −top speed
/// even if Sonic was faster (a hard cap, unlike the ground); Right likewise; both may apply. Then the
/// camera bias steps. Air drag applies only while −$400 ≤ y_vel < 0 (unsigned y_vel ≥ $FC00):
/// x_vel −= x_vel asr 5, which leaves 1..31 alone but moves −32..−1 by +1.
#[inline]
pub fn sonic_chg_jump_dir(s: &mut SonicState) {
    let top = s.top_speed as i16;
    let acc2 = (s.acceleration as i16).wrapping_shl(1);
    if !s.has(status::ROLLJUMPING) {
        let mut d0 = s.x_vel;
        if s.ctrl_held & buttons::LEFT != 0 {
            s.set(status::FACING_LEFT);
            d0 = d0.wrapping_sub(acc2);
            let neg_top = top.wrapping_neg();
            if d0 <= neg_top {
                d0 = neg_top;
            }
        }
        if s.ctrl_held & buttons::RIGHT != 0 {
            s.clear(status::FACING_LEFT);
            d0 = d0.wrapping_add(acc2);
            if d0 >= top {
                d0 = top;
            }
        }
        s.x_vel = d0;
    }
    cam_bias_step(s); // Obj01_Jump_ResetScr
    // Sonic_JumpPeakDecelerate
    if (s.y_vel as u16) < 0xFC00 {
        return;
    }
    let d0 = s.x_vel as u16;
    let d1 = (s.x_vel >> 5) as u16;
    if d1 == 0 {
        return;
    }
    let (r, borrow) = d0.overflowing_sub(d1);
    s.x_vel = if (d1 as i16) < 0 {
        if borrow { r as i16 } else { 0 }
    } else if borrow {
        0
    } else {
        r as i16
    };
}

/// `Sonic_JumpAngle` (s2.asm L37814–37833): the angle returns 2 per frame toward 0 (then
/// `Sonic_JumpFlip`, inert with flip_angle 0).
#[inline]
pub fn sonic_jump_angle(s: &mut SonicState) {
    let a = s.angle;
    if a == 0 {
        return;
    }
    s.angle = if (a as i8) < 0 {
        let (r, c) = a.overflowing_add(2);
        if c { 0 } else { r }
    } else {
        let (r, c) = a.overflowing_sub(2);
        if c { 0 } else { r }
    };
}

/// `Sonic_DoLevelCollision` (s2.asm L37889–38112): collision with the level in the air.
///
/// The quadrant of the velocity, (CalcAngle(x_vel, y_vel) − $20) & $C0, picks the checks:
/// * $00 (moving down, or not moving): both walls, then the floor with the landing gate: land when
///   the nearer foot distance d1 < 0 and either foot's distance (low byte, signed) ≥
///   −(hi(y_vel) + 8).
/// * $40 (moving left): left wall — a hit sets inertia = y_vel and returns; else ceiling (y_vel < 0
///   → 0); else, when y_vel ≥ 0, the floor **without** the landing gate.
/// * $80 (moving up): both walls, then the ceiling: y_vel = 0 (on the flat ceiling angle $80).
/// * $C0 (moving right): mirror of $40 with the right wall (`Sonic_HitCeiling2`/`Sonic_HitFloor2`).
#[inline]
pub fn sonic_do_level_collision(s: &mut SonicState, stage: &impl Level) {
    let d5 = s.lrb_solid_bit;
    let q = calc_angle(s.x_vel, s.y_vel).wrapping_sub(0x20) & 0xC0;
    match q {
        0x40 => {
            let (d1, _) = check_left_wall_dist(s, stage, d5);
            if d1 < 0 {
                s.x_pos = s.x_pos.wrapping_sub(d1 as u16);
                s.x_vel = 0;
                s.inertia = s.y_vel;
                return;
            }
            sonic_hit_ceiling_then_floor(s, stage, d5);
        }
        0x80 => {
            walls_both_sides(s, stage, d5);
            let c = sonic_check_ceiling(s, stage, d5);
            if c.near >= 0 {
                return;
            }
            s.y_pos = s.y_pos.wrapping_sub(c.near as u16);
            if c.angle.wrapping_add(0x20) & 0x40 == 0 {
                s.y_vel = 0;
                return;
            }
            // A ceiling steep enough to run on (unreachable on full blocks: the angle is $80).
            s.angle = c.angle;
            sonic_reset_on_floor(s);
            s.inertia = s.y_vel;
            if (c.angle as i8) < 0 {
                s.inertia = s.inertia.wrapping_neg();
            }
        }
        0xC0 => {
            let (d1, _) = check_right_wall_dist(s, stage, d5);
            if d1 < 0 {
                s.x_pos = s.x_pos.wrapping_add(d1 as u16);
                s.x_vel = 0;
                s.inertia = s.y_vel;
                return;
            }
            sonic_hit_ceiling_then_floor(s, stage, d5);
        }
        _ => {
            walls_both_sides(s, stage, d5);
            let f = sonic_check_floor(s, stage);
            if f.near >= 0 {
                return;
            }
            // Landing gate on bytes: g = −(hi(y_vel) + 8).
            let g = ((s.y_vel >> 8) as i8).wrapping_add(8).wrapping_neg();
            if (f.near as i8) < g && (f.far as i8) < g {
                return;
            }
            s.y_pos = s.y_pos.wrapping_add(f.near as u16);
            s.angle = f.angle;
            sonic_reset_on_floor(s);
            let d3 = f.angle;
            if d3.wrapping_add(0x20) & 0x40 != 0 {
                // Steep: stop x, cap y_vel at $FC0, inertia = ±y_vel.
                s.x_vel = 0;
                if s.y_vel > 0xFC0 {
                    s.y_vel = 0xFC0;
                }
            } else if d3.wrapping_add(0x10) & 0x20 != 0 {
                // Mid slope: halve y_vel, inertia = ±y_vel.
                s.y_vel >>= 1;
            } else {
                // Flat: y_vel = 0, inertia = x_vel.
                s.y_vel = 0;
                s.inertia = s.x_vel;
                return;
            }
            s.inertia = s.y_vel;
            if (d3 as i8) < 0 {
                s.inertia = s.inertia.wrapping_neg();
            }
        }
    }
}

/// The two wall checks of the $00 and $80 quadrants: push out of a left wall (x −= d) and a right
/// wall (x += d), stopping x.
#[inline]
fn walls_both_sides(s: &mut SonicState, stage: &impl Level, d5: u8) {
    let (d1, _) = check_left_wall_dist(s, stage, d5);
    if d1 < 0 {
        s.x_pos = s.x_pos.wrapping_sub(d1 as u16);
        s.x_vel = 0;
    }
    let (d1, _) = check_right_wall_dist(s, stage, d5);
    if d1 < 0 {
        s.x_pos = s.x_pos.wrapping_add(d1 as u16);
        s.x_vel = 0;
    }
}

/// `Sonic_HitCeiling` + `Sonic_HitFloor` (s2.asm L37977–38021) and their copies `Sonic_HitCeiling2` +
/// `Sonic_HitFloor2` (L38072–38111): ceiling (push down, stop upward motion), else — when not moving
/// up — land on the floor with no landing gate (non-fixBugs).
#[inline]
fn sonic_hit_ceiling_then_floor(s: &mut SonicState, stage: &impl Level, d5: u8) {
    let c = sonic_check_ceiling(s, stage, d5);
    if c.near < 0 {
        s.y_pos = s.y_pos.wrapping_sub(c.near as u16);
        if s.y_vel < 0 {
            s.y_vel = 0;
        }
        return;
    }
    if s.y_vel < 0 {
        return;
    }
    let f = sonic_check_floor(s, stage);
    if f.near >= 0 {
        return;
    }
    s.y_pos = s.y_pos.wrapping_add(f.near as u16);
    s.angle = f.angle;
    sonic_reset_on_floor(s);
    s.y_vel = 0;
    s.inertia = s.x_vel;
}

/// `Sonic_ResetOnFloor` (s2.asm L38123–38160): landing. anim Walk (unless pinball mode), then
/// [`sonic_reset_on_floor_part2`].
#[inline]
pub fn sonic_reset_on_floor(s: &mut SonicState) {
    if s.spindash_flag != 0 {
        sonic_reset_on_floor_part3(s);
        return;
    }
    s.anim = anim::WALK;
    sonic_reset_on_floor_part2(s);
}

/// `Sonic_ResetOnFloor_Part2`: uncurl if rolling (radii $13/9, anim Walk, y −= 5), then Part3. After
/// a roll-jump the radii were already $13/9 when the floor was found, so this lifts Sonic 5 px too
/// high (spec §3.10).
#[inline]
pub fn sonic_reset_on_floor_part2(s: &mut SonicState) {
    if s.has(status::ROLLING) {
        s.clear(status::ROLLING);
        s.y_radius = 0x13;
        s.x_radius = 9;
        s.anim = anim::WALK;
        s.y_pos = s.y_pos.wrapping_sub(5);
    }
    sonic_reset_on_floor_part3(s);
}

/// `Sonic_ResetOnFloor_Part3`: clear in_air, pushing, rolljumping, jumping, the flip state and the
/// look delay; the Hang2 animation becomes Walk.
#[inline]
pub fn sonic_reset_on_floor_part3(s: &mut SonicState) {
    s.clear(status::IN_AIR | status::PUSHING | status::ROLLJUMPING);
    s.jumping = 0;
    s.flip_angle = 0;
    s.look_delay = 0;
    if s.anim == 0x14 {
        s.anim = anim::WALK;
    }
}
