//! The spin dash: `Sonic_CheckSpindash` (start from a duck), `Sonic_UpdateSpindash` (charge, decay,
//! release) and `SpindashSpeeds` (spec §3.3).

use crate::collision::anglepos;
use crate::frame::{Flow, cam_bias_step, sonic_level_bound};
use crate::level::Level;
use crate::state::{SonicState, anim, buttons, status};

/// `SpindashSpeeds` (s2.asm L37643–37652): release speed by the charge's high byte, $800 + $80·n.
pub const SPINDASH_SPEEDS: [i16; 9] = [
    0x800, 0x880, 0x900, 0x980, 0xA00, 0xA80, 0xB00, 0xB80, 0xC00,
];

/// `SpindashSpeedsSuper` (s2.asm L37654–37663), directly after [`SPINDASH_SPEEDS`].
pub const SPINDASH_SPEEDS_SUPER: [i16; 9] = [
    0xB00, 0xB80, 0xC00, 0xC80, 0xD00, 0xD80, 0xE00, 0xE80, 0xF00,
];

/// `Sonic_CheckSpindash` (s2.asm L37555–37586).
///
/// Charging already: [`sonic_update_spindash`]. Otherwise a new A/B/C press while the animation is
/// Duck starts the dash: anim Spindash, flag 1, counter 0 (the starting press adds no charge), then
/// `LevelBound` and `AnglePos` and the mode routine ends (POP). Returns whether it ended.
#[inline]
pub fn sonic_check_spindash(s: &mut SonicState, stage: &impl Level) -> Flow {
    if s.spindash_flag != 0 {
        sonic_update_spindash(s, stage);
        return Flow::Pop;
    }
    if s.anim != anim::DUCK {
        return Flow::Continue;
    }
    if s.ctrl_pressed & buttons::ABC == 0 {
        return Flow::Continue;
    }
    s.anim = anim::SPINDASH;
    s.spindash_flag = 1;
    s.spindash_counter = 0;
    sonic_level_bound(s);
    anglepos(s, stage);
    Flow::Pop
}

/// `Sonic_UpdateSpindash` (s2.asm L37588–37698); always ends the mode routine.
///
/// Down held: the charge decays by counter >> 5 (logical shift); a new A/B/C press writes the anim
/// word $0900 (anim Spindash and prev_anim 0, restarting the animation) and adds $200, capped at
/// $800. Down released: curl (radii $0E/7, anim Roll, y += 5), flag 0, inertia from
/// [`SPINDASH_SPEEDS`] by the counter's high byte (negated facing left), rolling set; the counter is
/// left as it is and x_vel is not recomputed (movement starts next frame in the roll mode).
/// Either way: camera bias step, `LevelBound`, `AnglePos`.
#[inline]
pub fn sonic_update_spindash(s: &mut SonicState, stage: &impl Level) {
    if s.ctrl_held & buttons::DOWN != 0 {
        // Sonic_ChargingSpindash
        if s.spindash_counter != 0 {
            let d = s.spindash_counter >> 5;
            s.spindash_counter -= d; // never borrows: d ≤ counter
        }
        if s.ctrl_pressed & buttons::ABC != 0 {
            s.anim = anim::SPINDASH;
            s.prev_anim = anim::WALK;
            s.spindash_counter = s.spindash_counter.wrapping_add(0x200);
            if s.spindash_counter >= 0x800 {
                s.spindash_counter = 0x800;
            }
        }
    } else {
        s.y_radius = 0x0E;
        s.x_radius = 7;
        s.anim = anim::ROLL;
        s.y_pos = s.y_pos.wrapping_add(5);
        s.spindash_flag = 0;
        // move.b spindash_counter(a0): the high byte; 0..8 when the counter is in range.
        let n = (s.spindash_counter >> 8) as usize;
        // A counter above $8FF (only in a hand-made state) reads on into `SpindashSpeedsSuper`,
        // which follows the table in the ROM; beyond that the model saturates at the last entry.
        s.inertia = SPINDASH_SPEEDS
            .get(n)
            .or_else(|| SPINDASH_SPEEDS_SUPER.get(n - SPINDASH_SPEEDS.len()))
            .copied()
            .unwrap_or(0xF00);
        let d0 = (s.inertia as u16).wrapping_sub(0x800);
        s.horiz_scroll_delay = 0x2000u16.wrapping_sub(d0.wrapping_add(d0) & 0x1F00);
        if s.has(status::FACING_LEFT) {
            s.inertia = s.inertia.wrapping_neg();
        }
        s.set(status::ROLLING);
    }
    // Obj01_Spindash_ResetScr
    cam_bias_step(s);
    sonic_level_bound(s);
    anglepos(s, stage);
}
