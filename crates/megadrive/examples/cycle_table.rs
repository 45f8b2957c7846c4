//! Prints the 68000 clocks the pinned core charges for every opcode word, run once from
//! $1000 in plain RAM (extension words $0100, D registers 0, A registers $2000, supervisor
//! mode): `opcode clocks` per line, for comparing with another core's timing table.
use megadrive::cpu68k::{Cpu68k, M68kBus};
struct Ram(Vec<u8>);
impl M68kBus for Ram {
    fn read_byte(&mut self, a: u32) -> u8 {
        self.0[(a & 0xFFFF) as usize]
    }
    fn read_word(&mut self, a: u32) -> u16 {
        let a = (a & 0xFFFE) as usize;
        u16::from_be_bytes([self.0[a], self.0[a + 1]])
    }
    fn write_byte(&mut self, a: u32, v: u8) {
        self.0[(a & 0xFFFF) as usize] = v
    }
    fn write_word(&mut self, a: u32, v: u16) {
        let a = (a & 0xFFFE) as usize;
        self.0[a] = (v >> 8) as u8;
        self.0[a + 1] = v as u8
    }
}
fn main() {
    for op in 0..=0xFFFFu32 {
        let mut ram = Ram(vec![0; 0x10000]);
        ram.0[0..8].copy_from_slice(&[0, 0, 0x80, 0, 0, 0, 0x10, 0]);
        ram.write_word(0x1000, op as u16);
        for i in 1..6 {
            ram.write_word(0x1000 + 2 * i, 0x0100);
        }
        let mut cpu = Cpu68k::new();
        cpu.reset(&mut ram);
        for r in 8..15 {
            cpu.core_mut().dar[r] = 0x2000;
        }
        let c = cpu.step(&mut ram);
        println!("{op:04X} {c}");
    }
}
