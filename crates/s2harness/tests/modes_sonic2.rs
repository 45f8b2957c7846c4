//! Sonic 2 (Rev B, or the first revision found) headless and with pictures and sound agree on
//! everything the game can observe: the VDP status, interrupts and sprite masking after every
//! line, work RAM, VDP registers, memories and status, the Z80 and its RAM and the YM2612's
//! timers after every frame, over the benchmark script (boot, then Emerald Hill play,
//! `tools/bench/sonic2-ehz1.txt`). Needs a ROM; without one it says so and passes.

mod common;

use megadrive::clock::MCLK_PER_LINE;
use megadrive::mode::{line_difference, observable_difference};
use megadrive::vdp::status;
use megadrive::{Machine, Mode, Options, RunStop, input_script};

const SCRIPT: &str = include_str!("../../../tools/bench/sonic2-ehz1.txt");

#[test]
fn headless_and_full_agree_on_every_line_of_the_bench_script() {
    let Some((path, known)) = common::available_roms().into_iter().next() else {
        println!(
            "{}",
            common::skip_message("headless_and_full_agree_on_every_line_of_the_bench_script")
        );
        return;
    };
    let rom = std::fs::read(&path).unwrap();
    let input = input_script::parse(SCRIPT).expect("bench script parses");
    let mut full = Machine::new(rom.clone(), Options::default()).unwrap();
    full.set_mode(Mode::Full);
    let mut headless = Machine::new(rom, Options::default()).unwrap();
    headless.set_mode(Mode::Headless);
    let mut audio = Vec::new();
    let mut made_sound = false;
    // Lines after which the sprite flags were set: the evaluation has something to agree on.
    let (mut collision_lines, mut overflow_lines) = (0u64, 0u64);
    for (k, &pad) in input.iter().enumerate() {
        let frame = k + 1;
        full.set_pad(0, pad);
        headless.set_pad(0, pad);
        loop {
            let stop = full.run(MCLK_PER_LINE);
            assert_eq!(headless.run(MCLK_PER_LINE), stop, "frame {frame}");
            if let Some(d) = line_difference(&full, &headless) {
                panic!("{}: frame {frame}: {d}", known.id);
            }
            let status = full.bus.sys.vdp.status;
            collision_lines += u64::from(status & status::SPRITE_COLLISION != 0);
            overflow_lines += u64::from(status & status::SPRITE_OVERFLOW != 0);
            if stop == RunStop::FrameEnd {
                break;
            }
        }
        if let Some(d) = observable_difference(&full, &headless) {
            panic!("{}: end of frame {frame}: {d}", known.id);
        }
        full.take_audio(&mut audio);
        made_sound |= audio.iter().any(|&s| s != 0);
        audio.clear();
    }
    assert!(made_sound, "{}: the full machine made sound", known.id);
    println!(
        "{}: {} frames, headless = full on every line; sprite collision flag set after {} \
         line steps, overflow after {}",
        known.id,
        input.len(),
        collision_lines,
        overflow_lines
    );
}
