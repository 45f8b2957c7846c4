//! The collision-layer switchers, object $03 (`Obj03`, s2.asm L45612–45843): invisible lines that
//! move Sonic between the two collision paths when he crosses them, which is how loops work.
//!
//! Each switcher remembers which side of it Sonic was on (`planeswitch_p1_flag`). It runs after
//! Sonic in the object list, so a crossing changes the layer for the next frame's sensors.

use crate::state::{SonicState, status};
use crate::terrain::PathSwapper;

/// `word_1FD68`: the half-length of the switcher's line by subtype bits 0–1.
const RADIUS: [u16; 4] = [0x20, 0x40, 0x80, 0x100];

/// The switchers' remembered sides. The game loads switchers with the other objects as the camera
/// moves and initialises each one's side from Sonic's position when it first runs; Sonic is always
/// well inside the load window, so the model keeps them all loaded and initialises them together
/// on their first frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Swappers {
    /// Per switcher: Sonic was past it (right of a vertical line, below a horizontal one).
    flags: Vec<bool>,
    loaded: bool,
}

impl Swappers {
    /// One frame of every switcher in `list`, after Sonic's own frame. The first call is
    /// `Obj03_Init` for all of them (the side from Sonic's position, then the main check).
    pub fn run(&mut self, list: &[PathSwapper], s: &mut SonicState) {
        if !self.loaded {
            self.loaded = true;
            self.flags = list
                .iter()
                .map(|p| {
                    // Obj03_Init: cmp.w pos(a1),d1 / bhs → flag 0 when the switcher ≥ Sonic.
                    if p.subtype & 4 != 0 {
                        p.y < s.y_pos
                    } else {
                        p.x < s.x_pos
                    }
                })
                .collect();
        }
        for (p, flag) in list.iter().zip(self.flags.iter_mut()) {
            obj03_main(p, flag, s);
        }
    }
}

/// `Obj03_MainX` / `Obj03_MainY` (s2.asm L45682–45843) for Sonic. A vertical switcher (subtype bit 2
/// clear) watches x within y ± radius; a horizontal one watches y within x ± radius. Crossing
/// forwards (rightwards/downwards) selects path 2 when subtype bit 3 is set, else path 1; crossing
/// back uses bit 4. Subtype bit 7: only while on the ground. The side is updated on every crossing,
/// inside the range or not; an x-flipped switcher changes no layer (only the sprite priority,
/// which is not modelled).
fn obj03_main(p: &PathSwapper, flag: &mut bool, s: &mut SonicState) {
    let horizontal = p.subtype & 4 != 0;
    let (line, along, s_line, s_along) = if horizontal {
        (p.y, p.x, s.y_pos, s.x_pos)
    } else {
        (p.x, p.y, s.x_pos, s.y_pos)
    };
    let bit = if !*flag {
        // cmp.w pos(a1),d1 / bhi: still before the line.
        if line > s_line {
            return;
        }
        *flag = true;
        3
    } else {
        // Obj03_MainX_Alt: cmp.w pos(a1),d1 / bls: still past the line.
        if line <= s_line {
            return;
        }
        *flag = false;
        4
    };
    let r = RADIUS[(p.subtype & 3) as usize];
    let lo = along.wrapping_sub(r) as i16;
    let hi = along.wrapping_add(r) as i16;
    let d4 = s_along as i16;
    if d4 < lo || d4 >= hi {
        return;
    }
    if p.subtype & 0x80 != 0 && s.has(status::IN_AIR) {
        return;
    }
    if p.x_flip {
        return;
    }
    if p.subtype >> bit & 1 != 0 {
        s.top_solid_bit = 0x0E;
        s.lrb_solid_bit = 0x0F;
    } else {
        s.top_solid_bit = 0x0C;
        s.lrb_solid_bit = 0x0D;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A vertical switcher at x = 1000 (y 500 ± $40) with subtype $09: crossing rightwards selects
    /// path 2 (bit 3), crossing back path 1 (bit 4 clear); outside the y range the side still flips
    /// but the layer stays.
    #[test]
    fn crossing_a_vertical_switcher() {
        let list = [PathSwapper {
            x: 1000,
            y: 500,
            subtype: 0x09,
            x_flip: false,
        }];
        let mut sw = Swappers::default();
        let mut s = SonicState::at(990, 520, false);
        sw.run(&list, &mut s);
        assert_eq!(s.top_solid_bit, 0x0C);
        s.x_pos = 1000; // on the line counts as crossed (bhi is strict)
        sw.run(&list, &mut s);
        assert_eq!((s.top_solid_bit, s.lrb_solid_bit), (0x0E, 0x0F));
        s.x_pos = 999;
        sw.run(&list, &mut s);
        assert_eq!((s.top_solid_bit, s.lrb_solid_bit), (0x0C, 0x0D));
        // Outside the range (y 500 ± $40, the upper end excluded): no change, but the side flips.
        s.y_pos = 564;
        s.x_pos = 1010;
        sw.run(&list, &mut s);
        assert_eq!(s.top_solid_bit, 0x0C);
        s.y_pos = 520;
        sw.run(&list, &mut s);
        assert_eq!(s.top_solid_bit, 0x0C, "already past: no second crossing");
    }
}
