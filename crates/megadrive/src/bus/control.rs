//! The I/O and control area ($A10000-$A1FFFF: pads, BUSREQ and RESET of the Z80, TMSS, the
//! mapper) and the Z80's area ($A00000) as the 68000 reaches them.

use super::{Bus, System};
use crate::clock::Z80_DIVIDER;

impl System {
    pub(super) fn ctrl_read_byte(&mut self, addr: u32) -> u8 {
        match (addr >> 8) & 0xFF {
            0x00 if addr & 0xFF <= 0x1F => self.io.read(((addr >> 1) & 0xF) as usize, self.now),
            0x11 => {
                let ob = self.open_bus_byte(addr);
                if addr & 1 == 0 {
                    if self.zbus.m68k_has_bus() {
                        ob & 0xFE
                    } else {
                        ob | 1
                    }
                } else {
                    ob
                }
            }
            _ => self.open_bus_byte(addr),
        }
    }

    pub(super) fn ctrl_read_word(&mut self, addr: u32) -> u16 {
        match (addr >> 8) & 0xFF {
            0x00 if addr & 0xFF <= 0x1F => {
                let b = self.io.read(((addr >> 1) & 0xF) as usize, self.now) as u16;
                (b << 8) | b
            }
            0x11 => {
                let ob = self.open_bus_word();
                if self.zbus.m68k_has_bus() {
                    ob & 0xFEFF
                } else {
                    ob | 0x0100
                }
            }
            _ => self.open_bus_word(),
        }
    }

    pub(super) fn tmss_write(&mut self, addr: u32, value: u8) {
        let i = (addr & 3) as usize;
        self.tmss[i] = value;
    }

    /// Rounds an absolute clock up to the Z80's next clock edge, counted from the frame start
    /// (the Z80 restarts on its own clock).
    fn z80_edge(&self, t: u64) -> u64 {
        let base = self.vdp.frame_start;
        let rel = t.saturating_sub(base);
        base + rel.div_ceil(Z80_DIVIDER) * Z80_DIVIDER
    }
}

impl Bus {
    /// BUSREQ at $A11100 (bit 0 of the even byte).
    pub(crate) fn write_busreq(&mut self, request: bool) {
        let now = self.sys.now;
        if request {
            if self.sys.zbus.z80_running() {
                self.run_z80(now);
            }
            self.sys.zbus.busreq = true;
        } else {
            if self.sys.zbus.m68k_has_bus() {
                self.sys.z80_mclk = self.sys.z80_edge(now);
            }
            self.sys.zbus.busreq = false;
        }
    }

    /// RESET at $A11200 (bit 0 of the even byte; 0 holds the Z80 and the YM2612 in reset).
    pub(crate) fn write_zreset(&mut self, release: bool) {
        let now = self.sys.now;
        self.sys.z80_touched = true;
        if release {
            if !self.sys.zbus.reset_released {
                if !self.sys.zbus.busreq {
                    self.sys.z80_mclk = self.sys.z80_edge(now);
                }
                self.z80.reset();
                self.sys.ym.reset(now);
            }
            self.sys.zbus.reset_released = true;
        } else {
            if self.sys.zbus.z80_running() {
                self.run_z80(now);
            }
            self.sys.ym.reset(now);
            self.sys.zbus.reset_released = false;
        }
    }

    pub(super) fn z80_area_read(&mut self, addr: u32) -> u8 {
        self.sys.now += self.sys.timing.z80_ram_read_mclk;
        match (addr >> 13) & 3 {
            2 => self.sys.ym.read(addr & 3, self.sys.now),
            3 => self.sys.open_bus_byte(addr) | 0xFF,
            _ => self.sys.zbus.ram_byte(addr as usize),
        }
    }

    pub(super) fn z80_area_write(&mut self, addr: u32, value: u8) {
        // What the Z80's idle loop reads may change (its candidate is carried between runs).
        self.sys.z80_touched = true;
        self.sys.now += self.sys.timing.z80_ram_write_mclk;
        match (addr >> 13) & 3 {
            2 => self.sys.ym.write(addr & 3, value, self.sys.now),
            3 => {
                if (addr >> 8) & 0x7F == 0x60 {
                    self.sys.zbus.write_bank(value);
                }
            }
            _ => self.sys.zbus.write_ram(addr as usize, value),
        }
    }

    pub(super) fn ctrl_write_byte(&mut self, addr: u32, value: u8) {
        match (addr >> 8) & 0xFF {
            0x00 if addr & 0xFF <= 0x1F && addr & 1 == 1 => {
                self.sys
                    .io
                    .write(((addr >> 1) & 0xF) as usize, value, self.sys.now)
            }
            0x11 if addr & 1 == 0 => self.write_busreq(value & 1 != 0),
            0x12 if addr & 1 == 0 => self.write_zreset(value & 1 != 0),
            0x30 => self.sys.cart.write_register(addr, value),
            0x40 => self.sys.tmss_write(addr, value),
            _ => {}
        }
    }

    pub(super) fn ctrl_write_word(&mut self, addr: u32, value: u16) {
        match (addr >> 8) & 0xFF {
            0x00 if addr & 0xFF <= 0x1F => {
                self.sys
                    .io
                    .write(((addr >> 1) & 0xF) as usize, value as u8, self.sys.now)
            }
            0x11 => self.write_busreq(value & 0x100 != 0),
            0x12 => self.write_zreset(value & 0x100 != 0),
            0x30 => self.sys.cart.write_register(addr | 1, value as u8),
            0x40 => {
                self.sys.tmss_write(addr, (value >> 8) as u8);
                self.sys.tmss_write(addr | 1, value as u8);
            }
            _ => {}
        }
    }
}
