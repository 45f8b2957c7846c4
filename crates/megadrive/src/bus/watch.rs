//! Watched writes: which 68000 writes may hit a watch (one compare for a work RAM write) and
//! the search that records a hit.

use super::{System, WatchHit};

fn canonical(addr: u32) -> u32 {
    let addr = addr & 0xFF_FFFF;
    if addr >= 0xE0_0000 {
        0xFF_0000 | (addr & 0xFFFF)
    } else {
        addr
    }
}

impl System {
    /// Works out `ram_watch_first`, `ram_watch_span` and `port_watched` from `watches`.
    pub(crate) fn derive_ram_watch(&mut self) {
        self.port_watched = self.watches.iter().any(|w| canonical(w.addr) < 0xFF_0000);
        let offsets = self
            .watches
            .iter()
            .map(|w| canonical(w.addr))
            .filter(|&a| a >= 0xFF_0000)
            .map(|a| a & 0xFFFF);
        let (first, last) = offsets.fold((u32::MAX, 0), |(lo, hi), a| (lo.min(a), hi.max(a)));
        self.ram_watch_first = first;
        self.ram_watch_span = last.saturating_sub(first);
        self.ram_watch_first_word = first.wrapping_sub(1);
        self.ram_watch_span_word = self.ram_watch_span + 1;
    }

    /// Whether a work RAM byte write at offset `a` may hit a watch: at or after the first
    /// watched offset and at or before the last (one compare; with no watch in RAM `first`
    /// is out of reach).
    #[inline(always)]
    pub(super) fn ram_watched_byte(&self, a: u32) -> bool {
        a.wrapping_sub(self.ram_watch_first) <= self.ram_watch_span
    }

    /// [`System::ram_watched_byte`] for a word write at the even offset `a`: its second byte
    /// at or after the first watched offset (`a >= first - 1`) and its first at or before
    /// the last.
    #[inline(always)]
    pub(super) fn ram_watched_word(&self, a: u32) -> bool {
        a.wrapping_sub(self.ram_watch_first_word) <= self.ram_watch_span_word
    }

    pub(super) fn note_write(&mut self, addr: u32, bytes: &[u8]) {
        if self.watches.is_empty() || self.watch_hit.is_some() {
            return;
        }
        let base = canonical(addr);
        // Most writes hit no watch (the harness watches one byte while every RAM write of the
        // game comes here): one range test per watch before the per-byte search.
        let len = bytes.len() as u32;
        if !self
            .watches
            .iter()
            .any(|w| canonical(w.addr).wrapping_sub(base) < len)
        {
            return;
        }
        for (i, &b) in bytes.iter().enumerate() {
            let a = canonical(base + i as u32);
            if let Some(w) = self.watches.iter().find(|w| canonical(w.addr) == a)
                && w.value.is_none_or(|v| v == b)
            {
                self.sync_clock();
                self.watch_hit = Some(WatchHit {
                    addr: a,
                    value: b,
                    mclk: self.now,
                });
                self.ask_boundary();
                return;
            }
        }
    }
}
