//! The Z80 as the console sees it: the `z80` crate's core.

pub use z80::Z80 as SoundCpu;
