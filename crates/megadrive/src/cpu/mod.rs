//! The console's two processors: the 68000 (`main_cpu`: our `m68000` core or the pinned `m68k`
//! crate behind `cpu68k`'s adapter) and the Z80 (`sound_cpu`).

pub mod cpu68k;
pub mod main_cpu;
pub mod sound_cpu;
