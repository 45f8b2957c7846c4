//! The game's sine and arctangent tables (`Sine_Data`, `Angle_Data`) and the two routines that read them
//! (`CalcSine`, `CalcAngle`). The tables are generated here from mathematics with the game's rounding,
//! at compile time; nothing is copied from a ROM or from the disassembly's binary files.
//! `s2harness`'s `tests/model_tables_vs_rom.rs` checks them byte for byte against a ROM when `S2_ROM` names one.

use core::f64::consts::PI;

/// Number of words in `Sine_Data`: 256 angles plus a 64-entry copy of the first quadrant so that
/// the cosine (`angle + $40`) can be read without wrapping.
pub const SINE_WORDS: usize = 320;

/// Number of bytes of `Angle_Data`: entries 0..=256 are used, entry 257 is padding (0).
pub const ANGLE_BYTES: usize = 258;

/// Angles (256 = a full turn) whose `Sine_Data` entry is not the mirror image of the positive half:
/// the game's table holds −117 at $93 and $ED where −trunc(256·sin) would give −115 (the positive
/// entries $13 and $6D hold 115). Every other entry is `trunc(256·sin(a·2π/256))`.
/// These two values are errata of the original table, not a rounding rule; they are listed here as
/// data. No flat-stage path reads them (Sonic's angle is always 0 there).
pub const SINE_ERRATA: [(usize, i16); 2] = [(0x93, -117), (0xED, -117)];

/// sin(x) for 0 ≤ x ≤ π/2 by its Taylor series (const-evaluable; error < 1e-16 on this range).
const fn sin_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut k = 1;
    while k < 20 {
        term = -term * x2 / ((2 * k) as f64 * (2 * k + 1) as f64);
        sum += term;
        k += 1;
    }
    sum
}

/// atan(u) for |u| ≤ 1/2 by its Taylor series (const-evaluable).
const fn atan_series(u: f64) -> f64 {
    let u2 = u * u;
    let mut power = u;
    let mut sum = 0.0;
    let mut k = 0;
    while k < 40 {
        sum += power / (2 * k + 1) as f64 * if k % 2 == 0 { 1.0 } else { -1.0 };
        power *= u2;
        k += 1;
    }
    sum
}

/// atan(t) for 0 ≤ t ≤ 1: the series directly up to 1/2 (40 terms: error < 2⁻⁸⁰), above that through
/// atan(t) = π/4 − atan((1−t)/(1+t)) with (1−t)/(1+t) < 1/3.
const fn atan01(t: f64) -> f64 {
    if t <= 0.5 {
        atan_series(t)
    } else {
        PI / 4.0 - atan_series((1.0 - t) / (1.0 + t))
    }
}

/// Generate `Sine_Data`: entry a = trunc(256·sin(a·2π/256)) (truncation toward zero), exact at the
/// quarter points, mirrored for the second quadrant, negated for the lower half, then the two
/// [`SINE_ERRATA`], and entries 256..319 repeating 0..63.
pub const fn gen_sine() -> [i16; SINE_WORDS] {
    let mut quarter = [0i16; 65];
    let mut i = 1;
    while i < 64 {
        let v = 256.0 * sin_series(i as f64 * PI / 128.0);
        quarter[i] = v as i16; // `as` truncates toward zero
        i += 1;
    }
    quarter[64] = 256;
    let mut t = [0i16; SINE_WORDS];
    let mut a = 0;
    while a < 256 {
        let q = a & 0x7F;
        let v = if q <= 64 {
            quarter[q]
        } else {
            quarter[128 - q]
        };
        t[a] = if a < 128 { v } else { -v };
        a += 1;
    }
    let mut e = 0;
    while e < SINE_ERRATA.len() {
        t[SINE_ERRATA[e].0] = SINE_ERRATA[e].1;
        e += 1;
    }
    let mut k = 256;
    while k < SINE_WORDS {
        t[k] = t[k - 256];
        k += 1;
    }
    t
}

/// Generate `Angle_Data`: entry i = round(atan(i/256)·256/2π) for i = 0..=256 (halves round up;
/// none occurs), entry 257 = 0.
pub const fn gen_angles() -> [u8; ANGLE_BYTES] {
    let mut t = [0u8; ANGLE_BYTES];
    let mut i = 0;
    while i <= 256 {
        let v = atan01(i as f64 / 256.0) * 128.0 / PI + 0.5;
        t[i] = v as u8; // v ≥ 0: truncation is floor
        i += 1;
    }
    t
}

/// `Sine_Data` (s2.asm L4024): 320 signed words, sin(a) = word[a], cos(a) = word[a + $40].
pub static SINE_DATA: [i16; SINE_WORDS] = gen_sine();

/// `Angle_Data` (s2.asm L4085): arctangent table, 0..$20 for slopes 0..1 in 1/256 steps.
pub static ANGLE_DATA: [u8; ANGLE_BYTES] = gen_angles();

/// `CalcSine` (s2.asm L4012–4019): `(sin, cos)` of a byte angle, both 8.8 fixed point (±$100).
#[inline]
pub fn calc_sine(angle: u8) -> (i16, i16) {
    let a = angle as usize;
    (SINE_DATA[a], SINE_DATA[a + 0x40])
}

/// `CalcAngle` (s2.asm L4037–4080): the byte angle of the vector (x, y), 256 = a full turn, y down.
/// (0, 0) gives $40. The absolute values are 16-bit (|−$8000| = $8000 unsigned) and the quotient
/// `(small << 8) / large` is an unsigned 32/16 division as `divu.w` does it.
#[inline]
pub fn calc_angle(x: i16, y: i16) -> u8 {
    if x == 0 && y == 0 {
        return 0x40;
    }
    let ax = x.unsigned_abs() as u32;
    let ay = y.unsigned_abs() as u32;
    let mut a: u8 = if ay < ax {
        // divu.w: quotient of (ay << 8) / ax, low word; ay < ax so it is below $100.
        ANGLE_DATA[((ay << 8) / ax) as usize]
    } else {
        // ay ≥ ax ≥ 0 and ay > 0: quotient ≤ $100, entry 256 = $20.
        0x40u8.wrapping_sub(ANGLE_DATA[((ax << 8) / ay) as usize])
    };
    if x < 0 {
        a = 0x80u8.wrapping_sub(a);
    }
    if y < 0 {
        a = 0u8.wrapping_sub(a);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sine_cardinal_points() {
        // Spec §3.1: sin(0)=0, cos(0)=$100, sin($C0)=−$100, cos($C0)=0.
        assert_eq!(calc_sine(0), (0, 0x100));
        assert_eq!(calc_sine(0xC0), (-0x100, 0));
        assert_eq!(calc_sine(0x40), (0x100, 0));
        assert_eq!(calc_sine(0x80), (0, -0x100));
    }

    #[test]
    fn sine_known_entries() {
        // trunc(256·sin(2π/256)) = trunc(6.28) = 6; trunc(256·sin(2·2π/256)) = trunc(12.56) = 12.
        assert_eq!(SINE_DATA[1], 6);
        assert_eq!(SINE_DATA[2], 12);
        assert_eq!(SINE_DATA[0x13], 115);
        assert_eq!(SINE_DATA[0x93], -117);
        assert_eq!(SINE_DATA[0x100], 0);
        assert_eq!(SINE_DATA[0x13F], SINE_DATA[0x3F]);
    }

    #[test]
    fn angle_table_ends() {
        // atan(1) = 45° = $20; atan(4/256)·128/π = 0.64 → 1; atan(3/256)·128/π = 0.48 → 0.
        assert_eq!(ANGLE_DATA[256], 0x20);
        assert_eq!(ANGLE_DATA[4], 1);
        assert_eq!(ANGLE_DATA[3], 0);
        assert_eq!(ANGLE_DATA[257], 0);
        assert_eq!(ANGLE_DATA[250], 0x20);
    }

    #[test]
    fn calc_angle_quadrants() {
        assert_eq!(calc_angle(0, 0), 0x40);
        assert_eq!(calc_angle(0x100, 0), 0x00); // right
        assert_eq!(calc_angle(0, 0x100), 0x40); // down
        assert_eq!(calc_angle(-0x100, 0), 0x80); // left
        assert_eq!(calc_angle(0, -0x100), 0xC0); // up
        assert_eq!(calc_angle(0x100, 0x100), 0x20);
        assert_eq!(calc_angle(-0x100, -0x100), 0xA0);
        assert_eq!(calc_angle(i16::MIN, 0), 0x80);
    }
}
