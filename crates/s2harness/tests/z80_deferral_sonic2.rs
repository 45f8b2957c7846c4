//! The Z80 left unrun at line ends while it waits for an interrupt (`Bus::run_z80_at_line_end`,
//! Sonic 2's driver waiting for a DAC sample) against a run at every line end, the behaviour
//! the verified results were made with: over the benchmark script (boot, the SEGA chant, the
//! title, Emerald Hill with drums), stopped at random clocks (mid-line, mid-frame) as the
//! harness stops, both machines must agree on the Z80 (every register, R, Q, WZ, the T-state
//! count), its clocks and run bases, its RAM and bus, the 68000's stall debt and the YM2612's
//! registers after every stop, and on the whole save state after every 60th frame. Needs a
//! ROM; without one it says so and passes.

mod common;

use megadrive::clock::MCLK_PER_LINE;
use megadrive::{Machine, Mode, Options, RunStop, input_script};

const SCRIPT: &str = include_str!("../../../tools/bench/sonic2-ehz1.txt");

/// Where the two machines first differ in what the Z80 leaves behind, if they do.
fn z80_difference(a: &Machine, b: &Machine) -> Option<&'static str> {
    let (sa, sb) = (&a.bus.sys, &b.bus.sys);
    if a.bus.z80 != b.bus.z80 {
        Some("Z80")
    } else if (sa.z80_mclk, sa.z80_t_base, sa.z80_mclk_base)
        != (sb.z80_mclk, sb.z80_t_base, sb.z80_mclk_base)
    {
        Some("Z80 clock or run bases")
    } else if sa.m68k_debt_mclk != sb.m68k_debt_mclk {
        Some("68000 stall debt")
    } else if sa.zbus != sb.zbus {
        Some("Z80 RAM or bus")
    } else if sa.ym.regs != sb.ym.regs {
        Some("YM2612 registers")
    } else if sa.now != sb.now {
        Some("clock")
    } else {
        None
    }
}

#[test]
fn deferred_z80_runs_match_a_run_every_line() {
    let Some((path, _)) = common::available_roms().into_iter().next() else {
        println!(
            "{}",
            common::skip_message("deferred_z80_runs_match_a_run_every_line")
        );
        return;
    };
    let rom = std::fs::read(&path).unwrap();
    let input = input_script::parse(SCRIPT).expect("bench script parses");
    let new = |defer: bool| {
        let mut m = Machine::new(rom.clone(), Options::default()).unwrap();
        m.set_mode(Mode::Headless);
        m.bus.z80_deferral = defer;
        m
    };
    let (mut deferring, mut every_line) = (new(true), new(false));
    let mut noise = 0x2545_F491_u32;
    let mut stops = 0u64;
    for (k, &pad) in input.iter().take(2400).enumerate() {
        deferring.set_pad(0, pad);
        every_line.set_pad(0, pad);
        loop {
            noise ^= noise << 13;
            noise ^= noise >> 17;
            noise ^= noise << 5;
            // From a few clocks to about 60 lines: stops land anywhere in a line.
            let budget = 1 + (noise as u64 % (60 * MCLK_PER_LINE));
            let stop = deferring.run(budget);
            assert_eq!(stop, every_line.run(budget), "frame {}", k + 1);
            stops += 1;
            if let Some(what) = z80_difference(&deferring, &every_line) {
                panic!("{what} differs after frame {} (stop {stops})", k + 1);
            }
            if stop == RunStop::FrameEnd {
                break;
            }
        }
        if k % 60 == 59 {
            assert!(
                deferring.save_state() == every_line.save_state(),
                "save states differ after frame {}",
                k + 1
            );
        }
    }
    println!("{stops} stops");
    assert!(stops > 10_000, "{stops} stops");
}
