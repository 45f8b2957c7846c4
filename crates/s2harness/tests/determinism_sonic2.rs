//! Determinism on Sonic 2 (ROM-gated; the test ROM's version is `megadrive/tests/determinism.rs`):
//! two runs of the boot script into Emerald Hill give bit-identical RAM, video and audio on every
//! frame, and save states taken mid-frame at random clocks (the Z80 sound driver running, DMA
//! every frame) continue bit-identically, sound included. Without a ROM each test says so.

mod common;

use megadrive::observe::observation_hash;
use megadrive::{Machine, Options, RunStop, input_script};

/// Every available revision's bytes (Rev B first), or a skip message.
fn roms(test: &str) -> Vec<Vec<u8>> {
    let roms: Vec<_> = common::available_roms()
        .into_iter()
        .map(|(path, _)| std::fs::read(&path).unwrap())
        .collect();
    if roms.is_empty() {
        println!("{}", common::skip_message(test));
    }
    roms
}

/// The boot script from `shared/` beside the repository (or `S2_BOOT_SCRIPT`), if there.
fn script() -> Option<Vec<u16>> {
    let path = std::env::var("S2_BOOT_SCRIPT").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/scripts/boot-to-ehz1.txt"
        )
        .into()
    });
    let text = std::fs::read_to_string(path).ok()?;
    Some(input_script::parse(&text).expect("boot script parses"))
}

fn console(rom: &[u8]) -> Machine {
    let mut m = Machine::new(rom.to_vec(), Options::default()).unwrap();
    m.enable_audio(48_000);
    m
}

/// RAM, Z80 RAM, VRAM, CRAM, VSRAM and the picture, hashed; the frame's audio into `audio`.
fn observe(m: &mut Machine, audio: &mut Vec<i16>) -> u64 {
    audio.clear();
    m.take_audio(audio);
    observation_hash(m)
}

#[test]
fn two_boots_into_emerald_hill_are_bit_identical() {
    let Some(pad) = script() else {
        println!("skipped: no shared/scripts/boot-to-ehz1.txt beside the repository");
        return;
    };
    for rom in roms("two_boots_into_emerald_hill_are_bit_identical")
        .into_iter()
        .take(1)
    {
        let (mut a, mut b) = (console(&rom), console(&rom));
        // `a` synthesises on the sound thread (the default), `b` on its own thread: the same
        // samples either way.
        b.set_sound_thread(false);
        let (mut sa, mut sb) = (Vec::new(), Vec::new());
        for k in 0..1500 {
            let buttons = pad.get(k).copied().unwrap_or(0);
            a.set_pad(0, buttons);
            b.set_pad(0, buttons);
            a.run_frame();
            b.run_frame();
            assert_eq!(
                observe(&mut a, &mut sa),
                observe(&mut b, &mut sb),
                "frame {k}"
            );
            assert!(sa == sb, "frame {k}: audio differs");
        }
        assert!(a.save_state() == b.save_state());
    }
}

#[test]
fn states_taken_mid_frame_in_game_continue_bit_identically() {
    let Some(pad) = script() else {
        println!("skipped: no shared/scripts/boot-to-ehz1.txt beside the repository");
        return;
    };
    for rom in roms("states_taken_mid_frame_in_game_continue_bit_identically")
        .into_iter()
        .take(1)
    {
        let mut a = console(&rom);
        // SEGA screen, title, level start, running in the level; each at an odd clock.
        let mut rng = 0x1234_5678_9ABC_DEF0u64;
        for stop_at in [200u64, 330, 700, 980, 1200] {
            while a.frame_count < stop_at {
                a.set_pad(0, pad.get(a.frame_count as usize).copied().unwrap_or(0));
                a.run_frame();
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            while a.run(rng % (262 * 3420)) == RunStop::FrameEnd {}
            let mut sa = Vec::new();
            a.take_audio(&mut sa);
            let state = a.save_state();
            a.enable_audio(48_000); // the output stage restarts on load, in both
            let mut b = console(&rom);
            b.set_sound_thread(false); // `a` keeps the sound thread: the same samples
            b.load_state(&state).unwrap();
            assert!(b.save_state() == state, "frame {stop_at}: round trip");
            let mut sb = Vec::new();
            for k in 0..30 {
                let buttons = pad.get(a.frame_count as usize).copied().unwrap_or(0);
                a.set_pad(0, buttons);
                b.set_pad(0, buttons);
                a.run_frame();
                b.run_frame();
                let (ha, hb) = (observe(&mut a, &mut sa), observe(&mut b, &mut sb));
                assert_eq!(
                    ha, hb,
                    "state from frame {stop_at}: frame {k} after loading"
                );
                assert!(
                    sa == sb,
                    "state from frame {stop_at}: frame {k}: audio differs"
                );
            }
            assert!(
                a.save_state() == b.save_state(),
                "state from frame {stop_at}"
            );
        }
    }
}
