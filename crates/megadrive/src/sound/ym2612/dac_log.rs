//! The DAC's samples written while the chip synthesises are logged rather than caught up to.
//!
//! A DAC driver writes register $2A some 8,000 to 20,000 times a second (Sonic 2's
//! `zWriteToDAC` every 7 to 8 output samples), and catching the chip up at each write cut its
//! synthesis into runs of a few samples, each paying the run's set-up (every channel's silence
//! test, the blocks, the clocks). Nothing but channel 6's output depends on the byte, and only
//! as an additive level: so a write while synthesising records the sample boundary it takes
//! effect at and the byte, and the next catch-up ([`Ym2612::sync`], which every other write,
//! status read, reset and the scheduler's periodic catch-up makes) renders its whole span at
//! once with the DAC's value at the span's start, then adds to each stretch between logged
//! writes the difference between its byte's level and that value's. The adds wrap in `i16`
//! as the channels' own adds do, so the samples are those of a catch-up at every write; the
//! timers run over the span in one step (their reloads are associative), and the chip left
//! behind is the one a catch-up at the last write would leave (a catch-up to the last logged
//! boundary, at least, so a save state made in between is byte-identical to the per-write
//! catch-up's).
//!
//! Not logged (caught up at the write as before): without synthesis (headless, or the
//! machine's chips while the sound thread synthesises: only the timers run then), and under
//! CSM, whose key-ons are rendered sample by sample. The DAC's enable ($2B), channel 6's
//! panning and everything else that changes the output are ordinary register writes, which
//! catch up first.

use super::Ym2612;
use super::dac;
use super::tables::busy_until;
use crate::clock::MCLK_PER_FM_SAMPLE;

/// Logged writes before a catch-up is forced (a span of a few lines holds about 30).
const MAX_LOGGED: usize = 1024;
/// Longest span a log may cover, in samples: well below the second after which a catch-up
/// keeps only the last second's samples (`Ym2612::run_samples`).
const MAX_SPAN_SAMPLES: u64 = 8192;

impl Ym2612 {
    /// A write of `value` to the DAC's sample register $2A at `now`.
    #[inline(always)]
    pub(crate) fn write_dac(&mut self, value: u8, now: u64) {
        self.regs[0x2A] = value;
        if !self.render || self.csm_active() || self.csm_keyed != 0 {
            self.sync(now);
            self.dac_rendered = value;
            return;
        }
        // The sample boundary the byte takes effect at: the first at or after `now` on the
        // grid of `synced_to` (where a catch-up to `now` would leave the chip).
        let from = self.dac_log.last().map_or(self.synced_to, |&(b, _)| b);
        let at = if now > from {
            from + (now - from).div_ceil(MCLK_PER_FM_SAMPLE) * MCLK_PER_FM_SAMPLE
        } else {
            from
        };
        if at == self.synced_to {
            // Caught up already: the byte applies from the next sample rendered.
            self.dac_rendered = value;
            return;
        }
        if let Some(last) = self.dac_log.last_mut()
            && last.0 == at
        {
            // A second write within one sample: only the last one is heard.
            last.1 = value;
            return;
        }
        if self.dac_log.len() >= MAX_LOGGED
            || at - self.synced_to > MAX_SPAN_SAMPLES * MCLK_PER_FM_SAMPLE
        {
            // Catches up to `at` (past the log's last boundary), where the byte applies next.
            self.sync(now);
            self.dac_rendered = value;
            return;
        }
        self.dac_log.push((at, value));
    }

    /// [`Ym2612::write`] to the data port of part I with $2A selected (a DAC sample), when
    /// only the clock moves: no synthesis (headless), no call log, both timers stopped and
    /// nothing logged. Then the write is the busy flag, the register, the sample clock and
    /// the byte, the same as through `write`; returns false, having done nothing, otherwise.
    /// Inline in the Z80's write path: Sonic 2's `zWriteToDAC` makes a third of its writes
    /// outside its own RAM here.
    #[inline(always)]
    pub(crate) fn write_dac_quiet(&mut self, value: u8, now: u64) -> bool {
        if self.address[0] != 0x2A
            || self.render
            || self.calls.on
            || self.mode & 3 != 0
            || !self.dac_log.is_empty()
        {
            return false;
        }
        self.busy_until = busy_until(now);
        self.regs[0x2A] = value;
        if now > self.synced_to {
            // The sample clock's round up as an add before the division (as `busy_until`;
            // the gap is a few samples' worth of clocks, far from overflowing).
            #[allow(clippy::manual_div_ceil)]
            let samples = (now - self.synced_to + (MCLK_PER_FM_SAMPLE - 1)) / MCLK_PER_FM_SAMPLE;
            self.synced_to += samples * MCLK_PER_FM_SAMPLE;
        }
        self.dac_rendered = value;
        true
    }

    /// A copy with the logged DAC writes synthesised, caught up to the last one's boundary:
    /// the chip a catch-up at each write leaves (for save states).
    pub(crate) fn settled(&self) -> Ym2612 {
        let mut chip = self.clone();
        chip.sync(chip.synced_to);
        chip
    }

    /// [`Ym2612::sync`] with DAC writes logged: catches up to `now` or the last logged
    /// boundary, whichever is later, in one span, and sets each logged stretch's level.
    #[inline(never)]
    pub(crate) fn sync_dac_log(&mut self, now: u64) {
        let mut log = std::mem::take(&mut self.dac_log);
        let Some(&(last, last_value)) = log.last() else {
            return;
        };
        let start = self.synced_to;
        let samples = (now.max(last) - start).div_ceil(MCLK_PER_FM_SAMPLE);
        self.synced_to = start + samples * MCLK_PER_FM_SAMPLE;
        self.run_samples(samples);
        if self.render && self.regs[0x2B] & 0x80 != 0 {
            self.set_dac_stretches(&log, start, samples as usize);
        }
        self.dac_rendered = last_value;
        log.clear();
        self.dac_log = log;
    }

    /// Adds to the span's samples (the last `samples` in `out`, rendered with the DAC at
    /// `dac_rendered`) each logged stretch's difference of level, and leaves channel 6's last
    /// output as the span's last sample had it.
    fn set_dac_stretches(&mut self, log: &[(u64, u8)], start: u64, samples: usize) {
        let b6 = self.regs[0x1B6];
        let (pan, discrete) = ((b6 & 0x80 != 0, b6 & 0x40 != 0), self.discrete);
        let level = |v: u8| -> [i16; 2] {
            let out = dac_out(v);
            [
                (dac::channel_level(out, pan.0, discrete) * 16) as i16,
                (dac::channel_level(out, pan.1, discrete) * 16) as i16,
            ]
        };
        let base = level(self.dac_rendered);
        let pairs = self.out.as_chunks_mut::<2>().0;
        // The span's first sample in `out` (a span longer than a second keeps its last
        // second only; the log's spans are far shorter, but stay exact if not).
        let first = pairs.len() as i64 - samples as i64;
        let mut heard = self.dac_rendered;
        for (i, &(at, value)) in log.iter().enumerate() {
            let from = ((at - start) / MCLK_PER_FM_SAMPLE) as usize;
            let to = log.get(i + 1).map_or(samples, |&(next, _)| {
                ((next - start) / MCLK_PER_FM_SAMPLE) as usize
            });
            if from < samples {
                heard = value;
            }
            let l = level(value);
            let d = [l[0].wrapping_sub(base[0]), l[1].wrapping_sub(base[1])];
            let lo = (first + from as i64).max(0) as usize;
            let hi = (first + to as i64).max(0) as usize;
            for pair in &mut pairs[lo..hi] {
                pair[0] = pair[0].wrapping_add(d[0]);
                pair[1] = pair[1].wrapping_add(d[1]);
            }
        }
        self.channels[5].out = dac_out(heard);
    }
}

/// The DAC's 14-bit output for the byte in $2A (the top bit flipped: a signed sample).
#[inline]
pub(crate) fn dac_out(value: u8) -> i32 {
    ((value as i32) - 128) << 6
}
