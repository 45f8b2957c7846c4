//! Rough throughput check: run a typical sound-driver-like loop (memory copy, indexed
//! arithmetic, DDCB rotates, calls) and report the speed against the Mega Drive's 3.58 MHz Z80.
//! `cargo run --release -p z80 --example bench`

use std::time::Instant;
use z80::{Bus, Z80};

struct Ram(Vec<u8>);

impl Bus for Ram {
    fn read(&mut self, addr: u16, _t: u64) -> u8 {
        self.0[addr as usize]
    }
    fn write(&mut self, addr: u16, value: u8, _t: u64) {
        self.0[addr as usize] = value;
    }
    fn port_in(&mut self, port: u16, _t: u64) -> u8 {
        port as u8
    }
    fn port_out(&mut self, _port: u16, _value: u8, _t: u64) {}
}

fn main() {
    #[rustfmt::skip]
    let program: &[u8] = &[
        0x21, 0x00, 0x80,       // 0000 LD HL,$8000
        0x11, 0x00, 0x90,       // 0003 LD DE,$9000
        0x01, 0x00, 0x01,       // 0006 LD BC,$0100
        0x7E,                   // 0009 LD A,(HL)
        0x83,                   // 000A ADD A,E
        0x12,                   // 000B LD (DE),A
        0x23,                   // 000C INC HL
        0x13,                   // 000D INC DE
        0x0B,                   // 000E DEC BC
        0x78,                   // 000F LD A,B
        0xB1,                   // 0010 OR C
        0x20, 0xF6,             // 0011 JR NZ,$0009
        0xDD, 0x21, 0x00, 0x80, // 0013 LD IX,$8000
        0x06, 0x10,             // 0017 LD B,16
        0xDD, 0x7E, 0x05,       // 0019 LD A,(IX+5)
        0xDD, 0xAE, 0x01,       // 001C XOR (IX+1)
        0xDD, 0xCB, 0x02, 0x06, // 001F RLC (IX+2)
        0xDD, 0x23,             // 0023 INC IX
        0x10, 0xF2,             // 0025 DJNZ $0019
        0xCD, 0x30, 0x00,       // 0027 CALL $0030
        0xC3, 0x00, 0x00,       // 002A JP $0000
        0x00, 0x00, 0x00,       // 002D
        0xF5, 0x08, 0xF1, 0xC9, // 0030 PUSH AF / EX AF,AF' / POP AF / RET
    ];
    let mut ram = Ram(vec![0; 0x10000]);
    ram.0[..program.len()].copy_from_slice(program);
    let mut cpu = Z80::new();
    let target = 3_579_545u64 * 60; // one minute of emulated time
    let start = Instant::now();
    cpu.run(&mut ram, target);
    let secs = start.elapsed().as_secs_f64();
    assert!(
        !cpu.halted && cpu.regs.pc < 0x34,
        "bench program went astray"
    );
    println!(
        "{} T-states in {:.3} s: {:.1} MHz ({:.0}x real time)",
        cpu.t_states(),
        secs,
        cpu.t_states() as f64 / secs / 1e6,
        60.0 / secs
    );
}
