//! The I/O chip at $A10000: version register, three ports with TH/TR handshakes, and the 3- and
//! 6-button pads plugged into ports 1 and 2.
//!
//! Register map and pad protocol: Sega Genesis Software Manual ("I/O"), Charles MacDonald's
//! gen-hw.txt §"Controllers" and Sega's MK-1653 6-button specification.

use crate::clock::Region;

/// Pad buttons as a bit mask (set = held). Bits 0-7 follow the order of the 3-button pad's
/// TH=1 byte (Up, Down, Left, Right, B, C) plus A and Start; bits 8-11 the 6-button extras.
pub mod buttons {
    pub const UP: u16 = 1 << 0;
    pub const DOWN: u16 = 1 << 1;
    pub const LEFT: u16 = 1 << 2;
    pub const RIGHT: u16 = 1 << 3;
    pub const B: u16 = 1 << 4;
    pub const C: u16 = 1 << 5;
    pub const A: u16 = 1 << 6;
    pub const START: u16 = 1 << 7;
    pub const Z: u16 = 1 << 8;
    pub const Y: u16 = 1 << 9;
    pub const X: u16 = 1 << 10;
    pub const MODE: u16 = 1 << 11;
}

/// What is plugged into a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadKind {
    None,
    ThreeButton,
    SixButton,
}

/// Lines after the last TH rising edge at which a 6-button pad's pulse counter returns to 0
/// (about 1.6 ms on an MK-1653; counted per line as Genesis Plus GX does).
pub const SIX_BUTTON_TIMEOUT_LINES: u8 = 25;
/// Master clocks before TH, switched from output to input, reads back high (MK-1650 pads;
/// Decap Attack reads in between).
pub const TH_INPUT_SWITCH_MCLK: u64 = 172;

/// One controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pad {
    pub kind: PadKind,
    pub buttons: u16,
    /// The TH level the pad sees (bit 6).
    pub th: u8,
    /// 6-button: twice the number of TH rising edges since the counter last reset.
    pub counter: u8,
    pub timeout: u8,
    /// Absolute master clock until which a TH switched to input still reads low.
    pub th_latency_until: u64,
}

impl Pad {
    fn new(kind: PadKind) -> Self {
        Pad {
            kind,
            buttons: 0,
            th: 0x40,
            counter: 0,
            timeout: 0,
            th_latency_until: 0,
        }
    }

    fn read(&self, now: u64) -> u8 {
        if self.kind == PadKind::None {
            return 0x7F;
        }
        let pad = self.buttons as u32;
        let mut data = (self.th as u32) | 0x3F;
        let mut step = self.counter as u32 | (data >> 6);
        if now < self.th_latency_until {
            step &= !1;
        }
        match step {
            // Third low: ?0SA0000.
            4 => data &= !(((pad >> 2) & 0x30) | 0x0F),
            // Fourth high: ?1CBMXYZ.
            7 => data &= !((pad & 0x30) | ((pad >> 8) & 0x0F)),
            // Fourth low: ?0SA1111.
            6 => data &= !((pad >> 2) & 0x30),
            _ if step & 1 == 1 => data &= !(pad & 0x3F),
            _ => data &= !((pad & 0x03) | ((pad >> 2) & 0x30) | 0x0C),
        }
        data as u8
    }

    fn write(&mut self, data: u8, ctrl: u8, now: u64) {
        let th = if ctrl & 0x40 != 0 {
            self.th_latency_until = 0;
            let th = data & 0x40;
            if self.kind == PadKind::SixButton && self.counter < 8 && th != 0 && self.th == 0 {
                self.counter += 2;
                self.timeout = 0;
            }
            th
        } else {
            // TH is pulled high when it is an input, after a short delay.
            if self.th == 0 {
                self.th_latency_until = now + TH_INPUT_SWITCH_MCLK;
            }
            0x40
        };
        self.th = th;
    }

    /// Once per line.
    fn line_tick(&mut self) {
        if self.kind == PadKind::SixButton {
            self.timeout = self.timeout.saturating_add(1);
            if self.timeout > SIX_BUTTON_TIMEOUT_LINES {
                self.counter = 0;
                self.timeout = 0;
            }
        }
    }
}

/// The I/O chip's registers ($A10001 + 2n) and the devices on its ports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Io {
    pub regs: [u8; 16],
    pub pads: [Pad; 2],
}

impl Io {
    pub fn new(region: Region, pads: [PadKind; 2]) -> Self {
        let mut regs = [0u8; 16];
        // Version: bit 7 overseas, bit 6 PAL, bit 5 no expansion unit, bits 0-3 hardware
        // version 0 (no TMSS, as the reference emulator's default console).
        regs[0] = (u8::from(region.overseas) << 7) | (u8::from(region.pal) << 6) | 0x20;
        regs[7] = 0xFF;
        regs[0x0A] = 0xFF;
        regs[0x0D] = 0xFB;
        Io {
            regs,
            pads: [Pad::new(pads[0]), Pad::new(pads[1])],
        }
    }

    /// Reads register `offset` ((address >> 1) & 15).
    pub fn read(&self, offset: usize, now: u64) -> u8 {
        match offset {
            1..=3 => {
                let mask = 0x80 | self.regs[offset + 3];
                let input = match offset {
                    1 => self.pads[0].read(now),
                    2 => self.pads[1].read(now),
                    _ => 0x7F,
                };
                (self.regs[offset] & mask) | (input & !mask)
            }
            _ => self.regs[offset & 15],
        }
    }

    pub fn write(&mut self, offset: usize, value: u8, now: u64) {
        match offset {
            1..=3 => {
                self.regs[offset] = value;
                let ctrl = self.regs[offset + 3];
                if offset <= 2 {
                    self.pads[offset - 1].write(value, ctrl, now);
                }
            }
            4..=6 if self.regs[offset] != value => {
                self.regs[offset] = value;
                let data = self.regs[offset - 3];
                if offset <= 5 {
                    self.pads[offset - 4].write(data, value, now);
                }
            }
            7 | 0x0A | 0x0D => self.regs[offset] = value,
            9 | 0x0C | 0x0F => self.regs[offset] = value & 0xF8,
            _ => {}
        }
    }

    pub fn line_tick(&mut self) {
        for p in &mut self.pads {
            p.line_tick();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::buttons::*;
    use super::*;

    fn io() -> Io {
        Io::new(Region::USA, [PadKind::SixButton, PadKind::ThreeButton])
    }

    #[test]
    fn version_register() {
        assert_eq!(io().read(0, 0), 0xA0);
        assert_eq!(Io::new(Region::EUROPE, [PadKind::None; 2]).read(0, 0), 0xE0);
        assert_eq!(Io::new(Region::JAPAN, [PadKind::None; 2]).read(0, 0), 0x20);
    }

    /// The 3-button protocol (gen-hw.txt): TH=1 ?1CBRLDU, TH=0 ?0SA00DU, active low.
    #[test]
    fn three_button_reads() {
        let mut io = io();
        io.pads[1].buttons = UP | C | START;
        io.write(5, 0x40, 0);
        io.write(2, 0x40, 0);
        assert_eq!(io.read(2, 0), 0x40 | 0x1E);
        io.write(2, 0x00, 0);
        assert_eq!(io.read(2, 0), 0x33 & !0x01 & !0x20);
    }

    /// MK-1653: the third TH=0 read forces D0-D3 low, the fourth TH=1 read returns MXYZ,
    /// and the counter resets after the timeout.
    #[test]
    fn six_button_sequence_and_timeout() {
        let mut io = io();
        io.pads[0].buttons = X | MODE;
        io.write(4, 0x40, 0);
        let mut seen = Vec::new();
        for _ in 0..4 {
            io.write(1, 0x40, 0);
            seen.push(io.read(1, 0));
            io.write(1, 0x00, 0);
            seen.push(io.read(1, 0));
        }
        // The power-on TH=0 counts as the first low.
        assert_eq!(seen[3] & 0x0F, 0x00, "third low: D3-D0 forced to 0");
        assert_eq!(seen[4] & 0x0F, 0x0F & !0x0C, "fourth high: M and X held");
        assert_eq!(seen[5] & 0x0F, 0x0F, "fourth low: D3-D0 forced to 1");
        assert_eq!(seen[6] & 0x0F, 0x0F, "then plain 3-button reads");
        for _ in 0..=SIX_BUTTON_TIMEOUT_LINES {
            io.line_tick();
        }
        assert_eq!(io.pads[0].counter, 0);
    }
}
