//! Unit tests of the YM2612: the busy flag, timers, tables, envelope rates, a note, the DAC,
//! key codes, channel 3's special mode and the synthesis state's round trip.

use super::tables::{TABLES, eg_increment};
use super::*;

fn w(ym: &mut Ym2612, part: u32, reg: u8, value: u8) {
    ym.write(part * 2, reg, 0);
    ym.write(part * 2 + 1, value, 0);
}

#[test]
fn busy_after_data_write() {
    let mut ym = Ym2612::new();
    ym.write(0, 0x30, 0);
    ym.write(1, 0x00, 0);
    assert_eq!(ym.read(0, 10) & 0x80, 0x80);
    assert_eq!(ym.read(0, 32 * 42) & 0x80, 0);
}

/// Timer A with TA = 1023 overflows after one sample; timer B with TB = 255 after 16.
#[test]
fn timers_overflow() {
    let mut ym = Ym2612::new();
    for (r, v) in [(0x24, 0xFF), (0x25, 0x03), (0x26, 0xFF), (0x27, 0x0F)] {
        ym.write(0, r, 0);
        ym.write(1, v, 0);
    }
    assert_eq!(ym.read(0, 2000) & 3, 1);
    assert_eq!(ym.read(0, 17 * MCLK_PER_FM_SAMPLE) & 3, 3);
    ym.write(0, 0x27, 17 * MCLK_PER_FM_SAMPLE);
    ym.write(1, 0x3F, 17 * MCLK_PER_FM_SAMPLE);
    assert_eq!(ym.status & 3, 0);
}

/// Nemesis's tables: log-sin starts at 2137 ($859) and reaches 0 at the quarter's end;
/// the exponent table runs 0..1018; spot values from the formulas.
#[test]
fn sine_and_exp_tables() {
    let t = &*TABLES;
    assert_eq!(t.log_sin[0], 0x859);
    assert_eq!(t.log_sin[1], 0x6C3);
    assert_eq!(t.log_sin[2], 0x607);
    assert_eq!(t.log_sin[255], 0);
    assert_eq!(t.exp[0], 0);
    assert_eq!(t.exp[1], 3);
    assert_eq!(t.exp[255], 1018);
    assert!(t.log_sin.windows(2).all(|w| w[0] >= w[1]));
    assert!(t.exp.windows(2).all(|w| w[0] <= w[1]));
    // Full level at the sine's peak: (1018 | 1024) << 2 = 8168; the trough mirrors it.
    assert_eq!(t.operator(0x0FF, 0), 8168);
    assert_eq!(t.operator(0x100, 0), 8168);
    assert_eq!(t.operator(0x2FF, 0), -8168);
    // 6 dB (64 attenuation units... 6.02 dB = 1 in the log2 domain = 256 / 4 units)
    // halves the output.
    assert_eq!(t.operator(0x0FF, 64), 4084);
    // Fully attenuated.
    assert_eq!(t.operator(0x0FF, 0x3FF), 0);
}

/// The unfolded tables give the step-by-step operator for every phase and attenuation.
#[test]
fn the_operator_tables_are_the_steps() {
    let t = &*TABLES;
    for phase in 0..0x400 {
        for att in 0..=MAX_ATT as u32 {
            assert_eq!(
                t.operator(phase, att),
                t.operator_reference(phase, att),
                "{phase:03x} {att:03x}"
            );
        }
    }
}

/// Envelope rates: rates 0-1 never move, 60-63 step by 8 every EG clock, rate 4k+r steps
/// once per 2^(11-k) EG clocks.
#[test]
fn envelope_rates() {
    let total = |rate: u32| -> u32 { (0..4096u16).map(|c| eg_increment(rate, c)).sum() };
    assert_eq!(total(0), 0);
    assert_eq!(total(1), 0);
    assert_eq!(total(63), 8 * 4096);
    // Rates 8..47: each step of 4 doubles the speed.
    for r in 8..44 {
        assert_eq!(total(r + 4), 2 * total(r), "rate {r}");
    }
    assert_eq!(total(48), 4096);
    assert_eq!(total(52), 2 * 4096);
    assert_eq!(total(56), 4 * 4096);
    // Rate 44 (k = 11, row 0): one step every other EG clock.
    assert_eq!(total(44), 2048);
}

fn patch_alg7(ym: &mut Ym2612, ch: usize) {
    let part = (ch / 3) as u32;
    let c = (ch % 3) as u8;
    w(ym, part, 0xB0 + c, 0x07); // algorithm 7, no feedback
    w(ym, part, 0xB4 + c, 0xC0);
    for slot in 0..4u8 {
        let o = slot * 4 + c;
        w(ym, part, 0x30 + o, 0x01); // MUL 1
        w(ym, part, 0x40 + o, 0x00); // TL 0
        w(ym, part, 0x50 + o, 0x1F); // AR 31
        w(ym, part, 0x60 + o, 0x00);
        w(ym, part, 0x70 + o, 0x00);
        w(ym, part, 0x80 + o, 0x0F);
    }
    w(ym, part, 0xA4 + c, 0x22); // block 4
    w(ym, part, 0xA0 + c, 0x69); // F-number $269 (~ 440 Hz... 252 Hz at block 4)
}

/// Algorithm 7 with all four operators keyed on makes sound; key-off fades it out.
#[test]
fn key_on_algorithm_7_is_audible() {
    let mut ym = Ym2612::new();
    ym.render = true;
    patch_alg7(&mut ym, 0);
    ym.render_samples(100);
    let quiet: i32 = ym.out.iter().map(|&s| (s as i32).abs()).max().unwrap();
    ym.out.clear();
    w(&mut ym, 0, 0x28, 0xF0);
    assert!(ym.channels[0].ops.iter().all(|o| o.key));
    ym.render_samples(8000);
    let loud: i32 = ym.out.iter().map(|&s| (s as i32).abs()).max().unwrap();
    assert!(loud > 3000, "peak {loud} (silence {quiet})");
    // Zero crossings of the left channel: ~ the note's frequency
    // (fnum * 2^(block-1) * rate / 2^20).
    let expected = 0x269 as f64 * 8.0 * 53_267.0 / 1_048_576.0;
    let left: Vec<i32> = ym.out.iter().step_by(2).map(|&s| s as i32).collect();
    let mean = left.iter().sum::<i32>() / left.len() as i32;
    let crossings = left
        .windows(2)
        .filter(|w| (w[0] - mean < 0) != (w[1] - mean < 0))
        .count();
    let freq = crossings as f64 / 2.0 / (8000.0 / 53_267.0);
    assert!(
        (freq - expected).abs() < expected * 0.05,
        "{freq} vs {expected}"
    );
    // Key off with RR 15: silent again soon.
    w(&mut ym, 0, 0x28, 0x00);
    ym.out.clear();
    ym.render_samples(4000);
    assert!(ym.channels[0].ops.iter().all(|o| o.env == MAX_ATT));
}

/// The DAC replaces channel 6 and passes the written byte through (9-bit: (v - 128) * 2);
/// the discrete chip adds its ladder's +4 / -3 (and +4 for every silent channel).
#[test]
fn dac_passes_value_through() {
    for discrete in [false, true] {
        let mut ym = Ym2612::new();
        ym.render = true;
        ym.discrete = discrete;
        w(&mut ym, 0, 0x2B, 0x80);
        w(&mut ym, 1, 0xB6, 0x80); // channel 6 left only
        for v in [0x80u8, 0xC0, 0x40, 0xFF] {
            w(&mut ym, 0, 0x2A, v);
            ym.out.clear();
            ym.render_samples(1);
            let nine = (v as i32 - 128) * 2;
            let (left, right) = if discrete {
                let ladder = if nine >= 0 { nine + 4 } else { nine - 3 };
                let off = if nine >= 0 { 4 } else { -4 };
                // Five silent channels contribute +4 each on both sides.
                (ladder + 5 * 4, off + 5 * 4)
            } else {
                (nine, 0)
            };
            assert_eq!(ym.out[0] as i32, left * 16, "value {v:#x}");
            assert_eq!(ym.out[1] as i32, right * 16, "value {v:#x}");
        }
    }
}

/// Until $2A is written the DAC outputs the centre level (the latch clears at reset).
#[test]
fn dac_starts_at_the_centre() {
    let mut ym = Ym2612::new();
    ym.render = true;
    w(&mut ym, 0, 0x2B, 0x80);
    ym.render_samples(1);
    assert_eq!(ym.channels[5].out, 0);
    assert_eq!(ym.out[..2], [0, 0]);
}

/// Key codes and detune: the datasheet's note bits.
#[test]
fn key_code() {
    assert_eq!(super::key_code(0x000, 0), 0);
    assert_eq!(super::key_code(0x400, 0), 2);
    assert_eq!(super::key_code(0x480, 0), 3);
    assert_eq!(super::key_code(0x380, 0), 1);
    assert_eq!(super::key_code(0x37F, 7), 28);
}

/// Channel 3 special mode: op1..op3 take their own F-numbers.
#[test]
fn channel3_special_mode() {
    let mut ym = Ym2612::new();
    w(&mut ym, 0, 0xA6, 0x10);
    w(&mut ym, 0, 0xA2, 0x00);
    w(&mut ym, 0, 0xAD, 0x0A);
    w(&mut ym, 0, 0xA9, 0x11);
    assert_eq!(ym.freq(2, 0), (0x000, 2));
    w(&mut ym, 0, 0x27, 0x40);
    assert_eq!(ym.freq(2, 0), (0x211, 1));
    assert_eq!(ym.freq(2, 3), (0x000, 2));
}

/// Synthesis state round-trips.
#[test]
fn synth_state_round_trip() {
    let mut ym = Ym2612::new();
    ym.render = true;
    patch_alg7(&mut ym, 4);
    w(&mut ym, 1, 0x28, 0xF5);
    ym.render_samples(333);
    let mut a = Vec::new();
    ym.save_synth(&mut a);
    let mut other = Ym2612::new();
    assert_eq!(other.load_synth(&a), Some(a.len()));
    let mut b = Vec::new();
    other.save_synth(&mut b);
    assert_eq!(a, b);
    assert_eq!(other.channels, ym.channels);
}
