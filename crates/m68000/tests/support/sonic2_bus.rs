//! The console stand-in the Sonic 2 boot comparisons share (test, benchmark, example): the
//! cartridge (read from the user's ROM store at run time, never from the repository), 64 KiB of
//! work RAM, the Z80's 8 KiB as plain RAM, the Z80 bus always granted, the I/O ports idle, the
//! VDP's writes dropped and its status/HV reads computed from the CPU clock, and the vertical
//! interrupt (level 6) raised at line 224 of every 262-line NTSC frame. It needs no VDP or sound
//! emulation, so what it measures is the cores themselves, on an identical bus.

#![allow(dead_code)]

use std::path::PathBuf;

/// Rev B, by SHA-1 (see `roms.toml`).
pub const REV_B: &str = "2af1003247aec262089c8df22d05e80d04a1b5e4";
/// 68000 clocks per NTSC frame (262 lines of 3,420 master clocks, divided by 7).
pub const FRAME: u64 = 262 * 3420 / 7;
/// Clock within the frame at which vertical blanking (and its interrupt) starts: line 224.
pub const VBLANK: u64 = 224 * 3420 / 7;

pub fn rom_path() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")?;
    let p = PathBuf::from(home)
        .join(".local/share/s2lab/roms")
        .join(format!("{REV_B}.bin"));
    p.is_file().then_some(p)
}

/// The console stand-in both cores see.
pub struct MdBus {
    rom: Vec<u8>,
    ram: Vec<u8>,
    zram: Vec<u8>,
    /// The `m68k` core's clock, rebuilt from its `sync` calls (ours passes the clock).
    now: u64,
}

impl MdBus {
    fn new(rom: Vec<u8>) -> Self {
        Self {
            rom,
            ram: vec![0; 0x10000],
            zram: vec![0; 0x2000],
            now: 0,
        }
    }

    #[inline(always)]
    fn read8(&self, a: u32, now: u64) -> u8 {
        let a = a & 0xFF_FFFF;
        if a >= 0xE0_0000 {
            return self.ram[(a & 0xFFFF) as usize];
        }
        match a {
            0..=0x3F_FFFF => self.rom.get(a as usize).copied().unwrap_or(0),
            0xA0_0000..=0xA0_FFFF => self.zram[(a & 0x1FFF) as usize],
            // Version register: overseas, NTSC, no expansion unit.
            0xA1_0000 | 0xA1_0001 => 0xA0,
            0xA1_0002..=0xA1_001F => 0x7F,
            // Z80 bus request: always granted.
            0xA1_1100 | 0xA1_1101 => 0,
            0xC0_0000..=0xC0_001F => {
                let w = self.vdp_read(a, now);
                if a & 1 == 0 { (w >> 8) as u8 } else { w as u8 }
            }
            0xE0_0000..=0xFF_FFFF => self.ram[(a & 0xFFFF) as usize],
            _ => 0,
        }
    }

    fn vdp_read(&self, a: u32, now: u64) -> u16 {
        let in_frame = now % FRAME;
        match a & 0x1C {
            // Status: FIFO empty, vertical blanking from line 224.
            0x04 => 0x3600 | if in_frame >= VBLANK { 0x0008 } else { 0 },
            0x08 => {
                let line = (in_frame * 7 / 3420) as u16;
                (line.min(255) << 8) | ((in_frame % 488) / 2) as u16
            }
            _ => 0,
        }
    }

    #[inline(always)]
    fn read16(&self, a: u32, now: u64) -> u16 {
        // Cartridge and work RAM first: nearly every access.
        let a = a & 0xFF_FFFF;
        if a >= 0xE0_0000 {
            let i = (a & 0xFFFF) as usize;
            return u16::from_be_bytes([self.ram[i], self.ram[(i + 1) & 0xFFFF]]);
        }
        if let Some(w) = self.rom.get(a as usize..a as usize + 2) {
            return u16::from_be_bytes([w[0], w[1]]);
        }
        (self.read8(a, now) as u16) << 8 | self.read8(a | 1, now) as u16
    }

    #[inline(always)]
    fn write8(&mut self, a: u32, v: u8) {
        let a = a & 0xFF_FFFF;
        match a {
            0xA0_0000..=0xA0_FFFF => self.zram[(a & 0x1FFF) as usize] = v,
            0xE0_0000..=0xFF_FFFF => self.ram[(a & 0xFFFF) as usize] = v,
            _ => {}
        }
    }

    #[inline(always)]
    fn write16(&mut self, a: u32, v: u16) {
        let a = a & 0xFF_FFFF;
        if a >= 0xE0_0000 {
            let i = (a & 0xFFFF) as usize;
            self.ram[i] = (v >> 8) as u8;
            self.ram[(i + 1) & 0xFFFF] = v as u8;
            return;
        }
        self.write8(a, (v >> 8) as u8);
        self.write8(a | 1, v as u8);
    }

    /// A checksum of work RAM and Z80 RAM, to show both cores did the same work.
    pub fn ram_sum(&self) -> u64 {
        self.ram
            .iter()
            .chain(self.zram.iter())
            .enumerate()
            .fold(0u64, |s, (i, &b)| {
                s.wrapping_mul(31).wrapping_add(b as u64 ^ i as u64)
            })
    }
}

struct Ours(MdBus);

impl m68000::Bus for Ours {
    #[inline(always)]
    fn read_word(&mut self, addr: u32, _fc: m68000::FunctionCode, cycle: u64) -> u16 {
        self.0.read16(addr, cycle)
    }
    #[inline(always)]
    fn read_byte(&mut self, addr: u32, _fc: m68000::FunctionCode, cycle: u64) -> u8 {
        self.0.read8(addr, cycle)
    }
    #[inline(always)]
    fn write_word(&mut self, addr: u32, value: u16, _fc: m68000::FunctionCode, _cycle: u64) {
        self.0.write16(addr, value)
    }
    #[inline(always)]
    fn write_byte(&mut self, addr: u32, value: u8, _fc: m68000::FunctionCode, _cycle: u64) {
        self.0.write8(addr, value)
    }
}

struct Theirs(MdBus);

impl m68k::AddressBus for Theirs {
    #[inline(always)]
    fn read_byte(&mut self, address: u32) -> u8 {
        let v = self.0.read8(address, self.0.now);
        self.0.now += 4;
        v
    }
    #[inline(always)]
    fn read_word(&mut self, address: u32) -> u16 {
        let v = self.0.read16(address, self.0.now);
        self.0.now += 4;
        v
    }
    #[inline(always)]
    fn read_long(&mut self, address: u32) -> u32 {
        let hi = self.read_word(address) as u32;
        hi << 16 | self.read_word(address.wrapping_add(2)) as u32
    }
    #[inline(always)]
    fn write_byte(&mut self, address: u32, value: u8) {
        self.0.write8(address, value);
        self.0.now += 4;
    }
    #[inline(always)]
    fn write_word(&mut self, address: u32, value: u16) {
        self.0.write16(address, value);
        self.0.now += 4;
    }
    #[inline(always)]
    fn write_long(&mut self, address: u32, value: u32) {
        self.write_word(address, (value >> 16) as u16);
        self.write_word(address.wrapping_add(2), value as u16);
    }
    #[inline(always)]
    fn sync(&mut self, cpu_clocks: u32) {
        self.0.now += cpu_clocks as u64;
    }
    fn interrupt_acknowledge(&mut self, _level: u8) -> u32 {
        u32::MAX
    }
}

/// Boots on our core for `frames` frames, calling `each` with the frame number and the bus
/// after every frame.
pub fn run_ours(rom: &[u8], frames: u64, mut each: impl FnMut(u64, &MdBus)) -> m68000::Cpu {
    let mut bus = Ours(MdBus::new(rom.to_vec()));
    let mut cpu = m68000::Cpu::new();
    cpu.reset(&mut bus);
    cpu.cycles = 0;
    for f in 0..frames {
        cpu.run(&mut bus, f * FRAME + VBLANK);
        cpu.set_ipl(6);
        cpu.run(&mut bus, (f + 1) * FRAME);
        each(f, &bus.0);
    }
    cpu
}

/// Boots on `m68k` for `frames` frames, calling `each` with the frame number and the bus
/// after every frame.
pub fn run_theirs(rom: &[u8], frames: u64, mut each: impl FnMut(u64, &MdBus)) -> m68k::CpuCore {
    let mut bus = Theirs(MdBus::new(rom.to_vec()));
    let mut core = m68k::CpuCore::new();
    core.set_cpu_type(m68k::CpuType::M68000);
    core.reset(&mut bus);
    let mut now: u64 = 0;
    bus.0.now = 0;
    for f in 0..frames {
        for (until, vblank) in [(f * FRAME + VBLANK, true), ((f + 1) * FRAME, false)] {
            while now < until {
                let r = core.run_for_cycles(&mut bus, (until - now) as i32);
                now += r.cycles.max(0) as u64;
                if matches!(r.exit, m68k::CycleBatchExit::Stopped) {
                    now = until;
                }
                bus.0.now = now;
            }
            if vblank {
                core.set_irq(6);
            }
        }
        each(f, &bus.0);
    }
    core
}
