//! Level collision: the distance scans (`FindFloor`, `FindWall` and their second-cell helpers), Sonic's
//! sensor routines built on them, and `AnglePos`, the ground snap (spec §4).
//!
//! The scans are literal transcriptions for blocks of collision ID $FF (every column height and row
//! width $10, angle byte $FF), including the flip handling of the block word; the closed forms of
//! spec §4.3 follow from them and are what the unit tests check.

use crate::level::Level;
use crate::stage::block_word;
use crate::state::{SonicState, status};

/// Angle byte of collision ID $FF in `ColCurveMap` (spec §4.2): odd, i.e. "flat, keep the cardinal
/// angle of the current quadrant".
pub const FULL_BLOCK_ANGLE: u8 = 0xFF;
/// Height/width of every column/row of collision ID $FF in `ColArrayVertical`/`ColArrayHorizontal`.
pub const FULL_BLOCK_HEIGHT: i16 = 0x10;

/// Which of the two persistent sensor-angle bytes a scan writes (the game's `a4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AngleSlot {
    /// `Primary_Angle` ($FFF768).
    Primary,
    /// `Secondary_Angle` ($FFF76A).
    Secondary,
}

/// The scan registers a sensor routine sets up before calling `FindFloor`/`FindWall`: `d5` the
/// solidity bit tested, `a3` the step to the next cell (+$10 down/right, −$10 up/left), `d6` the flip
/// bit XORed into the block word ($800 for up scans, $400 for left scans, which negates the height),
/// and `a4`, the angle byte written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scan {
    /// Solidity bit of the block word ($C top, $D left/right/bottom on path 1).
    pub d5: u8,
    /// Step to the next cell in the scan direction.
    pub a3: i16,
    /// Flip bit XORed into the block word.
    pub d6: u16,
    /// Where the angle byte goes.
    pub slot: AngleSlot,
}

impl Scan {
    /// Scan down (`FindFloor` with a3 = $10, d6 = 0).
    pub const fn down(d5: u8, slot: AngleSlot) -> Scan {
        Scan {
            d5,
            a3: 0x10,
            d6: 0,
            slot,
        }
    }
    /// Scan up (`FindFloor` with a3 = −$10, d6 = $800; the caller flips y with XOR 15).
    pub const fn up(d5: u8, slot: AngleSlot) -> Scan {
        Scan {
            d5,
            a3: -0x10,
            d6: 0x800,
            slot,
        }
    }
    /// Scan right (`FindWall` with a3 = $10, d6 = 0).
    pub const fn right(d5: u8, slot: AngleSlot) -> Scan {
        Scan {
            d5,
            a3: 0x10,
            d6: 0,
            slot,
        }
    }
    /// Scan left (`FindWall` with a3 = −$10, d6 = $400; the caller flips x with XOR 15).
    pub const fn left(d5: u8, slot: AngleSlot) -> Scan {
        Scan {
            d5,
            a3: -0x10,
            d6: 0x400,
            slot,
        }
    }
}

#[inline]
fn write_angle(s: &mut SonicState, slot: AngleSlot, a: u8) {
    match slot {
        AngleSlot::Primary => s.primary_angle = a,
        AngleSlot::Secondary => s.secondary_angle = a,
    }
}

/// The part of `FindFloor`/`FindWall` that inspects a block word (s2.asm L43432–43472 for floors,
/// L43684–43724 for walls): if the block is solid for bit `d5` (index ≠ 0, bit d5 set, collision ID
/// ≠ 0 in the index `Collision_addr` points at), write its angle (with the flips applied) to `slot`
/// and return the height of its column (`FindFloor`, `flip_bit` = Y flip, `along` = x) or the width
/// of its row (`FindWall`, `flip_bit` = X flip, `along` = y). A flip across the scan axis reads
/// the mirrored column (`not.w`); the flip bit XORed with `d6` negates the height. `None`: not
/// solid, nothing written. `Some(0)`: solid but empty here (the angle is written all the same).
#[inline]
fn solid_height(
    s: &mut SonicState,
    level: &impl Level,
    w: u16,
    along: u16,
    scan: Scan,
    flip_bit: u16,
) -> Option<i16> {
    let Scan { d5, d6, slot, .. } = scan;
    let block = w & block_word::INDEX_MASK;
    if block == 0 || (w >> (d5 & 15)) & 1 == 0 {
        return None;
    }
    // AnglePos and the sensor entry points: Collision_addr = Secondary_Collision unless
    // top_solid_bit is $C (s2.asm L43007–43011 and the same five lines in each entry point).
    let id = level.collision_id(block, s.top_solid_bit != 0x0C);
    if id == 0 {
        return None;
    }
    let mut a = level.curve_angle(id);
    let mut i = along;
    let y_flip_angle = |a: u8| a.wrapping_add(0x40).wrapping_neg().wrapping_sub(0x40);
    let h = if flip_bit == block_word::Y_FLIP {
        // FindFloor: X flip mirrors the column and negates the angle, then Y flip.
        if w & block_word::X_FLIP != 0 {
            i = !i;
            a = a.wrapping_neg();
        }
        if w & block_word::Y_FLIP != 0 {
            a = y_flip_angle(a);
        }
        level.column_height(id, i & 15)
    } else {
        // FindWall: Y flip mirrors the row and flips the angle, then X flip negates it.
        if w & block_word::Y_FLIP != 0 {
            i = !i;
            a = y_flip_angle(a);
        }
        if w & block_word::X_FLIP != 0 {
            a = a.wrapping_neg();
        }
        level.row_width(id, i & 15)
    } as i16;
    write_angle(s, slot, a);
    Some(if (w ^ d6) & flip_bit != 0 {
        h.wrapping_neg()
    } else {
        h
    })
}

/// `FindFloor` (s2.asm L43414–43500): vertical distance from the sensor at (x, y) to the surface,
/// scanning in the direction of `a3` (+$10 down, −$10 up with `d6` = $800 and the caller's XOR 15 of
/// y). Looks at the sensor's cell and, when that is empty or full, one neighbour (`FindFloor2`).
#[inline]
pub fn find_floor(s: &mut SonicState, stage: &impl Level, x: u16, y: u16, scan: Scan) -> i16 {
    let a3 = scan.a3;
    let w = stage.block_word_at(x, y);
    let r = (y & 15) as i16;
    match solid_height(s, stage, w, x, scan, block_word::Y_FLIP) {
        None | Some(0) => {}
        Some(h) if h < 0 => {
            if r + h < 0 {
                // loc_1E86A: the cell is full from this side: the surface is in the previous cell.
                return find_floor2(s, stage, x, y.wrapping_sub(a3 as u16), scan).wrapping_sub(16);
            }
        }
        Some(h) if h as u8 == 0x10 => {
            return find_floor2(s, stage, x, y.wrapping_sub(a3 as u16), scan).wrapping_sub(16);
        }
        Some(h) => return 15 - (r + h),
    }
    // loc_1E7E2: empty (or no height here): look in the next cell.
    find_floor2(s, stage, x, y.wrapping_add(a3 as u16), scan).wrapping_add(16)
}

/// `FindFloor2` (s2.asm L43502–43580): the second cell of a vertical scan.
#[inline]
pub fn find_floor2(s: &mut SonicState, stage: &impl Level, x: u16, y: u16, scan: Scan) -> i16 {
    let w = stage.block_word_at(x, y);
    let r = (y & 15) as i16;
    match solid_height(s, stage, w, x, scan, block_word::Y_FLIP) {
        None | Some(0) => {}
        Some(h) if h < 0 => {
            if r + h < 0 {
                return !r; // not.w d1: −1 − r
            }
        }
        Some(h) => return 15 - (r + h),
    }
    15 - r // loc_1E88A
}

/// `FindWall` (s2.asm L43666–43752): horizontal distance from the sensor at (x, y), scanning in the
/// direction of `a3` (+$10 right, −$10 left with `d6` = $400 and the caller's XOR 15 of x).
#[inline]
pub fn find_wall(s: &mut SonicState, stage: &impl Level, x: u16, y: u16, scan: Scan) -> i16 {
    let a3 = scan.a3;
    let w = stage.block_word_at(x, y);
    let r = (x & 15) as i16;
    match solid_height(s, stage, w, y, scan, block_word::X_FLIP) {
        None | Some(0) => {}
        Some(h) if h < 0 => {
            if r + h < 0 {
                return find_wall2(s, stage, x.wrapping_sub(a3 as u16), y, scan).wrapping_sub(16);
            }
        }
        Some(h) if h as u8 == 0x10 => {
            return find_wall2(s, stage, x.wrapping_sub(a3 as u16), y, scan).wrapping_sub(16);
        }
        Some(h) => return 15 - (r + h),
    }
    find_wall2(s, stage, x.wrapping_add(a3 as u16), y, scan).wrapping_add(16)
}

/// `FindWall2` (s2.asm L43754–43840): the second cell of a horizontal scan.
#[inline]
pub fn find_wall2(s: &mut SonicState, stage: &impl Level, x: u16, y: u16, scan: Scan) -> i16 {
    let w = stage.block_word_at(x, y);
    let r = (x & 15) as i16;
    match solid_height(s, stage, w, y, scan, block_word::X_FLIP) {
        None | Some(0) => {}
        Some(h) if h < 0 => {
            if r + h < 0 {
                return !r;
            }
        }
        Some(h) => return 15 - (r + h),
    }
    15 - r
}

/// What a two-sensor routine returns: `d1` the nearer distance, `d0` the farther, `d3` the angle of
/// the nearer one (the secondary sensor wins ties); an odd angle is replaced by the routine's
/// cardinal angle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// d1: the smaller distance.
    pub near: i16,
    /// d0: the larger distance.
    pub far: i16,
    /// d3: the angle of the nearer sensor (odd → the cardinal angle).
    pub angle: u8,
}

/// `loc_1ECC6` (s2.asm L44073–44085): pick the nearer of the primary (`d0`) and secondary (`d1`)
/// distances and its angle; odd angle → `cardinal`.
#[inline]
fn pick_nearer(s: &SonicState, d0_primary: i16, d1_secondary: i16, cardinal: u8) -> Pair {
    let (near, far, mut a) = if d1_secondary <= d0_primary {
        (d1_secondary, d0_primary, s.secondary_angle)
    } else {
        (d0_primary, d1_secondary, s.primary_angle)
    };
    if a & 1 != 0 {
        a = cardinal;
    }
    Pair {
        near,
        far,
        angle: a,
    }
}

/// `loc_1ECFE`: the single-sensor result angle (`Primary_Angle`, odd → `cardinal`).
#[inline]
fn primary_or(s: &SonicState, cardinal: u8) -> u8 {
    if s.primary_angle & 1 != 0 {
        cardinal
    } else {
        s.primary_angle
    }
}

#[inline]
fn ext(b: u8) -> u16 {
    b as i8 as i16 as u16
}

/// `Sonic_CheckFloor` (s2.asm L44036–44085): both feet, (x ± x_radius, y + y_radius), scanning down
/// with d5 = `top_solid_bit`; no preset of the angle bytes. Odd angle → 0.
#[inline]
pub fn sonic_check_floor(s: &mut SonicState, stage: &impl Level) -> Pair {
    let d5 = s.top_solid_bit;
    let y = s.y_pos.wrapping_add(ext(s.y_radius));
    let xr = s.x_pos.wrapping_add(ext(s.x_radius));
    let xl = s.x_pos.wrapping_sub(ext(s.x_radius));
    let d0 = find_floor(s, stage, xr, y, Scan::down(d5, AngleSlot::Primary));
    let d1 = find_floor(s, stage, xl, y, Scan::down(d5, AngleSlot::Secondary));
    pick_nearer(s, d0, d1, 0x00)
}

/// `Sonic_CheckCeiling` (s2.asm L44367–44406): both sides of the head, (x ± x_radius, y − y_radius),
/// scanning up with the caller's d5 (the in-cell y is flipped with XOR 15 before the scan). Odd
/// angle → $80.
#[inline]
pub fn sonic_check_ceiling(s: &mut SonicState, stage: &impl Level, d5: u8) -> Pair {
    let y = s.y_pos.wrapping_sub(ext(s.y_radius)) ^ 0xF;
    let xr = s.x_pos.wrapping_add(ext(s.x_radius));
    let xl = s.x_pos.wrapping_sub(ext(s.x_radius));
    let d0 = find_floor(s, stage, xr, y, Scan::up(d5, AngleSlot::Primary));
    let d1 = find_floor(s, stage, xl, y, Scan::up(d5, AngleSlot::Secondary));
    pick_nearer(s, d0, d1, 0x80)
}

/// `CheckLeftCeilingDist` (s2.asm L44468–44502): the two ceiling sensors when walking on a left wall
/// (unreachable on flat stages; here for completeness).
#[inline]
pub fn check_left_ceiling_dist(s: &mut SonicState, stage: &impl Level, d5: u8) -> Pair {
    let x = s.x_pos.wrapping_sub(ext(s.y_radius)) ^ 0xF;
    let y1 = s.y_pos.wrapping_sub(ext(s.x_radius));
    let y2 = s.y_pos.wrapping_add(ext(s.x_radius));
    let d0 = find_wall(s, stage, x, y1, Scan::left(d5, AngleSlot::Primary));
    let d1 = find_wall(s, stage, x, y2, Scan::left(d5, AngleSlot::Secondary));
    pick_nearer(s, d0, d1, 0x40)
}

/// `CheckRightCeilingDist` (s2.asm L44280–44311): the two ceiling sensors when walking on a right wall
/// (unreachable on flat stages).
#[inline]
pub fn check_right_ceiling_dist(s: &mut SonicState, stage: &impl Level, d5: u8) -> Pair {
    let x = s.x_pos.wrapping_add(ext(s.y_radius));
    let y1 = s.y_pos.wrapping_sub(ext(s.x_radius));
    let y2 = s.y_pos.wrapping_add(ext(s.x_radius));
    let d0 = find_wall(s, stage, x, y1, Scan::right(d5, AngleSlot::Primary));
    let d1 = find_wall(s, stage, x, y2, Scan::right(d5, AngleSlot::Secondary));
    pick_nearer(s, d0, d1, 0xC0)
}

/// `CheckRightWallDist(_Part2)` (s2.asm L44326–44338): one sensor at (x + $A, y) scanning right.
/// Returns (distance, angle; odd → $C0).
#[inline]
pub fn check_right_wall_dist_part2(
    s: &mut SonicState,
    stage: &impl Level,
    x: u16,
    y: u16,
    d5: u8,
) -> (i16, u8) {
    let d1 = find_wall(
        s,
        stage,
        x.wrapping_add(0xA),
        y,
        Scan::right(d5, AngleSlot::Primary),
    );
    (d1, primary_or(s, 0xC0))
}

/// `CheckRightWallDist`: [`check_right_wall_dist_part2`] at Sonic's centre.
#[inline]
pub fn check_right_wall_dist(s: &mut SonicState, stage: &impl Level, d5: u8) -> (i16, u8) {
    let (x, y) = (s.x_pos, s.y_pos);
    check_right_wall_dist_part2(s, stage, x, y, d5)
}

/// `CheckLeftWallDist(_Part2)` (s2.asm L44517–44530): one sensor at ((x − $A) XOR $F, y) scanning
/// left. Returns (distance, angle; odd → $40).
#[inline]
pub fn check_left_wall_dist_part2(
    s: &mut SonicState,
    stage: &impl Level,
    x: u16,
    y: u16,
    d5: u8,
) -> (i16, u8) {
    let d1 = find_wall(
        s,
        stage,
        x.wrapping_sub(0xA) ^ 0xF,
        y,
        Scan::left(d5, AngleSlot::Primary),
    );
    (d1, primary_or(s, 0x40))
}

/// `CheckLeftWallDist`: [`check_left_wall_dist_part2`] at Sonic's centre.
#[inline]
pub fn check_left_wall_dist(s: &mut SonicState, stage: &impl Level, d5: u8) -> (i16, u8) {
    let (x, y) = (s.x_pos, s.y_pos);
    check_left_wall_dist_part2(s, stage, x, y, d5)
}

/// `CheckFloorDist_Part2` (s2.asm L44102–44118, through `loc_1ECFE`): one sensor at (x, y + $A) scanning down.
#[inline]
pub fn check_floor_dist_part2(
    s: &mut SonicState,
    stage: &impl Level,
    x: u16,
    y: u16,
    d5: u8,
) -> (i16, u8) {
    let d1 = find_floor(
        s,
        stage,
        x,
        y.wrapping_add(0xA),
        Scan::down(d5, AngleSlot::Primary),
    );
    (d1, primary_or(s, 0x00))
}

/// `CheckCeilingDist_Part2` (s2.asm L44421–44430): one sensor at (x, (y − $A) XOR $F) scanning up.
#[inline]
pub fn check_ceiling_dist_part2(
    s: &mut SonicState,
    stage: &impl Level,
    x: u16,
    y: u16,
    d5: u8,
) -> (i16, u8) {
    let d1 = find_floor(
        s,
        stage,
        x,
        y.wrapping_sub(0xA) ^ 0xF,
        Scan::up(d5, AngleSlot::Primary),
    );
    (d1, primary_or(s, 0x80))
}

/// `CalcRoomInFront` (s2.asm L43945–43996): distance to a wall in direction `a` from the position
/// Sonic will have after this frame's move (x32/y32 + velocity << 8). Presets both angle bytes to
/// `a`. The quadrant rounds the way `AnglePos` does; for the side quadrants the probe is 8 px lower
/// when `a & $38` = 0, which on flat ground (a = $40 or $C0) is always: the wall sensor sits at y + 8.
#[inline]
pub fn calc_room_in_front(s: &mut SonicState, stage: &impl Level, a: u8) -> i16 {
    let d5 = s.lrb_solid_bit;
    let x = (s.x32().wrapping_add(((s.x_vel as i32) << 8) as u32) >> 16) as u16;
    let mut y = (s.y32().wrapping_add(((s.y_vel as i32) << 8) as u32) >> 16) as u16;
    s.primary_angle = a;
    s.secondary_angle = a;
    let q = quadrant_rounded(a);
    match q {
        0x00 => check_floor_dist_part2(s, stage, x, y, d5).0,
        0x80 => check_ceiling_dist_part2(s, stage, x, y, d5).0,
        _ => {
            if a & 0x38 == 0 {
                y = y.wrapping_add(8);
            }
            if q == 0x40 {
                check_left_wall_dist_part2(s, stage, x, y, d5).0
            } else {
                check_right_wall_dist_part2(s, stage, x, y, d5).0
            }
        }
    }
}

/// The quadrant rounding shared by `AnglePos` and `CalcRoomInFront` (s2.asm L43020–43033): if the
/// byte a + $20 is negative, q = ((a − [a ≥ $80]) + $20) & $C0, else q = ((a + [a ≥ $80]) + $1F) & $C0.
#[inline]
pub fn quadrant_rounded(a: u8) -> u8 {
    let neg = |v: u8| v & 0x80 != 0;
    let d = if neg(a.wrapping_add(0x20)) {
        let b = if neg(a) { a.wrapping_sub(1) } else { a };
        b.wrapping_add(0x20)
    } else {
        let b = if neg(a) { a.wrapping_add(1) } else { a };
        b.wrapping_add(0x1F)
    };
    d & 0xC0
}

/// `CalcRoomOverHead` (s2.asm L44009–44034): room above Sonic in direction `a` (the jump check uses
/// angle + $80). Presets both angle bytes to `a`; quadrant (a + $20) & $C0: $80 → `Sonic_CheckCeiling`,
/// $40/$C0 → the wall-walking ceiling checks, $00 falls through into `Sonic_CheckFloor`.
#[inline]
pub fn calc_room_over_head(s: &mut SonicState, stage: &impl Level, a: u8) -> i16 {
    let d5 = s.lrb_solid_bit;
    s.primary_angle = a;
    s.secondary_angle = a;
    match a.wrapping_add(0x20) & 0xC0 {
        0x40 => check_left_ceiling_dist(s, stage, d5).near,
        0x80 => sonic_check_ceiling(s, stage, d5).near,
        0xC0 => check_right_ceiling_dist(s, stage, d5).near,
        _ => sonic_check_floor(s, stage).near,
    }
}

/// `ChkFloorEdge_Part2` (s2.asm L44149–44171): one sensor at (x, y + y_radius) scanning down, with
/// `Primary_Angle` preset to 0. Returns the distance.
#[inline]
pub fn chk_floor_edge_part2(s: &mut SonicState, stage: &impl Level, x: u16) -> i16 {
    let y = s.y_pos.wrapping_add(ext(s.y_radius));
    s.primary_angle = 0;
    let d5 = s.top_solid_bit;
    find_floor(s, stage, x, y, Scan::down(d5, AngleSlot::Primary))
}

/// `ChkFloorEdge` (s2.asm L44146): [`chk_floor_edge_part2`] under Sonic's centre.
#[inline]
pub fn chk_floor_edge(s: &mut SonicState, stage: &impl Level) -> i16 {
    let x = s.x_pos;
    chk_floor_edge_part2(s, stage, x)
}

/// `AnglePos` (s2.asm L43006–43101): keep a grounded Sonic on the surface he walks on.
///
/// Presets both angle bytes to 3 (standing on an object: 0, and nothing else), picks the surface from
/// the rounded quadrant of `angle` ([`quadrant_rounded`]) and probes both feet. On the floor (the only
/// quadrant stages of full flat blocks reach: every probed block reports the odd angle $FF, so Sonic's
/// ground angle stays 0) the feet are (x ± x_radius, y + y_radius), scanning down; `Sonic_Angle`
/// updates `angle`, and Sonic moves by the nearer distance d: up by any amount down to −14 (deeper is
/// left alone), down only by at most min(|hi(x_vel)| + 4, 14) — farther and Sonic falls off (in_air
/// set, pushing cleared, prev_anim = Run). `hi(x_vel)` is the signed high byte, so x_vel in −$FF..−1
/// allows 5 px while 0..$FF allows 4 (the roll-jump landing quirk, spec §3.10).
#[inline]
pub fn anglepos(s: &mut SonicState, stage: &impl Level) {
    let d5 = s.top_solid_bit;
    if s.has(status::ON_OBJECT) {
        s.primary_angle = 0;
        s.secondary_angle = 0;
        return;
    }
    s.primary_angle = 3;
    s.secondary_angle = 3;
    match quadrant_rounded(s.angle) {
        0x40 => return sonic_walk_vert_l(s, stage, d5),
        0x80 => return sonic_walk_ceiling(s, stage, d5),
        0xC0 => return sonic_walk_vert_r(s, stage, d5),
        _ => {}
    }
    let y = s.y_pos.wrapping_add(ext(s.y_radius));
    let xr = s.x_pos.wrapping_add(ext(s.x_radius));
    let xl = s.x_pos.wrapping_sub(ext(s.x_radius));
    let d_right = find_floor(s, stage, xr, y, Scan::down(d5, AngleSlot::Primary));
    let d_left = find_floor(s, stage, xl, y, Scan::down(d5, AngleSlot::Secondary));
    let d1 = sonic_angle(s, d_right, d_left);
    if let Some(d) = snap_distance(s, d1, s.x_vel) {
        s.y_pos = s.y_pos.wrapping_add(d as u16);
    }
}

/// The tail shared by the four `AnglePos` surfaces: `None` when Sonic stays where he is (d = 0,
/// d < −14, or d beyond the limit, which makes him fall off), else the distance to apply.
/// The limit is min(|hi(v)| + 4, 14) with `v` the velocity along the surface's normal axis
/// (`mvabs.b` of the high byte, unsigned cap), compared with the distance's low byte (signed).
#[inline]
fn snap_distance(s: &mut SonicState, d1: i16, v: i16) -> Option<i16> {
    if d1 == 0 {
        return None;
    }
    if d1 < 0 {
        return (d1 >= -0xE).then_some(d1);
    }
    let hi = (v >> 8) as i8;
    let mut lim = (if hi < 0 { hi.wrapping_neg() } else { hi } as u8).wrapping_add(4);
    if lim >= 0xE {
        lim = 0xE;
    }
    if (d1 as u8 as i8) > lim as i8 && s.stick_to_convex == 0 {
        s.set(status::IN_AIR);
        s.clear(status::PUSHING);
        s.prev_anim = crate::state::anim::RUN;
        return None;
    }
    Some(d1)
}

/// `Sonic_WalkVertR` (s2.asm L43156–43220): walking on a wall to Sonic's right (feet pointing right):
/// sensors (x + y_radius, y ∓ x_radius) scanning right; x += d; the limit uses hi(y_vel).
/// Unreachable on stages of full flat blocks.
#[inline]
pub fn sonic_walk_vert_r(s: &mut SonicState, stage: &impl Level, d5: u8) {
    let x = s.x_pos.wrapping_add(ext(s.y_radius));
    let yu = s.y_pos.wrapping_sub(ext(s.x_radius));
    let yd = s.y_pos.wrapping_add(ext(s.x_radius));
    let d0 = find_wall(s, stage, x, yu, Scan::right(d5, AngleSlot::Primary));
    let d1 = find_wall(s, stage, x, yd, Scan::right(d5, AngleSlot::Secondary));
    let d1 = sonic_angle(s, d0, d1);
    if let Some(d) = snap_distance(s, d1, s.y_vel) {
        s.x_pos = s.x_pos.wrapping_add(d as u16);
    }
}

/// `Sonic_WalkCeiling` (s2.asm L43222–43287): walking on the ceiling: sensors
/// (x ± x_radius, (y − y_radius) XOR $F) scanning up; y −= d; the limit uses hi(x_vel).
/// Unreachable on stages of full flat blocks.
#[inline]
pub fn sonic_walk_ceiling(s: &mut SonicState, stage: &impl Level, d5: u8) {
    let y = s.y_pos.wrapping_sub(ext(s.y_radius)) ^ 0xF;
    let xr = s.x_pos.wrapping_add(ext(s.x_radius));
    let xl = s.x_pos.wrapping_sub(ext(s.x_radius));
    let d0 = find_floor(s, stage, xr, y, Scan::up(d5, AngleSlot::Primary));
    let d1 = find_floor(s, stage, xl, y, Scan::up(d5, AngleSlot::Secondary));
    let d1 = sonic_angle(s, d0, d1);
    if let Some(d) = snap_distance(s, d1, s.x_vel) {
        s.y_pos = s.y_pos.wrapping_sub(d as u16);
    }
}

/// `Sonic_WalkVertL` (s2.asm L43289–43354): walking on a wall to Sonic's left: sensors
/// ((x − y_radius) XOR $F, y ∓ x_radius) scanning left; x −= d; the limit uses hi(y_vel).
/// Unreachable on stages of full flat blocks.
#[inline]
pub fn sonic_walk_vert_l(s: &mut SonicState, stage: &impl Level, d5: u8) {
    let x = s.x_pos.wrapping_sub(ext(s.y_radius)) ^ 0xF;
    let yu = s.y_pos.wrapping_sub(ext(s.x_radius));
    let yd = s.y_pos.wrapping_add(ext(s.x_radius));
    let d0 = find_wall(s, stage, x, yu, Scan::left(d5, AngleSlot::Primary));
    let d1 = find_wall(s, stage, x, yd, Scan::left(d5, AngleSlot::Secondary));
    let d1 = sonic_angle(s, d0, d1);
    if let Some(d) = snap_distance(s, d1, s.y_vel) {
        s.x_pos = s.x_pos.wrapping_sub(d as u16);
    }
}

/// `Sonic_Angle` (s2.asm L43121–43147): choose the nearer foot (the left/secondary one on ties) and
/// set `angle` from its angle byte: an odd byte keeps the cardinal angle ((angle + $20) & $C0), an
/// even one within $20 of the current angle is taken, a farther one snaps to the cardinal angle.
/// Returns the chosen distance.
#[inline]
pub fn sonic_angle(s: &mut SonicState, d0_right: i16, d1_left: i16) -> i16 {
    let (d1, a) = if d1_left <= d0_right {
        (d1_left, s.secondary_angle)
    } else {
        (d0_right, s.primary_angle)
    };
    if a & 1 == 0 {
        let diff = a.wrapping_sub(s.angle) as i8;
        let diff = if diff < 0 { diff.wrapping_neg() } else { diff } as u8;
        if diff < 0x20 {
            s.angle = a;
            return d1;
        }
    }
    s.angle = s.angle.wrapping_add(0x20) & 0xC0;
    d1
}

#[cfg(test)]
mod tests {
    //! Closed forms of spec §4.3 for a world of full blocks, derived by hand from the scans:
    //! a solid cell reports height $10, so the scan steps back one cell and subtracts 16; an empty
    //! one steps on and adds 16; the second cell gives 15 − r (empty) or −1 − r (solid).
    use super::*;
    use crate::stage::{CellRect, Stage};

    fn stage() -> Stage {
        // Floor: cell rows 43–44, columns 0–99 (top pixel row 688). Block at (10, 40).
        Stage::from_rects(
            60,
            &[
                CellRect {
                    x: 0,
                    y: 43,
                    w: 100,
                    h: 2,
                },
                CellRect {
                    x: 10,
                    y: 40,
                    w: 1,
                    h: 1,
                },
            ],
        )
    }

    #[test]
    fn down_scan_closed_forms() {
        let st = stage();
        let mut s = SonicState::default();
        // In row 42 (empty), below solid: 15 − r. y = 42·16 + 4 = 676 → 11.
        assert_eq!(
            find_floor(&mut s, &st, 50, 676, Scan::down(0xC, AngleSlot::Primary)),
            11
        );
        // Empty and below empty: 31 − r (row 41, r = 4), angle untouched.
        s.primary_angle = 3;
        assert_eq!(
            find_floor(
                &mut s,
                &st,
                50,
                41 * 16 + 4,
                Scan::down(0xC, AngleSlot::Primary)
            ),
            27
        );
        assert_eq!(s.primary_angle, 3);
        // Solid (row 43) with empty above: −1 − r.
        assert_eq!(
            find_floor(
                &mut s,
                &st,
                50,
                43 * 16 + 2,
                Scan::down(0xC, AngleSlot::Primary)
            ),
            -3
        );
        assert_eq!(s.primary_angle, 0xFF);
        // Solid (row 44) with solid above: −17 − r.
        assert_eq!(
            find_floor(
                &mut s,
                &st,
                50,
                44 * 16 + 2,
                Scan::down(0xC, AngleSlot::Primary)
            ),
            -19
        );
    }

    #[test]
    fn up_scan_closed_forms() {
        let st = stage();
        let mut s = SonicState::default();
        // Sensor in row 41 below the block at row 40 (x = 160..175): cur empty & above solid → r.
        let y = 41 * 16 + 5;
        assert_eq!(
            find_floor(&mut s, &st, 165, y ^ 0xF, Scan::up(0xD, AngleSlot::Primary)),
            5
        );
        // In the block (row 40), below empty: r − 16.
        let y = 40 * 16 + 5;
        assert_eq!(
            find_floor(&mut s, &st, 165, y ^ 0xF, Scan::up(0xD, AngleSlot::Primary)),
            5 - 16
        );
        // Nothing above for two cells: r + 16.
        let y = 30 * 16 + 5;
        assert_eq!(
            find_floor(&mut s, &st, 165, y ^ 0xF, Scan::up(0xD, AngleSlot::Primary)),
            21
        );
    }

    #[test]
    fn wall_scans_closed_forms() {
        let st = stage();
        let mut s = SonicState::default();
        // Right scan towards the block at x = 160: sensor at x = 150 (cell 9, s = 6): 15 − s = 9.
        assert_eq!(
            find_wall(&mut s, &st, 150, 645, Scan::right(0xD, AngleSlot::Primary)),
            9
        );
        // Sensor inside the block at s = 3, nothing right of it: −1 − s.
        assert_eq!(
            find_wall(&mut s, &st, 163, 645, Scan::right(0xD, AngleSlot::Primary)),
            -4
        );
        // Left scan from x = 180 (cell 11, s = 4) towards the block's right edge (176): s = 4.
        assert_eq!(
            find_wall(
                &mut s,
                &st,
                180 ^ 0xF,
                645,
                Scan::left(0xD, AngleSlot::Primary)
            ),
            4
        );
        // Left scan from inside the block (s = 12), empty to its left: s − 16.
        assert_eq!(
            find_wall(
                &mut s,
                &st,
                172 ^ 0xF,
                645,
                Scan::left(0xD, AngleSlot::Primary)
            ),
            -4
        );
    }

    /// `Sonic_WalkVertR` by hand: angle $C0 (feet to the right), wall cells at column 40 (x 640..655).
    /// Sonic at x = 618 with y_radius $13: sensors at x + 19 = 637 (cell 39, empty; cell 40 solid):
    /// 15 − 13 = 2 ≤ |hi(y_vel = 0)| + 4 → x += 2 = 620; both angle bytes $FF (odd) → the angle stays
    /// the cardinal $C0.
    #[test]
    fn walk_on_a_right_wall() {
        let st = Stage::from_rects(
            60,
            &[CellRect {
                x: 40,
                y: 30,
                w: 1,
                h: 10,
            }],
        );
        let mut s = SonicState::at(618, 560, false);
        s.angle = 0xC0;
        anglepos(&mut s, &st);
        assert_eq!((s.x_pos, s.angle), (620, 0xC0));
        assert_eq!((s.primary_angle, s.secondary_angle), (0xFF, 0xFF));
    }

    #[test]
    fn quadrant_rounding() {
        assert_eq!(quadrant_rounded(0x40), 0x40);
        assert_eq!(quadrant_rounded(0xC0), 0xC0);
        assert_eq!(quadrant_rounded(0x00), 0x00);
        assert_eq!(quadrant_rounded(0x80), 0x80);
        // $20 + $1F = $3F → floor; $21 + $1F = $40 → left wall.
        assert_eq!(quadrant_rounded(0x20), 0x00);
        assert_eq!(quadrant_rounded(0x21), 0x40);
        // $E0 (negative): + 1 + $1F = $00 → floor.
        assert_eq!(quadrant_rounded(0xE0), 0x00);
    }
}
