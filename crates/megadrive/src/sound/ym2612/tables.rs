//! The YM2612's constants and tables (Yamaha's detune table, the envelope's increment
//! patterns, Nemesis's log-sin and exponent tables), and the pure functions of register values
//! the chip and its synthesis share (key code, detune, register addresses, envelope increments,
//! the busy flag's end).

use std::sync::LazyLock;

/// Master clocks per YM2612 internal clock (MCLK / 7 / 6).
pub const MCLK_PER_FM_CLOCK: u64 = 42;
/// YM clocks the busy flag stays set after a data-port write.
pub const BUSY_FM_CLOCKS: u64 = 32;

/// Register slot (offset / 4) to operator number - 1.
pub const REG_SLOT_TO_OP: [usize; 4] = [0, 2, 1, 3];

/// Envelope phases.
pub const EG_ATTACK: u8 = 0;
pub const EG_DECAY: u8 = 1;
pub const EG_SUSTAIN: u8 = 2;
pub const EG_RELEASE: u8 = 3;

/// Largest attenuation (10 bits, 0.09375 dB per unit).
pub const MAX_ATT: u16 = 0x3FF;

/// Detune in phase-increment units per key code (0-31), for DT = 1..3 (Yamaha's table).
const DETUNE: [[u8; 32]; 3] = [
    [
        0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 8,
        8, 8,
    ],
    [
        1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 8, 9, 10, 11, 12, 13, 14,
        16, 16, 16, 16,
    ],
    [
        2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19,
        20, 22, 22, 22, 22,
    ],
];

/// LFO: output samples per LFO step (128 steps per cycle) for frequencies 0-7
/// (3.98, 5.56, 6.02, 6.37, 6.88, 9.63, 48.1, 72.2 Hz).
pub(super) const LFO_PERIOD: [u8; 8] = [108, 77, 71, 67, 62, 44, 8, 5];
/// AMS 0-3: right shift of the LFO's 0-126 triangle (0, 1.4, 5.9, 11.8 dB at the peak).
pub(crate) const AMS_SHIFT: [u8; 4] = [8, 3, 1, 0];

/// Envelope increment patterns, indexed by the low two bits of the rate (or the YM2612's
/// odd rows for rates 2-7), stepped by the EG counter.
const EG_PATTERN: [[u8; 8]; 4] = [
    [0, 1, 0, 1, 0, 1, 0, 1],
    [0, 1, 0, 1, 1, 1, 0, 1],
    [0, 1, 1, 1, 0, 1, 1, 1],
    [0, 1, 1, 1, 1, 1, 1, 1],
];
const EG_PATTERN_FAST: [[u8; 8]; 4] = [
    [1, 1, 1, 1, 1, 1, 1, 1],
    [1, 1, 1, 2, 1, 1, 1, 2],
    [1, 2, 1, 2, 1, 2, 1, 2],
    [1, 2, 2, 2, 1, 2, 2, 2],
];

/// The log-sin and exponent tables (Nemesis): 256 entries each, and the two the operator
/// reads, unfolded from them.
pub struct Tables {
    /// round(-log2(sin((i + 0.5) * pi / 512)) * 256): a quarter sine as attenuation in 4.8
    /// fixed point.
    pub log_sin: [u16; 256],
    /// round((2^(i / 256) - 1) * 1024): the fraction of 2^x in 10 bits.
    pub exp: [u16; 256],
    /// `log_sin` over the half wave (9 bits of phase: the second quarter mirrors the first),
    /// so the operator does not fold the phase.
    half_sine: [u16; 512],
    /// The magnitude for every attenuation level a half-wave entry plus a 10-bit attenuation
    /// (x 4) can make: `((exp[!level & 0xFF] | 0x400) << 2) >> (level >> 8)`, 0 from 13 << 8
    /// up (below the 13-bit output). One load for the exponent step's xor, load, or, and two
    /// shifts (one by a variable count), on the operator's latency chain; 12 KiB.
    magnitude: [u16; MAX_LEVEL + 1],
}

/// The largest attenuation level an operator can reach: the log-sin table's top plus the
/// largest attenuation (x 4).
const MAX_LEVEL: usize = 0x859 + ((MAX_ATT as usize) << 2);

pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut log_sin = [0u16; 256];
    let mut exp = [0u16; 256];
    for i in 0..256 {
        let s = ((i as f64 + 0.5) * std::f64::consts::PI / 512.0).sin();
        log_sin[i] = (-s.log2() * 256.0).round() as u16;
        exp[i] = ((2f64.powf(i as f64 / 256.0) - 1.0) * 1024.0).round() as u16;
    }
    let half_sine = std::array::from_fn(|i| {
        let quarter = if i & 0x100 != 0 { !i & 0xFF } else { i & 0xFF };
        log_sin[quarter]
    });
    let magnitude = std::array::from_fn(|level| {
        if level >= 13 << 8 {
            0
        } else {
            (((exp[(level & 0xFF) ^ 0xFF] as u32 | 0x400) << 2) >> (level >> 8)) as u16
        }
    });
    Tables {
        log_sin,
        exp,
        half_sine,
        magnitude,
    }
});

impl Tables {
    /// One operator's output: a 10-bit phase and a 10-bit attenuation to a 14-bit signed
    /// value (13-bit magnitude).
    #[inline]
    pub fn operator(&self, phase: u32, att: u32) -> i32 {
        let level = self.half_sine[(phase & 0x1FF) as usize] as u32 + (att << 2);
        let mag = self.magnitude[level as usize] as i32;
        if phase & 0x200 != 0 { -mag } else { mag }
    }

    /// [`Tables::operator`] from the 256-entry tables, step by step (what the unfolded
    /// tables are tested against).
    #[cfg(test)]
    pub(super) fn operator_reference(&self, phase: u32, att: u32) -> i32 {
        let index = if phase & 0x100 != 0 {
            !phase & 0xFF
        } else {
            phase & 0xFF
        };
        let level = self.log_sin[index as usize] as u32 + (att << 2);
        if level >= 13 << 8 {
            return 0;
        }
        let mag =
            (((self.exp[((level & 0xFF) ^ 0xFF) as usize] as u32) | 0x400) << 2) >> (level >> 8);
        if phase & 0x200 != 0 {
            -(mag as i32)
        } else {
            mag as i32
        }
    }
}

/// Key code (block and the top F-number bits, 5 bits).
pub(crate) fn key_code(fnum: u16, block: u8) -> u32 {
    let f11 = (fnum >> 10) & 1;
    let f10 = (fnum >> 9) & 1;
    let f9 = (fnum >> 8) & 1;
    let f8 = (fnum >> 7) & 1;
    let n3 = (f11 & (f10 | f9 | f8)) | ((f11 ^ 1) & f10 & f9 & f8);
    ((block as u32) << 2) | ((f11 as u32) << 1) | n3 as u32
}

/// The detune of DT (1-3 up, 5-7 down; the sign is the caller's) at key code `kc`.
#[inline]
pub(crate) fn detune(dt: u8, kc: u32) -> u32 {
    DETUNE[(dt & 3) as usize - 1][kc.min(31) as usize] as u32
}

/// Register address of operator `op` (1..4 as 0..3) of channel `ch` for register group
/// `base` ($30, $40, ... $90).
#[inline]
pub(crate) fn reg_addr(ch: usize, base: usize, op: usize) -> usize {
    const OP_TO_OFFSET: [usize; 4] = [0, 8, 4, 12];
    let part = if ch < 3 { 0 } else { 0x100 };
    part + base + OP_TO_OFFSET[op] + ch % 3
}

/// The envelope increment for `rate` (0-63) at EG counter value `counter`.
pub fn eg_increment(rate: u32, counter: u16) -> u32 {
    if rate < 2 {
        return 0;
    }
    if rate < 48 {
        let shift = 11 - rate / 4;
        if counter & ((1 << shift) - 1) != 0 {
            return 0;
        }
        // The YM2612's rows for rates 2-7 (Nemesis): 2-5 use row 0, 6-7 row 2.
        let row = match rate {
            2..=5 => 0,
            6 | 7 => 2,
            _ => rate & 3,
        };
        return EG_PATTERN[row as usize][((counter >> shift) & 7) as usize] as u32;
    }
    if rate >= 60 {
        return 8;
    }
    let scale = 1 << ((rate - 48) / 4);
    EG_PATTERN_FAST[(rate & 3) as usize][(counter & 7) as usize] as u32 * scale
}

/// When the busy flag a data write at `now` raises falls again.
///
/// The round up as an add before the division (one multiply and shift, against the quotient,
/// remainder and adjust of `div_ceil`); exact for any clock below 2^64 - 41 (the master clock
/// would take over ten thousand years to get there).
#[inline(always)]
#[allow(clippy::manual_div_ceil)]
pub(crate) fn busy_until(now: u64) -> u64 {
    ((now + (MCLK_PER_FM_CLOCK - 1)) / MCLK_PER_FM_CLOCK + BUSY_FM_CLOCKS) * MCLK_PER_FM_CLOCK
}
