//! CSM mode (register $27 bits 7-6 = 10, with timer A running): every timer A overflow keys
//! channel 3's four operators on, and they are keyed off again after one sample unless the
//! timer overflows again (Nemesis's measurements on a Mega Drive, as Genesis Plus GX
//! describes them: "CSM Mode Key OFF (verified by Nemesis on real hardware)"). An operator
//! already keyed on through register $28 is left alone by both. This is what speech synthesis
//! by CSM relies on: a fast attack restarted at the timer's rate.
//!
//! The timer itself (its period, overflow flag and reload) is `Ym2612::sync`'s, unchanged: the
//! overflows are found here from the timer's state before the sync advances it, so what the
//! game reads is the same with or without sound. The keyed-on set is sound-only state, not in
//! save states (a state saved between a key-on and its key-off loses that one sample).

use super::Ym2612;

/// Channel 3 (index 2) is the CSM channel.
const CSM_CHANNEL: usize = 2;

impl Ym2612 {
    /// CSM mode with timer A running.
    pub(crate) fn csm_active(&self) -> bool {
        self.mode & 0xC0 == 0x80 && self.mode & 1 != 0
    }

    /// Renders the last `n` of `skipped + n` samples of one sync, keying channel 3 on after
    /// each timer A overflow and off one sample later. Called before the sync runs the timer.
    pub(crate) fn render_samples_csm(&mut self, n: usize, skipped: u64) {
        let active = self.csm_active();
        let first = self.timer_a_count.max(1) as u64;
        let period = self.timer_a_period.max(1) as u64;
        let overflows_at =
            |tick: u64| active && tick >= first && (tick - first).is_multiple_of(period);
        for k in 0..n as u64 {
            self.render_samples(1);
            // The timer ticks after each sample.
            let tick = skipped + k + 1;
            if overflows_at(tick) {
                self.csm_key_on();
            } else if self.csm_keyed != 0 {
                self.csm_key_off();
            }
        }
    }

    /// Keys on channel 3's operators not already keyed on.
    pub(crate) fn csm_key_on(&mut self) {
        for op in 0..4 {
            let o = &self.channels[CSM_CHANNEL].ops[op];
            if o.key || self.csm_keyed & (1 << op) != 0 {
                continue;
            }
            self.key_on_operator(CSM_CHANNEL, op);
            self.csm_keyed |= 1 << op;
        }
    }

    /// Keys off the operators CSM keyed on (those register $28 has not taken over since).
    pub(crate) fn csm_key_off(&mut self) {
        for op in 0..4 {
            if self.csm_keyed & (1 << op) != 0 && !self.channels[CSM_CHANNEL].ops[op].key {
                self.key_off_operator(CSM_CHANNEL, op);
            }
        }
        self.csm_keyed = 0;
    }
}
