//! The YM2612's bus side: address/data ports, the status register with its busy flag, and
//! timers A and B counting in output samples so their overflow flags read as on hardware.
//! No sound is synthesised yet.
//!
//! Timer periods: YM2612 application manual (timer A: 18 us x (1024 - TA) at 7.67 MHz, one
//! tick per output sample; timer B: 16 samples per tick). Busy flag: 32 YM clocks after a data
//! write (Nemesis's measurements, as Genesis Plus GX models them).

use crate::clock::MCLK_PER_FM_SAMPLE;

/// Master clocks per YM2612 internal clock (MCLK / 7 / 6).
pub const MCLK_PER_FM_CLOCK: u64 = 42;
/// YM clocks the busy flag stays set after a data-port write.
pub const BUSY_FM_CLOCKS: u64 = 32;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ym2612 {
    /// Last address written to each part (port 0: $000-$0FF, port 2: $100-$1FF).
    pub address: [u8; 2],
    /// The 512 registers as last written.
    pub regs: Vec<u8>,
    pub status: u8,
    /// Register $27: timer load/enable/reset and channel-3 mode.
    pub mode: u8,
    pub timer_a_period: i32,
    pub timer_a_count: i32,
    pub timer_b_period: i32,
    pub timer_b_count: i32,
    /// Absolute master clock up to which the timers have run (sample boundaries).
    pub synced_to: u64,
    /// Absolute master clock at which the busy flag clears.
    pub busy_until: u64,
}

impl Default for Ym2612 {
    fn default() -> Self {
        Self::new()
    }
}

impl Ym2612 {
    pub fn new() -> Self {
        Ym2612 {
            address: [0; 2],
            regs: vec![0; 512],
            status: 0,
            mode: 0,
            timer_a_period: 1024,
            timer_a_count: 0,
            timer_b_period: 256 << 4,
            timer_b_count: 0,
            synced_to: 0,
            busy_until: 0,
        }
    }

    /// Chip reset (the Z80's reset line also resets the YM2612).
    pub fn reset(&mut self, now: u64) {
        self.sync(now);
        let synced = self.synced_to;
        *self = Ym2612::new();
        self.synced_to = synced;
    }

    /// Runs the timers in whole samples up to the first sample boundary at or after `now`.
    pub fn sync(&mut self, now: u64) {
        if now <= self.synced_to {
            return;
        }
        let samples = (now - self.synced_to).div_ceil(MCLK_PER_FM_SAMPLE);
        self.synced_to += samples * MCLK_PER_FM_SAMPLE;
        let samples = samples.min(1 << 20) as i64;
        if self.mode & 1 != 0 {
            let (count, overflow) = run_timer(self.timer_a_count, self.timer_a_period, samples);
            self.timer_a_count = count;
            if overflow && self.mode & 4 != 0 {
                self.status |= 1;
            }
        }
        if self.mode & 2 != 0 {
            let (count, overflow) = run_timer(self.timer_b_count, self.timer_b_period, samples);
            self.timer_b_count = count;
            if overflow && self.mode & 8 != 0 {
                self.status |= 2;
            }
        }
    }

    /// Status read (A0=A1=0 on a discrete YM2612; the other addresses read the same on the
    /// ASIC-integrated chips and 0 on the discrete one: we model the discrete chip).
    pub fn read(&mut self, port: u32, now: u64) -> u8 {
        if port & 3 != 0 {
            return 0;
        }
        self.sync(now);
        let busy = if now < self.busy_until { 0x80 } else { 0 };
        self.status | busy
    }

    pub fn write(&mut self, port: u32, value: u8, now: u64) {
        let part = ((port >> 1) & 1) as usize;
        if port & 1 == 0 {
            self.address[part] = value;
            return;
        }
        self.sync(now);
        self.busy_until = (now.div_ceil(MCLK_PER_FM_CLOCK) + BUSY_FM_CLOCKS) * MCLK_PER_FM_CLOCK;
        let reg = self.address[part] as usize;
        self.regs[part * 256 + reg] = value;
        if part == 0 {
            match reg {
                0x24 => {
                    let ta = (self.regs[0x24] as i32) << 2 | (self.regs[0x25] as i32 & 3);
                    self.timer_a_period = 1024 - ta;
                }
                0x25 => {
                    let ta = (self.regs[0x24] as i32) << 2 | (value as i32 & 3);
                    self.timer_a_period = 1024 - ta;
                }
                0x26 => self.timer_b_period = (256 - value as i32) << 4,
                0x27 => {
                    if value & 1 != 0 && self.mode & 1 == 0 {
                        self.timer_a_count = self.timer_a_period;
                    }
                    if value & 2 != 0 && self.mode & 2 == 0 {
                        self.timer_b_count = self.timer_b_period;
                    }
                    // Bits 4/5 reset the overflow flags.
                    self.status &= !(value >> 4) & 3;
                    self.mode = value;
                }
                _ => {}
            }
        }
    }
}

/// Counts a timer down by `ticks`; returns the new count and whether it overflowed (reloading
/// from `period` as often as needed).
fn run_timer(count: i32, period: i32, ticks: i64) -> (i32, bool) {
    let count = count as i64 - ticks;
    if count > 0 {
        return (count as i32, false);
    }
    let period = period.max(1) as i64;
    let over = (-count) % period;
    ((period - over) as i32, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_after_data_write() {
        let mut ym = Ym2612::new();
        ym.write(0, 0x30, 0);
        ym.write(1, 0x00, 0);
        assert_eq!(ym.read(0, 10) & 0x80, 0x80);
        assert_eq!(ym.read(0, 32 * 42) & 0x80, 0);
    }

    /// Timer A with TA = 1023 overflows after one sample; timer B with TB = 255 after 16.
    #[test]
    fn timers_overflow() {
        let mut ym = Ym2612::new();
        for (r, v) in [(0x24, 0xFF), (0x25, 0x03), (0x26, 0xFF), (0x27, 0x0F)] {
            ym.write(0, r, 0);
            ym.write(1, v, 0);
        }
        assert_eq!(ym.read(0, 2000) & 3, 1);
        assert_eq!(ym.read(0, 17 * MCLK_PER_FM_SAMPLE) & 3, 3);
        ym.write(0, 0x27, 17 * MCLK_PER_FM_SAMPLE);
        ym.write(1, 0x3F, 17 * MCLK_PER_FM_SAMPLE);
        assert_eq!(ym.status & 3, 0);
    }
}
