//! Determinism: two runs of the same cartridge, state and pad script give bit-identical RAM,
//! video and audio for thousands of frames; a save state taken anywhere (mid-frame, mid-DMA,
//! with the Z80 running a program) and loaded into a fresh console continues bit-identically.
//! The cartridge is our test ROM (no game ROM needed); a small Z80 program writes the PSG until
//! the test ROM takes the Z80's reset at boot, and a PSG tone written after the ROM has muted
//! the PSG keeps the audio from being silence. Sonic 2 variants: `s2harness`'s
//! `determinism_sonic2.rs` (ROM-gated).

use megadrive::observe::observation_hash;
use megadrive::{Machine, Options, RunStop};
use testsupport::Rng;

/// Z80: an endless loop latching PSG tone 0 and its volume, with a changing period.
#[rustfmt::skip]
const Z80_PSG_LOOP: [u8; 21] = [
    0x21, 0x11, 0x7F, // ld hl,$7F11
    0x3E, 0x80, 0x77, // ld a,$80 ; ld (hl),a   tone 0, low bits 0
    0x3E, 0x05, 0x77, // ld a,$05 ; ld (hl),a   high bits
    0x3E, 0x90, 0x77, // ld a,$90 ; ld (hl),a   volume 0 (loudest)
    0x04,             // loop: inc b
    0x78,             // ld a,b
    0xE6, 0x0F,       // and $0F
    0xF6, 0x80,       // or $80
    0x77,             // ld (hl),a
    0x18, 0xF7,       // jr loop
];

/// The test ROM powered on, sound output on, the Z80 loaded with its program and running.
fn console() -> Machine {
    let mut m = Machine::new(testrom::rom().to_vec(), Options::default()).unwrap();
    m.enable_audio(48_000);
    m.write_u16(0xA1_1100, 0x0100); // BUSREQ
    for (i, &b) in Z80_PSG_LOOP.iter().enumerate() {
        m.write_u8(0xA0_0000 + i as u32, b);
    }
    m.write_u16(0xA1_1200, 0x0100); // release reset
    m.write_u16(0xA1_1100, 0x0000); // release the bus
    m
}

/// A seeded pad script: one button mask per frame, held for a few frames at a time.
fn script(frames: usize, seed: u64) -> Vec<u16> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(frames);
    while out.len() < frames {
        let r = rng.next();
        out.extend(std::iter::repeat_n(
            (r & 0xFF) as u16,
            1 + (r >> 60) as usize,
        ));
    }
    out.truncate(frames);
    out
}

/// Everything observable after a frame (RAM, VRAM/CRAM/VSRAM, the picture), hashed; the frame's
/// audio into `audio` (compared on its own).
fn observe(m: &mut Machine, audio: &mut Vec<i16>) -> u64 {
    audio.clear();
    m.take_audio(audio);
    observation_hash(m)
}

#[test]
fn two_runs_are_bit_identical_for_3000_frames() {
    let pad = script(3000, 7);
    let (mut a, mut b) = (console(), console());
    // `a` synthesises on the sound thread (the default), `b` on its own thread: the same
    // samples either way.
    b.set_sound_thread(false);
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    let mut heard = false;
    for (k, &buttons) in pad.iter().enumerate() {
        a.set_pad(0, buttons);
        b.set_pad(0, buttons);
        a.run_frame();
        b.run_frame();
        if k == 0 {
            // The ROM has muted the PSG at boot (and holds the Z80 in reset): channel 1 at
            // period $80 and full volume, written through the 68000's bus.
            for m in [&mut a, &mut b] {
                for byte in [0xA0, 0x08, 0xB0] {
                    m.write_u8(0xC0_0011, byte);
                }
            }
        }
        assert_eq!(
            observe(&mut a, &mut sa),
            observe(&mut b, &mut sb),
            "frame {k}"
        );
        assert_eq!(sa, sb, "frame {k}");
        heard |= sa.iter().any(|&s| s != 0);
    }
    assert!(heard, "the PSG made no sound");
    assert_eq!(a.save_state(), b.save_state());
}

/// Takes a state from `a` where it stands, loads it into a fresh console, and checks both run
/// on identically (state, RAM, video, audio) for `frames` frames.
fn continues_identically(a: &mut Machine, frames: usize, what: &str) {
    // The sound chips are part of the state; the output stage (resampler) is the host's and
    // restarts on load, so `a`'s restarts at the same point: drain it, then start it afresh.
    let mut sa = Vec::new();
    a.take_audio(&mut sa);
    let state = a.save_state();
    a.enable_audio(48_000);
    let mut b = console();
    b.set_sound_thread(false); // `a` keeps the sound thread: the same samples either way
    b.load_state(&state).unwrap();
    assert!(
        b.save_state() == state,
        "{what}: the state does not round-trip"
    );
    let mut sb = Vec::new();
    for k in 0..frames {
        a.run_frame();
        b.run_frame();
        assert!(
            a.save_state() == b.save_state(),
            "{what}: frame {k} after loading: machine state differs"
        );
        let (ha, hb) = (observe(a, &mut sa), observe(&mut b, &mut sb));
        assert!(sa == sb, "{what}: frame {k} after loading: audio differs");
        assert_eq!(ha, hb, "{what}: frame {k} after loading");
    }
}

#[test]
fn a_state_taken_mid_frame_continues_bit_identically() {
    let mut a = console();
    let mut rng = Rng(11);
    // Stop at 25 random master clocks through the test ROM's scenes (about 750 frames in all,
    // every scene).
    for point in 0..25 {
        for _ in 0..(rng.next() % 60) {
            a.run_frame();
        }
        let budget = rng.next() % (262 * 3420);
        while a.run(budget) == RunStop::FrameEnd {}
        continues_identically(&mut a, 10, &format!("point {point}"));
    }
}

#[test]
fn a_state_taken_mid_dma_continues_bit_identically() {
    let mut a = console();
    let mut found = 0;
    // The test ROM's DMA scene (scene 8) runs 68000-to-VRAM, fill and copy DMAs; stop a
    // few clocks at a time until some are caught in flight.
    while a.frame_count < 12 * testrom::SCENE_FRAMES && found < 8 {
        a.run(997);
        if a.bus.sys.vdp.dma.length > 0 {
            found += 1;
            let what = format!("DMA in flight at frame {}", a.frame_count);
            continues_identically(&mut a, 3, &what);
        }
    }
    assert!(found >= 1, "no DMA caught in flight");
}
