//! DMA bookkeeping: the kind, length and source of a transfer and how many units the VDP moves
//! per line.
//!
//! Transfer rates (units per line), from Charles MacDonald's genvdp.txt §"DMA" as measured:
//!
//! | mode        | H32 active | H32 blank | H40 active | H40 blank |
//! |-------------|-----------:|----------:|-----------:|----------:|
//! | 68K > VDP   | 16         | 167       | 18         | 205       |
//! | VRAM fill   | 15         | 166       | 17         | 204       |
//! | VRAM copy   | 8          | 83        | 9          | 102       |
//!
//! in bytes (words for CRAM/VSRAM). We use the access-slot counts (16/166, 18/204), halved for
//! word writes to VRAM and for copies (a read and a write per byte), and with one slot per
//! refresh slot lost for 68K > CRAM/VSRAM with the display off, as later Genesis Plus GX
//! does (`refresh_slots`; Genesis Plus GX 1.7 as stable-retro ships it moves 166/204 there).

use crate::clock::MCLK_PER_LINE;

/// What the running transfer does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DmaKind {
    /// 68000 bus to CRAM or VSRAM (one slot per word).
    #[default]
    BusToColor,
    /// 68000 bus to VRAM (two slots per word).
    BusToVram,
    Fill,
    Copy,
}

impl DmaKind {
    pub fn from_u8(v: u8) -> DmaKind {
        match v & 3 {
            0 => DmaKind::BusToColor,
            1 => DmaKind::BusToVram,
            2 => DmaKind::Fill,
            _ => DmaKind::Copy,
        }
    }

    pub fn as_u8(self) -> u8 {
        self as u8
    }

    /// The 68000 is stopped for the transfer.
    pub fn stalls_cpu(self) -> bool {
        matches!(self, DmaKind::BusToColor | DmaKind::BusToVram)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dma {
    /// Units (words for bus DMA, bytes for fill and copy) still to move.
    pub length: u32,
    /// Source: word address (bus DMA) or VRAM byte address (copy), as in registers 21-22.
    pub source: u16,
    pub kind: DmaKind,
    /// A fill waits for the data-port write that gives its value.
    pub fill_pending: bool,
    /// Absolute master clock at which the last scheduled chunk ends.
    pub end: u64,
}

/// External access slots per line (active display, blanking) for H32 and H40.
const SLOTS_ACTIVE: [u32; 2] = [16, 18];
const SLOTS_BLANK: [u32; 2] = [166, 204];

/// Units per line for `kind` in the current mode; `refresh_slots`: 68K > CRAM/VSRAM loses the
/// refresh slots while blanking.
pub fn rate_per_line(kind: DmaKind, blanking: bool, h40: bool, refresh_slots: bool) -> u32 {
    let base = if blanking { SLOTS_BLANK } else { SLOTS_ACTIVE }[usize::from(h40)];
    let mut rate = match kind {
        DmaKind::BusToVram | DmaKind::Copy => base >> 1,
        _ => base,
    };
    if kind == DmaKind::BusToColor && refresh_slots {
        // Refresh slots cost a unit each with the display off (5 in H32, 6 in H40).
        if rate == 166 {
            rate = 161;
        } else if rate == 204 {
            rate = 198;
        }
    }
    rate
}

/// Units that fit in `mclk` master clocks at `rate` per line.
pub fn units_in(mclk: u64, rate: u32) -> u32 {
    (mclk * rate as u64 / MCLK_PER_LINE) as u32
}

/// Master clocks `units` take at `rate` per line.
pub fn mclk_for(units: u32, rate: u32) -> u64 {
    units as u64 * MCLK_PER_LINE / rate.max(1) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// genvdp.txt: in H40 blanking a 68K > VRAM DMA moves 204 bytes (102 words) per line, a
    /// copy 102 bytes; in active display 18 bytes (9 words) per line.
    #[test]
    fn rates() {
        assert_eq!(rate_per_line(DmaKind::BusToVram, true, true, true), 102);
        assert_eq!(rate_per_line(DmaKind::BusToVram, false, true, true), 9);
        assert_eq!(rate_per_line(DmaKind::Copy, true, true, true), 102);
        assert_eq!(rate_per_line(DmaKind::Fill, true, false, true), 166);
        assert_eq!(rate_per_line(DmaKind::BusToColor, true, true, true), 198);
        assert_eq!(rate_per_line(DmaKind::BusToColor, false, false, true), 16);
        assert_eq!(rate_per_line(DmaKind::BusToColor, true, true, false), 204);
    }

    #[test]
    fn lengths_and_durations_round_trip() {
        let rate = rate_per_line(DmaKind::BusToVram, true, true, true);
        assert_eq!(units_in(MCLK_PER_LINE, rate), rate);
        assert_eq!(mclk_for(rate, rate), MCLK_PER_LINE);
        // A $1000-word transfer in vertical blank takes about 40 lines.
        assert_eq!(mclk_for(0x1000, rate) / MCLK_PER_LINE, 40);
    }

    /// A 68000 > VRAM or CRAM DMA from work RAM or the cartridge (read and written in runs)
    /// against the transfer word by word as genvdp.txt describes it: each word read at the
    /// source, whose word offset wraps inside its 128 KiB window, written at the address
    /// register (VRAM: bytes swapped at an odd address; CRAM: the entry at bits 1-6, its
    /// colour bits), the address advanced by reg 15; the FIFO holds the last four words.
    #[test]
    fn bus_dma_runs_move_each_word_in_turn() {
        use crate::machine::{Machine, Options};
        let mut seed = 0x243F_6A88_85A3_08D3u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let rom: Vec<u8> = (0..0x4_0000).map(|_| next() as u8).collect();
        let machine = Machine::new(rom.clone(), Options::default()).unwrap();
        for case in 0..200 {
            let mut m = machine.clone();
            let sys = &mut m.bus.sys;
            for b in sys.ram.iter_mut() {
                *b = next() as u8;
            }
            for b in sys.vdp.vram.iter_mut() {
                *b = next() as u8;
            }
            // Work RAM ($FF0000, $E00000, $C00000 windows) or the cartridge ($000000, $020000).
            let reg23 = [0x7F, 0x70, 0x60, 0x00, 0x01][case % 5];
            sys.vdp.regs[23] = reg23;
            sys.vdp.regs[15] = [2, 1, 0, 0x80, next() as u8][case / 5 % 5];
            // CRAM now and then (Sonic 2's palette transfers).
            let to_cram = case % 4 == 3;
            sys.vdp.code = if to_cram { 0x23 } else { 0x21 };
            // Near the end of VRAM now and then, so the address wraps.
            sys.vdp.addr = if case % 7 == 0 {
                0xFF00 | next() as u16 & 0xFF
            } else {
                next() as u16
            };
            // Near the end of the window now and then, so the word offset wraps.
            sys.vdp.dma.source = if case % 3 == 0 {
                0xFFF0 | next() as u16
            } else {
                next() as u16
            };
            let units = 1 + (next() % 300) as u32;

            let base = ((reg23 & 0x7F) as u32) << 17;
            let mut vram = sys.vdp.vram.clone();
            let mut cram = sys.vdp.cram;
            let mut fifo = sys.vdp.fifo.clone();
            let (mut addr, mut source) = (sys.vdp.addr, sys.vdp.dma.source);
            for _ in 0..units {
                let src = (base | (source as u32) << 1) as usize;
                let word = if base >= 0xC0_0000 {
                    u16::from_be_bytes([sys.ram[src & 0xFFFF], sys.ram[(src & 0xFFFF) + 1]])
                } else {
                    u16::from_be_bytes([rom[src], rom[src + 1]])
                };
                if to_cram {
                    cram[((addr >> 1) & 0x3F) as usize] = word & 0x0EEE;
                } else {
                    let v = if addr & 1 != 0 {
                        word.swap_bytes()
                    } else {
                        word
                    };
                    let a = (addr & 0xFFFE) as usize;
                    vram[a..a + 2].copy_from_slice(&v.to_be_bytes());
                }
                fifo.push(word);
                addr = addr.wrapping_add(sys.vdp.regs[15] as u16);
                source = source.wrapping_add(1);
            }

            sys.dma_from_bus(units);
            assert!(sys.vdp.vram == vram, "case {case}: VRAM");
            assert_eq!(sys.vdp.cram, cram, "case {case}: CRAM");
            assert_eq!(sys.vdp.addr, addr, "case {case}: address");
            assert_eq!(sys.vdp.dma.source, source, "case {case}: source");
            assert_eq!(
                (sys.vdp.fifo.data, sys.vdp.fifo.index),
                (fifo.data, fifo.index),
                "case {case}: FIFO"
            );
        }
    }
}
