//! Generated terrain scenarios: start points on an act's surfaces (found with the model's own
//! floor scan on the act's terrain) and seeded random input scripts. Deterministic for a seed.

use s2model::collision::{AngleSlot, Scan, find_floor};
use s2model::state::buttons;
use s2model::terrain_scenario::TerrainScenario;
use s2model::{SonicState, Terrain};

/// A small deterministic generator (64-bit LCG, high bits out).
pub struct Lcg(u64);

impl Lcg {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 32) as u32
    }
    /// A number in 0..n.
    pub fn below(&mut self, n: u32) -> u32 {
        self.next_u32() % n.max(1)
    }
}

/// The top-most path-1 surface under column `x`, scanning down from `y_from` in steps of 16 px:
/// Sonic's centre y standing on it (feet 19 px below the centre), or `None` when there is none
/// above the act's bottom.
pub fn standing_y(t: &Terrain, x: u16, y_from: u16) -> Option<u16> {
    let mut s = SonicState::default();
    let bottom = t.bounds.max_y as u32 + 224;
    let mut y = y_from as u32;
    while y < bottom {
        let d = find_floor(&mut s, t, x, y as u16, Scan::down(0x0C, AngleSlot::Primary));
        if (0..16).contains(&d) {
            let feet = y as i32 + d as i32;
            return (feet >= 19 + 16).then(|| (feet - 19) as u16);
        }
        y += 16;
    }
    None
}

/// A random script of `frames` frames: segments of 4–40 frames (runs of 60–200 held towards one
/// side now and then, to reach full speed), each holding a random mix of left/right, down, jump
/// presses, and spin dashes (down held, C pressed a few times, then released).
pub fn random_script(rng: &mut Lcg, frames: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(frames);
    while out.len() < frames {
        let left = frames - out.len();
        match rng.below(12) {
            0 => {
                // Spin dash: crouch, rev 1–4 times, release.
                let mut seg = vec![buttons::DOWN; 3];
                for _ in 0..1 + rng.below(4) {
                    seg.push(buttons::DOWN | buttons::C);
                    seg.extend([buttons::DOWN; 3]);
                }
                seg.extend([0; 2]);
                out.extend(seg.into_iter().take(left));
                continue;
            }
            1 => {
                let dir = if rng.below(2) == 0 {
                    buttons::RIGHT
                } else {
                    buttons::LEFT
                };
                let n = 60 + rng.below(141) as usize;
                out.extend(std::iter::repeat_n(dir, n.min(left)));
                continue;
            }
            _ => {}
        }
        let len = 4 + rng.below(37) as usize;
        let mut held = match rng.below(10) {
            0..=3 => buttons::RIGHT,
            4..=6 => buttons::LEFT,
            7 => 0,
            8 => buttons::DOWN,
            _ => buttons::RIGHT | buttons::DOWN,
        };
        if rng.below(4) == 0 {
            held |= buttons::C;
        }
        out.extend(std::iter::repeat_n(held, len.min(left)));
    }
    out
}

/// `count` scenarios on `t`: start columns spread evenly over the act's width (with a random
/// offset), Sonic standing on the top-most surface there, facing a random way, a random script of
/// `frames` frames. `x_limit` keeps starts left of level events (EHZ2's boss area from $2780).
pub fn scenarios(
    t: &Terrain,
    count: usize,
    frames: usize,
    seed: u64,
    x_limit: u16,
) -> Vec<TerrainScenario> {
    let mut rng = Lcg::new(seed);
    let lo = t.bounds.min_x as u32 + 0x60;
    let hi = (t.bounds.max_x as u32 + 0x100).min(x_limit as u32);
    let mut out = Vec::with_capacity(count);
    let mut i = 0u32;
    while out.len() < count && i < 50 * count as u32 {
        i += 1;
        let x = (lo + rng.below(hi - lo)) as u16;
        let Some(y) = standing_y(t, x, t.bounds.min_y) else {
            continue;
        };
        out.push(TerrainScenario {
            name: format!("{}-{:03}", Terrain::stem(t.zone, t.act), out.len()),
            zone: t.zone,
            act: t.act,
            x,
            y,
            facing_left: rng.below(2) == 1,
            x_vel: 0,
            y_vel: 0,
            inertia: match rng.below(3) {
                0 => rng.below(0x1000) as i16 - 0x800,
                _ => 0,
            },
            in_air: false,
            input: random_script(&mut rng, frames),
            frames: None,
            note: Some(format!("random terrain run, seed {seed}")),
        });
    }
    out
}
