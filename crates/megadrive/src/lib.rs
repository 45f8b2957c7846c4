//! The Sega Mega Drive / Genesis: the 68000 behind our bus, the VDP, I/O, the Z80 side and sound.

pub mod cpu68k;
pub mod vdp;
