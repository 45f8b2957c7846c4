//! The YM2612's per-operator parameters as the synthesis loop needs them (phase increment,
//! envelope rates after key scaling, total level, sustain level...), derived from the
//! registers once per register write instead of once per sample. Derived data only: it is
//! not part of save states, and a channel is derived again whenever a write, a key event or
//! a state restore touches it (`Ym2612::mark_dirty`).

use super::tables::detune;

/// One operator's parameters.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OpParams {
    /// Phase increment without phase modulation (20 bits).
    pub inc: u32,
    /// What the increment is made of, for the PM path.
    pub fnum: u16,
    pub block: u8,
    pub kc: u32,
    pub dt: u8,
    pub mul: u32,
    /// EG rate (0-63, key scaling applied) per envelope phase.
    pub rates: [u32; 4],
    /// Sustain level as an attenuation (10 bits).
    pub sl: u16,
    /// Total level as an attenuation (tl << 3).
    pub tl: u32,
    /// Amplitude modulation enabled (AM bit of $60).
    pub am: bool,
    /// SSG-EG register ($90, low 4 bits; `ssg`).
    pub ssg: u8,
}

/// One channel's parameters.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ChannelParams {
    pub ops: [OpParams; 4],
    pub alg: u8,
    pub fb: u8,
    /// Right shift of the LFO triangle (AMS) and the PM sensitivity (PMS, 0-7).
    pub ams: u8,
    pub pms: u8,
}

/// The cache: six channels and which of them must be derived again. Compares equal to any
/// other cache, so machines compare by their state alone.
#[derive(Clone, Debug)]
pub struct ParamCache {
    pub(crate) channels: [ChannelParams; 6],
    /// Bit `ch`: channel `ch` must be derived before its next sample.
    pub(crate) dirty: u8,
}

impl Default for ParamCache {
    fn default() -> Self {
        ParamCache {
            channels: [ChannelParams::default(); 6],
            dirty: 0x3F,
        }
    }
}

equal_to_any!(ParamCache);

/// The phase increment for F-number `f` (after PM), block, key code, detune and multiple.
#[inline]
pub(crate) fn phase_increment(f: i32, block: u8, kc: u32, dt: u8, mul: u32) -> u32 {
    let mut base = ((f.max(0) as u32) << block) >> 1;
    if dt & 3 != 0 {
        let d = detune(dt, kc);
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
