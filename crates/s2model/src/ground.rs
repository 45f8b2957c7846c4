//! Sonic on the ground, not rolling: `Obj01_MdNormal_Checks` with the idle skip, `Sonic_Move` (turn,
//! skid, friction, balance, look up/down and the camera bias), `Sonic_Jump` and the slope routines
//! (spec §3.2, §3.4–§3.6).

use crate::collision::{
    calc_room_in_front, calc_room_over_head, chk_floor_edge, chk_floor_edge_part2,
};
use crate::frame::{Flow, cam_bias_step, object_move, sonic_level_bound};
use crate::level::Level;
use crate::state::{SonicState, anim, buttons, status};
use crate::trig::calc_sine;
use crate::{collision::anglepos, roll::sonic_roll, spindash::sonic_check_spindash};

/// `Obj01_MdNormal_Checks` and `Obj01_MdNormal` (s2.asm L36443–36482): the ground mode.
///
/// The idle skip: with no new A/B/C press, the Blink and GetUp animations, and the Wait animation
/// from anim_frame $1E on while nothing is held, skip the whole mode routine for the frame. In the
/// game's non-fixBugs build the skip label is the final `rts`, so `LevelBound`, `ObjectMove` and
/// `AnglePos` are skipped too (spec §8.2). Holding a direction or button at Wait ≥ $1E turns the
/// animation to Blink, or to GetUp from anim_frame $AC on, and skips the frame.
#[inline]
pub fn obj01_mdnormal_checks(s: &mut SonicState, stage: &impl Level) {
    if s.ctrl_pressed & buttons::ABC == 0 {
        if s.anim == anim::BLINK || s.anim == anim::GET_UP {
            return;
        }
        if s.anim == anim::WAIT && s.anim_frame >= 0x1E {
            if s.ctrl_held & 0x7F == 0 {
                return;
            }
            s.anim = anim::BLINK;
            if s.anim_frame >= 0xAC {
                s.anim = anim::GET_UP;
            }
            return;
        }
    }
    obj01_mdnormal(s, stage);
}

/// `Obj01_MdNormal` (s2.asm L36469–36482): spin dash, jump (either may end the routine: the game pops
/// its return address), slope resistance, walking, rolling, level bounds, move, floor snap, slope
/// repel.
#[inline]
pub fn obj01_mdnormal(s: &mut SonicState, stage: &impl Level) {
    if sonic_check_spindash(s, stage) == Flow::Pop {
        return;
    }
    if sonic_jump(s, stage) == Flow::Pop {
        return;
    }
    sonic_slope_resist(s);
    sonic_move(s, stage);
    sonic_roll(s);
    sonic_level_bound(s);
    object_move(s);
    anglepos(s, stage);
    sonic_slope_repel(s);
}

/// `Sonic_Move` (s2.asm L36551–36874): walking on the ground.
#[inline]
pub fn sonic_move(s: &mut SonicState, stage: &impl Level) {
    let top = s.top_speed as i16;
    let acc = s.acceleration as i16;
    let dec = s.deceleration as i16;
    if s.status_secondary & 0x80 == 0 {
        // (sliding goes straight to Obj01_Traction)
        if s.move_lock != 0 {
            obj01_reset_scr(s);
            obj01_update_speed_on_ground(s, acc);
        } else {
            if s.ctrl_held & buttons::LEFT != 0 {
                sonic_move_left(s, top, acc, dec);
            }
            if s.ctrl_held & buttons::RIGHT != 0 {
                sonic_move_right(s, top, acc, dec);
            }
            if s.angle.wrapping_add(0x20) & 0xC0 != 0 || s.inertia != 0 {
                obj01_reset_scr(s);
            } else {
                // Standing still on flat ground.
                s.clear(status::PUSHING);
                s.anim = anim::WAIT;
                // (standing on an object: object balance — there are no objects here)
                match sonic_balance(s, stage) {
                    AfterBalance::ResetScr => obj01_reset_scr(s),
                    AfterBalance::Lookup => sonic_lookup(s),
                }
            }
            obj01_update_speed_on_ground(s, acc);
        }
    }
    obj01_traction(s);
    obj01_check_walls_on_ground(s, stage);
}

enum AfterBalance {
    ResetScr,
    Lookup,
}

/// `Sonic_Balance` (s2.asm L36653–36704): balancing on a ledge while standing still.
///
/// If the floor under Sonic's centre is 12 px or more away, the previous frame's foot angles decide
/// (`next_tilt`/`tilt` = 3 is the preset `AnglePos` leaves when that foot found no solid cell): the
/// edge on the side Sonic faces gives Balance (6), the other side Balance3 ($1D). A second probe 6 px
/// back from the edge (x − 6 for the right foot, x + 6 for the left) that also finds no floor within
/// 12 px upgrades to Balance2 ($0C) or Balance4 ($1E), and Balance4 turns Sonic to face the edge.
#[inline]
fn sonic_balance(s: &mut SonicState, stage: &impl Level) -> AfterBalance {
    if chk_floor_edge(s, stage) < 0xC {
        return AfterBalance::Lookup;
    }
    if s.next_tilt == 3 {
        // No floor under the right foot.
        let x = s.x_pos.wrapping_sub(6);
        if !s.has(status::FACING_LEFT) {
            s.anim = anim::BALANCE;
            if chk_floor_edge_part2(s, stage, x) >= 0xC {
                s.anim = anim::BALANCE2;
            }
        } else {
            s.anim = anim::BALANCE3;
            if chk_floor_edge_part2(s, stage, x) >= 0xC {
                s.anim = anim::BALANCE4;
                s.clear(status::FACING_LEFT);
            }
        }
        return AfterBalance::ResetScr;
    }
    if s.tilt == 3 {
        // No floor under the left foot.
        let x = s.x_pos.wrapping_add(6);
        if s.has(status::FACING_LEFT) {
            s.anim = anim::BALANCE;
            if chk_floor_edge_part2(s, stage, x) >= 0xC {
                s.anim = anim::BALANCE2;
            }
        } else {
            s.anim = anim::BALANCE3;
            if chk_floor_edge_part2(s, stage, x) >= 0xC {
                s.anim = anim::BALANCE4;
                s.set(status::FACING_LEFT);
            }
        }
        return AfterBalance::ResetScr;
    }
    AfterBalance::Lookup
}

/// `Sonic_Lookup` / `Sonic_Duck` (s2.asm L36729–36754): Up or Down while standing still. The look
/// delay counts to $78; after that the camera bias moves 2 per frame to $C8 (up) or 8 (down), and
/// the bias decay is skipped. Before that the bias decays toward $60 (`Obj01_ResetScr_Part2`).
#[inline]
fn sonic_lookup(s: &mut SonicState) {
    let (target, step): (u16, u16) = if s.ctrl_held & buttons::UP != 0 {
        s.anim = anim::LOOK_UP;
        (0xC8, 2)
    } else if s.ctrl_held & buttons::DOWN != 0 {
        s.anim = anim::DUCK;
        (0x08, 2u16.wrapping_neg())
    } else {
        obj01_reset_scr(s);
        return;
    };
    s.look_delay = s.look_delay.wrapping_add(1);
    if s.look_delay < 0x78 {
        cam_bias_step(s); // Obj01_ResetScr_Part2
        return;
    }
    s.look_delay = 0x78;
    if s.camera_bias != target {
        s.camera_bias = s.camera_bias.wrapping_add(step);
    }
}

/// `Obj01_ResetScr` (s2.asm L36759–36772): look delay = 0, then the camera bias steps 2 toward $60.
#[inline]
fn obj01_reset_scr(s: &mut SonicState) {
    s.look_delay = 0;
    cam_bias_step(s);
}

/// `Obj01_UpdateSpeedOnGround` (s2.asm L36773–36804): friction when neither Left nor Right is held:
/// inertia moves `acc` toward 0 and stops at 0 (the borrow/carry tests of the unsigned add).
#[inline]
fn obj01_update_speed_on_ground(s: &mut SonicState, acc: i16) {
    if s.ctrl_held & (buttons::LEFT | buttons::RIGHT) != 0 || s.inertia == 0 {
        return;
    }
    let d0 = s.inertia as u16;
    let a = acc as u16;
    s.inertia = if s.inertia > 0 {
        let (r, borrow) = d0.overflowing_sub(a);
        if borrow { 0 } else { r as i16 }
    } else {
        let (r, carry) = d0.overflowing_add(a);
        if carry { 0 } else { r as i16 }
    };
}

/// `Obj01_Traction` (s2.asm L36805–36816): ground speed to velocity, x_vel = inertia·cos >> 8,
/// y_vel = inertia·sin >> 8 (32-bit products, arithmetic shift, low word).
#[inline]
pub fn obj01_traction(s: &mut SonicState) {
    let (sin, cos) = calc_sine(s.angle);
    s.x_vel = ((s.inertia as i32 * cos as i32) >> 8) as i16;
    s.y_vel = ((s.inertia as i32 * sin as i32) >> 8) as i16;
}

/// `Obj01_CheckWallsOnGround` (s2.asm L36817–36873): stop at a wall in front of a moving Sonic.
///
/// `CalcRoomInFront` probes from the position after this frame's move, 8 px below the centre on
/// flat ground. A negative distance d is added to the velocity as d << 8 so that the following
/// `ObjectMove` ends exactly touching the wall; pushing is set and inertia cleared.
#[inline]
pub fn obj01_check_walls_on_ground(s: &mut SonicState, stage: &impl Level) {
    if s.angle.wrapping_add(0x40) & 0x80 != 0 {
        return;
    }
    if s.inertia == 0 {
        return;
    }
    let r: u8 = if s.inertia < 0 { 0x40 } else { 0xC0 };
    let a = s.angle.wrapping_add(r);
    let d1 = calc_room_in_front(s, stage, a);
    if d1 >= 0 {
        return;
    }
    let d = d1.wrapping_shl(8);
    match a.wrapping_add(0x20) & 0xC0 {
        0x00 => s.y_vel = s.y_vel.wrapping_add(d),
        0x40 => {
            s.x_vel = s.x_vel.wrapping_sub(d);
            s.set(status::PUSHING);
            s.inertia = 0;
        }
        0x80 => s.y_vel = s.y_vel.wrapping_sub(d),
        _ => {
            s.x_vel = s.x_vel.wrapping_add(d);
            s.set(status::PUSHING);
            s.inertia = 0;
        }
    }
}

/// `Sonic_MoveLeft` / `Sonic_TurnLeft` (s2.asm L36880–36943).
///
/// Moving right (inertia > 0): brake by the deceleration; a borrow (inertia was below it, unsigned)
/// gives −$80. Skid quirk (non-fixBugs): the game overwrites the low byte of the new speed in d0
/// with (angle + $20) & $C0 before testing it against $400, so the test sees (inertia & $FF00): skid
/// (anim Stop, face right) iff the new inertia ≥ $400 — the stored inertia is not changed.
#[inline]
fn sonic_move_left(s: &mut SonicState, top: i16, acc: i16, dec: i16) {
    let d0 = s.inertia;
    if d0 > 0 {
        let (r, borrow) = (d0 as u16).overflowing_sub(dec as u16);
        let d0 = if borrow { -0x80 } else { r as i16 };
        s.inertia = d0;
        let q = s.angle.wrapping_add(0x20) & 0xC0;
        if q != 0 {
            return;
        }
        let skid_test = ((d0 as u16 & 0xFF00) | q as u16) as i16;
        if skid_test < 0x400 {
            return;
        }
        s.anim = anim::STOP;
        s.clear(status::FACING_LEFT);
        return;
    }
    let was_left = s.has(status::FACING_LEFT);
    s.set(status::FACING_LEFT);
    if !was_left {
        s.clear(status::PUSHING);
        s.prev_anim = anim::RUN;
    }
    let mut d0 = d0.wrapping_sub(acc);
    let neg_top = top.wrapping_neg();
    if d0 <= neg_top {
        d0 = d0.wrapping_add(acc);
        if d0 > neg_top {
            d0 = neg_top;
        }
    }
    s.inertia = d0;
    s.anim = anim::WALK;
}

/// `Sonic_MoveRight` / `Sonic_TurnRight` (s2.asm L36945–37001).
///
/// Moving left (inertia < 0): brake; a carry (the sum reached or crossed 0) gives +$80 — so from
/// exactly −$80 the result is +$80, while TurnLeft from +$80 gives 0. Skid iff (new inertia & $FF00)
/// as a signed word ≤ −$400, i.e. new inertia ≤ −$301.
#[inline]
fn sonic_move_right(s: &mut SonicState, top: i16, acc: i16, dec: i16) {
    let d0 = s.inertia;
    if d0 < 0 {
        let (r, carry) = (d0 as u16).overflowing_add(dec as u16);
        let d0 = if carry { 0x80 } else { r as i16 };
        s.inertia = d0;
        let q = s.angle.wrapping_add(0x20) & 0xC0;
        if q != 0 {
            return;
        }
        let skid_test = ((d0 as u16 & 0xFF00) | q as u16) as i16;
        if skid_test > -0x400 {
            return;
        }
        s.anim = anim::STOP;
        s.set(status::FACING_LEFT);
        return;
    }
    let was_left = s.has(status::FACING_LEFT);
    s.clear(status::FACING_LEFT);
    if was_left {
        s.clear(status::PUSHING);
        s.prev_anim = anim::RUN;
    }
    let mut d0 = d0.wrapping_add(acc);
    if d0 >= top {
        d0 = d0.wrapping_sub(acc);
        if d0 < top {
            d0 = top;
        }
    }
    s.inertia = d0;
    s.anim = anim::WALK;
}

/// `Sonic_Jump` (s2.asm L37345–37402), from the ground and rolling modes.
///
/// Needs a new A/B/C press and at least 6 px of room over the head (`CalcRoomOverHead(angle + $80)`).
/// Adds $680 along the surface normal, sets in_air, clears pushing and ends the mode routine (POP:
/// no move this frame). The radii are always set to standing ($13/9) first — the roll-jump bug: when
/// Sonic was already rolling only rolljumping is set and the radii stay $13/9 with y unchanged;
/// otherwise he curls (radii $0E/7, anim Roll, rolling, y += 5).
#[inline]
pub fn sonic_jump(s: &mut SonicState, stage: &impl Level) -> Flow {
    if s.ctrl_pressed & buttons::ABC == 0 {
        return Flow::Continue;
    }
    let a = s.angle.wrapping_add(0x80);
    if calc_room_over_head(s, stage, a) < 6 {
        return Flow::Continue;
    }
    let j: i32 = if s.has(status::UNDERWATER) {
        0x380
    } else {
        0x680
    };
    let (sin, cos) = calc_sine(s.angle.wrapping_sub(0x40));
    s.x_vel = s.x_vel.wrapping_add(((cos as i32 * j) >> 8) as i16);
    s.y_vel = s.y_vel.wrapping_add(((sin as i32 * j) >> 8) as i16);
    s.set(status::IN_AIR);
    s.clear(status::PUSHING);
    s.jumping = 1;
    s.stick_to_convex = 0;
    s.y_radius = 0x13;
    s.x_radius = 9;
    if s.has(status::ROLLING) {
        s.set(status::ROLLJUMPING);
    } else {
        s.y_radius = 0x0E;
        s.x_radius = 7;
        s.anim = anim::ROLL;
        s.set(status::ROLLING);
        s.y_pos = s.y_pos.wrapping_add(5);
    }
    Flow::Pop
}

/// `Sonic_SlopeResist` (s2.asm L37709–37740): gravity along a slope while walking (no effect at
/// angle 0, where sin = 0).
#[inline]
pub fn sonic_slope_resist(s: &mut SonicState) {
    if s.angle.wrapping_add(0x60) >= 0xC0 {
        return;
    }
    let (sin, _) = calc_sine(s.angle);
    let d0 = ((sin as i32 * 0x20) >> 8) as i16;
    if s.inertia == 0 {
        return;
    }
    if s.inertia > 0 && d0 == 0 {
        return;
    }
    s.inertia = s.inertia.wrapping_add(d0);
}

/// `Sonic_SlopeRepel` (s2.asm L37781–37812): fall off walls and ceilings when too slow; counts
/// `move_lock` down. On flat ground (angle 0) it only counts the lock down.
#[inline]
pub fn sonic_slope_repel(s: &mut SonicState) {
    if s.stick_to_convex != 0 {
        return;
    }
    if s.move_lock != 0 {
        s.move_lock -= 1;
        return;
    }
    if s.angle.wrapping_add(0x20) & 0xC0 == 0 {
        return;
    }
    if s.inertia.unsigned_abs() >= 0x280 {
        return;
    }
    s.inertia = 0;
    s.set(status::IN_AIR);
    s.move_lock = 0x1E;
}
