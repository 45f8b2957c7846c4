//! `Cpu::skip_loop_passes` against stepping: a scan loop run with its zero passes skipped
//! must reach every boundary at or after the host's deadline, and the loop's exit, in the
//! state (registers, flags, queue, clock) the stepped instructions reach, which the
//! SingleStepTests vectors verify one by one. The loops are assembled by hand (GNU as
//! `-m68000` gave the words) in the three shapes the decoder takes: `bne.w` from d16(An),
//! `beq.s` over a body from (An), and TST with a negative step; fills of words and longs and
//! `dbf Dm,*` delays, nybble packing, table fills and
//! window copies the same way.

use m68000::{Bus, Cpu, FunctionCode};

const ROM_END: u32 = 0x10_0000;
const RAM: u32 = 0xFF_0000;

struct Machine {
    mem: Vec<u8>,
}

impl Machine {
    fn new(origin: u32, program: &[u16]) -> Self {
        let mut mem = vec![0; 1 << 24];
        // Reset vectors: SSP $FFFE00, PC `origin`.
        mem[0..4].copy_from_slice(&0xFF_FE00u32.to_be_bytes());
        mem[4..8].copy_from_slice(&origin.to_be_bytes());
        for (i, w) in program.iter().enumerate() {
            let a = origin as usize + 2 * i;
            mem[a..a + 2].copy_from_slice(&w.to_be_bytes());
        }
        Self { mem }
    }
    fn word(&self, a: u32) -> u16 {
        u16::from_be_bytes([self.mem[a as usize], self.mem[a as usize + 1]])
    }
}

impl Bus for Machine {
    fn read_word(&mut self, addr: u32, _fc: FunctionCode, _cycle: u64) -> u16 {
        self.word(addr)
    }
    fn read_byte(&mut self, addr: u32, _fc: FunctionCode, _cycle: u64) -> u8 {
        self.mem[addr as usize]
    }
    fn write_word(&mut self, addr: u32, value: u16, _fc: FunctionCode, _cycle: u64) {
        self.mem[addr as usize..addr as usize + 2].copy_from_slice(&value.to_be_bytes());
    }
    fn write_byte(&mut self, addr: u32, value: u8, _fc: FunctionCode, _cycle: u64) {
        self.mem[addr as usize] = value;
    }
    fn fetch_fast(&self, addr: u32) -> Option<u16> {
        (addr < ROM_END).then(|| self.word(addr))
    }
    fn peek_byte(&self, addr: u32) -> Option<u8> {
        (!(ROM_END..RAM).contains(&addr)).then(|| self.mem[addr as usize])
    }
    fn poke_word(&mut self, addr: u32, value: u16) -> bool {
        // RAM from $FF0000, but for a watched word at $FFF000.
        if addr < RAM || addr == 0xFF_F000 {
            return false;
        }
        self.mem[addr as usize..addr as usize + 2].copy_from_slice(&value.to_be_bytes());
        true
    }
    fn poke_byte(&mut self, addr: u32, value: u8) -> bool {
        if addr < RAM || addr == 0xFF_F001 {
            return false;
        }
        self.mem[addr as usize] = value;
        true
    }
}

/// Runs from reset until the instruction at `exit`, skipping scan passes (deadline
/// `deadline`) when `skip`; returns the CPU at the first boundary at or after the deadline
/// and at the exit.
fn run(
    origin: u32,
    program: &[u16],
    setup: &dyn Fn(&mut Cpu, &mut Machine),
    exit: u32,
    deadline: u64,
    skip: bool,
) -> (Option<Cpu>, Cpu, u32, Vec<u8>) {
    let mut bus = Machine::new(origin, program);
    let mut cpu = Cpu::new();
    cpu.reset(&mut bus);
    cpu.cycles = 0;
    setup(&mut cpu, &mut bus);
    let mut at_deadline = None;
    let mut skips = 0;
    for _ in 0..100_000 {
        if at_deadline.is_none() && cpu.cycles >= deadline {
            at_deadline = Some(cpu.clone());
        }
        if cpu.instruction_pc() == exit {
            return (at_deadline, cpu, skips, bus.mem[RAM as usize..].to_vec());
        }
        let from = cpu.instruction_pc();
        cpu.step(&mut bus);
        if skip && cpu.instruction_pc() <= from && cpu.skip_loop_passes(&mut bus, deadline) {
            skips += 1;
        }
    }
    panic!("the loop did not reach {exit:#x}");
}

fn check(origin: u32, program: &[u16], setup: &dyn Fn(&mut Cpu, &mut Machine), exit: u32) -> u32 {
    let mut skipped = 0;
    for deadline in [0, 1, 40, 41, 42, 43, 100, 300, 1000, 5000, u64::MAX] {
        let stepped = run(origin, program, setup, exit, deadline, false);
        let skipping = run(origin, program, setup, exit, deadline, true);
        assert_eq!(stepped.0, skipping.0, "at deadline {deadline}");
        assert_eq!(stepped.1, skipping.1, "at the exit, deadline {deadline}");
        assert!(
            stepped.3 == skipping.3,
            "memory differs, deadline {deadline}"
        );
        skipped += skipping.2;
    }
    skipped
}

#[test]
fn bne_word_from_d16_an() {
    // L: move.b $20(a1),d0 / bne.w F / lea $40(a1),a1 / dbf d6,L / moveq #0,d0 / nop / F: nop
    let program = [
        0x1029, 0x0020, 0x6600, 0x000E, 0x43E9, 0x0040, 0x51CE, 0xFFF2, 0x7000, 0x4E71, 0x4E71,
    ];
    for found in [None, Some(0), Some(1), Some(37)] {
        let setup = move |cpu: &mut Cpu, bus: &mut Machine| {
            cpu.regs[9] = RAM + 0x100;
            cpu.regs[6] = 0xABCD_0045;
            cpu.regs[0] = 0x1234_56FF;
            cpu.sr |= 0x1F;
            if let Some(slot) = found {
                bus.mem[(RAM + 0x120 + 0x40 * slot) as usize] = 0x80;
            }
        };
        let exit = if found.is_some() { 0x1014 } else { 0x1012 };
        let skipped = check(0x1000, &program, &setup, exit);
        // The first pass is stepped (the loop is found at the backward branch that ends it).
        assert!(
            matches!(found, Some(0 | 1)) || skipped > 0,
            "no pass skipped ({found:?})"
        );
    }
}

#[test]
fn beq_short_over_a_body_from_an() {
    // L: move.b (a0),d0 / beq.s S / addq.w #1,d0 / nop / S: lea $40(a0),a0 / dbf d7,L / nop
    let program = [
        0x1010, 0x6704, 0x5240, 0x4E71, 0x41E8, 0x0040, 0x51CF, 0xFFF2, 0x4E71,
    ];
    let setup = |cpu: &mut Cpu, bus: &mut Machine| {
        cpu.regs[8] = RAM;
        cpu.regs[7] = 0x7F;
        for slot in [3, 4, 50, 127] {
            bus.mem[(RAM + 0x40 * slot) as usize] = 5;
        }
    };
    assert!(check(0x1000, &program, &setup, 0x1010) > 0);
}

#[test]
fn tst_with_a_negative_step() {
    // L: tst.b 3(a2) / bne.s F / lea -$10(a2),a2 / dbf d1,L / nop / F: nop
    let program = [
        0x4A2A, 0x0003, 0x660A, 0x45EA, 0xFFF0, 0x51C9, 0xFFF4, 0x4E71, 0x4E71,
    ];
    let setup = |cpu: &mut Cpu, bus: &mut Machine| {
        cpu.regs[10] = RAM + 0x1000;
        cpu.regs[1] = 0x20;
        bus.mem[(RAM + 0x1003 - 0x10 * 30) as usize] = 1;
    };
    assert!(check(0x1000, &program, &setup, 0x1010) > 0);
}

#[test]
fn the_counter_as_the_destination_is_left_to_the_instructions() {
    // L: move.b (a0),d7 / beq.s S / nop / nop / S: lea $40(a0),a0 / dbf d7,L / nop
    let program = [
        0x1E10, 0x6704, 0x4E71, 0x4E71, 0x41E8, 0x0040, 0x51CF, 0xFFF2, 0x4E71,
    ];
    let setup = |cpu: &mut Cpu, _: &mut Machine| {
        cpu.regs[8] = RAM;
        cpu.regs[7] = 0x10;
    };
    assert_eq!(check(0x1000, &program, &setup, 0x1010), 0);
}

/// The memory the fill tests write, for comparing the two runs.
fn run_fill(
    program: &[u16],
    setup: &dyn Fn(&mut Cpu, &mut Machine),
    exit: u32,
    skip: bool,
) -> (Cpu, Vec<u8>) {
    let mut bus = Machine::new(0x1000, program);
    let mut cpu = Cpu::new();
    cpu.reset(&mut bus);
    cpu.cycles = 0;
    setup(&mut cpu, &mut bus);
    for _ in 0..100_000 {
        if cpu.instruction_pc() == exit {
            return (cpu, bus.mem[RAM as usize..].to_vec());
        }
        let from = cpu.instruction_pc();
        cpu.step(&mut bus);
        if skip && cpu.instruction_pc() <= from {
            cpu.skip_loop_passes(&mut bus, 700);
        }
    }
    panic!("the loop did not reach {exit:#x}");
}

#[test]
fn fills_of_words_and_longs() {
    // L: move.l d2,(a3)+ / dbf d5,L / nop, and the same with move.w
    for (program, value) in [
        ([0x26C2u16, 0x51CD, 0xFFFC, 0x4E71], 0x8000_0001u32),
        ([0x26C2, 0x51CD, 0xFFFC, 0x4E71], 0),
        ([0x36C2, 0x51CD, 0xFFFC, 0x4E71], 0x0001_8000),
        ([0x36C2, 0x51CD, 0xFFFC, 0x4E71], 0x1234_0000),
    ] {
        // Through the watched word at $FFF000 and without it.
        for start in [RAM + 0xEF00, RAM + 0x100] {
            let setup = move |cpu: &mut Cpu, _: &mut Machine| {
                cpu.regs[11] = start;
                cpu.regs[2] = value;
                cpu.regs[5] = 0x5555_0050;
            };
            let stepped = run_fill(&program, &setup, 0x1006, false);
            let skipping = run_fill(&program, &setup, 0x1006, true);
            assert_eq!(stepped.0, skipping.0);
            assert!(stepped.1 == skipping.1, "memory differs");
        }
    }
}

#[test]
fn delay_loops() {
    // L: dbf d3,L / nop
    let program = [0x51CB, 0xFFFE, 0x4E71];
    for count in [0u32, 1, 2, 0x55, 0x1234_0200] {
        let setup = move |cpu: &mut Cpu, _: &mut Machine| cpu.regs[3] = count;
        let skipped = check(0x1000, &program, &setup, 0x1004);
        assert!(count & 0xFFFF < 2 || skipped > 0);
    }
}

#[test]
fn nybble_packing() {
    // L: lsl.l #4,d4 / or.b d1,d4 / subq.w #1,d3 / bne.s D / jmp (a3) / moveq #0,d4 /
    // moveq #8,d3 / D: dbf d0,L / nop, with A3 pointing at the dbf (the output's stand-in)
    let program = [
        0xE98C, 0x8801, 0x5343, 0x6606, 0x4ED3, 0x7800, 0x7608, 0x51C8, 0xFFF0, 0x4E71,
    ];
    for (d3, d0, d1) in [
        (8u32, 0x30u32, 0x0Du32),
        (1, 5, 0xF7),
        (0, 3, 0x1FF),
        (0x8003, 9, 0x80),
        (0x20, 0xFFFF_0040, 0x42),
    ] {
        let setup = move |cpu: &mut Cpu, _: &mut Machine| {
            cpu.regs[4] = 0x1234_5678;
            cpu.regs[3] = d3;
            cpu.regs[0] = d0;
            cpu.regs[1] = d1;
            cpu.regs[11] = 0x100E;
        };
        let skipped = check(0x1000, &program, &setup, 0x1012);
        assert!(
            d3 & 0xFFFF == 1 || skipped > 0,
            "nothing skipped for {d3:#x}"
        );
    }
}

#[test]
fn table_fills() {
    // L: move.b (a2)+,d0 / ext.w d0 / add.w d3,d0 / move.l d0,(a1)+ / dbf d4,L / nop, and
    // L: move.b (a5)+,d6 / ext.w d6 / add.w d6,d6 / move.l d6,(a0)+ / dbf d1,L / nop
    let table: Vec<u8> = (0..200u32).map(|i| (i * 37 + 0x75) as u8).collect();
    for (program, dx, dy, an_src, an_dst, dm) in [
        (
            [0x101Au16, 0x4880, 0xD043, 0x22C0, 0x51CC, 0xFFF6, 0x4E71],
            0,
            3,
            2,
            1,
            4,
        ),
        (
            [0x1C1D, 0x4886, 0xDC46, 0x20C6, 0x51C9, 0xFFF6, 0x4E71],
            6,
            6,
            5,
            0,
            1,
        ),
    ] {
        for (base, count, dst) in [
            (0x0000_8000u32, 0x0000_0050u32, RAM + 0x100),
            (0x1234_0001, 0xFFFF_0000, RAM + 0x100),
            (0xFFFF_FF90, 0x7777_0002, RAM + 0x200),
            (0x0000_FF00, 0x0000_0060, RAM + 0xEF80),
            // A carry (X) out of the pass before the deadline of 1,000 clocks.
            (0x0000_FFF0, 0x0000_0050, RAM + 0x300),
        ] {
            let table = table.clone();
            let setup = move |cpu: &mut Cpu, bus: &mut Machine| {
                bus.mem[0x4000..0x4000 + table.len()].copy_from_slice(&table);
                cpu.regs[8 + an_src] = 0x4000;
                cpu.regs[8 + an_dst] = dst | 0xFF00_0000;
                cpu.regs[dx] = 0xA5A5_5A5A;
                if dy != dx {
                    cpu.regs[dy] = base;
                }
                cpu.regs[dm] = count;
            };
            let skipped = check(0x1000, &program, &setup, 0x100C);
            assert!(count & 0xFFFF < 2 || skipped > 0, "nothing skipped");
        }
    }
}

#[test]
fn window_copies() {
    // L: move.b 0(a1,d2.w),d0 / move.b d0,(a1)+ / dbf d3,L / nop (overlapping: the source
    // runs d2 bytes behind the output), and
    // L: move.b -3(a4,a2.l),d5 / move.b d5,(a3)+ / dbf d1,L / nop (from ROM)
    let program_a = [0x1031u16, 0x2000, 0x12C0, 0x51CB, 0xFFF8, 0x4E71];
    let program_b = [0x1A34u16, 0xA8FD, 0x16C5, 0x51C9, 0xFFF8, 0x4E71];
    for (behind, count, out) in [
        (0xFFFFu32, 0x40u32, RAM + 0x100),
        (0x1234_FFFD, 0x0000_0051, RAM + 0x101),
        (0xFFF0, 0xABCD_0002, RAM + 0x200),
        (0xFF80, 0x0000_0090, RAM + 0xEFC0),
    ] {
        let setup = move |cpu: &mut Cpu, bus: &mut Machine| {
            for i in 0..0x80u32 {
                bus.mem[(out - 0x80 + i) as usize] = (i * 29 + 0x61) as u8;
            }
            cpu.regs[9] = out | 0xFF00_0000;
            cpu.regs[2] = behind;
            cpu.regs[3] = count;
            cpu.regs[0] = 0x5A5A_5A5A;
            cpu.sr |= 0x1F;
        };
        let skipped = check(0x1000, &program_a, &setup, 0x100A);
        assert!(count & 0xFFFF < 2 || skipped > 0, "nothing skipped");
        let setup = move |cpu: &mut Cpu, bus: &mut Machine| {
            for i in 0..0x200u32 {
                bus.mem[0x4000 + i as usize] = (i * 13 + 0x80) as u8;
            }
            cpu.regs[12] = 0x4003;
            cpu.regs[10] = behind & 0xFF;
            cpu.regs[11] = out;
            cpu.regs[1] = count;
        };
        let skipped = check(0x1000, &program_b, &setup, 0x100A);
        assert!(count & 0xFFFF < 2 || skipped > 0, "nothing skipped");
    }
}
