//! The console's RESET button (a soft reset), as opposed to power-on (`Machine::new`).
//!
//! On a Mega Drive the button drives /VRES: the 68000 takes its reset exception (SSP and PC
//! from the vectors again), and the bus arbiter returns the Z80 to reset with its bus released
//! and the YM2612 reset, as after power-on. Work RAM, the VDP and the I/O chip keep their state,
//! which is how a game tells a reset from a power-on (Sonic 2's entry point finds the I/O
//! ports already set up, and `Checksum_fourcc` in RAM lets it skip the checksum). Taken
//! between frames, at the scheduler's frame boundary; the reset exception's own 40 clocks
//! are not added to the clock.

use crate::machine::Machine;

impl Machine {
    /// Presses RESET: restarts the 68000 and holds the Z80 and YM2612 in reset.
    pub fn soft_reset(&mut self) {
        self.bus.write_busreq(false);
        self.bus.write_zreset(false);
        self.cpu.reset(&mut self.bus);
        self.bus.sys.pc_ahead = self.cpu.pc().wrapping_add(4);
    }
}

#[cfg(test)]
mod tests {
    use crate::{Machine, Options};

    /// A 68000 program that counts in RAM forever: after a reset it starts over from its
    /// entry point, but the RAM it wrote survives (power-on clears it).
    #[test]
    fn reset_restarts_the_68000_and_keeps_ram() {
        let mut rom = vec![0u8; 0x400];
        rom[0..4].copy_from_slice(&0x00FF_FFFEu32.to_be_bytes()); // SSP
        rom[4..8].copy_from_slice(&0x0000_0200u32.to_be_bytes()); // PC
        rom[0x100..0x104].copy_from_slice(b"SEGA");
        // $200: addq.w #1,$FF0000 ; bra.s $200
        rom[0x200..0x208].copy_from_slice(&[0x52, 0x79, 0x00, 0xFF, 0x00, 0x00, 0x60, 0xF8]);
        let mut m = Machine::new(rom, Options::default()).unwrap();
        m.run_frame();
        m.run_frame();
        let count = m.read_u16(0xFF0000);
        assert!(count > 0);
        m.bus.sys.zbus.reset_released = true;
        m.soft_reset();
        assert_eq!(m.cpu.pc() & 0xFF_FFFF, 0x200);
        assert!(!m.bus.sys.zbus.reset_released && !m.bus.sys.zbus.busreq);
        assert_eq!(m.read_u16(0xFF0000), count);
        m.run_frame();
        assert!(m.read_u16(0xFF0000) > count);
    }
}
