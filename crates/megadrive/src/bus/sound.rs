//! The bus's side of sound: the scheduler's catch-ups of the chips every 64 lines, logged and
//! shipped to the sound thread when it synthesises, and the chips as a save state sees them.

use super::System;
use crate::clock::MCLK_PER_LINE;
use crate::sound::calls::{PsgCall, YmCall};
use crate::sound::thread::Synth;

/// Lines between the scheduler's catch-ups of the sound chips, on the absolute line grid.
const SYNC_EVERY_LINES: u64 = 64;
/// Longest emulated time the sound chips go without a catch-up (a sixth of a second): any
/// longer span is caught up at the next line end.
const MAX_SYNC_GAP_MCLK: u64 = 1 << 23;

impl System {
    /// Called by the scheduler at every line end: when sound is on, catches the chips up every
    /// 64 lines (at line ends whose absolute line number is a multiple of 64, so the schedule
    /// depends on the clock alone), or when they have not been caught up for a sixth of a
    /// second (a machine that just turned sound on).
    ///
    /// Synthesis so runs up to 64 lines at once rather than line by line, which gives the same
    /// samples: a run split anywhere makes the same samples (timers reload associatively,
    /// synthesis is sample by sample, the PSG's runs are tested against single steps), as long
    /// as no catch-up spans more than a second, where the chips' guard for a machine that just
    /// turned sound on keeps only the last second. No span here exceeds 64 lines but the first
    /// after sound is turned on, caught up at the first line end as it was at every line.
    /// With the sound thread, the catch-ups are logged for it, and the calls logged shipped.
    pub fn sync_sound(&mut self, now: u64) {
        if !self.ym.render && !self.ym.calls.on {
            return;
        }
        let periodic = (now / MCLK_PER_LINE).is_multiple_of(SYNC_EVERY_LINES);
        if periodic || now > self.ym.synced_to + MAX_SYNC_GAP_MCLK {
            self.ym.calls.push(YmCall::Sync(now));
            self.ym.sync(now);
        }
        if periodic || now > self.psg.synced_to + MAX_SYNC_GAP_MCLK {
            self.psg.calls.push(PsgCall::Sync(now));
            self.psg.sync(now);
        }
        if periodic && self.ym.calls.on {
            self.sound_thread
                .ship(&mut self.ym.calls, &mut self.psg.calls);
        }
    }

    /// The sound chips as they are now with their synthesis state: the sound thread's copies
    /// brought up to date, or these (see `sound::thread`).
    pub(crate) fn sound_snapshot(&self) -> Option<Box<Synth>> {
        self.sound_thread
            .snapshot(&self.ym.calls.calls, &self.psg.calls.calls)
    }
}
