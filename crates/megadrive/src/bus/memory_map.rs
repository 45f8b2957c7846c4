//! The 68000's memory map: its reads and writes, work RAM and ROM inline and the ports out of
//! line, its clock, and the bus traits of both 68000 cores.

use super::Bus;
use crate::clock::{M68K_REFRESH_DELAY_MCLK, M68K_REFRESH_PERIOD_MCLK};
use crate::cpu::cpu68k::M68kBus;

impl Bus {
    /// A 68000 byte read as the CPU would see it (also used for debugger/harness peeks of RAM
    /// and ROM, which have no side effects).
    #[inline(always)]
    pub fn read_u8(&mut self, addr: u32) -> u8 {
        self.read_u8_at(addr, None)
    }

    /// [`Bus::read_u8`] for our 68000, with the access's own clock: kept (`access_clock`,
    /// the hardware profile's port timing) only where it is used, on the way to the ports.
    #[inline(always)]
    fn read_u8_at(&mut self, addr: u32, cycle: Option<u64>) -> u8 {
        // The 68000's hot path, work RAM and ROM, inline; the ports out of line. Work RAM
        // first (one compare; the game's data reads are mostly there, its instruction
        // fetches come through `fetch_fast`), then a plain ROM's area in one length test.
        let addr = addr & 0xFF_FFFF;
        if addr >= 0xE0_0000 {
            return self.sys.ram[(addr & 0xFFFF) as usize];
        }
        if let Some(b) = self.sys.cart.plain_byte(addr) {
            return b;
        }
        if addr < 0x40_0000 {
            return self.sys.cart.read_byte(addr);
        }
        if let Some(cycle) = cycle {
            self.sys.access_clock = cycle;
        }
        self.read_u8_ports(addr)
    }

    #[inline(never)]
    fn read_u8_ports(&mut self, addr: u32) -> u8 {
        self.sys.enter_port();
        match addr >> 16 {
            0xA0 => {
                if self.sys.zbus.m68k_has_bus() {
                    self.z80_area_read(addr)
                } else {
                    self.sys.open_bus_byte(addr)
                }
            }
            0xA1 => self.sys.ctrl_read_byte(addr),
            0xC0..=0xDF if addr & 0xE7_00E0 == 0xC0_0000 => self.sys.vdp_read_byte(addr),
            _ => self.sys.open_bus_byte(addr),
        }
    }

    #[inline(always)]
    pub fn read_u16(&mut self, addr: u32) -> u16 {
        self.read_u16_at(addr, None)
    }

    /// [`Bus::read_u16`] with the access's clock (see [`Bus::read_u8_at`]).
    #[inline(always)]
    fn read_u16_at(&mut self, addr: u32, cycle: Option<u64>) -> u16 {
        let addr = addr & 0xFF_FFFE;
        if addr >= 0xE0_0000 {
            let a = (addr & 0xFFFE) as usize;
            return u16::from_be_bytes([self.sys.ram[a], self.sys.ram[a + 1]]);
        }
        if let Some(w) = self.sys.cart.plain_word(addr) {
            return w;
        }
        if addr < 0x40_0000 {
            return self.sys.cart.read_word(addr);
        }
        if let Some(cycle) = cycle {
            self.sys.access_clock = cycle;
        }
        self.read_u16_ports(addr)
    }

    #[inline(never)]
    fn read_u16_ports(&mut self, addr: u32) -> u16 {
        self.sys.enter_port();
        match addr >> 16 {
            0xA0 => {
                if self.sys.zbus.m68k_has_bus() {
                    // The Z80 bus is 8 bits wide: the byte appears in both halves.
                    let b = self.z80_area_read(addr) as u16;
                    (b << 8) | b
                } else {
                    self.sys.open_bus_word()
                }
            }
            0xA1 => self.sys.ctrl_read_word(addr),
            0xC0..=0xDF if addr & 0xE7_00E0 == 0xC0_0000 => self.sys.vdp_read_word(addr),
            _ => self.sys.open_bus_word(),
        }
    }

    /// A 68000 byte write: work RAM inline, everything else out of line.
    #[inline(always)]
    pub fn write_u8(&mut self, addr: u32, value: u8) {
        self.write_u8_at(addr, value, None)
    }

    /// [`Bus::write_u8`] with the access's clock (see [`Bus::read_u8_at`]).
    #[inline(always)]
    fn write_u8_at(&mut self, addr: u32, value: u8, cycle: Option<u64>) {
        let addr = addr & 0xFF_FFFF;
        self.sys.touched = true;
        if addr >= 0xE0_0000 {
            self.sys.ram[(addr & 0xFFFF) as usize] = value;
            if self.sys.ram_watched_byte(addr & 0xFFFF) {
                self.sys.note_write(addr, &[value]);
            }
            return;
        }
        if let Some(cycle) = cycle {
            self.sys.access_clock = cycle;
        }
        self.write_u8_ports(addr, value);
    }

    #[inline(never)]
    fn write_u8_ports(&mut self, addr: u32, value: u8) {
        self.sys.enter_port();
        match addr >> 16 {
            0x00..=0x3F => self.sys.cart.write_byte(addr, value),
            0xA0 if self.sys.zbus.m68k_has_bus() => self.z80_area_write(addr, value),
            0xA1 => self.ctrl_write_byte(addr, value),
            0xC0..=0xDF if addr & 0xE7_00E0 == 0xC0_0000 => self.sys.vdp_write_byte(addr, value),
            _ => {}
        }
        if self.sys.port_watched {
            self.sys.note_write(addr, &[value]);
        }
    }

    /// A 68000 word write: work RAM inline, everything else out of line.
    #[inline(always)]
    pub fn write_u16(&mut self, addr: u32, value: u16) {
        self.write_u16_at(addr, value, None)
    }

    /// [`Bus::write_u16`] with the access's clock (see [`Bus::read_u8_at`]).
    #[inline(always)]
    fn write_u16_at(&mut self, addr: u32, value: u16, cycle: Option<u64>) {
        let addr = addr & 0xFF_FFFE;
        self.sys.touched = true;
        if addr >= 0xE0_0000 {
            let a = (addr & 0xFFFE) as usize;
            self.sys.ram[a] = (value >> 8) as u8;
            self.sys.ram[a + 1] = value as u8;
            if self.sys.ram_watched_word(a as u32) {
                self.sys.note_write(addr, &value.to_be_bytes());
            }
            return;
        }
        if let Some(cycle) = cycle {
            self.sys.access_clock = cycle;
        }
        self.write_u16_ports(addr, value);
    }

    #[inline(never)]
    fn write_u16_ports(&mut self, addr: u32, value: u16) {
        self.sys.enter_port();
        match addr >> 16 {
            0x00..=0x3F => {
                self.sys.cart.write_byte(addr, (value >> 8) as u8);
                self.sys.cart.write_byte(addr | 1, value as u8);
            }
            // Only the high byte reaches the Z80's 8-bit bus.
            0xA0 if self.sys.zbus.m68k_has_bus() => self.z80_area_write(addr, (value >> 8) as u8),
            0xA1 => self.ctrl_write_word(addr, value),
            0xC0..=0xDF if addr & 0xE7_00E0 == 0xC0_0000 => self.sys.vdp_write_word(addr, value),
            _ => {}
        }
        if self.sys.port_watched {
            self.sys.note_write(addr, &value.to_be_bytes());
        }
    }

    /// Accounts one completed 68000 instruction (or exception entry) of `cpu_clocks`, with the
    /// DRAM refresh stall that the next instruction fetch pays.
    pub fn advance_cpu(&mut self, cpu_clocks: u32) {
        self.sys.now += cpu_clocks as u64 * crate::clock::M68K_DIVIDER;
        if self.sys.timing.refresh_stall && self.sys.now >= self.sys.refresh_at {
            self.sys.refresh_at = self.sys.now + M68K_REFRESH_PERIOD_MCLK;
            self.sys.now += M68K_REFRESH_DELAY_MCLK;
        }
    }
}

impl M68kBus for Bus {
    fn read_byte(&mut self, addr: u32) -> u8 {
        self.read_u8(addr)
    }
    fn read_word(&mut self, addr: u32) -> u16 {
        self.read_u16(addr)
    }
    fn write_byte(&mut self, addr: u32, value: u8) {
        self.write_u8(addr, value)
    }
    fn write_word(&mut self, addr: u32, value: u16) {
        self.write_u16(addr, value)
    }
    fn interrupt_acknowledge(&mut self, level: u8) {
        self.sys.enter_port();
        self.sys.vdp.acknowledge(level);
    }
}

/// Our 68000 on the console's bus. Every access of an instruction is made at the clock the
/// instruction started (`sys.now`, brought up to it by
/// [`System::sync_clock`](super::System::sync_clock) on the way to the ports), as with `m68k`:
/// the verified Sonic 2 results depend on it. The per-access `cycle` is kept (`access_clock`) on
/// the way to the ports and used only by the hardware profile (`Timing::HARDWARE`).
impl m68000::Bus for Bus {
    // A plain ROM's instruction fetch has no side effect and no wait state.
    #[inline(always)]
    fn fetch_fast(&self, addr: u32) -> Option<u16> {
        self.sys.cart.plain_word(addr)
    }
    // The PC as it is: one past 24 bits indexes past the cartridge area, and the fetch goes
    // through `read_word`, which reads the same plain ROM word with no side effect.
    #[inline(always)]
    fn fetch_fast_pc(&self, pc: u32) -> Option<u16> {
        self.sys.cart.plain_word(pc)
    }
    #[inline(always)]
    fn fetch_fast_pair(&self, pc: u32) -> Option<(u16, u16)> {
        self.sys.cart.plain_pair(pc)
    }
    // Work RAM and a plain ROM: no side effect, no wait state (the scan loops' reads).
    #[inline(always)]
    fn peek_byte(&self, addr: u32) -> Option<u8> {
        if addr >= 0xE0_0000 {
            return Some(self.sys.ram[(addr & 0xFFFF) as usize]);
        }
        self.sys.cart.plain_byte(addr)
    }
    // A work RAM store nobody watches is only the store (the fill loops' writes).
    #[inline(always)]
    fn poke_word(&mut self, addr: u32, value: u16) -> bool {
        let a = addr & 0xFFFE;
        if addr < 0xE0_0000 || self.sys.ram_watched_word(a) {
            return false;
        }
        self.sys.touched = true;
        self.sys.ram[a as usize..a as usize + 2].copy_from_slice(&value.to_be_bytes());
        true
    }
    #[inline(always)]
    fn poke_byte(&mut self, addr: u32, value: u8) -> bool {
        let a = addr & 0xFFFF;
        if addr < 0xE0_0000 || self.sys.ram_watched_byte(a) {
            return false;
        }
        self.sys.touched = true;
        self.sys.ram[a as usize] = value;
        true
    }
    // Always inline: ROM and work RAM are a test and an index, less than the call. The
    // access's own clock is kept for the hardware profile's port timing (`access_time`).
    #[inline(always)]
    fn read_word(&mut self, addr: u32, _fc: m68000::FunctionCode, cycle: u64) -> u16 {
        self.read_u16_at(addr, Some(cycle))
    }
    #[inline(always)]
    fn read_byte(&mut self, addr: u32, _fc: m68000::FunctionCode, cycle: u64) -> u8 {
        self.read_u8_at(addr, Some(cycle))
    }
    #[inline(always)]
    fn write_word(&mut self, addr: u32, value: u16, _fc: m68000::FunctionCode, cycle: u64) {
        self.write_u16_at(addr, value, Some(cycle))
    }
    #[inline(always)]
    fn write_byte(&mut self, addr: u32, value: u8, _fc: m68000::FunctionCode, cycle: u64) {
        self.write_u8_at(addr, value, Some(cycle))
    }
    // The CPU's loop tests the attention flag only after a look (`machine::run_ours`).
    #[inline]
    fn attention_raised(&mut self) {
        self.sys.look_at = 0;
    }
    // TAS keeps its write-back (the trait's default), as the console has with `m68k` and the
    // Genesis Plus GX 1.7 results were verified with; the real bus arbiter drops it (Gargoyles).
    fn interrupt_acknowledge(&mut self, level: u8, _cycle: u64) -> m68000::InterruptAck {
        self.sys.enter_port();
        self.sys.vdp.acknowledge(level);
        // The Mega Drive autovectors every level.
        m68000::InterruptAck::Autovector
    }
}
