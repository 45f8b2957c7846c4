//! The console's two 68000 backends (ours, the default, and the pinned `m68k`): our test ROM
//! runs identically on both, and a save state carries whichever core made it.

use megadrive::{CpuBackend, Machine, Options, StateError};

fn machine(cpu: CpuBackend) -> Machine {
    let options = Options {
        cpu,
        ..Options::default()
    };
    Machine::new(testrom::rom().to_vec(), options).unwrap()
}

#[test]
fn ours_is_the_default() {
    assert_eq!(Options::default().cpu, CpuBackend::Ours);
    assert_eq!(
        Machine::new(testrom::rom().to_vec(), Options::default())
            .unwrap()
            .cpu
            .backend(),
        CpuBackend::Ours
    );
    assert_eq!("m68k".parse::<CpuBackend>(), Ok(CpuBackend::M68k));
    assert!("musashi".parse::<CpuBackend>().is_err());
}

/// Every scene of the test ROM (VDP, DMA, interrupts, Z80): RAM, VRAM, CRAM, VSRAM, Z80 RAM,
/// registers and the clock agree after every frame.
#[test]
fn test_rom_identical_on_both_cores() {
    let mut ours = machine(CpuBackend::Ours);
    let mut theirs = machine(CpuBackend::M68k);
    let frames = testrom::SCENE_FRAMES * testrom::SCENES.len() as u64;
    for frame in 1..=frames {
        ours.run_frame();
        theirs.run_frame();
        let (a, b) = (&ours.bus.sys, &theirs.bus.sys);
        assert!(a.ram == b.ram, "frame {frame}: work RAM");
        assert!(a.vdp.vram == b.vdp.vram, "frame {frame}: VRAM");
        assert_eq!(a.vdp.cram, b.vdp.cram, "frame {frame}: CRAM");
        assert_eq!(a.vdp.vsram, b.vdp.vsram, "frame {frame}: VSRAM");
        assert_eq!(a.vdp.regs, b.vdp.regs, "frame {frame}: VDP registers");
        assert_eq!(a.vdp.status, b.vdp.status, "frame {frame}: VDP status");
        assert!(a.zbus.ram() == b.zbus.ram(), "frame {frame}: Z80 RAM");
        assert_eq!(
            ours.cpu.registers(),
            theirs.cpu.registers(),
            "frame {frame}: 68000 registers"
        );
        assert_eq!(a.now, b.now, "frame {frame}: master clock");
    }
}

#[test]
fn a_state_carries_its_core() {
    for cpu in CpuBackend::ALL {
        let mut a = machine(cpu);
        for _ in 0..40 {
            a.run_frame();
        }
        let saved = a.save_state();
        // Loaded into a machine built with the other core, the state brings its own back.
        let other = if cpu == CpuBackend::Ours {
            CpuBackend::M68k
        } else {
            CpuBackend::Ours
        };
        let mut b = machine(other);
        b.load_state(&saved).unwrap();
        assert_eq!(b.cpu.backend(), cpu);
        assert_eq!(b.save_state(), saved, "{cpu}");
        for _ in 0..20 {
            a.run_frame();
            b.run_frame();
        }
        assert_eq!(a.save_state(), b.save_state(), "{cpu}");
    }
}

#[test]
fn states_of_the_previous_format_are_refused() {
    let mut m = machine(CpuBackend::Ours);
    let mut saved = m.save_state();
    saved[4..8].copy_from_slice(&3u32.to_le_bytes());
    assert!(matches!(
        m.load_state(&saved),
        Err(StateError::Version { found: 3, .. })
    ));
    // An unknown core tag is named, not a panic.
    let mut bad = m.save_state();
    // Magic, version, ROM length and hash, line, phase, frame count, line start: the tag.
    let tag = 4 + 4 + 8 + 8 + 2 + 1 + 8 + 8;
    bad[tag] = 9;
    assert!(matches!(
        m.load_state(&bad),
        Err(StateError::Invalid { what, .. }) if what.contains("core tag")
    ));
}

/// A bus whose reads depend only on the address (writes are dropped), so every opcode starts
/// from the same state: SSP $8000, PC $1000, the opcode there, $0002 everywhere else (even
/// displacements and addresses, no address errors).
struct PatternBus {
    op: u16,
}

impl m68000::Bus for PatternBus {
    fn read_word(&mut self, addr: u32, _: m68000::FunctionCode, _: u64) -> u16 {
        match addr {
            0 | 4 => 0,
            2 => 0x8000,
            6 => 0x1000,
            0x1000 => self.op,
            _ => 0x0002,
        }
    }
    fn read_byte(&mut self, _: u32, _: m68000::FunctionCode, _: u64) -> u8 {
        0x02
    }
    fn write_word(&mut self, _: u32, _: u16, _: m68000::FunctionCode, _: u64) {}
    fn write_byte(&mut self, _: u32, _: u8, _: m68000::FunctionCode, _: u64) {}
}

/// The console charges Genesis Plus GX 1.7's clocks either way: `m68k`'s figures through
/// `gpgx17_clocks`, ours by the core's own `GPGX_1_7` profile. For every opcode, with bit
/// numbers below and above 16, the profile gives what the table would make of our hardware
/// figures, so the two routes are interchangeable.
#[test]
fn our_gpgx_profile_equals_the_console_table_on_every_opcode() {
    let clocks = |op: u16, d: u32, timing: m68000::Timing| {
        let mut bus = PatternBus { op };
        let mut cpu = m68000::Cpu::new();
        cpu.timing = timing;
        cpu.reset(&mut bus);
        cpu.regs[..8].fill(d);
        cpu.regs[8..15].fill(0x2000);
        let start = cpu.cycles;
        cpu.step(&mut bus);
        (cpu.cycles - start) as u32
    };
    let mut differ = Vec::new();
    for op in 0..=u16::MAX {
        for d in [3, 20] {
            let hardware = clocks(op, d, m68000::Timing::Hardware);
            let profile = clocks(op, d, m68000::Timing::GPGX_1_7);
            let table = megadrive::cpu68k::gpgx17_clocks(op, hardware);
            if profile != table {
                differ.push(format!(
                    "{op:04X} (D={d}): profile {profile}, table {table} (hardware {hardware})"
                ));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} opcodes differ:\n{}",
        differ.len(),
        differ[..differ.len().min(20)].join("\n")
    );
}
