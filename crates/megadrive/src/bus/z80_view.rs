//! The Z80's view of the console: its RAM, the YM2612, the bank window into the 68000's space,
//! the VDP's ports and the PSG.

use super::System;
use super::z80_bus::M68K_BANK_ACCESS_PENALTY_MCLK;
use crate::clock::Z80_DIVIDER;

/// The Z80's bus: its RAM, the YM2612, the bank window into 68000 space, the VDP and PSG.
pub struct Z80View<'a>(pub &'a mut System);

/// A Z80 byte write to the VDP's ports (at $7F00-$7F1F, or at $C00000 through the bank
/// window): the VDP takes the byte in both halves of a word (genvdp.txt, "Z80 access"),
/// $00-$03 the data port, $04-$07 the control port, odd $11-$17 the PSG. Before, writes at
/// $7F00-$7F07 were dropped; the test ROM's scene 13 (`sc_z80w_setup`) pins them.
#[inline(never)]
fn z80_vdp_write(sys: &mut System, addr: u32, value: u8, now: u64) {
    match addr & 0x1F {
        0x11 | 0x13 | 0x15 | 0x17 => sys.psg.write_at(value, now),
        0x00..=0x03 => {
            let w = u16::from_be_bytes([value, value]);
            let _ = sys.vdp.write_data(w, now, false);
        }
        0x04..=0x07 => {
            // A bus DMA cannot be started from the Z80.
            let _ = sys
                .vdp
                .write_control(u16::from_be_bytes([value, value]), now);
        }
        _ => {}
    }
}

/// The Z80's accesses outside its RAM, on the system itself (not on the [`Z80View`], whose
/// pointer then stays in a register in the step loop).
impl System {
    /// The master clock at the Z80's T-state `t` of the current run.
    fn z80_mclk(&self, t: u64) -> u64 {
        self.z80_mclk_base + t.saturating_sub(self.z80_t_base) * Z80_DIVIDER
    }

    /// A read through the bank window at T-state `t`: the cartridge (Sonic 2's DAC samples)
    /// inline, the rest out of line.
    #[inline(always)]
    fn z80_bank_read(&mut self, addr: u16, t: u64) -> u8 {
        let sys = self;
        let a = sys.zbus.bank | (addr as u32 & 0x7FFF);
        if sys.timing.bank_contention {
            sys.m68k_debt_mclk += M68K_BANK_ACCESS_PENALTY_MCLK;
        }
        if a < 0x40_0000 {
            return sys.cart.read_byte(a);
        }
        let now = sys.z80_mclk(t);
        sys.z80_bank_read_hardware(a, now)
    }

    /// [`System::z80_bank_read`] above the cartridge area (I/O, the VDP, work RAM).
    #[inline(never)]
    fn z80_bank_read_hardware(&mut self, a: u32, now: u64) -> u8 {
        let sys = self;
        match a >> 16 {
            0xA1 if a & 0xFFFF <= 0x1F => sys.io.read(((a >> 1) & 0xF) as usize, now),
            0xC0..=0xDF if a & 0xE7_00E0 == 0xC0_0000 => match a & 0x1F {
                0x04 | 0x06 => ((sys.vdp.read_status(now, false) >> 8) as u8 & 3) | 0xFC,
                0x05 | 0x07 => sys.vdp.read_status(now, false) as u8,
                0x08 | 0x0A | 0x0C | 0x0E => (sys.vdp.hv_counter(now) >> 8) as u8,
                0x09 | 0x0B | 0x0D | 0x0F => sys.vdp.hv_counter(now) as u8,
                0x00 | 0x02 => (sys.vdp.read_data() >> 8) as u8,
                0x01 | 0x03 => sys.vdp.read_data() as u8,
                _ => 0xFF,
            },
            0xE0..=0xFF => sys.ram[(a & 0xFFFF) as usize],
            _ => 0xFF,
        }
    }

    #[inline(never)]
    fn z80_bank_write(&mut self, addr: u16, value: u8, now: u64) {
        let sys = self;
        // Work RAM or the cartridge may change under a 68000 idle loop carried from the last
        // line (`machine::run_ours`): it must be proven idle again.
        sys.touched = true;
        let a = sys.zbus.bank | (addr as u32 & 0x7FFF);
        match a >> 16 {
            0x00..=0x3F => sys.cart.write_byte(a, value),
            0xA1 if a & 0xFFFF <= 0x1F && a & 1 == 1 => {
                sys.io.write(((a >> 1) & 0xF) as usize, value, now)
            }
            0xC0..=0xDF if a & 0xE7_00E0 == 0xC0_0000 => z80_vdp_write(sys, a, value, now),
            0xE0..=0xFF => sys.ram[(a & 0xFFFF) as usize] = value,
            _ => {}
        }
    }

    /// Everything above the Z80's own RAM (out of line: the RAM path is the hot one). Cold,
    /// as the write below: about one step in ten calls either, and LLVM then places the step
    /// loop's spills and reloads around these calls instead of on every step.
    #[cold]
    #[inline(never)]
    fn z80_read_outside_ram(&mut self, addr: u16, t: u64) -> u8 {
        self.z80_touched = true;
        if addr >= 0x8000 {
            return self.z80_bank_read(addr, t);
        }
        let now = self.z80_mclk(t);
        match addr {
            0x0000..=0x3FFF => self.zbus.z80_ram_read(addr),
            0x4000..=0x5FFF => self.ym.read(addr as u32 & 3, now),
            0x7F00..=0x7FFF => match addr & 0x1F {
                // The Z80 reads the data port like the 68000 does, a byte of each word the
                // port returns (testpico "z80 vdp read": LDIR from $7F00 gets $11 then $44 of
                // VRAM words $1122 $3344).
                0x00 | 0x02 => (self.vdp.read_data() >> 8) as u8,
                0x01 | 0x03 => self.vdp.read_data() as u8,
                0x04 | 0x06 => ((self.vdp.read_status(now, false) >> 8) as u8 & 3) | 0xFC,
                0x05 | 0x07 => self.vdp.read_status(now, false) as u8,
                0x08 | 0x0A | 0x0C | 0x0E => (self.vdp.hv_counter(now) >> 8) as u8,
                0x09 | 0x0B | 0x0D | 0x0F => self.vdp.hv_counter(now) as u8,
                _ => 0xFF,
            },
            // $6000-$7EFF (the bank register, unused space); the bank window is read above.
            _ => 0xFF,
        }
    }

    /// Writes above the Z80's own RAM (out of line, as for reads). The YM2612's address
    /// ports first, then its DAC byte in headless, in a path small enough to need no saved
    /// registers (no call log): Sonic 2's driver selects the DAC register before each sample
    /// byte and writes the byte.
    #[cold]
    #[inline(never)]
    fn z80_write_outside_ram(&mut self, addr: u16, value: u8, t: u64) {
        if addr & 0xE001 == 0x4000 {
            // An address latch needs the clock only for the call log.
            if !self.ym.latch_address_quiet(addr as u32 & 2, value) {
                self.ym.write(addr as u32 & 2, value, self.z80_mclk(t));
            }
            return;
        }
        let now = self.z80_mclk(t);
        // Its data port with the DAC selected (each sample byte), while no sample is
        // synthesised and the timers are stopped: the chip's clock, busy flag and register.
        if addr & 0xE003 == 0x4001 && self.ym.write_dac_quiet(value, now) {
            return;
        }
        self.z80_write_hardware(addr, value, now);
    }

    /// [`System::z80_write_outside_ram`] past the YM2612's address ports.
    #[inline(never)]
    fn z80_write_hardware(&mut self, addr: u16, value: u8, now: u64) {
        match addr {
            0x0000..=0x3FFF => self.zbus.write_ram(addr as usize, value),
            0x4000..=0x5FFF => self.ym.write(addr as u32 & 3, value, now),
            0x6000..=0x60FF => self.zbus.write_bank(value),
            0x7F00..=0x7FFF => z80_vdp_write(self, addr as u32, value, now),
            0x6100..=0x7EFF => {}
            0x8000..=0xFFFF => self.z80_bank_write(addr, value, now),
        }
    }
}

impl z80::Bus for Z80View<'_> {
    #[inline(always)]
    fn read(&mut self, addr: u16, t: u64) -> u8 {
        if addr < 0x4000 {
            return self.0.zbus.z80_ram_read(addr);
        }
        self.0.z80_read_outside_ram(addr, t)
    }

    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.0.z80_touched = true;
        if addr < 0x4000 {
            self.0.zbus.write_ram(addr as usize, value);
            return;
        }
        self.0.z80_write_outside_ram(addr, value, t)
    }

    /// Z80 RAM: reading it has no effect, and within a run only the Z80 writes it (the
    /// 68000 runs between runs).
    #[inline(always)]
    fn peek(&self, addr: u16) -> Option<u8> {
        (addr < 0x4000).then(|| self.0.zbus.z80_ram_read(addr))
    }

    fn port_in(&mut self, _port: u16, _t: u64) -> u8 {
        self.0.z80_touched = true;
        0xFF
    }

    fn port_out(&mut self, _port: u16, _value: u8, _t: u64) {
        self.0.z80_touched = true;
    }
}
