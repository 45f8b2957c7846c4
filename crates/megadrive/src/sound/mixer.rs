//! The sound output stage: the YM2612 and PSG mixed at the YM2612's rate (MCLK / 1008,
//! 53,267 Hz on NTSC; the PSG is box-filtered onto the same grid, see `psg`), a DC blocker
//! (the console's output is AC-coupled, and the YM2612's DAC ladder adds a constant offset),
//! then a windowed-sinc polyphase resampler to the host rate.
//!
//! Levels (dBFS in the host's 16-bit samples): one FM channel at full scale is its 14-bit DAC
//! input as is, +-8192 (`FM_GAIN`), so the DAC channel playing a full-scale byte reaches
//! -12 dBFS and six loud FM channels clip, as Genesis Plus GX's mixer has them (the level a
//! Mega Drive player is used to from emulators; the console's own output level in volts
//! depends on the board). One PSG channel at attenuation 0 swings 4,200 from low to high
//! (`psg::VOLUME`), Genesis Plus GX's balance "roughly adjusted to match VA4 MD1 PSG/FM balance"
//! (its PSG_MAX_VOLUME 2800 with the default 150 % PSG pre-amplification): the four PSG
//! channels together sit 15.4 dB below six full FM channels, within the 13-17 dB other
//! emulators' measured balances span (Exodus, BlastEm, jgenesis). Measured against Genesis
//! Plus GX with `tools/audio-vs-gpgx.py` (docs/sound.md has the figures).
//!
//! Everything is integer arithmetic on data built once from the rates (the filter is
//! computed in f64 at construction), so the same input gives bit-identical samples.
//! The stage is the host's view and is not part of save states: loading a state keeps
//! the filter's history and drops the chips' samples not yet taken.

use std::sync::Arc;

use super::psg::Psg;
use super::ym2612::Ym2612;
use crate::clock::MCLK_PER_FM_SAMPLE;

/// Default host rate.
pub const DEFAULT_RATE: u32 = 48_000;
/// The YM2612's samples (9-bit DAC values x 16, see `ym2612`) to the mixer's scale: x 2 makes
/// a channel's 9-bit value v into v x 32, its 14-bit DAC input (see the module doc).
pub const FM_GAIN: i32 = 2;
/// Filter length in input samples, and phases of the polyphase table.
const TAPS: usize = 32;
const HALF: usize = TAPS / 2;
const PHASES: usize = 512;
/// Coefficient scale (each phase's taps sum to this).
const COEF_ONE: i64 = 1 << 15;

/// Resampler from the FM rate to the host rate, with the mixer's DC blocker.
#[derive(Clone, Debug)]
pub struct AudioOut {
    /// Host rate in Hz.
    pub rate: u32,
    /// Master clock in Hz (the input rate is this / 1008).
    mclk_hz: u64,
    /// PHASES x TAPS coefficients: integers, held as `f64` (see [`AudioOut::produce`]);
    /// shared by copies (the sound thread's, a cloned machine's).
    coefs: Arc<[Taps]>,
    /// Mixed, DC-blocked input samples (integers) still needed by the filter, one buffer per
    /// side, so that the filter's sums run over consecutive taps.
    left: Vec<f64>,
    right: Vec<f64>,
    /// Input samples at the end of `left` / `right` that are the same on both sides (a
    /// window within them is filtered once for both).
    mono_run: usize,
    /// Index in the history of the input sample at or before the next output's time, and that
    /// time's fraction in units of 1 / (1008 * rate) input samples.
    pos: usize,
    frac: u64,
    /// DC blocker: last input and output (16.16 fixed point) per side.
    dc_x: [i32; 2],
    dc_y: [i64; 2],
    /// Whether the blocker has seen a sample: the first one sets its input history, so the
    /// constant the chips output at power-on (the ladder's offsets) starts settled instead of
    /// as a click (the console's coupling capacitor charges before there is a picture).
    dc_primed: bool,
    /// Scratch for the machine's `drain_audio`.
    pub(crate) scratch: Vec<i16>,
}

/// One phase's coefficients, aligned so that the filter's vector multiplies take them from
/// memory directly.
#[derive(Clone, Copy, Debug)]
#[repr(align(16))]
struct Taps([f64; TAPS]);

/// One side's filter sum: eight running sums of consecutive taps (vectorised in pairs), added
/// up at the end; any order of these exact additions gives the same sum.
#[inline(always)]
fn dot(c: &[f64; TAPS], h: &[f64]) -> f64 {
    let mut acc = [0f64; 8];
    for (k, s) in c.chunks_exact(8).zip(h.chunks_exact(8)) {
        for i in 0..8 {
            acc[i] += k[i] * s[i];
        }
    }
    // Even and odd lanes summed apart, so that the pairs stay in vector registers through
    // the reduction (summed as neighbours, the compiler paired lanes 4 apart and shuffled
    // every product into place: about 100 instructions a sum instead of about 55).
    ((acc[0] + acc[2]) + (acc[4] + acc[6])) + ((acc[1] + acc[3]) + (acc[5] + acc[7]))
}

/// An output sample from a filter sum (exact, scaled by `COEF_ONE`).
#[inline(always)]
fn to_sample(sum: f64) -> i16 {
    ((sum as i64) >> 15).clamp(-32768, 32767) as i16
}

impl AudioOut {
    pub fn new(mclk_hz: u32, rate: u32) -> AudioOut {
        let rate = rate.clamp(8_000, 384_000);
        let fi = mclk_hz as f64 / MCLK_PER_FM_SAMPLE as f64;
        let cutoff = (0.45 * rate as f64).min(0.45 * fi).min(20_000.0) / fi;
        let mut coefs = Vec::with_capacity(PHASES);
        for p in 0..PHASES {
            let f = p as f64 / PHASES as f64;
            let row: Vec<f64> = (0..TAPS)
                .map(|j| {
                    let d = j as f64 - (HALF - 1) as f64 - f;
                    let x = 2.0 * cutoff * d;
                    let sinc = if x.abs() < 1e-12 {
                        1.0
                    } else {
                        (std::f64::consts::PI * x).sin() / (std::f64::consts::PI * x)
                    };
                    let wx = std::f64::consts::PI * d / HALF as f64;
                    let window = 0.42 + 0.5 * wx.cos() + 0.08 * (2.0 * wx).cos();
                    sinc * window.max(0.0)
                })
                .collect();
            let sum: f64 = row.iter().sum();
            let mut ints: Vec<i32> = row
                .iter()
                .map(|c| (c / sum * COEF_ONE as f64).round() as i32)
                .collect();
            // Exact unity gain at DC for every phase.
            let err = COEF_ONE as i32 - ints.iter().sum::<i32>();
            ints[HALF - 1 + usize::from(f >= 0.5)] += err;
            coefs.push(Taps(std::array::from_fn(|j| f64::from(ints[j]))));
        }
        AudioOut {
            rate,
            mclk_hz: mclk_hz as u64,
            coefs: coefs.into(),
            left: vec![0.0; HALF - 1],
            right: vec![0.0; HALF - 1],
            mono_run: HALF - 1,
            pos: HALF - 1,
            frac: 0,
            dc_x: [0; 2],
            dc_y: [0; 2],
            dc_primed: false,
            scratch: Vec::new(),
        }
    }

    /// Adds one mixed input sample (at the FM rate).
    #[inline]
    pub fn push(&mut self, left: i32, right: i32) {
        if !self.dc_primed {
            self.dc_primed = true;
            self.dc_x = [left, right];
        }
        let mut s = [0f64; 2];
        for (i, x) in [left, right].into_iter().enumerate() {
            // y = x - x' + (1 - 2^-10) y': a high-pass at about 8 Hz.
            let y = self.dc_y[i];
            let y = (((x - self.dc_x[i]) as i64) << 16) + y - (y >> 10);
            self.dc_x[i] = x;
            self.dc_y[i] = y;
            s[i] = f64::from((y >> 16) as i32);
        }
        self.push_filtered(s[0], s[1]);
    }

    /// Mixes the chips' samples (`ym` interleaved stereo, `psg` mono, one per stereo pair of
    /// `ym`) into input samples and adds them, as [`AudioOut::push`] does one by one, with the
    /// blocker's state and the history's ends held in registers for the whole run.
    fn push_mixed(&mut self, ym: &[i16], psg: &[i16]) {
        let n = psg.len().min(ym.len() / 2);
        if n == 0 {
            return;
        }
        // Zipped slices of the same length: no bounds checks in the loop.
        let (ym, psg) = (&ym.as_chunks::<2>().0[..n], &psg[..n]);
        let mix = |fm: &[i16; 2], p: i16| -> [i32; 2] {
            let p = p as i32;
            [FM_GAIN * fm[0] as i32 + p, FM_GAIN * fm[1] as i32 + p]
        };
        if !self.dc_primed {
            self.dc_primed = true;
            self.dc_x = mix(&ym[0], psg[0]);
        }
        let at = self.left.len();
        self.left.resize(at + n, 0.0);
        self.right.resize(at + n, 0.0);
        let (mut dc_x, mut dc_y, mut mono_run) = (self.dc_x, self.dc_y, self.mono_run);
        let history = self.left[at..].iter_mut().zip(&mut self.right[at..]);
        for ((left, right), (fm, &p)) in history.zip(ym.iter().zip(psg)) {
            let x = mix(fm, p);
            let mut s = [0i32; 2];
            for side in 0..2 {
                // As in `push`.
                let y = dc_y[side];
                let y = (((x[side] - dc_x[side]) as i64) << 16) + y - (y >> 10);
                dc_x[side] = x[side];
                dc_y[side] = y;
                s[side] = (y >> 16) as i32;
            }
            (*left, *right) = (f64::from(s[0]), f64::from(s[1]));
            mono_run = if s[0] == s[1] { mono_run + 1 } else { 0 };
        }
        (self.dc_x, self.dc_y, self.mono_run) = (dc_x, dc_y, mono_run);
    }

    /// Appends one DC-blocked input sample to the filter's history.
    #[inline]
    fn push_filtered(&mut self, left: f64, right: f64) {
        self.left.push(left);
        self.right.push(right);
        self.mono_run = if left == right { self.mono_run + 1 } else { 0 };
    }

    /// Appends every output sample the buffered input allows (interleaved stereo).
    ///
    /// The filter sums integer products in `f64`, which is exact and so the same as integer
    /// arithmetic: a coefficient is below 2^16 in size and a sample an `i32`, so a product is
    /// below 2^47 and a sum of 32 of them below 2^52, inside the 53 bits an `f64` holds
    /// exactly, whatever the order of the additions. A window whose samples are the same on
    /// both sides (Sonic 2's sound is so about half of the time: the PSG and centred FM
    /// channels) is summed once for both.
    pub fn produce(&mut self, out: &mut Vec<i16>) {
        let den = MCLK_PER_FM_SAMPLE * self.rate as u64;
        let len = self.left.len();
        // The first index of the trailing run of samples equal on both sides.
        let mono_from = len - self.mono_run.min(len);
        // The first index of the trailing run of samples equal to the last on both sides: a
        // window within it is that constant (silence, a held DAC byte), which every phase
        // passes as is, its taps summing to `COEF_ONE`. Found from the end: the history holds
        // the samples since the last call and a window's worth, so this is one compare for a
        // sound that moves.
        let mut flat_from = len;
        if let (Some(&l), Some(&r)) = (self.left.last(), self.right.last()) {
            flat_from = len - 1;
            while flat_from > 0 && self.left[flat_from - 1] == l && self.right[flat_from - 1] == r {
                flat_from -= 1;
            }
        }
        while self.pos + HALF < len {
            let from = self.pos + 1 - HALF;
            if from >= flat_from {
                // A constant window: its sum is the constant x `COEF_ONE` in every phase.
                let one = COEF_ONE as f64;
                out.extend_from_slice(&[
                    to_sample(self.left[len - 1] * one),
                    to_sample(self.right[len - 1] * one),
                ]);
                self.frac += self.mclk_hz;
                while self.frac >= den {
                    self.frac -= den;
                    self.pos += 1;
                }
                continue;
            }
            let phase = (self.frac * PHASES as u64 / den) as usize;
            let c = &self.coefs[phase].0;
            let l = dot(c, &self.left[from..from + TAPS]);
            if from >= mono_from {
                let s = to_sample(l);
                out.extend_from_slice(&[s, s]);
            } else {
                let r = dot(c, &self.right[from..from + TAPS]);
                out.extend_from_slice(&[to_sample(l), to_sample(r)]);
            }
            self.frac += self.mclk_hz;
            while self.frac >= den {
                self.frac -= den;
                self.pos += 1;
            }
        }
        let keep_from = self.pos + 1 - HALF;
        self.left.drain(..keep_from);
        self.right.drain(..keep_from);
        self.pos -= keep_from;
    }
}

/// Catches the chips up to `now`, mixes the samples both have made and resamples them into
/// `out` (the machine's own chips, or the sound thread's).
pub(crate) fn mix_and_resample(
    ym: &mut Ym2612,
    psg: &mut Psg,
    a: &mut AudioOut,
    now: u64,
    out: &mut Vec<i16>,
) {
    ym.sync(now);
    psg.sync(now);
    mix_made(ym, psg, a, out, |_, _| {});
}

/// Mixes the samples both chips have made (handing them to `mixed` first) and resamples them
/// into `out`; the chip that made more keeps the rest for the next time.
pub(crate) fn mix_made(
    ym: &mut Ym2612,
    psg: &mut Psg,
    a: &mut AudioOut,
    out: &mut Vec<i16>,
    mixed: impl FnOnce(&[i16], &[i16]),
) {
    let n = (ym.out.len() / 2).min(psg.out.len());
    mixed(&ym.out[..2 * n], &psg.out[..n]);
    a.push_mixed(&ym.out[..2 * n], &psg.out[..n]);
    ym.out.drain(..2 * n);
    psg.out.drain(..n);
    a.produce(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A constant input comes out at the same level (after the DC blocker has been bypassed
    /// by feeding the resampler directly), at the right number of samples per second.
    #[test]
    fn resampler_rate_and_gain() {
        let mclk = crate::clock::MCLK_NTSC_HZ;
        let mut a = AudioOut::new(mclk, 48_000);
        let mut out = Vec::new();
        let inputs = mclk as usize / 1008; // one second
        for _ in 0..inputs {
            a.push_filtered(1000.0, -1000.0);
        }
        a.produce(&mut out);
        let frames = out.len() / 2;
        assert!((47_980..=48_000).contains(&frames), "{frames}");
        assert!(out[200..].chunks(2).all(|c| c[0] == 1000 && c[1] == -1000));
    }

    /// A 1 kHz sine passes; a 25 kHz one (above the host's Nyquist) is strongly attenuated.
    #[test]
    fn resampler_passband_and_stopband() {
        let mclk = crate::clock::MCLK_NTSC_HZ;
        let fi = mclk as f64 / 1008.0;
        let rms = |freq: f64| -> f64 {
            let mut a = AudioOut::new(mclk, 48_000);
            let mut out = Vec::new();
            for i in 0..20_000 {
                let v =
                    (8000.0 * (2.0 * std::f64::consts::PI * freq * i as f64 / fi).sin()).trunc();
                a.push_filtered(v, v);
            }
            a.produce(&mut out);
            let s: f64 = out[2000..]
                .iter()
                .step_by(2)
                .map(|&x| (x as f64).powi(2))
                .sum();
            (s / (out.len() / 2 - 1000) as f64).sqrt()
        };
        let pass = rms(1000.0);
        assert!((pass - 8000.0 / 2f64.sqrt()).abs() < 100.0, "{pass}");
        let stop = rms(25_000.0);
        assert!(stop < pass / 100.0, "{stop}");
    }

    /// `produce`'s exactness argument: every coefficient is an integer below 2^16 in size,
    /// at every host rate the front ends use.
    #[test]
    fn coefficients_are_small_integers() {
        for rate in [8_000, 22_050, 44_100, 48_000, 96_000, 384_000] {
            let a = AudioOut::new(crate::clock::MCLK_NTSC_HZ, rate);
            assert!(
                a.coefs
                    .iter()
                    .all(|row| row.0.iter().all(|&c| c.fract() == 0.0 && c.abs() < 65536.0))
            );
        }
    }

    /// The filter's output is the integer sum of coefficients times samples, shifted down, on
    /// each side: with both sides equal (summed once), with them different and with windows
    /// constant on both sides (not summed), in stretches produced in pieces of any length,
    /// against the sum worked out in `i64` here.
    #[test]
    fn mono_and_stereo_windows_filter_alike() {
        let mut a = AudioOut::new(crate::clock::MCLK_NTSC_HZ, 48_000);
        let mut seed = 0x2545_F491_u32;
        let mut inputs: Vec<[i64; 2]> = vec![[0; 2]; HALF - 1];
        let mut out = Vec::new();
        for i in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let l = (seed % 60_001) as i64 - 30_000;
            // Constant stretches of 250 samples (a constant window's shortcut), from time
            // to time beyond the output's range.
            let l = if (i / 250) % 5 == 2 {
                (i / 250) as i64 * 1_999 - 33_000
            } else {
                l
            };
            // Stretches of 1 to 400 samples equal on both sides.
            let r = if (i / 97) % 3 == 0 || (i / 400) % 2 == 0 {
                l
            } else {
                l / 3 + 7
            };
            inputs.push([l, r]);
            a.push_filtered(l as f64, r as f64);
            if seed.is_multiple_of(61) {
                a.produce(&mut out);
            }
        }
        a.produce(&mut out);
        let den = MCLK_PER_FM_SAMPLE * 48_000;
        let (mut pos, mut frac) = (HALF - 1, 0u64);
        for pair in out.chunks(2) {
            let phase = (frac * PHASES as u64 / den) as usize;
            for side in 0..2 {
                let sum: i64 = (0..TAPS)
                    .map(|j| a.coefs[phase].0[j] as i64 * inputs[pos + 1 - HALF + j][side])
                    .sum();
                assert_eq!(pair[side], (sum >> 15).clamp(-32768, 32767) as i16);
            }
            frac += crate::clock::MCLK_NTSC_HZ as u64;
            while frac >= den {
                frac -= den;
                pos += 1;
            }
        }
        assert!(out.len() > 30_000);
    }

    /// Mixing a run of chip samples at once leaves the blocker and the filter's history as
    /// pushing the mixed samples one by one does.
    #[test]
    fn mixing_a_run_is_pushing_its_samples() {
        let mclk = crate::clock::MCLK_NTSC_HZ;
        let (mut run, mut one) = (AudioOut::new(mclk, 48_000), AudioOut::new(mclk, 48_000));
        let mut seed = 0x9E37_79B9_u32;
        for round in 0..50 {
            let n = (round * 37) % 200;
            let mut ym = Vec::new();
            let mut psg = Vec::new();
            for i in 0..n {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                let l = (seed & 0xFFFF) as i16;
                let r = if (i / 50) % 2 == 0 {
                    l
                } else {
                    (seed >> 16) as i16
                };
                ym.extend_from_slice(&[l / 2, r / 2]);
                psg.push((seed % 8400) as i16 - 4200);
            }
            run.push_mixed(&ym, &psg);
            for i in 0..n {
                let p = psg[i] as i32;
                one.push(
                    FM_GAIN * ym[2 * i] as i32 + p,
                    FM_GAIN * ym[2 * i + 1] as i32 + p,
                );
            }
            assert_eq!(
                (run.dc_x, run.dc_y, run.mono_run),
                (one.dc_x, one.dc_y, one.mono_run)
            );
            assert_eq!((&run.left, &run.right), (&one.left, &one.right));
        }
    }

    /// The DC blocker removes a constant offset.
    #[test]
    fn dc_blocker() {
        let mut a = AudioOut::new(crate::clock::MCLK_NTSC_HZ, 48_000);
        for _ in 0..53_267 {
            a.push(384, 384);
        }
        assert!(a.left.last().unwrap().abs() <= 1.0);
    }
}
