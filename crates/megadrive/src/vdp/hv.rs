//! The HV counter: the H counter's value at each master clock of a line (H32 and H40), the V
//! counter's jump at the end of the frame, and the interlace forms.
//!
//! H32: the counter steps every 20 master clocks (two pixels at MCLK/10) through $00-$93, then
//! jumps to $E9-$FF. H40: every 16 master clocks (two pixels at MCLK/8) through $00-$B6, then
//! $E4-$FF, with the horizontal-sync stretch clocked irregularly. Sources: Charles MacDonald's
//! genvdp.txt §"HV counter" and Nemesis's H40 sync measurements; the phase (line start = $85 in
//! H32, $A5 in H40) is where Genesis Plus GX begins its line, which this scheduler shares.

use crate::clock::MCLK_PER_LINE;

/// H counter at line start in H32.
const H32_FIRST: u8 = 0x85;
/// H counter at line start in H40.
const H40_FIRST: u8 = 0xA5;
/// Master clocks per H counter step outside sync (H32, H40).
const H32_STEP_MCLK: u16 = 20;
const H40_STEP_MCLK: u16 = 16;

/// H40 counter values $B6-$F7 around horizontal sync, with their lengths in master clocks
/// (pixel clock from EDCLK during HSYNC).
const H40_SYNC_RUNS: [(u8, u16); 21] = [
    (0xB6, 8),
    (0xE4, 8),
    (0xE5, 16),
    (0xE6, 17),
    (0xE7, 20),
    (0xE8, 20),
    (0xE9, 20),
    (0xEA, 18),
    (0xEB, 20),
    (0xEC, 20),
    (0xED, 20),
    (0xEE, 19),
    (0xEF, 19),
    (0xF0, 20),
    (0xF1, 20),
    (0xF2, 20),
    (0xF3, 18),
    (0xF4, 20),
    (0xF5, 20),
    (0xF6, 20),
    (0xF7, 17),
];

/// The H counter for every master clock of a line.
#[derive(Clone, Debug)]
pub struct HTables {
    pub h32: Vec<u8>,
    pub h40: Vec<u8>,
}

impl HTables {
    pub fn new() -> Self {
        HTables {
            h32: build_h32(),
            h40: build_h40(),
        }
    }
}

impl Default for HTables {
    fn default() -> Self {
        Self::new()
    }
}

fn build_h32() -> Vec<u8> {
    let mut t = Vec::with_capacity(MCLK_PER_LINE as usize);
    let mut v = H32_FIRST;
    while t.len() < MCLK_PER_LINE as usize {
        for _ in 0..H32_STEP_MCLK {
            t.push(v);
        }
        v = if v == 0x93 { 0xE9 } else { v.wrapping_add(1) };
    }
    t.truncate(MCLK_PER_LINE as usize);
    t
}

fn build_h40() -> Vec<u8> {
    let mut t = Vec::with_capacity(MCLK_PER_LINE as usize);
    let mut v = H40_FIRST;
    while t.len() < MCLK_PER_LINE as usize {
        if v == 0xB6 {
            for &(value, len) in &H40_SYNC_RUNS {
                t.extend(std::iter::repeat_n(value, len as usize));
            }
            v = 0xF8;
            continue;
        }
        t.extend(std::iter::repeat_n(v, H40_STEP_MCLK as usize));
        v = v.wrapping_add(1);
    }
    t.truncate(MCLK_PER_LINE as usize);
    t
}

/// V counter as read: lines past the table's jump point read as negative (wrap), then the
/// interlace forms. `vc_max` is the last value before the jump ($EA NTSC 224 lines, $102 PAL).
pub fn v_counter_value(
    line: u16,
    lines_per_frame: u16,
    vc_max: u16,
    interlaced: bool,
    im2: bool,
) -> u8 {
    let mut vc = line as i32;
    if vc > vc_max as i32 {
        vc -= lines_per_frame as i32;
    }
    let mut vc = vc as u32 & 0x1FF;
    if interlaced {
        if im2 {
            vc <<= 1;
        }
        // Bit 8 replaces bit 0 (genvdp.txt, interlace mode).
        vc = (vc & !1) | ((vc >> 8) & 1);
    }
    vc as u8
}

/// Last V counter value before the jump, for NTSC/PAL and 224/240-line modes
/// (genvdp.txt: NTSC 224 lines 00-EA then E5-FF; PAL 224: 00-102 then CA-FF; PAL 240: 00-10A
/// then D2-FF).
pub fn vc_max(pal: bool, v30: bool, mode5: bool) -> u16 {
    match (mode5, v30, pal) {
        (false, _, false) => 0xDA,
        (false, _, true) => 0xF2,
        (true, false, false) => 0xEA,
        (true, false, true) => 0x102,
        (true, true, false) => 0x106,
        (true, true, true) => 0x10A,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_cover_a_line() {
        let t = HTables::new();
        assert_eq!(t.h32.len(), 3420);
        assert_eq!(t.h40.len(), 3420);
    }

    /// genvdp.txt: H32 counts 00-93 then E9-FF (171 values, 342 pixels); H40 counts 00-B6
    /// then E4-FF (211 values; B6 and E4 last half a step each, 420 pixels in all).
    #[test]
    fn counter_sequences() {
        let t = HTables::new();
        let distinct = |tab: &[u8]| {
            let mut seq: Vec<u8> = Vec::new();
            for &v in tab {
                if seq.last() != Some(&v) {
                    seq.push(v);
                }
            }
            seq
        };
        let h32 = distinct(&t.h32);
        assert_eq!(h32.len(), 171);
        assert!(h32.windows(2).any(|w| w == [0x93, 0xE9]));
        let h40 = distinct(&t.h40);
        assert_eq!(h40.len(), 211);
        assert!(h40.windows(2).any(|w| w == [0xB6, 0xE4]));
        assert_eq!(t.h40[0], 0xA5);
        assert_eq!(t.h32[0], 0x85);
    }

    #[test]
    fn v_counter_jump_and_interlace() {
        assert_eq!(v_counter_value(0xEA, 262, 0xEA, false, false), 0xEA);
        assert_eq!(v_counter_value(0xEB, 262, 0xEA, false, false), 0xE5);
        assert_eq!(v_counter_value(261, 262, 0xEA, false, false), 0xFF);
        // Interlace mode 2: the counter doubled, bit 8 in bit 0.
        assert_eq!(v_counter_value(0x80, 262, 0xEA, true, true), 0x01);
    }
}
