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
/// (about 1.6 ms on an MK-1653; counted in lines as Genesis Plus GX does, which ticks a count
/// at every line start: here the count is the lines since the edge, worked out when the pad
/// is read or written, see [`Io::line_tick`]).
pub const SIX_BUTTON_TIMEOUT_LINES: u8 = 25;
/// Master clocks before TH, switched from output to input, reads back high (MK-1650 pads;
/// Decap Attack reads in between).
pub const TH_INPUT_SWITCH_MCLK: u64 = 172;

/// Lines in one turn of the 6-button timeout count: it counts 0 to
/// [`SIX_BUTTON_TIMEOUT_LINES`], and the next line start resets it (and the pulse counter).
const TIMEOUT_TURN: u64 = SIX_BUTTON_TIMEOUT_LINES as u64 + 1;

/// One controller.
#[derive(Clone, Debug)]
pub struct Pad {
    pub kind: PadKind,
    pub buttons: u16,
    /// The TH level the pad sees (bit 6).
    pub th: u8,
    /// 6-button: twice the number of TH rising edges since the counter last reset, as of
    /// the last [`Io::settle_pads`] (the timeout may have reset it since).
    counter: u8,
    /// 6-button: the line count ([`Io::line_tick`]) at which the timeout count was last 0
    /// with the pulse counter as it is; other pads: unused.
    since: u64,
    /// Other pads: the timeout count as loaded (they never count; kept for the state).
    held_timeout: u8,
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
            since: 0,
            held_timeout: 0,
            th_latency_until: 0,
        }
    }

    /// Applies the line starts since `since` as the per-line tick did: the timeout count is
    /// the lines since then modulo its turn, and the first full turn resets the counter.
    #[inline]
    fn settle(&mut self, line: u64) {
        if self.kind == PadKind::SixButton {
            let n = line - self.since;
            if n >= TIMEOUT_TURN {
                self.counter = 0;
                self.since = line - n % TIMEOUT_TURN;
            }
        }
    }

    /// The timeout count at line count `line` (after [`Pad::settle`]).
    fn timeout(&self, line: u64) -> u8 {
        if self.kind == PadKind::SixButton {
            (line - self.since) as u8
        } else {
            self.held_timeout
        }
    }

    fn read(&self, now: u64, line: u64) -> u8 {
        if self.kind == PadKind::None {
            return 0x7F;
        }
        let pad = self.buttons as u32;
        let mut data = (self.th as u32) | 0x3F;
        // A full turn of the timeout since `since` has reset the counter ([`Pad::settle`]).
        let counter = if self.kind == PadKind::SixButton && line - self.since >= TIMEOUT_TURN {
            0
        } else {
            self.counter
        };
        let mut step = counter as u32 | (data >> 6);
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

    fn write(&mut self, data: u8, ctrl: u8, now: u64, line: u64) {
        let th = if ctrl & 0x40 != 0 {
            self.th_latency_until = 0;
            let th = data & 0x40;
            if self.kind == PadKind::SixButton && self.counter < 8 && th != 0 && self.th == 0 {
                self.counter += 2;
                self.since = line;
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
}

/// The I/O chip's registers ($A10001 + 2n) and the devices on its ports.
#[derive(Clone, Debug)]
pub struct Io {
    pub regs: [u8; 16],
    pub pads: [Pad; 2],
    /// Line starts since power-on ([`Io::line_tick`]): the 6-button pads' timeouts are
    /// counted from it when a pad is read or written, not ticked at every line.
    line: u64,
}

/// Equal when the pads read and save alike (the line counts they are kept against may
/// differ: a loaded state starts its own).
impl PartialEq for Io {
    fn eq(&self, other: &Self) -> bool {
        self.regs == other.regs
            && (0..2).all(|i| {
                let (a, b) = (&self.pads[i], &other.pads[i]);
                a.kind == b.kind
                    && a.buttons == b.buttons
                    && a.th == b.th
                    && a.th_latency_until == b.th_latency_until
                    && self.pad_counters(i) == other.pad_counters(i)
            })
    }
}

impl Eq for Io {}

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
            line: 0,
        }
    }

    /// Brings the 6-button pads' counters up to the line starts so far.
    #[inline]
    fn settle_pads(&mut self) {
        let line = self.line;
        for p in &mut self.pads {
            p.settle(line);
        }
    }

    /// Pad `port`'s 6-button pulse counter and timeout count as a per-line tick leaves them
    /// (what a save state holds).
    pub fn pad_counters(&self, port: usize) -> (u8, u8) {
        let mut p = self.pads[port].clone();
        p.settle(self.line);
        (p.counter, p.timeout(self.line))
    }

    /// Sets pad `port`'s pulse counter and timeout count (a loaded state). A count past the
    /// timeout (no state written by this machine holds one) resets at the next line start, as
    /// the per-line tick would.
    pub fn set_pad_counters(&mut self, port: usize, counter: u8, timeout: u8) {
        let line = self.line;
        let p = &mut self.pads[port];
        p.counter = counter;
        p.held_timeout = timeout;
        let t = u64::from(timeout.min(SIX_BUTTON_TIMEOUT_LINES));
        // Line counts start at 0: keep `since` below `line` by moving the count on instead.
        if line < t {
            self.line = t;
            for q in &mut self.pads {
                q.since += t - line;
            }
        }
        let p = &mut self.pads[port];
        p.since = self.line - t;
    }

    /// Reads register `offset` ((address >> 1) & 15).
    pub fn read(&self, offset: usize, now: u64) -> u8 {
        match offset {
            1..=3 => {
                let mask = 0x80 | self.regs[offset + 3];
                let input = match offset {
                    1 => self.pads[0].read(now, self.line),
                    2 => self.pads[1].read(now, self.line),
                    _ => 0x7F,
                };
                (self.regs[offset] & mask) | (input & !mask)
            }
            _ => self.regs[offset & 15],
        }
    }

    pub fn write(&mut self, offset: usize, value: u8, now: u64) {
        self.settle_pads();
        let line = self.line;
        match offset {
            1..=3 => {
                self.regs[offset] = value;
                let ctrl = self.regs[offset + 3];
                if offset <= 2 {
                    self.pads[offset - 1].write(value, ctrl, now, line);
                }
            }
            4..=6 if self.regs[offset] != value => {
                self.regs[offset] = value;
                let data = self.regs[offset - 3];
                if offset <= 5 {
                    self.pads[offset - 4].write(data, value, now, line);
                }
            }
            7 | 0x0A | 0x0D => self.regs[offset] = value,
            9 | 0x0C | 0x0F => self.regs[offset] = value & 0xF8,
            _ => {}
        }
    }

    /// At every line start: one count, the pads' timeouts follow from it when they are used.
    #[inline]
    pub fn line_tick(&mut self) {
        self.line += 1;
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
        assert_eq!(io.pad_counters(0), (0, 0));
    }

    /// The timeout counted from the edge gives what a count ticked at every line start gives
    /// (Genesis Plus GX's `io_reset`-style per-line tick, written out here as the model): the
    /// reads and the saved counts agree through random TH toggles, reads and line starts,
    /// with a state's counts loaded midway.
    #[test]
    fn timeout_counted_from_the_edge_matches_a_per_line_tick() {
        let mut x = 0x2545_F491u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut io = io();
        io.pads[0].buttons = X | MODE | A;
        io.write(4, 0x40, 0);
        // The model: counter and timeout as the per-line tick kept them.
        // (TH is an output driven low since the write to the control register.)
        let (mut counter, mut timeout, mut th) = (0u8, 0u8, 0u8);
        for step in 0..20_000 {
            match next() % 8 {
                0..=3 => {
                    timeout = timeout.saturating_add(1);
                    if timeout > SIX_BUTTON_TIMEOUT_LINES {
                        counter = 0;
                        timeout = 0;
                    }
                    io.line_tick();
                }
                4 | 5 => {
                    let v = if next() % 2 == 0 { 0x40 } else { 0 };
                    if counter < 8 && v != 0 && th == 0 {
                        counter += 2;
                        timeout = 0;
                    }
                    th = v;
                    io.write(1, v, 0);
                }
                6 => {
                    let mut model = Io::new(Region::USA, [PadKind::SixButton, PadKind::None]);
                    model.pads[0].buttons = io.pads[0].buttons;
                    model.pads[0].th = th;
                    model.set_pad_counters(0, counter, timeout);
                    assert_eq!(io.read(1, 0), model.read(1, 0), "step {step}");
                }
                _ => {
                    if next() % 50 == 0 {
                        // A state loaded: the counts carry over.
                        io.set_pad_counters(0, counter, timeout);
                    }
                    assert_eq!(io.pad_counters(0), (counter, timeout), "step {step}");
                }
            }
        }
    }
}
