//! The YM2612's timers, LFO, SSG-EG and CSM pinned to documented behaviour, driven through
//! register writes as a game drives them.
//!
//! Sources: YM2608/YM2612 application manuals (timer periods, the SSG-EG shapes, the LFO
//! rates); Nemesis's measurements on a Mega Drive (the timers tick once per output sample and
//! once per 16, the LFO's samples per step, SSG-EG's 4x rate and cycle end at -48 dB, CSM's
//! one-sample key-on), as summarised in jsgroth's "Emulating the YM2612" part 6 and in
//! Genesis Plus GX's change log.

use super::Ym2612;
use super::ssg;
use super::tables::{EG_ATTACK, EG_RELEASE, MAX_ATT, reg_addr};
use crate::clock::MCLK_PER_FM_SAMPLE;

fn w(ym: &mut Ym2612, part: u32, reg: u8, value: u8, now: u64) {
    ym.write(part * 2, reg, now);
    ym.write(part * 2 + 1, value, now);
}

/// The master clock of the end of sample `n` after clock 0.
fn at(n: u64) -> u64 {
    n * MCLK_PER_FM_SAMPLE
}

// ---- timers -------------------------------------------------------------------------------

/// Timer A ticks once per output sample and overflows after 1024 - TA ticks; the flag needs
/// the enable bit, and reloading keeps the period.
#[test]
fn timer_a_period_is_1024_minus_ta_samples() {
    for ta in [0u16, 1, 512, 1000, 1023] {
        let mut ym = Ym2612::new();
        w(&mut ym, 0, 0x24, (ta >> 2) as u8, 0);
        w(&mut ym, 0, 0x25, (ta & 3) as u8, 0);
        w(&mut ym, 0, 0x27, 0x05, 0); // load and enable A
        let period = 1024 - ta as u64;
        assert_eq!(ym.read(0, at(period - 1)) & 1, 0, "TA {ta}: early");
        assert_eq!(ym.read(0, at(period)) & 1, 1, "TA {ta}: on time");
        // Reset the flag (bit 4): it comes back one period later.
        w(&mut ym, 0, 0x27, 0x15, at(period));
        assert_eq!(
            ym.read(0, at(2 * period - 1)) & 1,
            0,
            "TA {ta}: second, early"
        );
        assert_eq!(ym.read(0, at(2 * period)) & 1, 1, "TA {ta}: second");
    }
}

/// Timer B ticks once per 16 samples and overflows after 256 - TB ticks.
#[test]
fn timer_b_period_is_16_x_256_minus_tb_samples() {
    for tb in [0u8, 100, 200, 255] {
        let mut ym = Ym2612::new();
        w(&mut ym, 0, 0x26, tb, 0);
        w(&mut ym, 0, 0x27, 0x0A, 0); // load and enable B
        let period = 16 * (256 - tb as u64);
        assert_eq!(ym.read(0, at(period - 1)) & 2, 0, "TB {tb}: early");
        assert_eq!(ym.read(0, at(period)) & 2, 2, "TB {tb}: on time");
    }
}

/// Without the enable bit a running timer sets no flag; without the load bit it does not run.
#[test]
fn timer_flags_need_enable_and_load() {
    let mut ym = Ym2612::new();
    w(&mut ym, 0, 0x24, 0xFF, 0);
    w(&mut ym, 0, 0x25, 0x03, 0);
    w(&mut ym, 0, 0x27, 0x01, 0); // load A, flag disabled
    assert_eq!(ym.read(0, at(10)) & 1, 0);
    let mut ym = Ym2612::new();
    w(&mut ym, 0, 0x24, 0xFF, 0);
    w(&mut ym, 0, 0x25, 0x03, 0);
    w(&mut ym, 0, 0x27, 0x04, 0); // enabled, not loaded
    assert_eq!(ym.read(0, at(10)) & 1, 0);
}

// ---- LFO ----------------------------------------------------------------------------------

/// The LFO advances one of its 128 steps every 108, 77, 71, 67, 62, 44, 8 or 5 samples
/// (frequencies 0-7; 3.85 to 83 Hz at the Mega Drive's 53,267 Hz), and holds step 0 while off.
#[test]
fn lfo_samples_per_step() {
    for (freq, per_step) in [108u32, 77, 71, 67, 62, 44, 8, 5].into_iter().enumerate() {
        let mut ym = Ym2612::new();
        ym.render = true;
        w(&mut ym, 0, 0x22, 0x08 | freq as u8, 0);
        ym.render_samples(per_step as usize - 1);
        assert_eq!(ym.lfo_step, 0, "freq {freq}");
        ym.render_samples(1);
        assert_eq!(ym.lfo_step, 1, "freq {freq}");
        ym.render_samples(per_step as usize * 127);
        assert_eq!(ym.lfo_step, 0, "freq {freq}: 128 steps a cycle");
    }
    let mut ym = Ym2612::new();
    ym.render = true;
    ym.render_samples(500);
    assert_eq!(ym.lfo_step, 0);
}

/// One operator at full level, AM on, AMS 3 (11.8 dB): the channel starts at its quietest
/// (the AM triangle starts at its top) and is loudest half a cycle later.
#[test]
fn lfo_am_starts_at_full_depth() {
    let mut ym = Ym2612::new();
    ym.render = true;
    w(&mut ym, 0, 0xB0, 0x07, 0); // algorithm 7
    w(&mut ym, 0, 0xB4, 0xF0, 0); // both sides, AMS 3, PMS 0
    for slot in 0..4u8 {
        let o = slot * 4;
        w(&mut ym, 0, 0x30 + o, 0x01, 0);
        w(&mut ym, 0, 0x40 + o, if slot == 3 { 0 } else { 0x7F }, 0);
        w(&mut ym, 0, 0x50 + o, 0x1F, 0);
        w(&mut ym, 0, 0x60 + o, 0x80, 0); // AM on
        w(&mut ym, 0, 0x80 + o, 0x00, 0);
    }
    // Block 7, F-number $400: 16 samples a period, the sine's peak on every 16th sample.
    w(&mut ym, 0, 0xA4, 0x3C, 0);
    w(&mut ym, 0, 0xA0, 0x00, 0);
    w(&mut ym, 0, 0x22, 0x0F, 0); // LFO on, fastest (5 samples a step)
    w(&mut ym, 0, 0x28, 0xF0, 0);
    let peak = |ym: &mut Ym2612, n: usize| -> i32 {
        ym.out.clear();
        let mut p = 0;
        for _ in 0..n {
            ym.render_samples(1);
            p = p.max(ym.channels[0].out.abs());
        }
        p
    };
    // Steps 0-3 (AM 126..120, the loudest at 120 units of 0.09375 dB) against steps 60-67
    // (AM 6..0..6).
    let quiet = peak(&mut ym, 20);
    ym.render_samples(5 * 56);
    let loud = peak(&mut ym, 40);
    let db = 20.0 * (loud as f64 / quiet as f64).log10();
    assert!(
        (db - 11.25).abs() < 0.3,
        "{db} dB between the top and the bottom of AM"
    );
}

// ---- SSG-EG -------------------------------------------------------------------------------

/// Channel 1, operator 4 alone, attack rate 31 (full level at key-on), decay rate `d1r`, sustain
/// level 15 (the decay runs into SSG-EG's end at $200), release 15, SSG-EG `shape`.
fn ssg_patch(shape: u8, d1r: u8) -> Ym2612 {
    let mut ym = Ym2612::new();
    ym.render = true;
    w(&mut ym, 0, 0xB0, 0x07, 0);
    let o = 0x0C; // operator 4's register slot
    w(&mut ym, 0, 0x30 + o, 0x01, 0);
    w(&mut ym, 0, 0x40 + o, 0x00, 0);
    w(&mut ym, 0, 0x50 + o, 0x1F, 0);
    w(&mut ym, 0, 0x60 + o, d1r, 0);
    w(&mut ym, 0, 0x70 + o, 0x00, 0);
    w(&mut ym, 0, 0x80 + o, 0xFF, 0);
    w(&mut ym, 0, 0x90 + o, shape, 0);
    w(&mut ym, 0, 0x28, 0x80, 0); // key on operator 4
    ym
}

/// The attenuation operator 4 of channel 1 outputs, sample by sample.
fn ssg_levels(ym: &mut Ym2612, samples: usize) -> Vec<u16> {
    let shape = ym.regs[reg_addr(0, 0x90, 3)] & 0x0F;
    (0..samples)
        .map(|_| {
            ym.render_samples(1);
            ssg::output_level(&ym.channels[0].ops[3], shape)
        })
        .collect()
}

/// The shapes of the manual's SSG-EG table over three cycles, as the ends of each cycle: `\`
/// ends quiet ($200 or more), `/` ends loud (0), `_` is held silent ($3FF), `‾` held loud.
#[test]
fn ssg_eg_shapes_of_the_manual() {
    // Decay rate 24: rate 48, one step a 3-sample EG clock, x4 in SSG-EG: $200 / 4 = 128 EG
    // clocks, 384 samples a cycle.
    let cycle = 384;
    for (shape, want) in [
        (0x08, "\\\\\\"),
        (0x09, "\\__"),
        (0x0A, "\\/\\"),
        (0x0B, "\\‾‾"),
        (0x0C, "///"),
        (0x0D, "/‾‾"),
        (0x0E, "/\\/"),
        (0x0F, "/__"),
    ] {
        let mut ym = ssg_patch(shape, 24);
        let levels = ssg_levels(&mut ym, 3 * cycle + 6);
        let mut got = String::new();
        for c in 0..3 {
            let seg = &levels[c * cycle + 3..(c + 1) * cycle];
            let (first, last) = (seg[0], seg[seg.len() - 1]);
            let flat = seg.iter().all(|&l| l == first);
            got.push(match (flat, first, last) {
                (true, 0x3FF, _) => '_',
                (true, l, _) if l < 0x10 => '‾',
                (false, f, l) if f < l => '\\',
                (false, f, l) if f > l => '/',
                _ => '?',
            });
        }
        assert_eq!(got, want, "shape {shape:#x}: levels {:?}", &levels[..12]);
    }
}

/// SSG-EG steps 4 times as fast: the first decay to $200 takes 128 EG clocks (384 samples)
/// where the plain envelope takes 512 to get there.
#[test]
fn ssg_eg_decays_four_times_as_fast() {
    let mut ym = ssg_patch(0x08, 24);
    let levels = ssg_levels(&mut ym, 400);
    let end = levels.iter().position(|&l| l >= 0x1FC).unwrap();
    assert!(
        (380..=386).contains(&end),
        "first cycle ends at sample {end}"
    );
    let mut plain = ssg_patch(0x00, 24);
    let levels = ssg_levels(&mut plain, 1600);
    let end = levels.iter().position(|&l| l >= 0x200).unwrap();
    assert!(
        (1530..=1539).contains(&end),
        "plain decay reaches $200 at {end}"
    );
}

/// Key-off keeps the level an inverted output had, then releases it.
#[test]
fn ssg_eg_key_off_keeps_the_inverted_level() {
    let mut ym = ssg_patch(0x0C, 24); // inverted from the start
    let levels = ssg_levels(&mut ym, 100);
    let before = *levels.last().unwrap();
    w(&mut ym, 0, 0x28, 0x00, 0);
    let o = &ym.channels[0].ops[3];
    assert_eq!(o.eg_phase, EG_RELEASE);
    assert_eq!(o.env, before);
    assert_eq!(ssg::output_level(o, 0x0C), before);
}

// ---- CSM ----------------------------------------------------------------------------------

/// CSM with timer A every 100 samples: channel 3's operators key on after each overflow and
/// off one sample later; register $28's key state is untouched; the timer flag is as without
/// CSM.
#[test]
fn csm_keys_channel_3_on_at_each_timer_a_overflow() {
    let mut ym = Ym2612::new();
    ym.render = true;
    w(&mut ym, 0, 0xB2, 0x07, 0);
    for slot in 0..4u8 {
        let o = slot * 4 + 2;
        w(&mut ym, 0, 0x30 + o, 0x01, 0);
        w(&mut ym, 0, 0x50 + o, 0x1F, 0); // attack 31: full level at key-on
        w(&mut ym, 0, 0x80 + o, 0x0F, 0); // release 15
    }
    let ta = 1024 - 100;
    w(&mut ym, 0, 0x24, (ta >> 2) as u8, 0);
    w(&mut ym, 0, 0x25, (ta & 3) as u8, 0);
    w(&mut ym, 0, 0x27, 0x85, 0); // CSM, load and enable A
    let mut key_ons = Vec::new();
    for n in 1..=1000u64 {
        ym.sync(at(n));
        let ops = &ym.channels[2].ops;
        if ops.iter().all(|o| o.env == 0 && o.eg_phase != EG_RELEASE) {
            key_ons.push(n);
        }
        assert!(ops.iter().all(|o| !o.key));
        assert!(ops.iter().all(|o| o.eg_phase != EG_ATTACK));
    }
    // Keyed on by the overflow at the end of sample 100k, keyed off again after the next.
    assert_eq!(key_ons, (1..=10).map(|k| 100 * k).collect::<Vec<_>>());
    assert_eq!(ym.read(0, at(1000)) & 1, 1);
    // The other channels never key on.
    assert!(ym.channels[0].ops.iter().all(|o| o.env == MAX_ATT));
}

/// Channel 3's special mode without CSM (bits 7-6 = 01) keys nothing on.
#[test]
fn special_mode_without_csm_keys_nothing() {
    let mut ym = Ym2612::new();
    ym.render = true;
    w(&mut ym, 0, 0x52 + 12, 0x1F, 0);
    w(&mut ym, 0, 0x24, 0xFF, 0);
    w(&mut ym, 0, 0x27, 0x45, 0);
    ym.sync(at(1000));
    assert!(ym.channels[2].ops.iter().all(|o| o.env == MAX_ATT));
}

// ---- robustness ---------------------------------------------------------------------------

/// Random register writes (every register, CSM and special mode, SSG-EG, LFO, timers) with
/// synthesis on never panic (overflow checks in debug builds) and keep the outputs in range.
#[test]
fn random_register_traffic_renders_in_range() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut ym = Ym2612::new();
    ym.render = true;
    let mut now = 0u64;
    for _ in 0..20_000 {
        let r = next();
        let part = (r & 1) as u32;
        let reg = (r >> 8) as u8;
        // Bias towards the interesting registers.
        let reg = if r & 0x30000 == 0 {
            0x20 + reg % 16
        } else {
            reg
        };
        w(&mut ym, part, reg, (r >> 24) as u8, now);
        now += (r >> 40) % 3000;
        ym.sync(now);
        ym.discrete = r & 0x8000_0000 != 0;
        assert!(ym.channels.iter().all(|c| (-8192..=8191).contains(&c.out)));
        assert!(
            ym.channels
                .iter()
                .all(|c| c.ops.iter().all(|o| o.env <= MAX_ATT))
        );
        ym.out.clear();
    }
}

// ---- catching up --------------------------------------------------------------------------

/// Where the chip is caught up does not change the samples: one chip is synced only at its
/// writes (long runs, where silent channels are moved in one step), the other at every
/// sample as well, under random notes (keyed on and released to silence), PM and AM, SSG-EG,
/// the DAC and CSM; the samples and the whole synthesis state agree after every write.
#[test]
fn samples_do_not_depend_on_where_the_chip_is_caught_up() {
    let mut runs = Ym2612::new();
    runs.render = true;
    let mut steps = runs.clone();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut now = 0u64;
    let mut loud = 0usize;
    for k in 0..1500 {
        let r = next();
        let writes: Vec<(u32, u8, u8)> = match r % 8 {
            0 | 1 => {
                // A note: a fast-releasing patch on a random channel, keyed on.
                let ch = (r >> 8) as u8 % 6;
                let (part, c) = (u32::from(ch / 3), ch % 3);
                let mut v = vec![
                    (part, 0xB0 + c, (r >> 16) as u8 & 0x3F),
                    (part, 0xB4 + c, 0xC0 | (r >> 24) as u8 & 0x37),
                    (part, 0xA4 + c, (r >> 32) as u8 & 0x3F),
                    (part, 0xA0 + c, (r >> 40) as u8),
                ];
                for slot in 0..4u8 {
                    let q = next();
                    let o = slot * 4 + c;
                    v.push((part, 0x30 + o, q as u8 & 0x7F));
                    v.push((part, 0x40 + o, (q >> 8) as u8 & 0x3F));
                    v.push((part, 0x50 + o, (q >> 16) as u8 | 0x18));
                    v.push((part, 0x60 + o, (q >> 24) as u8 & 0x9F));
                    v.push((part, 0x70 + o, (q >> 32) as u8 & 0x1F));
                    v.push((part, 0x80 + o, (q >> 40) as u8 | 0x0C));
                    let ssg = if q >> 48 & 7 == 0 {
                        8 | (q >> 52) as u8 & 7
                    } else {
                        0
                    };
                    v.push((part, 0x90 + o, ssg));
                }
                let key = [0, 1, 2, 4, 5, 6][ch as usize];
                v.push((0, 0x28, (r >> 48) as u8 & 0xF0 | key));
                v
            }
            2 => vec![(0, 0x28, (r >> 8) as u8 & 7)],
            3 => vec![(0, 0x22, (r >> 8) as u8 & 0x0F)],
            4 => vec![(0, 0x2B, (r >> 8) as u8 & 0x80), (0, 0x2A, (r >> 16) as u8)],
            5 => vec![
                (0, 0x24, (r >> 8) as u8),
                (0, 0x27, 0x15 | (r >> 16) as u8 & 0xC0),
            ],
            _ => vec![],
        };
        let later = now + (r >> 56) * 20 * MCLK_PER_FM_SAMPLE / 7 + 1;
        while now + MCLK_PER_FM_SAMPLE < later {
            now += MCLK_PER_FM_SAMPLE;
            steps.sync(now);
        }
        now = later;
        runs.sync(now);
        steps.sync(now);
        for (part, reg, value) in writes {
            w(&mut runs, part, reg, value, now);
            w(&mut steps, part, reg, value, now);
        }
        let first = runs.out.iter().zip(&steps.out).position(|(a, b)| a != b);
        assert!(
            runs.out.len() == steps.out.len() && first.is_none(),
            "write {k}: {} and {} samples, first difference at {first:?}",
            runs.out.len(),
            steps.out.len()
        );
        loud += runs
            .out
            .iter()
            .filter(|&&s| s.unsigned_abs() > 2000)
            .count();
        runs.out.clear();
        steps.out.clear();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        runs.save_synth(&mut a);
        steps.save_synth(&mut b);
        assert_eq!(a, b);
        assert_eq!(runs, steps);
    }
    assert!(loud > 5_000, "too little sound: {loud} loud samples");
}

/// DAC writes logged while synthesising (`dac_log`) give what a catch-up at each write
/// gives: one chip only written (its DAC bytes logged, several within a sample, long stretches
/// between catch-ups), the other caught up before each write, under FM notes on channel 6 and
/// elsewhere, the DAC turned on and off, channel 6 panned, timers running, both DAC models;
/// samples, timers, status and synthesis state agree at every catch-up, and a copy settled for
/// a save state is the per-write chip at the last write.
#[test]
fn logged_dac_writes_equal_a_catch_up_at_each_write() {
    let mut logged = Ym2612::new();
    logged.render = true;
    let mut each = logged.clone();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let both = |a: &mut Ym2612, b: &mut Ym2612, part: u32, reg: u8, value: u8, now: u64| {
        w(a, part, reg, value, now);
        b.sync(now);
        w(b, part, reg, value, now);
    };
    let mut now = 0u64;
    let mut dac_writes = 0;
    for k in 0..6000 {
        let r = next();
        match r % 16 {
            0 => {
                // A loud note on channel 6 (under the DAC when it is on) or channel 1.
                let part = (r >> 8) as u32 & 1;
                both(&mut logged, &mut each, part, 0xB0, 0x07, now);
                for slot in 0..4u8 {
                    both(&mut logged, &mut each, part, 0x40 + slot * 4, 0, now);
                    both(&mut logged, &mut each, part, 0x50 + slot * 4, 0x1F, now);
                    both(&mut logged, &mut each, part, 0x80 + slot * 4, 0x0F, now);
                }
                both(&mut logged, &mut each, part, 0xA4, 0x22, now);
                both(&mut logged, &mut each, part, 0xA0, (r >> 16) as u8, now);
                let key = if part == 1 { 6 } else { 0 };
                both(&mut logged, &mut each, 0, 0x28, 0xF0 | key, now);
            }
            1 => both(&mut logged, &mut each, 0, 0x2B, (r >> 8) as u8 & 0x80, now),
            2 => both(&mut logged, &mut each, 1, 0xB6, (r >> 8) as u8 & 0xC0, now),
            3 => {
                both(&mut logged, &mut each, 0, 0x24, (r >> 8) as u8, now);
                both(&mut logged, &mut each, 0, 0x27, 0x3F, now);
            }
            4 => {
                // A catch-up (a status read, the scheduler's), then the DAC model switched
                // where both chips are caught up.
                assert_eq!(logged.read(0, now), each.read(0, now), "status, step {k}");
                logged.discrete = r >> 8 & 1 != 0;
                each.discrete = logged.discrete;
            }
            5 => {
                let settled = logged.settled();
                let mut a = Vec::new();
                let mut b = Vec::new();
                settled.save_synth(&mut a);
                each.save_synth(&mut b);
                assert_eq!(a, b, "settled synthesis state, step {k}");
                assert_eq!(settled.synced_to, each.synced_to, "step {k}");
                assert_eq!(settled.regs, each.regs, "step {k}");
            }
            _ => {
                // DAC bytes, up to six 0 to 400 clocks apart, then a gap of up to 40 samples.
                for _ in 0..=(r >> 8) % 6 {
                    let v = next() as u8;
                    logged.write(0, 0x2A, now);
                    logged.write(1, v, now);
                    each.sync(now);
                    each.write(0, 0x2A, now);
                    each.write(1, v, now);
                    dac_writes += 1;
                    now += (r >> 16) % 400;
                }
            }
        }
        now += (r >> 32) % (40 * MCLK_PER_FM_SAMPLE) + 1;
        if r >> 60 == 0 {
            logged.sync(now);
            each.sync(now);
            assert_eq!(logged.out, each.out, "samples, step {k}");
            assert_eq!(logged, each, "chips, step {k}");
        }
    }
    logged.sync(now);
    each.sync(now);
    assert_eq!(logged.out, each.out);
    assert_eq!(logged, each);
    assert!(dac_writes > 10_000, "{dac_writes}");
    assert!(
        logged
            .out
            .iter()
            .filter(|s| s.unsigned_abs() > 1000)
            .count()
            > 100_000
    );
}
