//! Random input scripts and random stages, after `sonic2-physics.md` §7.4.

use s2model::state::buttons::{A, B, C, DOWN, LEFT, RIGHT, UP};
use s2model::{CellRect, Scenario};

use super::prng::Rng;
use super::{FLOOR_ROW, FLOOR_Y, STAGE_CELLS, cell_centre};

/// Frames in a random script.
pub const SCRIPT_FRAMES: usize = 1800;

/// What a segment holds, with the §7.4 weights (per cent).
#[derive(Clone, Copy)]
enum Segment {
    None,
    Right,
    Left,
    RightJump,
    LeftJump,
    Jump,
    Down,
    DownJumpTaps,
    Up,
    LeftRight,
    RightDown,
    LeftDown,
}

const SEGMENTS: [(Segment, u32); 12] = [
    (Segment::None, 20),
    (Segment::Right, 15),
    (Segment::Left, 15),
    (Segment::RightJump, 8),
    (Segment::LeftJump, 8),
    (Segment::Jump, 8),
    (Segment::Down, 8),
    (Segment::DownJumpTaps, 6),
    (Segment::Up, 4),
    (Segment::LeftRight, 2),
    (Segment::RightDown, 3),
    (Segment::LeftDown, 3),
];

/// A duration of 1–90 frames, short ones likelier (a truncated geometric of mean ~20).
fn duration(rng: &mut Rng) -> usize {
    let mut d = 1;
    while d < 90 && !rng.chance(1.0 / 20.0) {
        d += 1;
    }
    d
}

/// One random script of `frames` held bytes.
pub fn random_script(rng: &mut Rng, frames: usize) -> Vec<u8> {
    let weights: Vec<u32> = SEGMENTS.iter().map(|s| s.1).collect();
    let mut out = Vec::with_capacity(frames + 1200);
    while out.len() < frames {
        if rng.chance(0.05) {
            let idle = rng.range(180, 1200) as usize;
            out.extend(std::iter::repeat_n(0, idle));
            continue;
        }
        // Any of the three jump buttons: the game treats A, B and C alike.
        let jump = [A, B, C][rng.range(0, 2) as usize];
        let len = duration(rng);
        let seg = SEGMENTS[rng.weighted(&weights)].0;
        let held = match seg {
            Segment::None => 0,
            Segment::Right => RIGHT,
            Segment::Left => LEFT,
            Segment::RightJump => RIGHT | jump,
            Segment::LeftJump => LEFT | jump,
            Segment::Jump => jump,
            Segment::Down | Segment::DownJumpTaps => DOWN,
            Segment::Up => UP,
            Segment::LeftRight => LEFT | RIGHT,
            Segment::RightDown => RIGHT | DOWN,
            Segment::LeftDown => LEFT | DOWN,
        };
        for i in 0..len {
            // Taps alternate pressed and released so each pressed frame is a new press.
            let tap = matches!(seg, Segment::DownJumpTaps) && i % 2 == 0;
            out.push(if tap { held | jump } else { held });
        }
    }
    out.truncate(frames);
    out
}

/// A random script on the flat floor that spans the act, Sonic somewhere in its first half.
pub fn random_flat(seed: u64, name: &str) -> Scenario {
    random_flat_frames(seed, name, SCRIPT_FRAMES)
}

/// [`random_flat`] with a script of `frames` frames (the fuzzer varies the length).
pub fn random_flat_frames(seed: u64, name: &str, frames: usize) -> Scenario {
    let mut rng = Rng::new(seed);
    let x = rng.range(64, 340) as u16 * 16 + 8;
    let left = rng.chance(0.5);
    let input = random_script(&mut rng, frames);
    let mut sc = Scenario::new(
        name,
        vec![CellRect {
            x: 0,
            y: FLOOR_ROW,
            w: STAGE_CELLS,
            h: 2,
        }],
        x,
        FLOOR_Y - 20,
        left,
        input,
    );
    sc.note = Some(format!("random script on flat ground, seed {seed}"));
    sc
}

/// A random stage (§7.4): a floor of 96–192 cells with pits, floating blocks in three stages of
/// four, Sonic near the left end, and a random script.
pub fn random_stage(seed: u64, name: &str) -> Scenario {
    random_stage_frames(seed, name, SCRIPT_FRAMES)
}

/// [`random_stage`] with a script of `frames` frames.
pub fn random_stage_frames(seed: u64, name: &str, frames: usize) -> Scenario {
    let mut rng = Rng::new(seed);
    let length = rng.range(96, 192) as u16;
    let start_cell = rng.range(6, 10) as u16;
    let left = rng.chance(0.5);

    // Pits: each column after cell 16 starts one with p = 0.04; they never reach the floor's end.
    let mut floor: Vec<CellRect> = Vec::new();
    let mut run_start = 0u16;
    let mut pits = 0;
    let mut col = 17u16;
    while col < length - 8 {
        if rng.chance(0.04) {
            let width = (rng.range(1, 6) as u16).min(length - 8 - col);
            floor.push(CellRect {
                x: run_start,
                y: FLOOR_ROW,
                w: col - run_start,
                h: 2,
            });
            pits += 1;
            run_start = col + width;
            col = run_start + 1;
        } else {
            col += 1;
        }
    }
    floor.push(CellRect {
        x: run_start,
        y: FLOOR_ROW,
        w: length - run_start,
        h: 2,
    });

    let mut blocks = Vec::new();
    if rng.chance(0.75) {
        let count = rng.range(4, 20);
        while blocks.len() < count as usize {
            let w = rng.range(1, 6) as u16;
            let h = rng.range(1, 3) as u16;
            let bottom_gap = rng.range(0, 6) as u16;
            let x = rng.range(0, (length - w) as u32) as u16;
            // Never within 2 cells of Sonic's start column.
            if x <= start_cell + 2 && x + w + 2 > start_cell {
                continue;
            }
            let y = FLOOR_ROW - bottom_gap - h;
            blocks.push(CellRect { x, y, w, h });
        }
    }
    let nblocks = blocks.len();
    let input = random_script(&mut rng, frames);
    floor.extend(blocks);
    let mut sc = Scenario::new(
        name,
        floor,
        cell_centre(start_cell),
        FLOOR_Y - 20,
        left,
        input,
    );
    sc.note = Some(format!(
        "random stage and script, seed {seed}, {pits} pits, {nblocks} floating blocks"
    ));
    sc
}

/// A random pit fall: one pit of 1–26 cells in the middle of the act, Sonic 0–60 cells from its
/// edge on either side, a run toward the pit of 0–240 frames and then a random script (the
/// pit presets' geometry, with the distances and moves drawn from the seed).
pub fn random_pit(seed: u64, name: &str, frames: usize) -> Scenario {
    let mut rng = Rng::new(seed);
    let pit = 300u16;
    let width = rng.range(1, 26) as u16;
    let distance = rng.range(0, 60) as u16;
    let left = rng.chance(0.5);
    let toward = if left { LEFT } else { RIGHT };
    let run = (rng.range(0, 240) as usize).min(frames);
    let mut input = vec![toward; run];
    input.extend(random_script(&mut rng, frames - run));
    let x = if left {
        cell_centre(pit + width + distance)
    } else {
        cell_centre(pit - 1 - distance)
    };
    let solid = vec![
        CellRect {
            x: 0,
            y: FLOOR_ROW,
            w: pit,
            h: 2,
        },
        CellRect {
            x: pit + width,
            y: FLOOR_ROW,
            w: STAGE_CELLS - pit - width,
            h: 2,
        },
    ];
    let mut sc = Scenario::new(name, solid, x, FLOOR_Y - 20, left, input);
    sc.note = Some(format!(
        "random pit fall, seed {seed}: pit cells {pit}..{}, start {distance} cells from its edge",
        pit + width - 1
    ));
    sc
}
