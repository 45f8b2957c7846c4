//! Sound: the YM2612 (`ym2612`), the PSG (`psg`), the mixer and resampler to the host's rate
//! (`mixer`) and synthesis on a second thread (`thread`).

mod bytes;
pub(crate) mod calls;
pub mod mixer;
pub mod psg;
pub(crate) mod thread;
pub mod ym2612;
