//! The VDP's 4-entry write FIFO and the external access slots that drain it during active
//! display. Slot positions (master clocks from the line start used by the scheduler) follow
//! Nemesis's slot maps for H32 (16 external slots) and H40 (18); a VRAM write takes two slots
//! (byte-wide VRAM), CRAM/VSRAM one. With the FIFO full the 68000 waits (Chaos Engine, Double
//! Clutch and Sol-Deace rely on it). The hardware timing profile adds what Nemesis's
//! VDPFIFOTesting measures beyond that: data-port reads wait for the FIFO to drain
//! (`Vdp::read_ready_at`) and short bus DMAs go through it (`System::bus_dma_through_fifo`).

use crate::clock::MCLK_PER_LINE;

const L: u32 = MCLK_PER_LINE as u32;

/// External access slots in H32, this line then the next.
pub const SLOTS_H32: [u32; 28] = [
    230,
    510,
    810,
    970,
    1130,
    1450,
    1610,
    1770,
    2090,
    2250,
    2410,
    2730,
    2890,
    3050,
    3350,
    3370,
    L + 230,
    L + 510,
    L + 810,
    L + 970,
    L + 1130,
    L + 1450,
    L + 1610,
    L + 1770,
    L + 2090,
    L + 2250,
    L + 2410,
    L + 2730,
];

/// External access slots in H40, this line then the next.
pub const SLOTS_H40: [u32; 30] = [
    352,
    820,
    948,
    1076,
    1332,
    1460,
    1588,
    1844,
    1972,
    2100,
    2356,
    2484,
    2612,
    2868,
    2996,
    3124,
    3364,
    3380,
    L + 352,
    L + 820,
    L + 948,
    L + 1076,
    L + 1332,
    L + 1460,
    L + 1588,
    L + 1844,
    L + 1972,
    L + 2100,
    L + 2356,
    L + 2484,
];

/// FIFO bookkeeping: the data of the last four writes and when each leaves the FIFO.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fifo {
    pub data: [u16; 4],
    /// Next entry to write.
    pub index: usize,
    /// Absolute master clock at which each entry is written to memory.
    pub drain_at: [u64; 4],
    /// The current target is VRAM (two slots per word).
    pub byte_access: bool,
}

impl Fifo {
    pub fn newest(&self) -> u16 {
        self.data[(self.index + 3) & 3]
    }

    pub fn next(&self) -> u16 {
        self.data[self.index]
    }

    pub fn push(&mut self, value: u16) {
        self.data[self.index] = value;
        self.index = (self.index + 1) & 3;
    }

    pub fn is_empty_at(&self, now: u64) -> bool {
        now >= self.drain_at[(self.index + 3) & 3]
    }

    pub fn is_full_at(&self, now: u64) -> bool {
        !self.is_empty_at(now) && now < self.drain_at[self.index]
    }

    /// Schedules a write made at `now` during active display; returns the clock at which the
    /// 68000 may go on (later than `now` when the FIFO was full).
    pub fn schedule(&mut self, now: u64, line_start: u64, h40: bool) -> u64 {
        let mut resume = now;
        let mut t = now;
        let newest = self.drain_at[(self.index + 3) & 3];
        if t < newest {
            if t < self.drain_at[self.index] {
                // Full: wait until the oldest entry has drained.
                resume = self.drain_at[self.index];
            }
            t = newest;
        }
        let slots: &[u32] = if h40 { &SLOTS_H40 } else { &SLOTS_H32 };
        let rel = t.saturating_sub(line_start);
        let mut slot = slots
            .iter()
            .position(|&s| rel < s as u64)
            .unwrap_or(slots.len() - 1);
        slot = (slot + usize::from(self.byte_access)).min(slots.len() - 1);
        self.drain_at[self.index] = line_start + slots[slot] as u64;
        resume
    }

    /// The first external slot after the newest entry has drained (the FIFO is then empty).
    pub fn slot_after_drain(&self, line_start: u64, h40: bool) -> u64 {
        let newest = self.drain_at[(self.index + 3) & 3];
        let slots: &[u32] = if h40 { &SLOTS_H40 } else { &SLOTS_H32 };
        let rel = newest.saturating_sub(line_start);
        match slots.iter().find(|&&s| rel < s as u64) {
            Some(&s) => line_start + s as u64,
            // Past the table (a drain more than a line ahead): the drain itself.
            None => newest,
        }
    }

    /// Rebases the drain times when a new frame starts counting (not needed with absolute
    /// clocks, kept for clarity): entries already drained stay drained.
    pub fn clear(&mut self, now: u64) {
        for d in &mut self.drain_at {
            if *d > now {
                *d = now;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_vram_writes_fill_the_fifo_and_the_fifth_waits() {
        let mut f = Fifo {
            byte_access: true,
            ..Fifo::default()
        };
        let mut resume = 0;
        for i in 0..4 {
            resume = f.schedule(0, 0, true);
            f.push(0);
            assert_eq!(resume, 0);
            if i == 0 {
                // VRAM writes take two slots each: the first leaves at the second slot.
                assert_eq!(f.drain_at[0], SLOTS_H40[1] as u64);
            }
        }
        assert!(f.is_full_at(0));
        assert!(!f.is_empty_at(0));
        let r = f.schedule(resume, 0, true);
        assert_eq!(
            r, SLOTS_H40[1] as u64,
            "fifth write waits for the oldest entry"
        );
    }

    #[test]
    fn cram_write_takes_one_slot() {
        let mut f = Fifo::default();
        f.schedule(0, 0, false);
        f.push(0);
        assert_eq!(f.drain_at[0], SLOTS_H32[0] as u64);
        assert!(f.is_empty_at(SLOTS_H32[0] as u64));
    }
}
