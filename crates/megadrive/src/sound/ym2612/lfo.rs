//! The YM2612's LFO outputs at the register level: the amplitude-modulation triangle and the
//! phase-modulation steps, as the synthesis loop applies them.
//!
//! The LFO is a 7-bit counter (128 steps a cycle) advanced every `LFO_PERIOD` samples
//! (`ym2612`). From it:
//!
//! - **AM**: a triangle of 0..126 attenuation units (0.09375 dB each) that starts at its top:
//!   steps 0-63 give (63 - step) x 2, steps 64-127 give (step - 64) x 2. The falling start is
//!   Nemesis's hardware finding (Genesis Plus GX's "inverted LFO AM waveform", which Spider-Man
//!   and Venom: Separation Anxiety's intro and California Games' surfing need); AMS then
//!   shifts it right by 8, 3, 1 or 0 (0, 1.4, 5.9, 11.8 dB at the peak, Yamaha's depths).
//! - **PM**: the counter's top five bits (32 PM steps, each lasting 4 LFO steps) walk a quarter
//!   wave of 8 levels forwards, backwards, then the same negated. At each level the change of
//!   the F-number is not a multiple of it: each of F-number bits 4 to 10 that is set adds its
//!   own rounded-down share, so a note's vibrato depends on the bits of its F-number (the shape
//!   measured on the YM2608/YM2612 by Tatsuyuki Satoh and checked on a Mega Drive by Nemesis,
//!   tabulated by MAME and Genesis Plus GX as `lfo_pm_output`). The change is in units of half
//!   an F-number (the LFO works with a 12-bit F-number); with F-number bit 10 alone set, the
//!   top level of PMS 1..7 is 4, 8, 12, 16, 24, 48, 96 half-units of 2048: 3.4, 6.7, 10, 14,
//!   20, 40, 80 cents, Yamaha's documented depths.

/// The quarter wave's 8 levels per PMS, as the change F-number bit 10 alone makes, in units
/// of 4 half-F-numbers: bit `b` (4..=10) contributes `(4 x level) >> (10 - b)`, rounded down
/// bit by bit.
const PM_LEVELS: [[u16; 8]; 8] = [
    [0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 1, 1, 1, 1],
    [0, 0, 0, 1, 1, 1, 2, 2],
    [0, 0, 1, 1, 2, 2, 3, 3],
    [0, 0, 1, 2, 2, 2, 3, 4],
    [0, 0, 2, 3, 4, 4, 5, 6],
    [0, 0, 4, 6, 8, 8, 10, 12],
    [0, 0, 8, 12, 16, 16, 20, 24],
];

/// The AM attenuation (0..=126, before the AMS shift) at LFO step `step` (0..=127).
#[inline]
pub fn am_level(step: u8) -> u32 {
    let step = (step & 0x7F) as u32;
    if step < 64 {
        (63 - step) * 2
    } else {
        (step - 64) * 2
    }
}

/// The signed change of the 12-bit F-number (`fnum` x 2) for an 11-bit `fnum`, PMS `pms`
/// (0..=7) and LFO step `step` (0..=127).
#[inline]
pub fn pm_offset(fnum: u16, pms: u8, step: u8) -> i32 {
    let pm_step = (step & 0x7F) >> 2; // 0..=31
    let quarter = (pm_step & 7) as usize;
    let level = if pm_step & 8 != 0 {
        7 - quarter
    } else {
        quarter
    };
    let top = 4 * PM_LEVELS[(pms & 7) as usize][level] as u32;
    let mut offset = 0u32;
    for bit in 4..=10 {
        if fnum & (1 << bit) != 0 {
            offset += top >> (10 - bit);
        }
    }
    if pm_step & 16 != 0 {
        -(offset as i32)
    } else {
        offset as i32
    }
}

/// The phase increment of an operator under PM: the 12-bit F-number `fnum` x 2 + `offset`
/// (wrapping within 12 bits as the die's adder does), shifted by the block, then detune and
/// multiple as without PM (detune keeps the unmodulated key code).
#[inline]
pub fn pm_increment(fnum: u16, offset: i32, block: u8, kc: u32, dt: u8, mul: u32) -> u32 {
    let fnum12 = ((fnum as i32 * 2 + offset) & 0xFFF) as u32;
    let mut base = (fnum12 << block) >> 2;
    if dt & 3 != 0 {
        let d = super::tables::detune(dt, kc);
        base = if dt & 4 != 0 {
            base.wrapping_sub(d)
        } else {
            base + d
        };
    }
    base &= 0x1FFFF;
    let inc = if mul == 0 { base >> 1 } else { base * mul };
    inc & 0xFFFFF
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sound::ym2612::params::phase_increment;

    /// AM: 126 at step 0 (the falling start), 0 at step 63 and 64, 126 at step 127.
    #[test]
    fn am_triangle_starts_at_its_top() {
        assert_eq!(am_level(0), 126);
        assert_eq!(am_level(1), 124);
        assert_eq!(am_level(63), 0);
        assert_eq!(am_level(64), 0);
        assert_eq!(am_level(65), 2);
        assert_eq!(am_level(127), 126);
        // The AMS depths: 126 >> 3, >> 1, >> 0 units of 0.09375 dB = 1.4, 5.9, 11.8 dB.
        for (shift, db) in [(3u32, 1.4), (1, 5.9), (0, 11.8)] {
            let got = (am_level(0) >> shift) as f64 * 0.09375;
            assert!((got - db).abs() < 0.1, "shift {shift}: {got} dB");
        }
    }

    /// PM depths: with F-number $400 (bit 10 alone) the peak of each PMS is Yamaha's
    /// documented depth in cents (3.4, 6.7, 10, 14, 20, 40, 80).
    #[test]
    fn pm_peak_depths_in_cents() {
        let cents = [0.0, 3.4, 6.7, 10.0, 14.0, 20.0, 40.0, 80.0];
        for (pms, want) in cents.iter().enumerate() {
            // Step 28..31 is the top level of the first quarter (PM step 7).
            let off = pm_offset(0x400, pms as u8, 28);
            let got = 1200.0 * ((2048.0 + off as f64) / 2048.0).log2();
            assert!((got - want).abs() < 1.0, "PMS {pms}: {got} cents");
        }
    }

    /// The wave: levels 0..7 rising over the first 8 PM steps, falling over the next 8, then
    /// the same negated; each level lasts 4 LFO steps.
    #[test]
    fn pm_wave_shape() {
        let wave: Vec<i32> = (0..128u8).map(|s| pm_offset(0x400, 7, s)).collect();
        let quarter = [0, 0, 32, 48, 64, 64, 80, 96];
        for pm_step in 0..32usize {
            let q = pm_step & 7;
            let level = if pm_step & 8 != 0 {
                quarter[7 - q]
            } else {
                quarter[q]
            };
            let want = if pm_step & 16 != 0 { -level } else { level };
            for s in 0..4 {
                assert_eq!(wave[pm_step * 4 + s], want, "LFO step {}", pm_step * 4 + s);
            }
        }
    }

    /// Each F-number bit contributes its own rounded-down share: F-number $7FF at PMS 7, top
    /// level, is 96/64 + ... not 96 x $7FF / $400.
    #[test]
    fn pm_rounds_per_bit() {
        // Bits 4..10 of $7F0: 96 >> 6, 96 >> 5, ... 96 >> 0 = 1 + 3 + 6 + 12 + 24 + 48 + 96.
        assert_eq!(pm_offset(0x7F0, 7, 28), 1 + 3 + 6 + 12 + 24 + 48 + 96);
        // Bits 0-3 never count; below $10 there is no vibrato at all.
        assert_eq!(pm_offset(0x00F, 7, 28), 0);
        // Level 2 of PMS 4 (4 half-units at bit 10) gives nothing for bit 7 (4 >> 3).
        assert_eq!(pm_offset(0x080, 4, 8), 0);
        assert_eq!(pm_offset(0x400, 4, 8), 4);
    }

    /// Without an offset the PM path gives the plain increment.
    #[test]
    fn pm_increment_without_offset_is_the_plain_one() {
        for (fnum, block, dt, mul) in [
            (0x269u16, 4u8, 0u8, 1u32),
            (0x7FF, 7, 3, 15),
            (0x12, 0, 5, 0),
        ] {
            let kc = crate::sound::ym2612::tables::key_code(fnum, block);
            assert_eq!(
                pm_increment(fnum, 0, block, kc, dt, mul),
                phase_increment(fnum as i32, block, kc, dt, mul)
            );
        }
    }
}
