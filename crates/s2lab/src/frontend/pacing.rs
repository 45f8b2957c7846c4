//! When to run the next frame: dynamic rate control against the sound buffer.
//!
//! The console and the sound card have different clocks (the card's crystal is off by up to a
//! few tenths of a percent, and the console's 59.92 Hz is not the monitor's), so pacing by the
//! wall clock alone either starves the device or fills its buffer without bound. As in the
//! dynamic rate control of RetroArch and higan, the frame time is stretched or shortened in
//! proportion to how far the buffer's fill is from a target, bounded to a few percent (too
//! little to hear or see), so the emulator follows the device's clock on average and the fill
//! settles near the target. The proportional controller keeps a small steady offset under skew
//! (a card 0.5 % fast holds the fill 10 % under the target), which is harmless.
//!
//! Pure and deterministic: times are [`Duration`]s since play started, fills are counts; the
//! play loop reads the clock and sleeps. `tests` simulates an hour against a device model.

use std::time::Duration;

/// The fill the controller steers to, in frames of audio (3 NTSC frames = 50 ms).
pub const TARGET_FRAMES: f64 = 3.0;
/// Largest change of the frame time, as a fraction of the nominal one.
pub const MAX_ADJUST: f64 = 0.05;
/// Over this many frames of audio buffered the loop also waits for the excess to play out.
pub const CEILING_FRAMES: f64 = 6.0;
/// Further behind the schedule than this many frame times (a stall, a dragged window), the
/// loop starts a new schedule from now instead of running frames back to back to catch up.
const RESYNC_FRAMES: u32 = 4;
/// Most frames run back to back to fill the buffer before the controller takes over anyway.
const MAX_UNPACED: u32 = 8;

/// The frame time to wait for a given buffer fill.
///
/// `fill` is stereo frames buffered, `per_frame` the stereo frames one emulated frame adds at
/// the device's rate, `nominal` the console's frame time. A fill above the target gives a
/// longer wait (the emulator produces more slowly than the device plays), below it a shorter
/// one; past [`CEILING_FRAMES`] the wait also covers the time the excess takes to play.
pub fn frame_wait(fill: usize, per_frame: f64, nominal: Duration) -> Duration {
    if per_frame <= 0.0 {
        return nominal;
    }
    let target = TARGET_FRAMES * per_frame;
    let error = ((fill as f64 - target) / target).clamp(-1.0, 1.0);
    let mut secs = nominal.as_secs_f64() * (1.0 + MAX_ADJUST * error);
    let ceiling = CEILING_FRAMES * per_frame;
    if fill as f64 > ceiling {
        let per_sec = per_frame / nominal.as_secs_f64();
        secs += (fill as f64 - ceiling) / per_sec;
    }
    Duration::from_secs_f64(secs)
}

/// The loop's schedule: when each frame is due.
pub struct Pacer {
    nominal: Duration,
    per_frame: f64,
    next: Duration,
    /// Filling the buffer to the target without waiting (at the start, and after it ran dry:
    /// a pause, a stall). Without it a start from empty would underrun for a second or so,
    /// the controller being deliberately gentle.
    priming: bool,
    /// Frames run without waiting since the fill last reached the target: a device that
    /// swallows everything (ALSA's `null` plugin does) must not make play run flat out.
    unpaced: u32,
}

impl Pacer {
    /// A schedule for frames of `nominal` length whose sound adds `per_frame` stereo frames.
    pub fn new(nominal: Duration, per_frame: f64) -> Pacer {
        Pacer {
            nominal,
            per_frame,
            next: Duration::ZERO,
            priming: true,
            unpaced: 0,
        }
    }

    /// After a frame's sound is queued: when the next frame is due, given the time now and
    /// the buffer's fill in stereo frames.
    pub fn after_frame(&mut self, now: Duration, fill: usize) -> Duration {
        let fill_f = fill as f64;
        let target = TARGET_FRAMES * self.per_frame;
        if fill_f < self.per_frame {
            self.priming = true;
        }
        if fill_f >= target {
            self.unpaced = 0;
        }
        if self.priming {
            if fill_f < target && self.unpaced < MAX_UNPACED {
                self.unpaced += 1;
                self.next = now;
                return now;
            }
            self.priming = false;
            self.next = now;
        }
        self.wait(now, frame_wait(fill, self.per_frame, self.nominal))
    }

    /// After a frame without sound to pace by (paused, no device, slow motion): when the next
    /// frame is due, `wait` after this one.
    pub fn wait(&mut self, now: Duration, wait: Duration) -> Duration {
        self.next += wait;
        if now > self.next + self.nominal * RESYNC_FRAMES {
            self.next = now;
        }
        self.next
    }

    /// Fast forward: no waiting, and the schedule restarts from now.
    pub fn resync(&mut self, now: Duration) {
        self.next = now;
    }
}

/// The `--verbose` figures for one reporting period: the fill seen after each frame and the
/// frames emulated.
#[derive(Default)]
pub struct FillStats {
    min: usize,
    max: usize,
    sum: u64,
    samples: u64,
    frames: u64,
}

impl FillStats {
    /// Notes the fill after an emulated frame.
    pub fn record(&mut self, fill: usize) {
        if self.samples == 0 {
            self.min = fill;
            self.max = fill;
        }
        self.min = self.min.min(fill);
        self.max = self.max.max(fill);
        self.sum += fill as u64;
        self.samples += 1;
    }

    /// Notes emulated frames (with or without a fill recorded).
    pub fn frames(&mut self, n: u64) {
        self.frames += n;
    }

    /// One line for the period that lasted `wall`, and a fresh start: the fill's min/max/mean
    /// in milliseconds at `rate` Hz, the underruns so far, and the emulated speed against the
    /// console's (`nominal` frame time).
    pub fn report(
        &mut self,
        wall: Duration,
        rate: u32,
        underruns: u64,
        nominal: Duration,
    ) -> String {
        let ms = |frames: f64| frames * 1000.0 / f64::from(rate.max(1));
        let mean = if self.samples == 0 {
            0.0
        } else {
            self.sum as f64 / self.samples as f64
        };
        let emulated = self.frames as f64 * nominal.as_secs_f64();
        let speed = 100.0 * emulated / wall.as_secs_f64().max(1e-9);
        let line = format!(
            "audio: fill min {:.1} max {:.1} mean {:.1} ms, {underruns} underruns, emulated/wall {speed:.2} % ({} frames in {:.3} s)",
            ms(self.min as f64),
            ms(self.max as f64),
            ms(mean),
            self.frames,
            wall.as_secs_f64()
        );
        *self = FillStats::default();
        line
    }
}

#[cfg(test)]
mod tests;
