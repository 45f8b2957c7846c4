//! The pacer against a model of a sound device and the console's clocks, over a simulated hour.
//!
//! The device plays exactly `rate` Hz of its own clock (off from the host's by `skew`) and takes
//! `period` stereo frames per callback, counting an underrun when it finds fewer; the emulator
//! adds, per frame, the samples the console's master clock gives at `rate` Hz (whole samples,
//! the fraction carried: 53,693,175 Hz / (3420 x 262) for NTSC, 53,203,424 / (3420 x 313) for
//! PAL) and costs 3 ms of host time. Wall time is simulated; nothing sleeps.

use super::*;

const NTSC_MCLK: u64 = 53_693_175;
const PAL_MCLK: u64 = 53_203_424;
const NTSC_MCLK_PER_FRAME: u64 = 3420 * 262;
const PAL_MCLK_PER_FRAME: u64 = 3420 * 313;
/// Host time one emulated frame takes (the emulator runs at about 5x real time).
const COST: f64 = 0.003;

struct Case {
    rate: u64,
    period: u64,
    pal: bool,
    /// The device's clock against the host's: 0.005 plays 0.5 % fast.
    skew: f64,
    /// Wait the nominal frame time whatever the fill (the pacing this module replaces).
    fixed: bool,
}

#[derive(Debug)]
struct Outcome {
    frames: u64,
    /// Underruns after the first second (and in it).
    underruns: u64,
    early_underruns: u64,
    /// The fill's extremes after the first second, in frames of audio, as the loop sees it
    /// (after each emulated frame, what `--verbose` logs).
    min_fill: f64,
    /// The lowest fill just after a callback took its period, in frames of audio (a 1024-frame
    /// callback at 44.1 kHz takes 1.4 frames of NTSC sound at once).
    min_after_callback: f64,
    max_fill: f64,
    /// Emulated time minus the device's time (what the player hears), averaged over the second
    /// after the first and over the last second, in seconds.
    lead_early: f64,
    lead_late: f64,
    frame_secs: f64,
    dropped: u64,
}

fn simulate(c: &Case, secs: f64) -> Outcome {
    let (mclk, per_frame_mclk) = if c.pal {
        (PAL_MCLK, PAL_MCLK_PER_FRAME)
    } else {
        (NTSC_MCLK, NTSC_MCLK_PER_FRAME)
    };
    let frame_secs = per_frame_mclk as f64 / mclk as f64;
    let nominal = Duration::from_secs_f64(frame_secs);
    let mut pacer = Pacer::new(nominal, c.rate as f64 * frame_secs);
    // The device's rate as the host's clock sees it.
    let device_hz = c.rate as f64 * (1.0 + c.skew);
    let capacity = c.rate / 5; // AudioOutput keeps at most 200 ms
    let one_frame = c.rate as f64 * frame_secs;

    let mut fill = 0u64;
    let mut acc = 0u64; // master clock cycles times rate, not yet a whole sample
    let mut frames = 0u64;
    let mut callbacks = 0u64;
    let mut emu_at = 0.0f64;
    let mut o = Outcome {
        frames: 0,
        underruns: 0,
        early_underruns: 0,
        min_fill: f64::MAX,
        min_after_callback: f64::MAX,
        max_fill: 0.0,
        lead_early: 0.0,
        lead_late: 0.0,
        frame_secs,
        dropped: 0,
    };
    let (mut early_n, mut late_n) = (0u32, 0u32);
    loop {
        let callback_at = (callbacks * c.period) as f64 / device_hz;
        if callback_at.min(emu_at) >= secs {
            break;
        }
        let settled = |t: f64| t >= 1.0;
        if callback_at <= emu_at {
            if fill < c.period {
                if settled(callback_at) {
                    o.underruns += 1;
                } else {
                    o.early_underruns += 1;
                }
                fill = 0;
            } else {
                fill -= c.period;
            }
            callbacks += 1;
            if settled(callback_at) {
                o.min_after_callback = o.min_after_callback.min(fill as f64 / one_frame);
            }
        } else {
            acc += c.rate * per_frame_mclk;
            fill += acc / mclk;
            acc %= mclk;
            frames += 1;
            if fill > capacity {
                o.dropped += fill - capacity;
                fill = capacity;
            }
            let now = emu_at;
            if settled(now) {
                o.min_fill = o.min_fill.min(fill as f64 / one_frame);
                o.max_fill = o.max_fill.max(fill as f64 / one_frame);
            }
            let lead = frames as f64 * frame_secs - now * (1.0 + c.skew);
            if (1.0..2.0).contains(&now) {
                o.lead_early += lead;
                early_n += 1;
            }
            if now >= secs - 1.0 {
                o.lead_late += lead;
                late_n += 1;
            }
            let now_d = Duration::from_secs_f64(now);
            let resume = if c.fixed {
                pacer.wait(now_d, nominal)
            } else {
                pacer.after_frame(now_d, fill as usize)
            };
            emu_at = resume.as_secs_f64().max(now + COST);
        }
    }
    o.frames = frames;
    o.lead_early /= f64::from(early_n.max(1));
    o.lead_late /= f64::from(late_n.max(1));
    o
}

fn check(c: &Case) {
    let hour = 3600.0;
    let o = simulate(c, hour);
    let what = format!(
        "{} Hz, {}-frame callbacks, {}, device {:+.1} %: {o:?}",
        c.rate,
        c.period,
        if c.pal { "PAL" } else { "NTSC" },
        c.skew * 100.0
    );
    assert_eq!(o.underruns, 0, "underruns after the first second: {what}");
    assert_eq!(o.dropped, 0, "samples dropped at the 200 ms cap: {what}");
    assert!(
        o.min_fill >= 1.0 && o.max_fill <= CEILING_FRAMES,
        "fill outside 1..6 frames: {what}"
    );
    assert!(
        o.min_after_callback >= 0.5,
        "under half a frame of sound left after a callback: {what}"
    );
    assert!(
        (o.lead_late - o.lead_early).abs() < o.frame_secs,
        "emulated time drifted from the device's by a frame or more: {what}"
    );
    // The frame count the device's clock asks for in an hour, to within the buffer's few frames.
    let ideal = hour * (1.0 + c.skew) / o.frame_secs;
    assert!(
        (o.frames as f64 - ideal).abs() < CEILING_FRAMES,
        "{} frames for an ideal {ideal:.1}: {what}",
        o.frames
    );
}

#[test]
fn an_hour_at_the_console_rate_has_no_underruns_and_no_drift() {
    for rate in [48_000, 44_100] {
        for period in [512, 1024] {
            for pal in [false, true] {
                check(&Case {
                    rate,
                    period,
                    pal,
                    skew: 0.0,
                    fixed: false,
                });
            }
        }
    }
}

#[test]
fn a_device_clock_half_a_percent_off_is_absorbed() {
    for skew in [0.005, -0.005] {
        for rate in [48_000, 44_100] {
            for period in [512, 1024] {
                for pal in [false, true] {
                    check(&Case {
                        rate,
                        period,
                        pal,
                        skew,
                        fixed: false,
                    });
                }
            }
        }
    }
}

#[test]
fn the_simulation_catches_pacing_by_the_wall_clock_alone() {
    // Waiting the nominal frame time whatever the fill: a device 0.5 % slow overflows the
    // buffer (sound dropped, and the fill over the ceiling), one 0.5 % fast underruns.
    for skew in [-0.005, 0.005] {
        let o = simulate(
            &Case {
                rate: 48_000,
                period: 512,
                pal: false,
                skew,
                fixed: true,
            },
            600.0,
        );
        assert!(
            o.underruns > 0 || o.dropped > 0 || o.max_fill > CEILING_FRAMES,
            "{skew}: {o:?}"
        );
    }
}

#[test]
fn the_wait_is_proportional_and_bounded() {
    let nominal = Duration::from_micros(16_000);
    let per = 800.0;
    let us = |fill| frame_wait(fill, per, nominal).as_secs_f64() * 1e6;
    assert!((us(2400) - 16_000.0).abs() < 0.01, "at the target: nominal");
    assert!((us(3600) - 16_400.0).abs() < 0.01, "half over: +2.5 %");
    assert!((us(1200) - 15_600.0).abs() < 0.01, "half under: -2.5 %");
    assert!((us(0) - 15_200.0).abs() < 0.01, "empty: -5 %");
    assert!((us(4800) - 16_800.0).abs() < 0.01, "6 frames: +5 %");
    // 800 stereo frames over the ceiling is one frame time more to wait.
    assert!((us(5600) - 32_800.0).abs() < 0.01);
}

#[test]
fn the_pacer_primes_then_keeps_the_schedule() {
    let nominal = Duration::from_millis(16);
    let mut p = Pacer::new(nominal, 800.0);
    let t = Duration::from_millis(5);
    // Under the target at the start: no wait.
    assert_eq!(p.after_frame(t, 800), t);
    assert_eq!(p.after_frame(t, 1600), t);
    // At the target: one nominal frame from now, then frames follow the schedule, not the
    // moment the loop got round to asking.
    assert_eq!(p.after_frame(t, 2400), t + nominal);
    assert_eq!(
        p.after_frame(t + Duration::from_millis(20), 2400),
        t + nominal * 2
    );
    // Dry (a pause): priming again.
    let later = Duration::from_secs(10);
    assert_eq!(p.after_frame(later, 100), later);
    // Far behind without sound: a new schedule from now.
    let mut q = Pacer::new(nominal, 800.0);
    assert_eq!(q.wait(later, nominal), later);
}

#[test]
fn a_device_that_swallows_everything_does_not_unleash_the_loop() {
    // ALSA's null device takes samples as fast as they come: the fill stays 0. After a few
    // unpaced frames the waits are the controller's shortest, 95 % of a frame.
    let nominal = Duration::from_millis(16);
    let mut p = Pacer::new(nominal, 800.0);
    let mut now = Duration::ZERO;
    for i in 0..100 {
        let at = p.after_frame(now, 0);
        if i >= MAX_UNPACED {
            assert_eq!(at - now, nominal * 95 / 100, "frame {i}");
        }
        now = at;
    }
}

#[test]
fn the_verbose_line_has_the_fill_in_ms_and_the_speed() {
    let mut s = FillStats::default();
    for fill in [960, 2400, 4800] {
        s.record(fill);
    }
    s.frames(60);
    let nominal = Duration::from_secs_f64(1.0 / 60.0);
    let line = s.report(Duration::from_secs(1), 48_000, 2, nominal);
    assert_eq!(
        line,
        "audio: fill min 20.0 max 100.0 mean 56.7 ms, 2 underruns, emulated/wall 100.00 % (60 frames in 1.000 s)"
    );
    let empty = s.report(Duration::from_secs(1), 48_000, 2, nominal);
    assert!(empty.contains("0 frames"), "{empty}");
}
