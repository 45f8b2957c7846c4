//! `Sonic_Animate` and Sonic's animation scripts (`SonicAniData`, spec §6). The scripts are the
//! disassembly's `dc.b` lines (s2.asm L38656–38760) written out as Rust data; `s2harness`'s `tests/model_tables_vs_rom.rs`
//! compares them with a ROM's bytes when `S2_ROM` is set.

use crate::state::{SonicState, status};

/// Sonic's animation scripts by ID ($00–$21). Byte 0 is the frame duration ($FF: Walk/Run, $FE:
/// Roll, $FD: Push — handled by code), then sprite frames, then an end code: $FF loop, $FE n go back
/// n, $FD a switch to animation a.
pub const SONIC_ANI_DATA: [&[u8]; 0x22] = [
    &[0xFF, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x0D, 0x0E, 0xFF], // 0 Walk
    &[0xFF, 0x2D, 0x2E, 0x2F, 0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], // 1 Run
    &[0xFE, 0x3D, 0x41, 0x3E, 0x41, 0x3F, 0x41, 0x40, 0x41, 0xFF], // 2 Roll
    &[0xFE, 0x3D, 0x41, 0x3E, 0x41, 0x3F, 0x41, 0x40, 0x41, 0xFF], // 3 Roll2
    &[0xFD, 0x48, 0x49, 0x4A, 0x4B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], // 4 Push
    &WAIT,                                                         // 5 Wait
    &[0x09, 0xCC, 0xCD, 0xCE, 0xCD, 0xFF],                         // 6 Balance
    &[0x05, 0x0B, 0x0C, 0xFE, 0x01],                               // 7 LookUp
    &[0x05, 0x4C, 0x4D, 0xFE, 0x01],                               // 8 Duck
    &[
        0x00, 0x42, 0x43, 0x42, 0x44, 0x42, 0x45, 0x42, 0x46, 0x42, 0x47, 0xFF,
    ], // 9 Spindash
    &[0x01, 0x02, 0xFD, 0x00],                                     // $A Blink
    &[0x03, 0x0A, 0xFD, 0x00],                                     // $B GetUp
    &[0x03, 0xC8, 0xC9, 0xCA, 0xCB, 0xFF],                         // $C Balance2
    &[0x05, 0xD2, 0xD3, 0xD4, 0xD5, 0xFD, 0x00],                   // $D Stop
    &[0x07, 0x54, 0x59, 0xFF],                                     // $E Float
    &[0x07, 0x54, 0x55, 0x56, 0x57, 0x58, 0xFF],                   // $F Float2
    &[0x2F, 0x5B, 0xFD, 0x00],                                     // $10 Spring
    &[0x01, 0x50, 0x51, 0xFF],                                     // $11 Hang
    &[0x0F, 0x43, 0x43, 0x43, 0xFE, 0x01],                         // $12 Dash2
    &[0x0F, 0x43, 0x44, 0xFE, 0x01],                               // $13 Dash3
    &[0x13, 0x6B, 0x6C, 0xFF],                                     // $14 Hang2
    &[0x0B, 0x5A, 0x5A, 0x11, 0x12, 0xFD, 0x00],                   // $15 Bubble
    &[0x20, 0x5E, 0xFF],                                           // $16 DeathBW
    &[0x20, 0x5D, 0xFF],                                           // $17 Drown
    &[0x20, 0x5C, 0xFF],                                           // $18 Death
    &[0x40, 0x4E, 0xFF],                                           // $19 Hurt
    &[0x40, 0x4E, 0xFF],                                           // $1A Hurt (same script)
    &[0x09, 0x4E, 0x4F, 0xFF],                                     // $1B Slide
    &[0x77, 0x00, 0xFD, 0x00],                                     // $1C Blank
    &[0x13, 0xD0, 0xD1, 0xFF],                                     // $1D Balance3
    &[0x03, 0xCF, 0xC8, 0xC9, 0xCA, 0xCB, 0xFE, 0x04],             // $1E Balance4
    &[
        0x02, 0x6D, 0x6D, 0x6E, 0x6E, 0x6F, 0x70, 0x71, 0x70, 0x71, 0x70, 0x71, 0x70, 0x71, 0xFD,
        0x00,
    ], // $1F SupSonAni_Transform
    &[0x09, 0x08, 0x09, 0xFF],                                     // $20 Lying
    &[0x03, 0x07, 0xFD, 0x00],                                     // $21 LieDown
];

/// `SonAni_Wait` (s2.asm L38702): 174 frames of standing and foot tapping, then $FE 6: loop the last
/// six frames (lying down; anim_frame cycles 174..179).
pub const WAIT: [u8; 182] = [
    5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, //
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, //
    3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 4, 4, 4, 5, 5, //
    5, 4, 4, 4, 5, 5, 5, 4, 4, 4, 5, 5, 5, 6, 6, 6, //
    6, 6, 6, 6, 6, 6, 6, 4, 4, 4, 5, 5, 5, 4, 4, 4, //
    5, 5, 5, 4, 4, 4, 5, 5, 5, 4, 4, 4, 5, 5, 5, 6, //
    6, 6, 6, 6, 6, 6, 6, 6, 6, 4, 4, 4, 5, 5, 5, 4, //
    4, 4, 5, 5, 5, 4, 4, 4, 5, 5, 5, 4, 4, 4, 5, 5, //
    5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 4, 4, 4, 5, 5, //
    5, 4, 4, 4, 5, 5, 5, 4, 4, 4, 5, 5, 5, 4, 4, 4, //
    5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 8, 8, //
    8, 9, 9, 9, 0xFE, 6,
];

const WALK: u8 = 0;
const RUN: u8 = 1;
const ROLL: u8 = 2;
const ROLL2: u8 = 3;
const PUSH: u8 = 4;

/// A script byte; reads past a script's end (which the game would make into the next script) give
/// $FF, "loop". No reachable path reads past an end.
#[inline]
fn byte(script: &[u8], i: usize) -> u8 {
    script.get(i).copied().unwrap_or(0xFF)
}

#[inline]
fn script(id: u8) -> &'static [u8] {
    SONIC_ANI_DATA
        .get(id as usize)
        .copied()
        .unwrap_or(SONIC_ANI_DATA[0])
}

/// `Sonic_Animate` (s2.asm L38379–38652).
///
/// A new `anim` (≠ `prev_anim`) restarts: prev_anim = anim, anim_frame = duration = 0, and the
/// pushing bit is cleared. Plain scripts count the duration down and step a frame when it goes
/// negative. Walk/Run pick the Run script at |inertia| ≥ $600 and reload the duration with
/// max(0, $800 − |inertia|) >> 8, or take the Push path while pushing. Roll reloads with
/// max(0, $400 − |inertia|) >> 8; Push with max(0, $800 − |inertia|) >> 6.
#[inline]
pub fn sonic_animate(s: &mut SonicState) {
    let id = s.anim;
    if id != s.prev_anim {
        s.prev_anim = id;
        s.anim_frame = 0;
        s.anim_frame_duration = 0;
        s.clear(status::PUSHING);
    }
    // (Super_Sonic_flag is 0: SonicAniData.)
    let sc = script(id);
    let d0 = sc[0];
    if (d0 as i8) >= 0 {
        // Plain script.
        s.anim_frame_duration = s.anim_frame_duration.wrapping_sub(1);
        if (s.anim_frame_duration as i8) >= 0 {
            return;
        }
        s.anim_frame_duration = d0;
        sanim_do2(s, sc);
        return;
    }
    if d0 == 0xFF {
        sanim_walk_run(s);
        return;
    }
    // SAnim_Roll: the countdown first.
    s.anim_frame_duration = s.anim_frame_duration.wrapping_sub(1);
    if (s.anim_frame_duration as i8) >= 0 {
        return;
    }
    if d0 == 0xFE {
        let speed = s.inertia.unsigned_abs();
        let sc = if speed >= 0x600 {
            script(ROLL2)
        } else {
            script(ROLL)
        };
        let d2 = 0x400u16.wrapping_sub(speed);
        s.anim_frame_duration = if (d2 as i16) < 0 { 0 } else { (d2 >> 8) as u8 };
        sanim_do2(s, sc);
        return;
    }
    sanim_push_reload(s);
}

/// `SAnim_Do2` and the end codes (s2.asm L38407–38446): read the byte at anim_frame + 1.
#[inline]
fn sanim_do2(s: &mut SonicState, sc: &[u8]) {
    let i = s.anim_frame as usize;
    let v = byte(sc, 1 + i);
    if v < 0xF0 {
        s.mapping_frame = v;
        s.anim_frame = s.anim_frame.wrapping_add(1);
        return;
    }
    match v {
        0xFF => {
            s.anim_frame = 0;
            s.mapping_frame = byte(sc, 1);
            s.anim_frame = 1;
        }
        0xFE => {
            let n = byte(sc, 2 + i);
            s.anim_frame = s.anim_frame.wrapping_sub(n);
            let j = (i as u8).wrapping_sub(n) as usize;
            s.mapping_frame = byte(sc, 1 + j);
            s.anim_frame = s.anim_frame.wrapping_add(1);
        }
        0xFD => s.anim = byte(sc, 2 + i),
        _ => {}
    }
}

/// `SAnim_WalkRun` (s2.asm L38449–38514) for flip_angle 0 (no tumbling on these stages).
#[inline]
fn sanim_walk_run(s: &mut SonicState) {
    // The angle → sprite rotation offset (mapping_frame only).
    let mut d0 = s.angle;
    if (d0 as i8) > 0 {
        d0 -= 1;
    }
    if !s.has(status::FACING_LEFT) {
        d0 = !d0;
    }
    d0 = d0.wrapping_add(0x10);
    if s.has(status::PUSHING) {
        sanim_push(s);
        return;
    }
    let rot = (d0 >> 4) & 6;
    let mut speed = s.inertia.unsigned_abs();
    if s.status_secondary & 0x80 != 0 {
        speed = speed.wrapping_add(speed);
    }
    let (sc, d3) = if speed >= 0x600 {
        (script(RUN), rot.wrapping_add(rot))
    } else {
        (script(WALK), rot.wrapping_mul(4))
    };
    let mut v = byte(sc, 1 + s.anim_frame as usize);
    if v == 0xFF {
        s.anim_frame = 0;
        v = byte(sc, 1);
    }
    s.mapping_frame = v.wrapping_add(d3);
    s.anim_frame_duration = s.anim_frame_duration.wrapping_sub(1);
    if (s.anim_frame_duration as i8) >= 0 {
        return;
    }
    let d2 = 0x800u16.wrapping_sub(speed);
    s.anim_frame_duration = if (d2 as i16) < 0 { 0 } else { (d2 >> 8) as u8 };
    s.anim_frame = s.anim_frame.wrapping_add(1);
}

/// `SAnim_Push` (s2.asm L38627–38649) reached from Walk/Run while pushing: count down, then reload
/// with max(0, $800 − |inertia|) >> 6 and step the Push script.
#[inline]
fn sanim_push(s: &mut SonicState) {
    s.anim_frame_duration = s.anim_frame_duration.wrapping_sub(1);
    if (s.anim_frame_duration as i8) >= 0 {
        return;
    }
    sanim_push_reload(s);
}

#[inline]
fn sanim_push_reload(s: &mut SonicState) {
    // move.w inertia,d2 / bmi.s + / neg.w d2: −|inertia| (for $8000 it stays $8000).
    let mut d2 = s.inertia as u16;
    if (d2 as i16) >= 0 {
        d2 = d2.wrapping_neg();
    }
    d2 = d2.wrapping_add(0x800);
    s.anim_frame_duration = if (d2 as i16) < 0 { 0 } else { (d2 >> 6) as u8 };
    sanim_do2(s, script(PUSH));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::anim;

    /// Spec §6: with a fresh Wait, anim_frame = n after 1 + 6(n − 1) frames: $1E at frame 175.
    #[test]
    fn wait_timing() {
        let mut s = SonicState::default();
        let mut frames = 0;
        while s.anim_frame < 0x1E {
            sonic_animate(&mut s);
            frames += 1;
        }
        assert_eq!(frames, 1 + 6 * (0x1E - 1));
        while s.anim_frame < 0xAC {
            sonic_animate(&mut s);
            frames += 1;
        }
        assert_eq!(frames, 1 + 6 * (0xAC - 1));
    }

    /// Spec §6: Stop runs 4 × 6 = 24 frames, then anim → Walk.
    #[test]
    fn stop_then_walk() {
        let mut s = SonicState {
            anim: anim::STOP,
            ..SonicState::default()
        };
        for _ in 0..24 {
            sonic_animate(&mut s);
            assert_eq!(s.anim, anim::STOP);
        }
        sonic_animate(&mut s);
        assert_eq!(s.anim, anim::WALK);
    }

    #[test]
    fn anim_change_clears_pushing() {
        let mut s = SonicState::default();
        s.status |= status::PUSHING;
        s.anim = anim::WALK;
        sonic_animate(&mut s);
        assert_eq!(s.status & status::PUSHING, 0);
    }
}
