//! The timed calls made on the sound chips, as the emulation thread made them, and the log
//! that keeps them for the sound thread (`thread`) while it synthesises.

/// One timed call on the YM2612, as the emulation thread made it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum YmCall {
    /// [`Ym2612::write`](super::ym2612::Ym2612::write) (address or data port).
    Write { port: u8, value: u8, at: u64 },
    /// [`Ym2612::sync`](super::ym2612::Ym2612::sync) (a status read's catch-up, the scheduler's
    /// periodic one).
    Sync(u64),
    /// [`Ym2612::reset`](super::ym2612::Ym2612::reset).
    Reset(u64),
}

/// One timed call on the PSG.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PsgCall {
    /// [`Psg::write_at`](super::psg::Psg::write_at).
    Write { value: u8, at: u64 },
    /// [`Psg::sync`](super::psg::Psg::sync) (the scheduler's periodic catch-up).
    Sync(u64),
}

/// The calls made on a chip since the last shipment, recorded while `on`. Derived traffic,
/// not state: compares equal to any other log, so chips compare by their state alone.
#[derive(Clone, Debug)]
pub(crate) struct CallLog<T> {
    pub(crate) on: bool,
    pub(crate) calls: Vec<T>,
}

impl<T> Default for CallLog<T> {
    fn default() -> Self {
        CallLog {
            on: false,
            calls: Vec::new(),
        }
    }
}

impl<T> CallLog<T> {
    #[inline]
    pub(crate) fn push(&mut self, call: T) {
        if self.on {
            self.calls.push(call);
        }
    }
}

impl<T> PartialEq for CallLog<T> {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl<T> Eq for CallLog<T> {}
