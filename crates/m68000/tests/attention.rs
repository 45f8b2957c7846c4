//! `Cpu::unattended_instruction`'s contract: a host that tests the attention flag only when
//! the bus has heard `Bus::attention_raised` (the console's loop tests it only after a look)
//! must see every instruction that raises it: SR written with the mask below the asserted
//! level (an interrupt to take), SR written with T set (a trace to take), STOP. Run that way,
//! a program reaches the state `Cpu::step`, which tests the flag before every instruction,
//! reaches. The program is assembled by hand (GNU as `-m68000` gave the words).

use m68000::{Bus, Cpu, FunctionCode, RunState, Step};

struct Machine {
    mem: Vec<u8>,
    raised: u32,
}

impl Machine {
    fn new() -> Self {
        let mut mem = vec![0; 1 << 24];
        let mut put = |at: usize, words: &[u16]| {
            for (i, w) in words.iter().enumerate() {
                mem[at + 2 * i..at + 2 * i + 2].copy_from_slice(&w.to_be_bytes());
            }
        };
        // SSP $FFFE00, PC $1000; trace (vector 9) at $2100, level 4 autovector (28) at $2000.
        put(0, &[0x00FF, 0xFE00, 0x0000, 0x1000]);
        put(0x24, &[0x0000, 0x2100]);
        put(0x70, &[0x0000, 0x2000]);
        put(
            0x1000,
            &[
                0x46FC, 0x2000, // move.w #$2000,sr: level 4 (asserted) no longer masked
                0x4E71, // nop
                0x007C, 0x8000, // ori.w #$8000,sr: T set
                0x4E71, // nop (traced)
                0x4E71, // nop
                0x4E72, 0x2700, // stop #$2700
            ],
        );
        // The interrupt handler: rte.
        put(0x2000, &[0x4E73]);
        // The trace handler: T cleared in the stacked SR, rte.
        put(0x2100, &[0x0257, 0x7FFF, 0x4E73]);
        Self { mem, raised: 0 }
    }
}

impl Bus for Machine {
    fn read_word(&mut self, addr: u32, _fc: FunctionCode, _cycle: u64) -> u16 {
        u16::from_be_bytes([self.mem[addr as usize], self.mem[addr as usize + 1]])
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
    fn attention_raised(&mut self) {
        self.raised += 1;
    }
}

fn start() -> (Cpu, Machine) {
    let mut m = Machine::new();
    let mut cpu = Cpu::new();
    cpu.trace_exceptions = true;
    cpu.reset(&mut m);
    // Level 4 asserted, masked by the reset's mask 7.
    cpu.set_ipl(4);
    (cpu, m)
}

#[test]
fn instructions_that_raise_attention_tell_the_bus() {
    // The console's way: the flag tested only after the bus heard of it.
    let (mut cpu, mut m) = start();
    assert!(!cpu.attention());
    let mut told = 0;
    let mut interrupts = 0;
    for _ in 0..100 {
        if cpu.attention() {
            match cpu.attended_boundary(&mut m) {
                Step::Stopped => break,
                Step::Interrupt => interrupts += 1,
                Step::Instruction => {}
            }
            m.raised = 0;
            continue;
        }
        cpu.unattended_instruction(&mut m);
        if cpu.attention() {
            assert!(
                m.raised > 0,
                "attention raised untold before PC {:06X}",
                cpu.pc
            );
            told += 1;
        }
        m.raised = 0;
    }
    assert_eq!(cpu.state, RunState::Stopped);
    // MOVE to SR, ORI to SR (T), STOP; the interrupt taken once.
    assert_eq!((told, interrupts), (3, 1));

    // The flag tested before every instruction.
    let (mut reference, mut m2) = start();
    while reference.state != RunState::Stopped {
        reference.step(&mut m2);
    }
    assert_eq!(cpu, reference);
    assert_eq!(m.mem, m2.mem);
}
