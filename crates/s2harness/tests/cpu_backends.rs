//! Our 68000 (`m68000`, the console's default) against the pinned `m68k` crate (issue 8): the
//! Sonic 2 boot script on every available revision and twenty suite scenarios in the game, with
//! work RAM, the VDP (registers, VRAM, CRAM, VSRAM, status and port state), Z80 RAM, the 68000's
//! registers and the master clock identical after every frame.
//! Needs a ROM (`$S2_ROM` or the ROM store); without one each test says so and passes.

mod common;

use std::hash::{Hash, Hasher};

use megadrive::{CpuBackend, Machine, Options, input_script};
use s2harness::game::Game;
use s2harness::store;
use s2model::Scenario;

/// `shared/scripts/boot-to-ehz1.txt` (also `s2lab bench`'s script), kept here so the test does
/// not need the shared checkout: SEGA screen, title, Emerald Hill, then run and jump.
const BOOT_SCRIPT: &str = ".*419 S*4 .*276 S*4 .*96 S*4 .*196 R*200 \
    RC*30 R*30 RC*30 R*30 RC*30 R*30 RC*30 R*30 RC*30 R*30 RC";

/// Frames of the boot script run on each revision (past Emerald Hill's title card).
const BOOT_FRAMES: usize = 1500;

/// What must agree between the cores, one digest per part so a difference is named.
fn digests(m: &Machine) -> Vec<(&'static str, u64)> {
    fn h<T: Hash + ?Sized>(v: &T) -> u64 {
        let mut s = std::hash::DefaultHasher::new();
        v.hash(&mut s);
        s.finish()
    }
    let sys = &m.bus.sys;
    let vdp = &sys.vdp;
    let r = m.cpu.registers();
    vec![
        ("work RAM", h(&sys.ram[..])),
        ("VDP registers", h(&vdp.regs)),
        ("VRAM", h(&vdp.vram[..])),
        ("CRAM", h(&vdp.cram)),
        ("VSRAM", h(&vdp.vsram)),
        ("VDP status", h(&vdp.status)),
        (
            "VDP port state",
            h(&(
                vdp.code,
                vdp.addr,
                vdp.pending,
                vdp.hint_pending,
                vdp.vint_pending,
                vdp.hint_counter,
                vdp.v_counter,
            )),
        ),
        ("Z80 RAM", h(&sys.zbus.ram()[..])),
        ("68000 registers", h(&(r.d, r.a, r.usp, r.ssp, r.sr, r.pc))),
        ("master clock", sys.now),
    ]
}

/// The parts that differ, or an empty list.
fn differences(ours: &[(&'static str, u64)], theirs: &[(&'static str, u64)]) -> Vec<&'static str> {
    ours.iter()
        .zip(theirs)
        .filter(|(a, b)| a.1 != b.1)
        .map(|(a, _)| a.0)
        .collect()
}

/// The first differing work RAM byte, for the failure message.
fn first_ram_difference(a: &Machine, b: &Machine) -> String {
    match (0..0x10000).find(|&i| a.bus.sys.ram[i] != b.bus.sys.ram[i]) {
        Some(i) => format!(
            "work RAM ${:06X}: ours ${:02X}, m68k ${:02X}",
            0xFF_0000 + i,
            a.bus.sys.ram[i],
            b.bus.sys.ram[i]
        ),
        None => "work RAM identical".into(),
    }
}

#[test]
fn boot_script_identical_on_both_cores() {
    let roms = common::available_roms();
    if roms.is_empty() {
        println!(
            "{}",
            common::skip_message("boot_script_identical_on_both_cores")
        );
        return;
    }
    let input = input_script::parse(BOOT_SCRIPT).expect("boot script parses");
    for (path, known) in roms {
        let rom = std::fs::read(&path).unwrap();
        let new = |cpu| {
            let options = Options {
                cpu,
                ..Options::default()
            };
            Machine::new(rom.clone(), options).expect("ROM loads")
        };
        let mut ours = new(CpuBackend::Ours);
        let mut theirs = new(CpuBackend::M68k);
        for frame in 1..=BOOT_FRAMES {
            let pad = input.get(frame - 1).copied().unwrap_or(0);
            for m in [&mut ours, &mut theirs] {
                m.set_pad(0, pad);
                m.run_frame();
            }
            let diff = differences(&digests(&ours), &digests(&theirs));
            assert!(
                diff.is_empty(),
                "{}: boot frame {frame}: {} differ ({}; PC ours ${:06X}, m68k ${:06X})",
                known.id,
                diff.join(", "),
                first_ram_difference(&ours, &theirs),
                ours.cpu.pc(),
                theirs.cpu.pc()
            );
        }
        println!(
            "{}: {BOOT_FRAMES} boot frames identical on ours and m68k",
            known.id
        );
    }
}

/// Twenty scenarios spread over the suites: the flat moves, the catalogue of moves, pits, both
/// random suites (1,800 frames each, so only two of each to keep the test short) and the built
/// stages.
const SCENARIOS_PER_SUITE: [(&str, usize); 6] = [
    ("flat", 6),
    ("moves", 3),
    ("pits", 3),
    ("rand-flat", 2),
    ("rand-stage", 2),
    ("stages", 4),
];

fn chosen_scenarios() -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for (suite, n) in SCENARIOS_PER_SUITE {
        let dir = common::traces_dir().join("suites").join(suite);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".scenario.json"))
            .collect();
        files.sort();
        assert!(
            files.len() >= n,
            "{}: fewer than {n} scenarios",
            dir.display()
        );
        // Evenly spaced through the sorted list.
        out.extend((0..n).map(|i| files[i * files.len() / n].clone()));
    }
    out
}

#[test]
fn suite_scenarios_identical_on_both_cores() {
    let roms = common::available_roms();
    let Some((path, known)) = roms.first() else {
        println!(
            "{}",
            common::skip_message("suite_scenarios_identical_on_both_cores")
        );
        return;
    };
    let rom = store::read_rom(path).unwrap();
    let ours = Game::boot_with_cpu(&rom, CpuBackend::Ours).unwrap();
    let theirs = Game::boot_with_cpu(&rom, CpuBackend::M68k).unwrap();
    assert_eq!(
        ours.boot_frames, theirs.boot_frames,
        "{}: boot frames",
        known.id
    );
    let scenarios = chosen_scenarios();
    assert_eq!(scenarios.len(), 20);
    let mut frames = 0;
    for file in &scenarios {
        let sc = Scenario::load(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut recorded = Vec::new();
        let ours_trace = ours
            .run_observed(&sc, |_, m| recorded.push(digests(m)))
            .unwrap_or_else(|e| panic!("{} on ours: {e}", sc.name));
        let mut k = 0;
        let theirs_trace = theirs
            .run_observed(&sc, |frame, m| {
                let diff = recorded
                    .get(frame)
                    .map(|r| differences(r, &digests(m)))
                    .unwrap_or_else(|| vec!["frame count"]);
                assert!(
                    diff.is_empty(),
                    "{} ({}): frame {frame}: {} differ",
                    sc.name,
                    known.id,
                    diff.join(", ")
                );
                k += 1;
            })
            .unwrap_or_else(|e| panic!("{} on m68k: {e}", sc.name));
        assert_eq!(k, recorded.len(), "{}: frames run", sc.name);
        assert_eq!(ours_trace, theirs_trace, "{}: traces", sc.name);
        frames += k;
    }
    println!(
        "{}: {} scenarios, {frames} frames identical on ours and m68k",
        known.id,
        scenarios.len()
    );
}
