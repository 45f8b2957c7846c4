//! The Z80's side of the console: its 8 KiB RAM, the 68000's BUSREQ/RESET control of it
//! ($A11100/$A11200), and the bank register that points its 32 KiB window into 68000 space.
//!
//! Semantics from the Genesis Software Manual ("Z80 control") and Charles MacDonald's
//! gen-hw.txt: the 68000 may touch Z80 RAM only while it holds the bus and the Z80 is out of
//! reset; BUSACK reads 0 then. The bank register takes one address bit per write, A15 first,
//! shifting towards A23.

/// Bytes of Z80 RAM.
pub const Z80_RAM_BYTES: usize = 0x2000;
/// Master clocks the 68000 waits on each access to the Z80's bus (arbitration).
pub const M68K_Z80_ACCESS_MCLK: u64 = 7;
/// Master clocks the 68000 loses each time the Z80 reads the 68000 bus through the bank
/// window (the bus arbiter takes the 68000 off the bus for about three of its clocks;
/// Sonic 2's DAC playback reads samples this way). Applied only with
/// `Timing::bank_contention`.
pub const M68K_BANK_ACCESS_PENALTY_MCLK: u64 = 3 * 7;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Z80Bus {
    /// Z80 RAM as the Z80 sees it at $0000-$3FFF: the 8 KiB twice, both copies written
    /// together ([`Z80Bus::write_ram`]), so a Z80 read below $4000 indexes it with the address
    /// itself, without masking it (every Z80 opcode fetch reads it; a write is rarer than
    /// the reads by more than six to one in Sonic 2). A fixed-size array held in place: no
    /// bounds check, no pointer to load. Read through [`Z80Bus::ram`]; saved as the same
    /// 8,192 bytes as ever.
    mirrored: [u8; 2 * Z80_RAM_BYTES],
    /// The 68000 asserts BUSREQ.
    pub busreq: bool,
    /// The 68000 has released the Z80's RESET line.
    pub reset_released: bool,
    /// 68000 address of the bank window (bits 15-23).
    pub bank: u32,
}

impl Default for Z80Bus {
    fn default() -> Self {
        Self::new()
    }
}

impl Z80Bus {
    pub fn new() -> Self {
        Z80Bus {
            mirrored: [0; 2 * Z80_RAM_BYTES],
            busreq: false,
            reset_released: false,
            bank: 0,
        }
    }

    /// The 8 KiB of Z80 RAM.
    pub fn ram(&self) -> &[u8; Z80_RAM_BYTES] {
        self.mirrored
            .first_chunk()
            .expect("the mirror holds the RAM twice")
    }

    /// The RAM byte at `addr` (masked to 8 KiB).
    #[inline(always)]
    pub fn ram_byte(&self, addr: usize) -> u8 {
        self.mirrored[addr & (Z80_RAM_BYTES - 1)]
    }

    /// The byte the Z80 reads at `addr` below $4000 (the RAM and its mirror).
    #[inline(always)]
    pub fn z80_ram_read(&self, addr: u16) -> u8 {
        self.mirrored[addr as usize & (2 * Z80_RAM_BYTES - 1)]
    }

    /// Writes the RAM byte at `addr` (masked to 8 KiB) in both copies.
    #[inline(always)]
    pub fn write_ram(&mut self, addr: usize, value: u8) {
        let a = addr & (Z80_RAM_BYTES - 1);
        self.mirrored[a] = value;
        self.mirrored[a | Z80_RAM_BYTES] = value;
    }

    /// Replaces the RAM (a save state's 8 KiB).
    pub fn load_ram(&mut self, bytes: &[u8; Z80_RAM_BYTES]) {
        self.mirrored[..Z80_RAM_BYTES].copy_from_slice(bytes);
        self.mirrored[Z80_RAM_BYTES..].copy_from_slice(bytes);
    }

    /// The Z80 executes: out of reset and its bus not taken.
    pub fn z80_running(&self) -> bool {
        self.reset_released && !self.busreq
    }

    /// The 68000 may access Z80 RAM and the YM2612 through $A00000.
    pub fn m68k_has_bus(&self) -> bool {
        self.reset_released && self.busreq
    }

    /// One write to the bank register: bit 0 becomes A23 and the others shift down.
    pub fn write_bank(&mut self, value: u8) {
        self.bank = ((self.bank >> 1) | (((value & 1) as u32) << 23)) & 0xFF_8000;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bank_register_shifts_nine_bits() {
        let mut z = Z80Bus::new();
        // Select $1F8000: A15..A23 = 1,1,1,1,1,1,0,0,0.
        for bit in [1, 1, 1, 1, 1, 1, 0, 0, 0] {
            z.write_bank(bit);
        }
        assert_eq!(z.bank, 0x1F_8000);
    }

    #[test]
    fn bus_grant_rules() {
        let mut z = Z80Bus::new();
        assert!(!z.z80_running());
        z.busreq = true;
        assert!(
            !z.m68k_has_bus(),
            "no access while the Z80 is held in reset"
        );
        z.reset_released = true;
        assert!(z.m68k_has_bus());
        z.busreq = false;
        assert!(z.z80_running());
    }
}
