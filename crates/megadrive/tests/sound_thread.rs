//! Sound synthesised on the sound thread is the sound synthesised on the emulation thread:
//! two consoles run the same test ROM and the same pokes, one with the thread (the default),
//! one without, and every `take_audio` (at frame ends and mid-frame) returns the same samples
//! and every save state the same bytes, through FM notes, DAC writes, timers and CSM, YM2612
//! resets by the Z80's reset line, PSG tones, machine copies, state loads, mode switches and
//! the thread turned off and on mid-run. No ROM needed.

use megadrive::{Machine, Mode, Options, RunStop};
use testsupport::Rng;

fn console(thread: bool) -> Machine {
    let mut m = Machine::new(testrom::rom().to_vec(), Options::default()).unwrap();
    m.set_sound_thread(thread);
    m.enable_audio(44_100);
    assert_eq!(m.sound_thread(), thread);
    m
}

/// Writes YM2612 register `reg` of `part` through the 68000's window on the Z80 bus.
fn ym(m: &mut Machine, part: u32, reg: u8, value: u8) {
    m.write_u8(0xA0_4000 + part * 2, reg);
    m.write_u8(0xA0_4001 + part * 2, value);
}

/// A loud algorithm-7 patch on channel `ch` (0-5), with some LFO and SSG-EG.
fn patch(m: &mut Machine, ch: u32, rng: &mut Rng) {
    let (part, c) = (ch / 3, (ch % 3) as u8);
    ym(m, part, 0xB0 + c, 0x07 | (rng.next() as u8 & 0x38));
    ym(m, part, 0xB4 + c, 0xC0 | (rng.next() as u8 & 0x37));
    for slot in 0..4u8 {
        let o = slot * 4 + c;
        let r = rng.next();
        ym(m, part, 0x30 + o, r as u8 & 0x7F);
        ym(m, part, 0x40 + o, (r >> 8) as u8 & 0x1F);
        ym(m, part, 0x50 + o, 0x10 | (r >> 16) as u8 & 0xDF);
        ym(m, part, 0x60 + o, (r >> 24) as u8 & 0x9F);
        ym(m, part, 0x70 + o, (r >> 32) as u8 & 0x1F);
        ym(m, part, 0x80 + o, (r >> 40) as u8);
        ym(
            m,
            part,
            0x90 + o,
            if r >> 48 & 3 == 0 {
                0x08 | (r >> 50) as u8 & 7
            } else {
                0
            },
        );
    }
    let r = rng.next();
    ym(m, part, 0xA4 + c, (r as u8) & 0x3F);
    ym(m, part, 0xA0 + c, (r >> 8) as u8);
}

/// One random poke of the sound chips, the same on every console in `ms`.
fn poke(ms: &mut [Machine], rng: &mut Rng) {
    let r = rng.next();
    let seed = Rng(rng.next());
    for m in ms.iter_mut() {
        let mut rng = Rng(seed.0);
        m.write_u16(0xA1_1100, 0x0100); // BUSREQ
        match r % 10 {
            0..=2 => {
                let ch = (r >> 8) as u32 % 6;
                patch(m, ch, &mut rng);
                let key = [0, 1, 2, 4, 5, 6][ch as usize];
                ym(m, 0, 0x28, 0xF0 | key);
            }
            3 => ym(m, 0, 0x28, (r >> 8) as u8 & 7), // key off
            4 => {
                // The DAC on, and a few samples.
                ym(m, 0, 0x2B, 0x80);
                for k in 0..4 {
                    ym(m, 0, 0x2A, (r >> (8 * k)) as u8);
                }
            }
            5 => ym(m, 0, 0x2B, 0x00),
            6 => {
                // Timers, sometimes with CSM, and the LFO.
                ym(m, 0, 0x24, (r >> 8) as u8);
                ym(m, 0, 0x26, (r >> 16) as u8);
                ym(m, 0, 0x27, 0x3F | if r >> 24 & 1 != 0 { 0x80 } else { 0 });
                ym(m, 0, 0x22, (r >> 32) as u8 & 0x0F);
            }
            7 => {
                // The Z80's reset line resets the YM2612.
                m.write_u16(0xA1_1200, 0x0000);
                m.write_u16(0xA1_1200, 0x0100);
            }
            _ => {
                // A PSG tone.
                let ch = (r >> 8) as u8 % 3;
                m.write_u8(0xC0_0011, 0x80 | ch << 5 | (r >> 16) as u8 & 0x0F);
                m.write_u8(0xC0_0011, (r >> 24) as u8 & 0x3F);
                m.write_u8(0xC0_0011, 0x90 | ch << 5 | (r >> 32) as u8 & 0x07);
            }
        }
        m.write_u16(0xA1_1100, 0x0000);
    }
}

/// One step of both tests: sometimes register writes, then part of a frame or a whole one,
/// alike on every console. Returns the step's random draw for the caller's own choices.
fn advance(ms: &mut [Machine], rng: &mut Rng) -> u64 {
    let r = rng.next();
    if r.is_multiple_of(3) {
        poke(ms, rng);
    }
    if r >> 8 & 1 == 0 {
        let budget = rng.next() % (262 * 3420);
        for m in ms.iter_mut() {
            while m.run(budget) == RunStop::FrameEnd {}
        }
    } else {
        for m in ms.iter_mut() {
            m.run_frame();
        }
    }
    r
}

#[test]
fn the_sound_thread_gives_the_samples_of_one_thread() {
    // ms[0] synthesises on the thread (and is copied, reloaded and switched), ms[1] never does.
    let mut ms = [console(true), console(false)];
    let mut rng = Rng(0x5EED_0A0D_1000);
    let mut loud = 0usize;
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    for step in 0..700 {
        let r = advance(&mut ms, &mut rng);
        // Mostly taken every step; otherwise the copies, loads and states below meet samples
        // made but not taken yet.
        if r >> 12 & 3 != 0 {
            sa.clear();
            sb.clear();
            ms[0].take_audio(&mut sa);
            ms[1].take_audio(&mut sb);
            assert!(sa == sb, "step {step}: samples differ");
            loud += sa.iter().filter(|&&s| s.unsigned_abs() > 1000).count();
        }
        match r >> 16 & 31 {
            0 => assert!(
                ms[0].save_state() == ms[1].save_state(),
                "step {step}: state"
            ),
            1 => ms[0] = ms[0].clone(),
            2 => {
                // The threaded console loads the other's state (and its output stage stays).
                let state = ms[1].save_state();
                ms[0].load_state(&state).unwrap();
                ms[1].load_state(&state).unwrap();
            }
            3 => {
                let on = !ms[0].sound_thread();
                ms[0].set_sound_thread(on);
            }
            4 => {
                // Sound off and on again: the output stage restarts in both.
                for m in ms.iter_mut() {
                    m.set_mode(Mode::Video);
                    m.run(3000);
                    m.set_mode(Mode::Full);
                }
            }
            _ => {}
        }
    }
    assert!(ms[0].save_state() == ms[1].save_state(), "final state");
    assert!(
        loud > 10_000,
        "too little sound to compare: {loud} loud samples"
    );
}

/// `take_audio_ready` returns, on two threaded consoles whose workers run at their own pace,
/// the same samples at every call (they depend on the emulated clock alone), and its samples
/// followed by a `take_audio`'s are those of `take_audio`s on one thread, through copies,
/// the thread turned off and on, and sound switched off and on.
#[test]
fn ready_takes_are_the_samples_of_one_thread_later() {
    // ms[0] and ms[1] take what the thread has finished, ms[2] everything on one thread.
    let mut ms = [console(true), console(true), console(false)];
    let mut rng = Rng(0x5EED_0A0D_2000);
    let (mut threaded, mut one) = (Vec::new(), Vec::new());
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    let mut ready = 0usize;
    for step in 0..500 {
        let r = advance(&mut ms, &mut rng);
        sa.clear();
        sb.clear();
        let flush = r >> 12 & 7 == 0;
        if flush {
            ms[0].take_audio(&mut sa);
            ms[1].take_audio(&mut sb);
        } else {
            ms[0].take_audio_ready(&mut sa);
            ms[1].take_audio_ready(&mut sb);
            ready += sa.len();
        }
        assert!(sa == sb, "step {step}: ready samples differ");
        threaded.extend_from_slice(&sa);
        ms[2].take_audio(&mut one);
        if flush {
            assert!(threaded == one, "step {step}: samples differ");
        } else {
            assert!(one.starts_with(&threaded), "step {step}: samples differ");
        }
        match r >> 16 & 15 {
            0 => {
                ms[0] = ms[0].clone();
                ms[1] = ms[1].clone();
            }
            1 => {
                let on = !ms[0].sound_thread();
                ms[0].set_sound_thread(on);
                ms[1].set_sound_thread(on);
            }
            2 => {
                // Sound off and on again: what was not taken is lost, in every console alike
                // once the threaded ones have taken it all.
                sa.clear();
                sb.clear();
                ms[0].take_audio(&mut sa);
                ms[1].take_audio(&mut sb);
                assert!(sa == sb, "step {step}: the rest differs");
                threaded.extend_from_slice(&sa);
                assert!(threaded == one, "step {step}: samples differ");
                for m in ms.iter_mut() {
                    m.set_mode(Mode::Video);
                    m.run(3000);
                    m.set_mode(Mode::Full);
                }
            }
            _ => {}
        }
    }
    ms[0].take_audio(&mut threaded);
    assert!(threaded == one, "final samples differ");
    assert!(ready > 100_000, "too few ready samples: {ready}");
}
