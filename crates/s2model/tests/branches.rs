//! Branches of Sonic's code on stages of full blocks that the reference traces reach rarely or never,
//! each checked against values worked out by hand from the spec (`sonic2-physics.md`) and the
//! disassembly — not produced by running the model. The derivation is in each test's comments.
//!
//! Common ground: a floor whose top cell row is 43 (top pixel row 688). Standing, Sonic's centre is
//! at y = 688 − 20 = 668 (y_radius $13: feet at y + 19 = 687, the last empty row). Distances use the
//! closed forms of spec §4.3 with r = sensor & 15: down scan, sensor in an empty cell above a solid
//! one: 15 − r; in a solid cell under an empty one: −1 − r. Right scan likewise with x. Up/left scans:
//! sensor in a solid cell with an empty one below/right: r − 16; empty with solid above/left: r.

use s2model::state::{anim, buttons, routine, status};
use s2model::{CellRect, SonicState, Stage, step};

fn rect(x: u16, y: u16, w: u16, h: u16) -> CellRect {
    CellRect { x, y, w, h }
}

fn floor_and(extra: &[CellRect]) -> Stage {
    let mut r = vec![rect(0, 43, 400, 2)];
    r.extend_from_slice(extra);
    Stage::from_rects(60, &r)
}

fn airborne(x: u16, y: u16, x_vel: i16, y_vel: i16) -> SonicState {
    let mut s = SonicState::at(x, y, false);
    s.status = status::IN_AIR;
    s.x_vel = x_vel;
    s.y_vel = y_vel;
    s
}

// ---------------------------------------------------------------------------------------------
// Balance (Sonic_Balance, spec §3.6 step 4): both variants on both edges, facing both ways.
// ---------------------------------------------------------------------------------------------

/// Floor cells 0..20 (right edge: last solid pixel column 319). Sonic stands still, no input.
/// Frame 0: next_tilt is still the initial $FF, so no balance; AnglePos presets Primary = 3 and the
/// right foot (x + 9 ≥ 320) finds no solid cell, so next_tilt = 3 after frame 0. Frame 1: the centre
/// probe (x ≥ 320: empty row 42, empty row 43 → 31 − 15 = 16) is ≥ $C, next_tilt = 3 → facing right:
/// Balance; the second probe at x − 6 decides Balance2 (x − 6 ≥ 320 → 16 ≥ $C) or stays.
fn balance_right_edge(x: u16, facing_left: bool) -> SonicState {
    let stage = Stage::from_rects(60, &[rect(0, 43, 20, 2)]);
    let mut s = SonicState::at(x, 668, facing_left);
    step(&mut s, &stage, 0);
    assert_eq!(s.anim, anim::WAIT);
    assert_eq!(s.next_tilt, 3);
    step(&mut s, &stage, 0);
    s
}

#[test]
fn balance_right_edge_facing_right() {
    // x = 322: x − 6 = 316 is over the floor (distance 0 < $C) → Balance (6).
    let s = balance_right_edge(322, false);
    assert_eq!(s.anim, anim::BALANCE);
    // x = 327: x − 6 = 321 is past the edge → Balance2 ($0C).
    let s = balance_right_edge(327, false);
    assert_eq!(s.anim, anim::BALANCE2);
    assert_eq!(s.status & status::FACING_LEFT, 0);
    assert_eq!(s.x_pos, 327);
    assert_eq!(s.y_pos, 668);
}

#[test]
fn balance_right_edge_facing_left() {
    // Facing away from the edge: Balance3 ($1D); further out Balance4 ($1E), which turns Sonic to
    // face right (status bit 0 cleared).
    let s = balance_right_edge(322, true);
    assert_eq!(s.anim, anim::BALANCE3);
    assert_eq!(s.status & status::FACING_LEFT, status::FACING_LEFT);
    let s = balance_right_edge(327, true);
    assert_eq!(s.anim, anim::BALANCE4);
    assert_eq!(s.status & status::FACING_LEFT, 0);
}

/// Floor cells 10..30 (left edge at pixel 160). The left foot (x − 9 < 160) finds nothing, so
/// Secondary stays 3 → tilt = 3; the right foot is on the floor (next_tilt = $FF). Second probe at
/// x + 6: x = 152 → 158 < 160, no floor → Balance2/Balance4; x = 157 → 163, floor → Balance/Balance3.
fn balance_left_edge(x: u16, facing_left: bool) -> SonicState {
    let stage = Stage::from_rects(60, &[rect(10, 43, 20, 2)]);
    let mut s = SonicState::at(x, 668, facing_left);
    step(&mut s, &stage, 0);
    assert_eq!((s.next_tilt, s.tilt), (0xFF, 3));
    step(&mut s, &stage, 0);
    s
}

#[test]
fn balance_left_edge_both_facings() {
    assert_eq!(balance_left_edge(157, true).anim, anim::BALANCE);
    assert_eq!(balance_left_edge(152, true).anim, anim::BALANCE2);
    assert_eq!(balance_left_edge(157, false).anim, anim::BALANCE3);
    let s = balance_left_edge(152, false);
    assert_eq!(s.anim, anim::BALANCE4);
    // Balance4 on the left edge turns Sonic to face left (status bit 0 set).
    assert_eq!(s.status & status::FACING_LEFT, status::FACING_LEFT);
}

// ---------------------------------------------------------------------------------------------
// Landing gate (Sonic_DoLevelCollision q = $00, spec §4.6) and its absence in the side quadrants.
// ---------------------------------------------------------------------------------------------

#[test]
fn landing_gate_rejects_a_deep_slow_fall() {
    // In the air at y = 680, x_vel 0, y_vel $100: quadrant (CalcAngle(0, $100) = $40) − $20 → $00.
    // ObjectMoveAndFall: y = 681, y_vel = $138. Feet at 681 + 19 = 700: row 43 (solid, row 42
    // above empty), r = 12 → −13 for both feet. Gate g = −(hi($138) + 8) = −9; −13 < −9 for both →
    // no landing: Sonic stays in the air, inside the floor.
    let stage = floor_and(&[]);
    let mut s = airborne(500, 680, 0, 0x100);
    step(&mut s, &stage, 0);
    assert_eq!(s.y_pos, 681);
    assert_eq!(s.y_vel, 0x138);
    assert_eq!(s.status & status::IN_AIR, status::IN_AIR);
}

#[test]
fn landing_gate_accepts_a_shallow_landing() {
    // y = 670 → 671 after the move; feet at 690: r = 2 → −3 ≥ −9 → land: y = 671 − 3 = 668,
    // angle 0 (odd $FF → 0), ResetOnFloor (anim Walk, in_air cleared), y_vel = 0, inertia = x_vel.
    let stage = floor_and(&[]);
    let mut s = airborne(500, 670, 0x123, 0x100);
    step(&mut s, &stage, 0);
    assert_eq!(s.y_pos, 668);
    assert_eq!(s.y_vel, 0);
    assert_eq!(s.inertia, 0x123);
    assert_eq!(s.status & status::IN_AIR, 0);
    assert_eq!(s.anim, anim::WALK);
}

#[test]
fn no_landing_gate_when_moving_left() {
    // x_vel −$800, y_vel $100 → $138 after the move: CalcAngle: Angle_Data[($138 << 8) / $800 = 39]
    // = round(atan(39/256) · 128/π) = 6 → $80 − 6 = $7A → − $20 = $5A → quadrant $40
    // (Sonic_HitLeftWall). No wall, no
    // ceiling; y_vel ≥ 0 → Sonic_HitFloor, which has no gate: the −13 that q = $00 rejects (test
    // above) lands here: y = 681 − 13 = 668, y_vel 0, inertia = x_vel = −$800.
    let stage = floor_and(&[]);
    let mut s = airborne(500, 680, -0x800, 0x100);
    step(&mut s, &stage, 0);
    assert_eq!(s.x_pos, 492);
    assert_eq!(s.y_pos, 668);
    assert_eq!(s.y_vel, 0);
    assert_eq!(s.inertia, -0x800);
    assert_eq!(s.status & status::IN_AIR, 0);
}

// ---------------------------------------------------------------------------------------------
// AnglePos (spec §4.5): snapping up, the 14-px limit, snapping down, falling off, hi(x_vel).
// ---------------------------------------------------------------------------------------------

#[test]
fn anglepos_snaps_up_within_14() {
    // Standing at y = 673: feet at 692, r = 4 → −5 ≥ −14 → y += −5 = 668.
    let stage = floor_and(&[]);
    let mut s = SonicState::at(500, 673, false);
    step(&mut s, &stage, 0);
    assert_eq!(s.y_pos, 668);
    // At y = 683: feet at 702, r = 14 → −15 < −14 → left alone.
    let mut s = SonicState::at(500, 683, false);
    step(&mut s, &stage, 0);
    assert_eq!(s.y_pos, 683);
    assert_eq!(s.status & status::IN_AIR, 0);
}

#[test]
fn anglepos_snaps_down_or_falls_off() {
    let stage = floor_and(&[]);
    // y = 665: feet at 684 (row 42, r = 12) → 15 − 12 = 3 ≤ |hi(0)| + 4 = 4 → y = 668.
    let mut s = SonicState::at(500, 665, false);
    step(&mut s, &stage, 0);
    assert_eq!(s.y_pos, 668);
    // y = 663: feet at 682 → 5 > 4 → in_air set, y unchanged.
    let mut s = SonicState::at(500, 663, false);
    step(&mut s, &stage, 0);
    assert_eq!(s.y_pos, 663);
    assert_eq!(s.status & status::IN_AIR, status::IN_AIR);
}

#[test]
fn anglepos_limit_uses_signed_high_byte() {
    // Distance 5 (y = 663) with inertia ∓$10: friction ($C) leaves ∓4 = x_vel. hi(−4) = −1 → |−1| + 4
    // = 5 → 5 ≤ 5 snaps; hi(+4) = 0 → limit 4 → falls off.
    let stage = floor_and(&[]);
    let mut s = SonicState::at(500, 663, false);
    s.inertia = -0x10;
    step(&mut s, &stage, 0);
    assert_eq!(s.x_vel, -4);
    assert_eq!(s.y_pos, 668);
    assert_eq!(s.status & status::IN_AIR, 0);
    let mut s = SonicState::at(500, 663, false);
    s.inertia = 0x10;
    step(&mut s, &stage, 0);
    assert_eq!(s.x_vel, 4);
    assert_eq!(s.y_pos, 663);
    assert_eq!(s.status & status::IN_AIR, status::IN_AIR);
}

// ---------------------------------------------------------------------------------------------
// LevelBound (spec §3.1): the right clamp at $2B08 and the left clamp at $10.
// ---------------------------------------------------------------------------------------------

#[test]
fn right_clamp() {
    // A floor out to cell 700 (the game's layout is 1024 cells wide; the scenario format stops at
    // 688). inertia $600 holding Right stays $600 (MoveRight: $60C ≥ $600 → back to $600).
    // Predicted x: 11006, 11012 (< $2B08 = 11016), then 11018 ≥ 11016 → x = $2B08, x_sub 0,
    // x_vel = inertia = 0.
    let stage = Stage::from_rects(60, &[rect(600, 43, 100, 2)]);
    let mut s = SonicState::at(11000, 668, false);
    s.inertia = 0x600;
    step(&mut s, &stage, buttons::RIGHT);
    assert_eq!((s.x_pos, s.inertia), (11006, 0x600));
    step(&mut s, &stage, buttons::RIGHT);
    assert_eq!(s.x_pos, 11012);
    step(&mut s, &stage, buttons::RIGHT);
    assert_eq!((s.x_pos, s.x_sub, s.x_vel, s.inertia), (0x2B08, 0, 0, 0));
}

#[test]
fn left_clamp() {
    // x = 20, inertia −$600 holding Left (stays −$600): predicted x = 20 − 6 = 14, and $10 u> 14 →
    // clamp at once: x = $10, x_sub 0, x_vel = inertia = 0.
    let stage = floor_and(&[]);
    let mut s = SonicState::at(20, 668, true);
    s.inertia = -0x600;
    step(&mut s, &stage, buttons::LEFT);
    assert_eq!((s.x_pos, s.x_sub, s.x_vel, s.inertia), (0x10, 0, 0, 0));
}

// ---------------------------------------------------------------------------------------------
// Kills in the ground modes (spec §3.11): the mode routine goes on after LevelBound's kill.
// ---------------------------------------------------------------------------------------------

/// A floor with its top at cell row 66 (pixel 1056), below the death line $400 = 1024.
fn deep_floor() -> Stage {
    Stage::from_rects(60, &[rect(0, 66, 100, 2)])
}

#[test]
fn kill_while_walking_still_moves_and_snaps() {
    // Standing at y = 1036 (> $400): LevelBound kills (routine 6, in_air, y_vel −$700, x_vel =
    // inertia = 0, anim Death). MdNormal continues: ObjectMove y = 1036 − 7 = 1029; AnglePos: feet at
    // 1048 (row 65, r = 8) → 15 − 8 = 7 > 4 → fall-off branch (in_air already set). Animate: Death
    // is new → prev_anim $18, anim_frame 0 → duration $20, anim_frame 1.
    let stage = deep_floor();
    let mut s = SonicState::at(500, 1036, false);
    step(&mut s, &stage, 0);
    assert_eq!(s.routine, routine::DEAD);
    assert_eq!((s.y_pos, s.y_vel, s.x_vel, s.inertia), (1029, -0x700, 0, 0));
    assert_eq!(s.status, status::IN_AIR);
    assert_eq!((s.anim, s.prev_anim), (anim::DEATH, anim::DEATH));
    assert_eq!((s.anim_frame, s.anim_frame_duration), (1, 0x20));
}

#[test]
fn kill_while_rolling_uncurls_first() {
    // Rolling at y = 1056 − 15 = 1041, inertia $400: RollSpeed friction → $3FA. LevelBound kills:
    // ResetOnFloor_Part2 uncurls (radii $13/9, y −= 5 → 1036), then y_vel −$700 etc. ObjectMove:
    // y = 1029.
    let stage = deep_floor();
    let mut s = SonicState::at(500, 1041, false);
    s.status = status::ROLLING;
    s.y_radius = 0x0E;
    s.x_radius = 7;
    s.anim = anim::ROLL;
    s.prev_anim = anim::ROLL;
    s.inertia = 0x400;
    step(&mut s, &stage, 0);
    assert_eq!(s.routine, routine::DEAD);
    assert_eq!((s.y_radius, s.x_radius), (0x13, 9));
    assert_eq!((s.x_pos, s.y_pos, s.x_vel, s.inertia), (500, 1029, 0, 0));
    assert_eq!(s.status, status::IN_AIR);
}

#[test]
fn kill_at_spindash_start_skips_the_move() {
    // Ducking at y = 1036, C pressed: Sonic_CheckSpindash starts the dash (anim Spindash, flag 1,
    // counter 0), LevelBound kills, AnglePos runs, and the routine pops: no ObjectMove, so y stays
    // 1036 while y_vel is −$700. The kill does not clear the spin dash flag.
    let stage = deep_floor();
    let mut s = SonicState::at(500, 1036, false);
    s.anim = anim::DUCK;
    s.prev_anim = anim::DUCK;
    step(&mut s, &stage, buttons::DOWN | buttons::C);
    assert_eq!(s.routine, routine::DEAD);
    assert_eq!((s.y_pos, s.y_vel), (1036, -0x700));
    assert_eq!(s.spindash_flag, 1);
    assert_eq!(s.anim, anim::DEATH);
}

// ---------------------------------------------------------------------------------------------
// Ceilings.
// ---------------------------------------------------------------------------------------------

#[test]
fn ceiling_bump_moving_up() {
    // Curled in the air under a block at cell row 38 (pixels 608..623), y = 640, y_vel −$400,
    // C held (no jump-height cut: −$400 is not < −$400). Drag does not apply (x_vel 0).
    // ObjectMoveAndFall: y = 636, y_vel −$3C8; quadrant (CalcAngle(0, −$3C8) = $C0) − $20 → $80.
    // Head at 636 − 14 = 622: solid row 38, row 39 below empty, r = 14 → 14 − 16 = −2 → y = 638;
    // ceiling angle $80: ($80 + $20) & $40 = 0 → y_vel = 0.
    let stage = floor_and(&[rect(30, 38, 3, 1)]);
    let mut s = airborne(500, 640, 0, -0x400);
    s.status |= status::ROLLING;
    s.y_radius = 0x0E;
    s.x_radius = 7;
    s.jumping = 1;
    step(&mut s, &stage, buttons::C);
    assert_eq!(s.y_pos, 638);
    assert_eq!(s.y_vel, 0);
    assert_eq!(s.status & status::IN_AIR, status::IN_AIR);
}

#[test]
fn ceiling_hit_moving_left_and_up() {
    // x_vel −$400, y_vel −$100: CalcAngle = $100 − ($80 − 10) = $8A → −$20 = $6A → quadrant $40.
    // No left wall; Sonic_HitCeiling: after the move y = 639, head at 620 (row 38, r = 12) →
    // 12 − 16 = −4 → y = 643; y_vel (−$C8 after gravity) < 0 → 0.
    let stage = floor_and(&[rect(30, 38, 3, 1)]);
    let mut s = airborne(500, 640, -0x400, -0x100);
    step(&mut s, &stage, 0);
    assert_eq!((s.x_pos, s.y_pos, s.y_vel), (496, 643, 0));
    assert_eq!(s.x_vel, -0x400 + 0x20); // drag: y_vel −$100 ≥ −$400 → x_vel −= −$400 asr 5
}

#[test]
fn jump_refused_under_a_low_ceiling() {
    // Standing at y = 668: head sensors at 668 − 19 = 649 (row 40). Ceiling at row 40: the sensor is
    // in a solid cell with an empty one below: r − 16 = 9 − 16 = −7 < 6 → no jump.
    let stage = floor_and(&[rect(30, 40, 3, 1)]);
    let mut s = SonicState::at(500, 668, false);
    step(&mut s, &stage, buttons::C);
    assert_eq!(s.status & status::IN_AIR, 0);
    assert_eq!((s.y_pos, s.y_vel), (668, 0));
    // Ceiling at row 39 (bottom edge 640): the sensor (row 40, r = 9) is empty with solid above →
    // 9 ≥ 6 → jump: y_vel −$680, curled, y += 5.
    let stage = floor_and(&[rect(30, 39, 3, 1)]);
    let mut s = SonicState::at(500, 668, false);
    step(&mut s, &stage, buttons::C);
    assert_eq!(s.status & status::IN_AIR, status::IN_AIR);
    assert_eq!((s.y_pos, s.y_vel), (673, -0x680));
}

// ---------------------------------------------------------------------------------------------
// Walls on the ground (Obj01_CheckWallsOnGround) and in the air's four quadrants.
// ---------------------------------------------------------------------------------------------

/// A wall column at cell 40 (pixels 640..655), cell rows 36..42 up from the floor.
fn wall_stage() -> Stage {
    floor_and(&[rect(40, 36, 1, 7)])
}

#[test]
fn ground_wall_right() {
    // Walking right at x = 627 (anim Walk already, so Animate does not clear pushing), inertia $400,
    // Right held → $40C = x_vel. Predicted x = 627 + 4 = 631; sensor at 641, y + 8 = 676: cell 40
    // solid, cell 39 empty, s = 1 → −2. x_vel += −2 << 8 → $20C; pushing, inertia 0. ObjectMove:
    // 627 + $20C/256 → x = 629, x_sub $0C00 (touching: 629 + 10 = 639).
    let stage = wall_stage();
    let mut s = SonicState::at(627, 668, false);
    s.anim = anim::WALK;
    s.prev_anim = anim::WALK;
    s.inertia = 0x400;
    step(&mut s, &stage, buttons::RIGHT);
    assert_eq!(
        (s.x_pos, s.x_sub, s.x_vel, s.inertia),
        (629, 0x0C00, 0x20C, 0)
    );
    assert_eq!(s.status & status::PUSHING, status::PUSHING);
}

#[test]
fn ground_wall_left() {
    // Walking left at x = 668, inertia −$400, Left held → −$40C. Predicted x: 668 − 1.047 → 663 (x32
    // = 668·65536 − $40C00). Sensor (663 − 10) = 653, s = 13: solid cell 40, cell 41 to its right
    // empty → s − 16 = −3. x_vel −= −3 << 8 → −$10C. ObjectMove: x32 = 668·65536 − $10C00 → x = 666,
    // x_sub $F400 (touching: 666 − 10 = 656, the wall's right edge).
    let stage = wall_stage();
    let mut s = SonicState::at(668, 668, true);
    s.anim = anim::WALK;
    s.prev_anim = anim::WALK;
    s.inertia = -0x400;
    step(&mut s, &stage, buttons::LEFT);
    assert_eq!(
        (s.x_pos, s.x_sub, s.x_vel, s.inertia),
        (666, 0xF400, -0x10C, 0)
    );
    assert_eq!(s.status & status::PUSHING, status::PUSHING);
}

#[test]
fn air_wall_moving_left() {
    // Quadrant $40 (x_vel −$400, y_vel $100: CalcAngle = $80 − 10 = $76 → $56). After the move
    // x = 664, y = 601, y_vel $138. Left sensor at 654 (s = 14): solid, right of it empty → −2 →
    // x = 666, x_vel = 0, inertia = y_vel = $138; still in the air.
    let stage = wall_stage();
    let mut s = airborne(668, 600, -0x400, 0x100);
    step(&mut s, &stage, 0);
    assert_eq!((s.x_pos, s.y_pos, s.x_vel, s.inertia), (666, 601, 0, 0x138));
    assert_eq!(s.status & status::IN_AIR, status::IN_AIR);
}

#[test]
fn air_wall_moving_right() {
    // Quadrant $C0 (x_vel $400, y_vel $100: CalcAngle = 10 → 10 − $20 = $EA). After the move x = 630.
    // Right sensor at 640: cell 40 solid (s = 0), cell 39 empty → −1 → x = 629, x_vel 0, inertia $138.
    let stage = wall_stage();
    let mut s = airborne(626, 600, 0x400, 0x100);
    step(&mut s, &stage, 0);
    assert_eq!((s.x_pos, s.x_vel, s.inertia), (629, 0, 0x138));
}

#[test]
fn air_wall_moving_down() {
    // Quadrant $00 (x_vel 0, y_vel $400: CalcAngle = $40 → $20 → $00): both walls are checked.
    // Sonic at x = 632 overlaps the wall: right sensor at 642 (s = 2) → −3 → x = 629, x_vel 0.
    // The centre y = 600 → 604 is level with the wall (rows 36..42); the feet (623) are far above
    // the floor: no landing; inertia untouched (0).
    let stage = wall_stage();
    let mut s = airborne(632, 600, 0, 0x400);
    step(&mut s, &stage, 0);
    assert_eq!((s.x_pos, s.y_pos, s.x_vel, s.y_vel), (629, 604, 0, 0x438));
    // Mirror: at x = 664 the left sensor at 654 (s = 14) → −2 → x = 666.
    let mut s = airborne(664, 600, 0, 0x400);
    step(&mut s, &stage, 0);
    assert_eq!((s.x_pos, s.x_vel), (666, 0));
}

#[test]
fn air_wall_moving_up() {
    // Quadrant $80 (x_vel 0, y_vel −$400): both walls, then the ceiling (none here). At x = 632:
    // right sensor → −3 → x = 629. y: 600 → 596, y_vel −$3C8.
    let stage = wall_stage();
    let mut s = airborne(632, 600, 0, -0x400);
    step(&mut s, &stage, 0);
    assert_eq!((s.x_pos, s.y_pos, s.x_vel, s.y_vel), (629, 596, 0, -0x3C8));
}
