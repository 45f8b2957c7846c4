//! The YM2612's output stage: each channel's 14-bit sum cut to the 9-bit DAC, and the two
//! chips Mega Drives shipped with.
//!
//! - **Integrated** (`Ym2612::discrete` false, the default): the YM3438 core inside the ASIC of
//!   the Model 2 and later consoles (and the last Model 1s). The 9-bit value is output as is;
//!   a channel panned off outputs 0. This is also what Genesis Plus GX 1.7 (stable-retro's
//!   core) outputs apart from the 9-bit cut, and `tools/audio-vs-gpgx.py` compares against it.
//! - **Discrete** (`discrete` true): the YM2612 chip of the Model 1. It time-multiplexes its
//!   single DAC, giving each channel 4 of every 24 cycles; within its slot a channel drives its
//!   value (+1 when non-negative) for one cycle and its sign (+1 or -1) for the other three, and
//!   a channel panned off drives its sign for all four. Averaged over the slot this is v + 4 for
//!   v >= 0, v - 3 for v < 0, and +4 / -4 when panned off: the "ladder effect", a crossover
//!   distortion that makes quiet notes louder and rougher (Nuked-OPN2's reading of the die;
//!   jsgroth's "Emulating the YM2612"). Measured against Genesis Plus GX on Sonic 2's first
//!   780 frames it lowers the log-spectrogram correlation from 0.978 to 0.966: the difference
//!   is this distortion, which a Model 1 owner hears.
//!
//! The result is in 9-bit units; the mixer scales it (`ym2612::sample`, `mixer::FM_GAIN`).

/// A channel's contribution to one side, in 9-bit DAC units, for its 14-bit output `out` and
/// whether it is panned to that side.
#[inline]
pub fn channel_level(out: i32, panned_on: bool, discrete: bool) -> i32 {
    let v = out >> 5;
    if !discrete {
        return if panned_on { v } else { 0 };
    }
    match (panned_on, v >= 0) {
        (true, true) => v + 4,
        (true, false) => v - 3,
        (false, true) => 4,
        (false, false) => -4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 9-bit cut: the low 5 bits of the 14-bit output are dropped (arithmetic shift).
    #[test]
    fn integrated_is_the_nine_bit_value() {
        assert_eq!(channel_level(8191, true, false), 255);
        assert_eq!(channel_level(-8192, true, false), -256);
        assert_eq!(channel_level(31, true, false), 0);
        assert_eq!(channel_level(-1, true, false), -1);
        assert_eq!(channel_level(8191, false, false), 0);
    }

    /// The ladder: +4 / -3 when on, +4 / -4 when off (sign of the value).
    #[test]
    fn discrete_ladder_offsets() {
        assert_eq!(channel_level(0, true, true), 4);
        assert_eq!(channel_level(-1, true, true), -4);
        assert_eq!(channel_level(8191, true, true), 259);
        assert_eq!(channel_level(-8192, true, true), -259);
        assert_eq!(channel_level(100, false, true), 4);
        assert_eq!(channel_level(-100, false, true), -4);
    }
}
