//! Prints the 68000 clocks the core charges for a few instructions (for comparing timing
//! tables with other emulators). `cycles HEXWORDS...` runs one instruction from $1000.
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
    for prog in std::env::args().skip(1) {
        let mut ram = Ram(vec![0; 0x10000]);
        ram.0[0..8].copy_from_slice(&[0, 0, 0x80, 0, 0, 0, 0x10, 0]);
        let words: Vec<u16> = prog
            .split(',')
            .map(|w| u16::from_str_radix(w, 16).unwrap())
            .collect();
        for (i, w) in words.iter().enumerate() {
            ram.write_word(0x1000 + 2 * i as u32, *w);
        }
        let mut cpu = Cpu68k::new();
        cpu.reset(&mut ram);
        let c = cpu.step(&mut ram);
        println!("{prog}: {c} clocks");
    }
}
