//! `step` on arbitrary states, stages and inputs never panics (overflow checks are on in test
//! builds), and the formats reject garbage with errors instead of panicking.

use s2model::scenario::Scenario;
use s2model::script::parse_script;
use s2model::trace::Trace;
use s2model::{CellRect, SonicState, Stage, step};
use std::path::Path;

/// The shared xorshift64* with a bound.
struct Rng(testsupport::Rng);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(testsupport::Rng(seed))
    }
    fn next(&mut self) -> u64 {
        self.0.next()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn step_never_panics_on_arbitrary_states() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for _ in 0..300 {
        let mut rects = Vec::new();
        for _ in 0..rng.below(30) {
            rects.push(CellRect {
                x: rng.below(1024) as u16,
                y: rng.below(128) as u16,
                w: 1 + rng.below(40) as u16,
                h: 1 + rng.below(8) as u16,
            });
        }
        let stage = Stage::from_rects(1 + rng.below(0x3FF) as u16, &rects);
        let mut s = SonicState::at(rng.next() as u16, rng.next() as u16, rng.below(2) == 0);
        s.x_vel = rng.next() as i16;
        s.y_vel = rng.next() as i16;
        s.inertia = rng.next() as i16;
        s.status = rng.next() as u8 & !0x08; // not on an object (there are none)
        s.angle = rng.next() as u8;
        s.anim = rng.below(0x40) as u8;
        s.prev_anim = rng.below(0x40) as u8;
        s.anim_frame = rng.next() as u8;
        s.anim_frame_duration = rng.next() as u8;
        s.spindash_flag = rng.below(2) as u8;
        s.spindash_counter = rng.next() as u16;
        s.move_lock = rng.below(4) as u16;
        s.camera_bias = rng.next() as u16;
        s.look_delay = rng.next() as u16;
        s.y_radius = rng.next() as u8;
        s.x_radius = rng.next() as u8;
        s.routine = [0u8, 2, 2, 2, 4, 6, 8][rng.below(7) as usize];
        for _ in 0..200 {
            step(&mut s, &stage, rng.next() as u8);
        }
    }
}

#[test]
fn formats_reject_garbage_without_panicking() {
    let mut rng = Rng::new(12345);
    let alphabet = b"UDLRABCS.*0123456789 \n#xr-{}[]\":,";
    for _ in 0..2000 {
        let n = rng.below(40) as usize;
        let text: String = (0..n)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize] as char)
            .collect();
        let _ = parse_script(&text);
        let _ = Scenario::parse(&text, "<fuzz>", None);
        let _ = Trace::read_from(text.as_bytes(), Path::new("<fuzz>"));
    }
}
