//! s2lab's own Mega Drive test ROM.
//!
//! The ROM is 68000 assembly in `src/asm`, assembled by `build.rs` with the GNU m68k
//! binutils (Debian: `binutils-m68k-linux-gnu`). It shows a fixed sequence of scenes, each
//! exercising one part of the VDP or I/O (planes and scroll modes, window, sprites and their
//! limits, shadow/highlight, H32, DMA, H-int raster effects, the pad), switched on a V-int
//! frame counter so that frame N after power-on is always the same picture. Golden frames
//! recorded with Genesis Plus GX are in `goldens/` (see `goldens/manifest.json` and
//! `tools/goldens/record.py`); `tests/goldens.rs` compares our emulator with them.

#![forbid(unsafe_code)]

/// The assembled cartridge image (64 KiB, header checksum filled in).
pub fn rom() -> &'static [u8] {
    include_bytes!(concat!(env!("OUT_DIR"), "/testrom.bin"))
}

/// Frames each scene is shown for (`SCENE_FRAMES` in `src/asm/defs.inc`).
pub const SCENE_FRAMES: u64 = 32;

/// The scenes in the order the ROM shows them (`scene_setups` in `src/asm/scenes.s`).
pub const SCENES: [&str; 14] = [
    "planes_full_scroll",
    "line_hscroll_2cell_vscroll",
    "cell_hscroll",
    "window_left_top",
    "window_right_bottom",
    "sprites_h40",
    "shadow_highlight",
    "h32",
    "dma",
    "hint_raster",
    "pad",
    "timing_readouts",
    "irq_latency",
    "z80_vdp_writes",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_checksum() {
        let rom = rom();
        assert_eq!(rom.len(), 0x10000);
        assert_eq!(&rom[0x100..0x110], b"SEGA MEGA DRIVE ");
        let end = u32::from_be_bytes(rom[0x1A4..0x1A8].try_into().unwrap());
        assert_eq!(end as usize, rom.len() - 1);
        let sum = rom[0x200..].chunks_exact(2).fold(0u16, |a, w| {
            a.wrapping_add(u16::from_be_bytes([w[0], w[1]]))
        });
        assert_eq!(u16::from_be_bytes([rom[0x18E], rom[0x18F]]), sum);
        // Reset vector: the code right after the header.
        assert_eq!(u32::from_be_bytes(rom[4..8].try_into().unwrap()), 0x200);
    }
}
