//! The cartridge: ROM (up to 4 MiB, larger behind the SSF2 bank mapper), battery SRAM where
//! the header declares it, and the $A130xx time/mapper registers.

use std::sync::Arc;

use crate::clock::Region;

/// Why a ROM image was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RomError {
    Empty,
    TooLarge(usize),
}

impl std::fmt::Display for RomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RomError::Empty => write!(f, "the ROM image is empty"),
            RomError::TooLarge(n) => {
                write!(f, "the ROM image is too large ({n} bytes, 10 MiB at most)")
            }
        }
    }
}

impl std::error::Error for RomError {}

/// Largest image accepted: the SSF2 mapper addresses 64 banks of 512 KiB, no known cartridge
/// uses more than 10 MiB.
pub const MAX_ROM_BYTES: usize = 10 * 1024 * 1024;
/// The cartridge area of the 68000's map.
pub const CART_AREA_BYTES: usize = 0x40_0000;
const BANK_BYTES: usize = 0x8_0000;

/// Battery RAM as declared at header $1B0 ("RA").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sram {
    pub start: u32,
    pub end: u32,
    pub data: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cartridge {
    /// The image, padded to an even length; shared by copies of the machine (read-only).
    pub rom: Arc<[u8]>,
    pub sram: Option<Sram>,
    /// $A130F1 bit 0: SRAM mapped over ROM (needed when the ROM reaches the SRAM window);
    /// bit 1: write protect.
    pub sram_control: u8,
    /// SSF2 mapper: the 512 KiB bank shown in each of the eight windows ($A130F3-$A130FF
    /// select windows 1-7; window 0 is fixed).
    pub banks: [u8; 8],
    pub mapper: bool,
    /// When the cartridge is a plain ROM (no SRAM, no mapper): the whole cartridge area as
    /// the 68000 reads it, mirrors included, so a read is one mask and one index with no
    /// bounds test (the 68000's hot path: every instruction fetch; everything else goes
    /// through `rom_offset`). Derived from `rom`.
    area: CartArea,
}

/// The cartridge area of a plain ROM ([`Cartridge::derive_fast_path`]): derived state, so it
/// compares equal to anything and prints as its size.
#[derive(Clone)]
struct CartArea {
    /// Shared by copies of the machine, like the image: the whole area, or empty when the
    /// cartridge is not a plain ROM, so the one length test of a read both decides that
    /// the address is in the cartridge area and that the area may be read directly.
    bytes: Arc<[u8]>,
    /// The same area as big-endian words already put together (empty with `bytes`): a word
    /// read, every instruction fetch among them, is one shift, one length test and a load,
    /// where the bytes took an end offset, its test, the load and a byte swap.
    words: Arc<[u16]>,
    /// The image it was built from (the same allocation as `Cartridge::rom`, while it is).
    from: Option<Arc<[u8]>>,
}

equal_to_any!(CartArea);

impl Default for CartArea {
    fn default() -> Self {
        Self {
            bytes: Arc::new([]),
            words: Arc::new([]),
            from: None,
        }
    }
}

impl std::fmt::Debug for CartArea {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CartArea({} bytes)", self.bytes.len())
    }
}

impl Cartridge {
    pub fn new(mut rom: Vec<u8>) -> Result<Self, RomError> {
        if rom.is_empty() {
            return Err(RomError::Empty);
        }
        if rom.len() > MAX_ROM_BYTES {
            return Err(RomError::TooLarge(rom.len()));
        }
        if rom.len() % 2 == 1 {
            rom.push(0xFF);
        }
        let mapper =
            rom.len() > CART_AREA_BYTES || header_str(&rom, 0x100, 16).starts_with("SEGA SSF");
        let sram = parse_sram(&rom);
        // With the ROM smaller than the SRAM window the RAM is visible from power-on.
        let sram_control = match &sram {
            Some(s) if (s.start as usize) >= rom.len() => 1,
            _ => 0,
        };
        let mut cart = Cartridge {
            rom: rom.into(),
            sram,
            sram_control,
            banks: [0, 1, 2, 3, 4, 5, 6, 7],
            mapper,
            area: CartArea::default(),
        };
        cart.derive_fast_path();
        Ok(cart)
    }

    /// The region the header asks for: USA if listed, then Japan, then Europe (the order
    /// Genesis Plus GX's automatic detection uses); USA when the header says nothing usable.
    pub fn header_region(&self) -> Region {
        let field = header_str(&self.rom, 0x1F0, 3);
        let field = field.trim();
        let (mut j, mut u, mut e) = (false, false, false);
        if field.len() == 1
            && field.chars().all(|c| c.is_ascii_hexdigit())
            && !"JUE".contains(field)
        {
            // New-style hex mask: bit 0 Japan, bit 2 USA, bit 3 Europe.
            let v = u8::from_str_radix(field, 16).unwrap_or(0);
            j = v & 1 != 0;
            u = v & 4 != 0;
            e = v & 8 != 0;
        } else {
            for c in field.chars() {
                match c {
                    'J' => j = true,
                    'U' => u = true,
                    'E' => e = true,
                    _ => {}
                }
            }
        }
        if u {
            Region::USA
        } else if j {
            Region::JAPAN
        } else if e {
            Region::EUROPE
        } else {
            Region::USA
        }
    }

    /// Works out whether reads may take the one-mask path; call after changing `rom`, `sram`
    /// or `mapper` (the state loader does).
    pub fn derive_fast_path(&mut self) {
        if self.sram.is_some() || self.mapper {
            self.area = CartArea::default();
            return;
        }
        // Kept when it was built from this image (a state loaded into the machine).
        if !self.area.bytes.is_empty()
            && self
                .area
                .from
                .as_ref()
                .is_some_and(|from| Arc::ptr_eq(from, &self.rom))
        {
            return;
        }
        // The image repeats through the area (`rom_offset` without a mapper): copied once,
        // then the filled part doubled, which keeps every copy at a multiple of its length.
        let mut bytes = vec![0u8; CART_AREA_BYTES];
        let len = self.rom.len().min(CART_AREA_BYTES);
        bytes[..len].copy_from_slice(&self.rom[..len]);
        let mut filled = len;
        while filled < CART_AREA_BYTES {
            let n = filled.min(CART_AREA_BYTES - filled);
            bytes.copy_within(..n, filled);
            filled += n;
        }
        // The words the same way, from the image's own (the whole area of them is 2 Mi words
        // put together one at a time, several million host instructions at every load).
        // (An image of odd length, which `Cartridge::new` pads, repeats at an odd period:
        // its words are taken from the whole area.)
        let source: &[u8] = if len.is_multiple_of(2) {
            &self.rom[..len]
        } else {
            &bytes
        };
        let mut words = vec![0u16; CART_AREA_BYTES / 2];
        for (w, b) in words.iter_mut().zip(source.chunks_exact(2)) {
            *w = u16::from_be_bytes([b[0], b[1]]);
        }
        let mut filled = source.len() / 2;
        while filled < words.len() {
            let n = filled.min(words.len() - filled);
            words.copy_within(..n, filled);
            filled += n;
        }
        self.area = CartArea {
            bytes: Arc::from(bytes),
            words: Arc::from(words),
            from: Some(self.rom.clone()),
        };
    }

    #[inline]
    fn sram_hit(&self, addr: u32) -> Option<usize> {
        let s = self.sram.as_ref()?;
        if self.sram_control & 1 == 0 && (s.start as usize) < self.rom.len() {
            return None;
        }
        if addr >= s.start && addr <= s.end {
            Some((addr - s.start) as usize % s.data.len().max(1))
        } else {
            None
        }
    }

    #[inline]
    fn rom_offset(&self, addr: u32) -> usize {
        let addr = addr as usize & (CART_AREA_BYTES - 1);
        let off = if self.mapper {
            let window = addr / BANK_BYTES;
            self.banks[window] as usize * BANK_BYTES + (addr % BANK_BYTES)
        } else {
            addr
        };
        // Smaller images repeat through the cartridge area (the division only for them).
        let len = self.rom.len();
        if off < len { off } else { off % len }
    }

    /// The byte at `addr` (below $1000000) when the cartridge is a plain ROM and `addr` is
    /// in its area: one length test, the 68000's hot path.
    #[inline(always)]
    pub fn plain_byte(&self, addr: u32) -> Option<u8> {
        self.area.bytes.get(addr as usize).copied()
    }

    /// The word at the even `addr`, as [`Cartridge::plain_byte`] (`None` at and past
    /// $1000000, which is past the area: the CPU's PC may be passed unmasked).
    #[inline(always)]
    pub fn plain_word(&self, addr: u32) -> Option<u16> {
        self.area.words.get((addr >> 1) as usize).copied()
    }

    /// The `len` bytes from `addr` on when the cartridge is a plain ROM and they are all in
    /// its area (a bus DMA's source run, [`crate::bus::System::dma_from_bus`]).
    pub fn plain_bytes(&self, addr: usize, len: usize) -> Option<&[u8]> {
        self.area.bytes.get(addr..addr.checked_add(len)?)
    }

    /// The words at the even `addr` and `addr + 2`, both plain: one bounds test (`None`
    /// from $3FFFFE on, so the second never wraps past $FFFFFE here).
    #[inline(always)]
    pub fn plain_pair(&self, addr: u32) -> Option<(u16, u16)> {
        let i = (addr >> 1) as usize;
        match self.area.words.get(i..i + 2) {
            Some(&[first, second]) => Some((first, second)),
            _ => None,
        }
    }

    #[inline(always)]
    pub fn read_byte(&self, addr: u32) -> u8 {
        if let Some(b) = self.plain_byte(addr & (CART_AREA_BYTES as u32 - 1)) {
            return b;
        }
        self.read_byte_mapped(addr)
    }

    #[inline(never)]
    fn read_byte_mapped(&self, addr: u32) -> u8 {
        if self.sram.is_none() && !self.mapper {
            // Most cartridges: the ROM, mirrored through the area.
            return self.rom[self.rom_offset(addr)];
        }
        if let Some(i) = self.sram_hit(addr) {
            return self.sram.as_ref().map_or(0xFF, |s| s.data[i]);
        }
        self.rom[self.rom_offset(addr)]
    }

    #[inline(always)]
    pub fn read_word(&self, addr: u32) -> u16 {
        if let Some(w) = self.plain_word(addr & (CART_AREA_BYTES as u32 - 2)) {
            return w;
        }
        self.read_word_mapped(addr)
    }

    #[inline(never)]
    fn read_word_mapped(&self, addr: u32) -> u16 {
        let addr = addr & !1;
        if self.sram.is_none() && !self.mapper {
            // Most cartridges: the ROM (even length), mirrored through the area.
            let o = self.rom_offset(addr);
            return u16::from_be_bytes([self.rom[o], self.rom[o + 1]]);
        }
        if self.sram_hit(addr).is_some() || self.sram_hit(addr | 1).is_some() {
            return u16::from_be_bytes([self.read_byte(addr), self.read_byte(addr | 1)]);
        }
        let o = self.rom_offset(addr);
        u16::from_be_bytes([self.rom[o], self.rom[o + 1]])
    }

    pub fn write_byte(&mut self, addr: u32, value: u8) {
        if self.sram_control & 2 != 0 {
            return;
        }
        if let Some(i) = self.sram_hit(addr)
            && let Some(s) = self.sram.as_mut()
        {
            s.data[i] = value;
        }
    }

    /// $A130F1-$A130FF (odd addresses): SRAM control and the SSF2 bank registers.
    pub fn write_register(&mut self, addr: u32, value: u8) {
        let reg = (addr & 0xFF) as u8;
        match reg {
            0xF1 => self.sram_control = value & 3,
            0xF3 | 0xF5 | 0xF7 | 0xF9 | 0xFB | 0xFD | 0xFF if self.mapper => {
                let window = ((reg - 0xF1) / 2) as usize;
                self.banks[window] = value & 0x3F;
            }
            _ => {}
        }
    }
}

fn header_str(rom: &[u8], at: usize, len: usize) -> String {
    rom.get(at..at + len)
        .map(|b| b.iter().map(|&c| c as char).collect())
        .unwrap_or_default()
}

fn parse_sram(rom: &[u8]) -> Option<Sram> {
    if rom.get(0x1B0..0x1B2)? != b"RA" {
        return None;
    }
    let be32 = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(rom.get(at..at + 4)?.try_into().ok()?))
    };
    let start = be32(0x1B4)? & 0xFF_FFFE;
    let end = be32(0x1B8)? | 1;
    if end <= start || start >= 0x40_0000 {
        return None;
    }
    let len = ((end - start + 1) as usize).min(0x1_0000);
    Some(Sram {
        start,
        end: start + len as u32 - 1,
        data: vec![0xFF; len],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_rom_mirrors_and_odd_lengths_pad() {
        let c = Cartridge::new(vec![1, 2, 3]).unwrap();
        assert_eq!(c.rom.len(), 4);
        assert_eq!(c.read_word(0), 0x0102);
        assert_eq!(c.read_word(4), 0x0102);
        assert_eq!(c.read_byte(0x3F_FFFF), 0xFF);
    }

    #[test]
    fn images_of_any_length_repeat_through_the_area() {
        // 6 bytes, 3 MiB and 4 MiB: not powers of two, and the whole area.
        for len in [6usize, 0x30_0000, CART_AREA_BYTES] {
            let rom: Vec<u8> = (0..len).map(|i| (i * 7 + i / 251) as u8).collect();
            let c = Cartridge::new(rom.clone()).unwrap();
            for addr in [
                0u32, 1, 5, 6, 7, 0x2F_FFFF, 0x30_0000, 0x30_0001, 0x3F_FFFE, 0x3F_FFFF,
            ] {
                let at = |a: u32| rom[a as usize % len];
                assert_eq!(c.read_byte(addr), at(addr), "byte {addr:06X} of {len}");
                let even = addr & !1;
                let word = u16::from_be_bytes([at(even), at(even + 1)]);
                assert_eq!(c.read_word(addr), word, "word {addr:06X} of {len}");
            }
        }
    }

    /// The instruction fetches' fast answers (`m68000::Bus::fetch_fast_pc` and
    /// `fetch_fast_pair`) are the ROM's words wherever the area is plain, nothing past it
    /// (the PC unmasked above 24 bits included), and nothing for a cartridge with SRAM.
    #[test]
    fn fast_fetches_read_the_rom_words_and_nothing_past_the_area() {
        let rom: Vec<u8> = (0..0x10_0000usize)
            .map(|i| (i * 13 + i / 509) as u8)
            .collect();
        let c = Cartridge::new(rom.clone()).unwrap();
        let word = |a: u32| {
            let a = (a & 0x3F_FFFE) as usize % rom.len();
            u16::from_be_bytes([rom[a], rom[a + 1]])
        };
        for pc in [
            0u32,
            2,
            0x0F_FFFE,
            0x10_0000,
            0x3F_FFFC,
            0x3F_FFFE,
            0x40_0000,
            0xFF_FFFE,
            0x100_0000,
            0x100_0002,
            0xFFFF_FFFE,
        ] {
            let plain = pc < CART_AREA_BYTES as u32;
            assert_eq!(
                c.plain_word(pc),
                plain.then(|| word(pc)),
                "word at {pc:08X}"
            );
            let pair = (pc.wrapping_add(2) < CART_AREA_BYTES as u32 && pc < CART_AREA_BYTES as u32)
                .then(|| (word(pc), word(pc + 2)));
            assert_eq!(c.plain_pair(pc), pair, "pair at {pc:08X}");
        }
        let mut rom = vec![0u8; 0x20_0000];
        rom[0x1B0..0x1B4].copy_from_slice(b"RA\xF8\x20");
        rom[0x1B4..0x1B8].copy_from_slice(&0x20_0001u32.to_be_bytes());
        rom[0x1B8..0x1BC].copy_from_slice(&0x20_3FFFu32.to_be_bytes());
        let c = Cartridge::new(rom).unwrap();
        assert_eq!(c.plain_word(0), None);
        assert_eq!(c.plain_pair(0), None);
    }

    #[test]
    fn sram_declared_in_header() {
        let mut rom = vec![0u8; 0x20_0000];
        rom[0x1B0..0x1B4].copy_from_slice(b"RA\xF8\x20");
        rom[0x1B4..0x1B8].copy_from_slice(&0x20_0001u32.to_be_bytes());
        rom[0x1B8..0x1BC].copy_from_slice(&0x20_3FFFu32.to_be_bytes());
        let mut c = Cartridge::new(rom).unwrap();
        c.write_byte(0x20_0001, 0x5A);
        assert_eq!(c.read_byte(0x20_0001), 0x5A);
    }

    #[test]
    fn ssf2_banks() {
        let mut rom = vec![0u8; 0x50_0000];
        rom[0x48_0000] = 0xAB;
        let mut c = Cartridge::new(rom).unwrap();
        assert!(c.mapper);
        c.write_register(0xA1_30FF, 9);
        assert_eq!(c.read_byte(0x38_0000), 0xAB);
    }
}
