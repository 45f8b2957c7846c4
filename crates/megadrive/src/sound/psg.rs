//! The SN76489 PSG (the Sega variant inside the VDP): register decoding and sound synthesis.
//!
//! Behaviour from the SMS Power SN76489 documentation (Maxim's "SN76489 notes"):
//! - the chip runs at MCLK / 15 and divides that by 16 internally, so its counters step every
//!   240 master clocks (223,722 Hz on NTSC); a tone channel with period N toggles its output
//!   every N steps, for a frequency of clock / (32 N);
//! - periods 0 and 1 leave the output at +1 (the square wave would be far above audibility;
//!   games use this with the volume register to play samples);
//! - the noise channel steps every 16, 32 or 64 counts or at channel 2's period, its shift
//!   register advances on every second toggle, and the Sega chip's 16-bit LFSR feeds back the
//!   parity of bits 0 and 3 (white noise) or bit 0 alone (periodic noise); any write to the
//!   noise register reloads it with $8000;
//! - attenuation is in 2 dB steps, 15 = off.
//!
//! Output: the chip's level is averaged over each YM2612 output period (1008 master clocks,
//! windows on the absolute master-clock grid), an exact box filter that both resamples the
//! PSG to the FM rate and removes most of what lies above it, so the mixer adds the two
//! chips sample by sample. Synthesis only runs while [`Psg::render`] is set (a headless run
//! that wants no sound pays nothing for it); the registers are decoded either way.

use super::calls::{CallLog, PsgCall};
use crate::clock::MCLK_PER_FM_SAMPLE;

/// Master clocks per PSG counter step (MCLK / 15 / 16).
pub const MCLK_PER_PSG_STEP: u64 = 240;

/// Output amplitude of one channel at attenuation 0, and the 2 dB steps below it: the square
/// wave swings +-2100, 4,200 from low to high, against +-8192 for a full-scale FM channel
/// (Genesis Plus GX's PSG/FM balance, matched to a VA4 Model 1 console; see `mixer`).
pub const VOLUME: [i16; 16] = volume_table(2100);

const fn volume_table(max: i32) -> [i16; 16] {
    // 10^(-2k/20) for k = 0..14 in 16.16 fixed point, then off.
    const STEPS: [i32; 15] = [
        65536, 52057, 41350, 32846, 26090, 20724, 16462, 13076, 10387, 8250, 6554, 5206, 4135,
        3285, 2609,
    ];
    let mut t = [0i16; 16];
    let mut k = 0;
    while k < 15 {
        t[k] = ((max * STEPS[k]) >> 16) as i16;
        k += 1;
    }
    t
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Psg {
    /// Tone periods (10 bits) for channels 0-2; entry 3 is the noise register (3 bits).
    pub tone: [u16; 4],
    pub volume: [u8; 4],
    pub latched: u8,
    /// Down-counters of the four channels.
    pub counter: [u16; 4],
    /// Output flip-flops of the four channels (the noise one clocks the shift register).
    pub flip: [bool; 4],
    pub lfsr: u16,
    /// Absolute master clock the chip has run to (a multiple of [`MCLK_PER_PSG_STEP`]).
    pub synced_to: u64,
    /// Level x master clocks accumulated in the current output window.
    pub acc: i64,
    /// Synthesise (set by the machine when audio is wanted; not part of save states).
    pub render: bool,
    /// Mono samples at the FM rate not yet taken by the mixer (not part of save states).
    pub out: Vec<i16>,
    /// The timed writes made since they were last shipped to the sound thread, while it
    /// synthesises (`sound::thread`; not part of save states).
    pub(crate) calls: CallLog<PsgCall>,
}

impl Default for Psg {
    fn default() -> Self {
        Self::new()
    }
}

impl Psg {
    pub fn new() -> Self {
        Psg {
            tone: [0; 4],
            volume: [0x0F; 4],
            latched: 0,
            counter: [0; 4],
            flip: [false; 4],
            lfsr: 0x8000,
            synced_to: 0,
            acc: 0,
            render: false,
            out: Vec::new(),
            calls: CallLog::default(),
        }
    }

    /// A register write without timing (the chip is not caught up first).
    pub fn write(&mut self, value: u8) {
        if value & 0x80 != 0 {
            self.latched = (value >> 4) & 7;
            let ch = (self.latched >> 1) as usize;
            if self.latched & 1 != 0 {
                self.volume[ch] = value & 0x0F;
            } else if ch == 3 {
                self.write_noise(value);
            } else {
                self.tone[ch] = (self.tone[ch] & 0x3F0) | (value & 0x0F) as u16;
            }
        } else {
            let ch = (self.latched >> 1) as usize;
            if self.latched & 1 != 0 {
                self.volume[ch] = value & 0x0F;
            } else if ch == 3 {
                self.write_noise(value);
            } else {
                self.tone[ch] = (self.tone[ch] & 0x0F) | (((value & 0x3F) as u16) << 4);
            }
        }
    }

    fn write_noise(&mut self, value: u8) {
        self.tone[3] = (value & 0x07) as u16;
        self.lfsr = 0x8000;
    }

    /// A register write at absolute master clock `now`: the chip is caught up first.
    pub fn write_at(&mut self, value: u8, now: u64) {
        self.calls.push(PsgCall::Write { value, at: now });
        self.sync(now);
        self.write(value);
    }

    /// The period a channel's counter reloads with.
    fn period(&self, ch: usize) -> u16 {
        if ch < 3 {
            self.tone[ch]
        } else {
            match self.tone[3] & 3 {
                0 => 0x10,
                1 => 0x20,
                2 => 0x40,
                _ => self.tone[2],
            }
        }
    }

    /// The chip's output level now (sum of the four channels).
    #[inline]
    pub fn level(&self) -> i32 {
        let mut sum = 0i32;
        for ch in 0..3 {
            let v = VOLUME[self.volume[ch] as usize] as i32;
            sum += if self.tone[ch] <= 1 || self.flip[ch] {
                v
            } else {
                -v
            };
        }
        let v = VOLUME[self.volume[3] as usize] as i32;
        sum + if self.lfsr & 1 != 0 { v } else { -v }
    }

    /// One counter step (every 16 PSG clocks).
    #[inline]
    pub fn step(&mut self) {
        for ch in 0..4 {
            if self.counter[ch] > 1 {
                self.counter[ch] -= 1;
                continue;
            }
            self.counter[ch] = self.period(ch).max(1);
            self.flip[ch] = !self.flip[ch];
            if ch == 3 && self.flip[3] {
                self.shift_noise();
            }
        }
    }

    /// [`Psg::step`] that also returns the output `level` (`level()` before the step) as it
    /// is after it: only a channel whose flip-flop toggles (a tone above period 1) or whose
    /// noise register shifts changes its share, from -v to +v or back. (Keeping it up to date
    /// instead of summing the four channels again: about 1.6 steps per output sample end a
    /// run in Emerald Hill.)
    #[inline]
    fn step_tracking(&mut self, mut level: i64) -> i64 {
        for ch in 0..3 {
            if self.counter[ch] > 1 {
                self.counter[ch] -= 1;
                continue;
            }
            self.counter[ch] = self.tone[ch].max(1);
            self.flip[ch] = !self.flip[ch];
            if self.tone[ch] > 1 {
                let v = 2 * VOLUME[self.volume[ch] as usize] as i64;
                level += if self.flip[ch] { v } else { -v };
            }
        }
        if self.counter[3] > 1 {
            self.counter[3] -= 1;
            return level;
        }
        self.counter[3] = self.period(3).max(1);
        self.flip[3] = !self.flip[3];
        if self.flip[3] {
            let was = self.lfsr & 1;
            self.shift_noise();
            if self.lfsr & 1 != was {
                let v = 2 * VOLUME[self.volume[3] as usize] as i64;
                level += if was == 0 { v } else { -v };
            }
        }
        level
    }

    /// One shift of the noise register.
    fn shift_noise(&mut self) {
        let fb = if self.tone[3] & 4 != 0 {
            (self.lfsr ^ (self.lfsr >> 3)) & 1
        } else {
            self.lfsr & 1
        };
        self.lfsr = (self.lfsr >> 1) | (fb << 15);
    }

    /// Runs the chip to the last counter step at or before `now`, appending a sample for each
    /// output window completed.
    pub fn sync(&mut self, now: u64) {
        if now < self.synced_to + MCLK_PER_PSG_STEP {
            return;
        }
        if !self.render {
            self.synced_to = now / MCLK_PER_PSG_STEP * MCLK_PER_PSG_STEP;
            self.acc = 0;
            return;
        }
        // After a long silence (a machine that just enabled sound) skip to the last second.
        let limit = 223_722 * MCLK_PER_PSG_STEP;
        if now - self.synced_to > limit {
            self.synced_to = (now - limit) / MCLK_PER_FM_SAMPLE * MCLK_PER_FM_SAMPLE;
            self.acc = 0;
        }
        // The level only changes when a counter runs out, so the chip runs from one such
        // step to the next in one go: every step before it only counts the counters down. A
        // tone channel at period 0 or 1 reloads on every step, but its output stays high
        // (`level`), so its flip-flop just toggles once per step and does not end a run.
        let mut level = self.level() as i64;
        while self.synced_to + MCLK_PER_PSG_STEP <= now {
            let steps = (now - self.synced_to) / MCLK_PER_PSG_STEP;
            // Likewise a muted noise channel reloading every step (mode 3 at channel 2's
            // period 0 or 1): its register still shifts every second step.
            // (Written out per channel: this runs once per run, about 1.6 times per output
            // sample in Emerald Hill.)
            let (counter, tone) = (self.counter, self.tone);
            let toggles = [
                counter[0] <= 1 && tone[0] <= 1,
                counter[1] <= 1 && tone[1] <= 1,
                counter[2] <= 1 && tone[2] <= 1,
                counter[3] <= 1 && self.volume[3] == 15 && self.period(3) <= 1,
            ];
            // A counter at 0 or 1 reloads on the next step, one at c > 1 on the c-th.
            let mut until_reload = u64::MAX;
            for (toggles, counter) in toggles.into_iter().zip(counter) {
                if !toggles {
                    until_reload = until_reload.min(counter.max(1) as u64);
                }
            }
            let run = steps.min(until_reload);
            let end = self.synced_to + run * MCLK_PER_PSG_STEP;
            self.integrate(level, end);
            self.synced_to = end;
            // Steps in the run where no other channel reloads.
            let quiet = if run == until_reload { run - 1 } else { run };
            if quiet > 0 {
                // The noise register shifts each time its flip-flop goes high.
                let shifts = if toggles[3] {
                    if self.flip[3] {
                        quiet / 2
                    } else {
                        quiet.div_ceil(2)
                    }
                } else {
                    0
                };
                let channels = self.counter.iter_mut().zip(&mut self.flip).zip(toggles);
                for ((counter, flip), toggles) in channels {
                    if toggles {
                        *flip ^= quiet & 1 != 0;
                        *counter = 1;
                    } else {
                        *counter -= quiet as u16;
                    }
                }
                for _ in 0..shifts {
                    self.shift_noise();
                }
            }
            if run == until_reload {
                level = self.step_tracking(level);
            }
        }
    }

    /// Adds `level` from [`Psg::synced_to`] to `end` to the output windows, appending a
    /// sample for each window that closes at or before `end`. A window the level fills whole
    /// averages to the level itself, so those are appended as copies.
    fn integrate(&mut self, level: i64, end: u64) {
        let t = self.synced_to;
        let window_end = (t / MCLK_PER_FM_SAMPLE + 1) * MCLK_PER_FM_SAMPLE;
        if window_end > end {
            self.acc += level * (end - t) as i64;
            return;
        }
        self.acc += level * (window_end - t) as i64;
        self.out
            .push((self.acc / MCLK_PER_FM_SAMPLE as i64).clamp(-32768, 32767) as i16);
        let whole = (end - window_end) / MCLK_PER_FM_SAMPLE;
        let sample = level.clamp(-32768, 32767) as i16;
        self.out.extend(std::iter::repeat_n(sample, whole as usize));
        let t = window_end + whole * MCLK_PER_FM_SAMPLE;
        self.acc = level * (end - t) as i64;
    }

    /// The synthesis state as bytes (for save states).
    pub fn save_synth(&self, out: &mut Vec<u8>) {
        for c in self.counter {
            out.extend_from_slice(&c.to_le_bytes());
        }
        for f in self.flip {
            out.push(u8::from(f));
        }
        out.extend_from_slice(&self.lfsr.to_le_bytes());
        out.extend_from_slice(&self.synced_to.to_le_bytes());
        out.extend_from_slice(&self.acc.to_le_bytes());
    }

    /// Restores what [`Psg::save_synth`] wrote; returns the bytes consumed.
    pub fn load_synth(&mut self, data: &[u8]) -> Option<usize> {
        let mut r = super::bytes::ByteReader::new(data);
        for c in &mut self.counter {
            *c = r.u16()?;
        }
        for f in &mut self.flip {
            *f = r.u8()? != 0;
        }
        self.lfsr = r.u16()?;
        self.synced_to = r.u64()?;
        self.acc = r.u64()? as i64;
        self.out.clear();
        Some(r.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_tone(p: &mut Psg, ch: u8, period: u16) {
        p.write(0x80 | ch << 5 | (period & 0xF) as u8);
        p.write((period >> 4) as u8 & 0x3F);
    }

    /// Counts output transitions of channel 0 over `steps` counter steps.
    fn toggles(p: &mut Psg, ch: usize, steps: usize) -> usize {
        let mut n = 0;
        let mut last = p.flip[ch];
        for _ in 0..steps {
            p.step();
            if p.flip[ch] != last {
                n += 1;
                last = p.flip[ch];
            }
        }
        n
    }

    /// Frequency = clock / (32 N): with N = 0x100 the output toggles every 256 steps of
    /// clock / 16, i.e. a full period per 512 steps.
    #[test]
    fn tone_frequency() {
        let mut p = Psg::new();
        set_tone(&mut p, 0, 0x100);
        assert_eq!(p.tone[0], 0x100);
        // First reload happens on the first step.
        let n = toggles(&mut p, 0, 512 * 10 + 1);
        assert_eq!(n, 21);
        // 3,579,545 Hz / (32 * 256) = 437 Hz over one second of steps.
        let mut p = Psg::new();
        set_tone(&mut p, 0, 0x100);
        let steps = 3_579_545 / 16;
        let periods = toggles(&mut p, 0, steps) / 2;
        assert_eq!(periods, (3_579_545f64 / (32.0 * 256.0)).round() as usize);
    }

    /// Periods 0 and 1 hold the output high.
    #[test]
    fn period_zero_and_one_are_constant() {
        for period in [0, 1] {
            let mut p = Psg::new();
            p.write(0x90); // channel 0 full volume
            set_tone(&mut p, 0, period);
            p.write(0xBF);
            p.write(0xDF);
            p.write(0xFF);
            for _ in 0..100 {
                p.step();
                assert_eq!(
                    p.level(),
                    VOLUME[0] as i32 - 3 * VOLUME[15] as i32 - VOLUME[15] as i32
                );
            }
        }
    }

    /// White noise: the Sega LFSR (16 bits, taps 0 and 3, reloaded with $8000) gives the
    /// documented period of 57,337 (SMS Power).
    #[test]
    fn white_noise_lfsr_period() {
        let mut p = Psg::new();
        p.write(0xE4); // white noise, N/512
        assert_eq!(p.lfsr, 0x8000);
        let start = p.lfsr;
        let mut shifts = 0u32;
        loop {
            let before = p.lfsr;
            p.step();
            if p.lfsr != before {
                shifts += 1;
                if p.lfsr == start || shifts > 100_000 {
                    break;
                }
            }
        }
        assert_eq!(shifts, 57_337);
    }

    /// Periodic noise: a 16-step cycle whose output is high once per cycle.
    #[test]
    fn periodic_noise() {
        let mut p = Psg::new();
        p.write(0xE0);
        let mut bits = Vec::new();
        while bits.len() < 32 {
            let before = p.lfsr;
            p.step();
            if p.lfsr != before {
                bits.push(p.lfsr & 1);
            }
        }
        assert_eq!(bits.iter().filter(|&&b| b == 1).count(), 2);
        assert_eq!(bits[..16], bits[16..]);
    }

    /// Noise mode 3 steps at channel 2's period; modes 0-2 every 16/32/64 counts, with the
    /// LFSR shifting on every second toggle.
    #[test]
    fn noise_rates() {
        for (mode, period) in [(0u8, 16usize), (1, 32), (2, 64), (3, 100)] {
            let mut p = Psg::new();
            set_tone(&mut p, 2, 100);
            p.write(0xE4 | mode);
            let mut shifts = 0;
            let steps = period * 2 * 50;
            for _ in 0..steps {
                let before = p.lfsr;
                p.step();
                shifts += usize::from(p.lfsr != before);
            }
            assert!((49..=50).contains(&shifts), "mode {mode}: {shifts}");
        }
    }

    /// 2 dB per attenuation step, 15 silent.
    #[test]
    fn attenuation_table() {
        for k in 0..14 {
            let ratio = VOLUME[k + 1] as f64 / VOLUME[k] as f64;
            assert!((ratio - 0.794_33).abs() < 0.005, "step {k}: {ratio}");
        }
        assert_eq!(VOLUME[15], 0);
    }

    /// The chip run step by step, as the documentation describes it: every 240 master clocks
    /// one counter step, the level in between averaged over each 1008-clock window.
    fn sync_per_step(p: &mut Psg, now: u64) {
        while p.synced_to + MCLK_PER_PSG_STEP <= now {
            let level = p.level() as i64;
            let t0 = p.synced_to;
            let t1 = t0 + MCLK_PER_PSG_STEP;
            let window_end = (t0 / MCLK_PER_FM_SAMPLE + 1) * MCLK_PER_FM_SAMPLE;
            if t1 < window_end {
                p.acc += level * MCLK_PER_PSG_STEP as i64;
            } else {
                p.acc += level * (window_end - t0) as i64;
                p.out
                    .push((p.acc / MCLK_PER_FM_SAMPLE as i64).clamp(-32768, 32767) as i16);
                p.acc = level * (t1 - window_end) as i64;
            }
            p.synced_to = t1;
            p.step();
        }
    }

    /// Running from one counter reload to the next gives the same samples and the same
    /// counters, flip-flops and noise register as stepping every counter clock, under random
    /// register writes at random times (short and long tones, all noise modes, silence).
    #[test]
    fn runs_between_reloads_equal_single_steps() {
        let mut fast = Psg::new();
        fast.render = true;
        let mut slow = fast.clone();
        let mut x = 0x2545_F491u32;
        let mut now = 0u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            now += (x >> 20) as u64 % 5000;
            // A quarter of the time a tone channel goes to period 0 or 1 (held high, its
            // counter reloading every step), as Sonic 2 leaves its unused channels.
            let values = if x & 0x300 == 0 {
                let ch = (x >> 10) as u8 % 3;
                vec![0x80 | ch << 5 | (x >> 12) as u8 & 1, 0x00]
            } else if x & 0x300 == 0x100 && x & 0x400 == 0 {
                // Muted noise clocked by channel 2 (mode 3), white or periodic.
                vec![0xFF, 0xE3 | (x >> 11) as u8 & 4]
            } else {
                vec![(x & 0xFF) as u8]
            };
            for value in values {
                fast.write_at(value, now);
                sync_per_step(&mut slow, now);
                slow.write(value);
                assert_eq!(fast, slow, "after writing {value:02x} at {now}");
            }
        }
        assert!(fast.out.len() > 10_000);
    }

    /// The box filter: a constant level comes out unchanged, one sample per 1008 master
    /// clocks on the absolute grid.
    #[test]
    fn output_windows() {
        let mut p = Psg::new();
        p.render = true;
        p.write(0x90);
        set_tone(&mut p, 0, 1);
        p.sync(1008 * 10 + 500);
        assert_eq!(p.out.len(), 10);
        let first = p.out[1];
        assert!(p.out[1..].iter().all(|&s| s == first));
        assert_eq!(first as i32, p.level());
    }
}
