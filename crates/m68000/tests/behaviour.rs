//! Behaviour the single-instruction vectors do not reach: interrupts and their acknowledge
//! cycle, STOP, the double bus fault, the RESET line, TAS's write hook and the Genesis Plus GX
//! timing profile. Expected figures come from the M68000 user's manual (interrupt entry: 44
//! clocks with the acknowledge cycle; a double bus fault halts) and, for the profile, from
//! Genesis Plus GX 1.7's per-opcode table as `Timing` documents it.

use m68000::{
    Boundary, BoundaryControl, BoundaryExit, Bus, Cpu, FunctionCode, InterruptAck, RunState, Timing,
};

struct Ram {
    mem: Vec<u8>,
    acks: Vec<(u8, u64)>,
    resets: Vec<u64>,
    tas_writes: Vec<u32>,
}

impl Ram {
    fn new(program: &[u16]) -> Self {
        let mut mem = vec![0; 1 << 24];
        // Reset vectors: SSP $10000, PC $1000.
        mem[0..8].copy_from_slice(&[0, 1, 0, 0, 0, 0, 0x10, 0]);
        for (i, w) in program.iter().enumerate() {
            mem[0x1000 + 2 * i] = (w >> 8) as u8;
            mem[0x1001 + 2 * i] = *w as u8;
        }
        Self {
            mem,
            acks: Vec::new(),
            resets: Vec::new(),
            tas_writes: Vec::new(),
        }
    }
    fn word(&self, a: u32) -> u16 {
        (self.mem[a as usize] as u16) << 8 | self.mem[a as usize + 1] as u16
    }
    fn set_long(&mut self, a: u32, v: u32) {
        self.mem[a as usize..a as usize + 4].copy_from_slice(&v.to_be_bytes());
    }
}

impl Bus for Ram {
    fn read_word(&mut self, addr: u32, _fc: FunctionCode, _cycle: u64) -> u16 {
        self.word(addr)
    }
    fn read_byte(&mut self, addr: u32, _fc: FunctionCode, _cycle: u64) -> u8 {
        self.mem[addr as usize]
    }
    fn write_word(&mut self, addr: u32, value: u16, _fc: FunctionCode, _cycle: u64) {
        self.mem[addr as usize] = (value >> 8) as u8;
        self.mem[addr as usize + 1] = value as u8;
    }
    fn write_byte(&mut self, addr: u32, value: u8, _fc: FunctionCode, _cycle: u64) {
        self.mem[addr as usize] = value;
    }
    fn tas_write(&mut self, addr: u32, _value: u8, _fc: FunctionCode, _cycle: u64) {
        // The Mega Drive drops TAS's write-back.
        self.tas_writes.push(addr);
    }
    fn interrupt_acknowledge(&mut self, level: u8, cycle: u64) -> InterruptAck {
        self.acks.push((level, cycle));
        InterruptAck::Autovector
    }
    fn reset_devices(&mut self, cycle: u64) {
        self.resets.push(cycle);
    }
}

fn boot(program: &[u16]) -> (Cpu, Ram) {
    let mut bus = Ram::new(program);
    let mut cpu = Cpu::new();
    cpu.reset(&mut bus);
    cpu.cycles = 0;
    (cpu, bus)
}

#[test]
fn reset_loads_ssp_and_pc_and_fills_the_queue() {
    let (cpu, _) = boot(&[0x4E71, 0x4E72]);
    assert_eq!(cpu.regs[15], 0x10000);
    assert_eq!(cpu.instruction_pc(), 0x1000);
    assert_eq!((cpu.ird, cpu.irc), (0x4E71, 0x4E72));
    assert_eq!(cpu.sr, 0x2700);
}

#[test]
fn autovectored_interrupt_takes_44_clocks_and_masks_its_level() {
    // MOVE #$2300,SR ; NOP ; NOP
    let (mut cpu, mut bus) = boot(&[0x46FC, 0x2300, 0x4E71, 0x4E71]);
    bus.set_long(0x78, 0x2000); // level 6 autovector
    bus.mem[0x2000] = 0x4E;
    bus.mem[0x2001] = 0x71;
    cpu.step(&mut bus);
    let before = cpu.cycles;
    cpu.set_ipl(6);
    cpu.step(&mut bus);
    assert_eq!(cpu.cycles - before, 44);
    assert_eq!(bus.acks.len(), 1);
    assert_eq!(bus.acks[0].0, 6);
    assert_eq!(cpu.instruction_pc(), 0x2000);
    assert_eq!(cpu.sr & 0x0700, 0x0600);
    // Stacked: SR $2300 and the PC of the next instruction ($1004).
    assert_eq!(bus.word(0xFFFA), 0x2300);
    assert_eq!(
        (bus.word(0xFFFC) as u32) << 16 | bus.word(0xFFFE) as u32,
        0x1004
    );
    // The acknowledge lets go of IPL.
    assert_eq!(cpu.ipl, 0);
}

#[test]
fn masked_interrupt_waits() {
    let (mut cpu, mut bus) = boot(&[0x4E71, 0x4E71]);
    cpu.set_ipl(5);
    cpu.step(&mut bus);
    assert!(bus.acks.is_empty());
    assert_eq!(cpu.instruction_pc(), 0x1002);
}

#[test]
fn stop_waits_for_an_interrupt_and_returns_after_itself() {
    // STOP #$2000
    let (mut cpu, mut bus) = boot(&[0x4E72, 0x2000, 0x4E71]);
    bus.set_long(0x70, 0x3000); // level 4 autovector
    cpu.step(&mut bus);
    assert_eq!(cpu.state, RunState::Stopped);
    cpu.run(&mut bus, 1000);
    assert_eq!(cpu.cycles, 1000);
    assert!(bus.acks.is_empty());
    cpu.set_ipl(4);
    cpu.step(&mut bus);
    assert_eq!(cpu.state, RunState::Running);
    assert_eq!(cpu.instruction_pc(), 0x3000);
    let stacked = (bus.word(0xFFFC) as u32) << 16 | bus.word(0xFFFE) as u32;
    assert_eq!(stacked, 0x1004, "returns to the instruction after STOP");
}

#[test]
fn double_bus_fault_halts_and_the_clock_runs_on() {
    // MOVEA.L #$10001,A7 (odd SSP) ; MOVE.W (A0),D0 with A0 odd.
    let (mut cpu, mut bus) = boot(&[0x2E7C, 0x0001, 0x0001, 0x3010]);
    cpu.regs[8] = 0x4001;
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert_eq!(cpu.state, RunState::Halted);
    cpu.run(&mut bus, 100_000);
    assert_eq!(cpu.cycles, 100_000);
    assert_eq!(cpu.state, RunState::Halted);
    // Only a reset brings it back.
    cpu.reset(&mut bus);
    assert_eq!(cpu.state, RunState::Running);
}

#[test]
fn reset_instruction_drives_the_line_and_takes_132_clocks() {
    let (mut cpu, mut bus) = boot(&[0x4E70, 0x4E71]);
    cpu.step(&mut bus);
    assert_eq!(bus.resets, vec![0]);
    assert_eq!(cpu.cycles, 132);
}

#[test]
fn tas_write_goes_through_the_hook() {
    // TAS ($2000).W
    let (mut cpu, mut bus) = boot(&[0x4AF8, 0x2000, 0x4E71]);
    bus.mem[0x2000] = 0x01;
    cpu.step(&mut bus);
    assert_eq!(bus.tas_writes, vec![0x2000]);
    assert_eq!(bus.mem[0x2000], 0x01, "this bus dropped the write-back");
    assert_eq!(cpu.cycles, 18);
}

/// Clocks of one instruction under `timing`, with D0 = `d0` (bit numbers).
fn clocks(program: &[u16], timing: Timing, d0: u32) -> u64 {
    let (mut cpu, mut bus) = boot(program);
    cpu.timing = timing;
    cpu.regs[0] = d0;
    cpu.regs[8] = 0x2000;
    cpu.step(&mut bus);
    cpu.cycles
}

#[test]
fn genesis_plus_gx_profile() {
    let cases: &[(&[u16], u32, u64, u64)] = &[
        // (program, D0, hardware, Genesis Plus GX 1.7)
        (&[0x0141], 3, 6, 8),                   // BCHG D0,D1 (bit 3)
        (&[0x0141], 20, 8, 8),                  // BCHG D0,D1 (bit 20)
        (&[0x0181], 3, 8, 10),                  // BCLR D0,D1
        (&[0x01C1], 3, 6, 8),                   // BSET D0,D1
        (&[0x0841, 0x0003], 0, 10, 12),         // BCHG #3,D1
        (&[0x0881, 0x0003], 0, 12, 14),         // BCLR #3,D1
        (&[0x013C, 0x0055], 0, 10, 8),          // BTST D0,#$55
        (&[0x0281, 0x0000, 0xFFFF], 0, 16, 14), // ANDI.L #$FFFF,D1
        (&[0x5848], 0, 8, 4),                   // ADDQ.W #4,A0
        (&[0x5888], 0, 8, 8),                   // ADDQ.L #4,A0
        (&[0x4AD0], 0, 14, 18),                 // TAS (A0)
        (&[0x0101], 3, 6, 6),                   // BTST D0,D1: same in both
    ];
    for &(program, d0, hw, gpgx) in cases {
        assert_eq!(
            clocks(program, Timing::Hardware, d0),
            hw,
            "hardware {:04x}",
            program[0]
        );
        assert_eq!(
            clocks(program, Timing::GPGX_1_7, d0),
            gpgx,
            "gpgx {:04x}",
            program[0]
        );
    }
}

#[test]
fn boundaries_report_each_instruction_and_the_interrupt_entry() {
    // MOVE #$2300,SR ; NOP ; NOP ; NOP
    let (mut cpu, mut bus) = boot(&[0x46FC, 0x2300, 0x4E71, 0x4E71, 0x4E71]);
    bus.set_long(0x78, 0x1006);
    let mut seen = Vec::new();
    let exit = cpu.run_with_boundaries(&mut bus, |_, b, _| {
        seen.push(b);
        BoundaryControl {
            stop: seen.len() == 3,
            // V-int asserted after the first NOP, dropped once taken (the VDP's acknowledge).
            irq_level: if seen.len() == 2 && !b.interrupt {
                6
            } else {
                0
            },
        }
    });
    assert_eq!(exit, BoundaryExit::Requested);
    let want = [
        Boundary {
            cpu_clocks: 16,
            pc: 0x1004,
            interrupt: false,
            opcode: 0x46FC,
        },
        Boundary {
            cpu_clocks: 4,
            pc: 0x1006,
            interrupt: false,
            opcode: 0x4E71,
        },
        Boundary {
            cpu_clocks: 44,
            pc: 0x1006,
            interrupt: true,
            opcode: 0x4E71,
        },
    ];
    assert_eq!(seen, want);
}

#[test]
fn trace_follows_the_instruction() {
    // ORI #$8000,SR (T on) ; NOP ; NOP
    let (mut cpu, mut bus) = boot(&[0x007C, 0x8000, 0x4E71, 0x4E71]);
    bus.set_long(0x24, 0x3000); // trace vector
    cpu.step(&mut bus); // T is set by this instruction: no trace after it
    assert_eq!(cpu.instruction_pc(), 0x1004);
    let before = cpu.cycles;
    cpu.step(&mut bus); // NOP, then the trace exception
    assert_eq!(cpu.cycles - before, 4 + 34);
    assert_eq!(cpu.instruction_pc(), 0x3000);
    assert_eq!(cpu.sr & 0x8000, 0, "trace off in the handler");
    assert_eq!(bus.word(0xFFFA), 0xA700, "stacked SR keeps T");
    let stacked = (bus.word(0xFFFC) as u32) << 16 | bus.word(0xFFFE) as u32;
    assert_eq!(stacked, 0x1006, "the instruction after the NOP");
}

#[test]
fn idle_loop_passes_compare_equal_but_for_the_clock() {
    // loop: BRA.S loop
    let (mut cpu, mut bus) = boot(&[0x60FE]);
    cpu.step(&mut bus);
    let first = cpu.clone();
    cpu.step(&mut bus);
    assert!(cpu.same_state_but_clock(&first));
    assert_ne!(cpu, first, "the clock moved");
    assert_eq!(cpu.cycles - first.cycles, 10);
}
