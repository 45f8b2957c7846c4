//! The master clock and the video timing every component is scheduled against.
//!
//! Figures from Sega's Genesis Software Manual and Charles MacDonald's genvdp.txt: one master
//! clock (MCLK) drives the 68000 (MCLK / 7), the Z80 (MCLK / 15) and the VDP; a line lasts 3420
//! master clocks in both H32 and H40; a frame has 262 lines (NTSC) or 313 (PAL).

/// NTSC master clock.
pub const MCLK_NTSC_HZ: u32 = 53_693_175;
/// PAL master clock.
pub const MCLK_PAL_HZ: u32 = 53_203_424;
/// Master clocks per 68000 clock.
pub const M68K_DIVIDER: u64 = 7;
/// Master clocks per Z80 T-state.
pub const Z80_DIVIDER: u64 = 15;
/// Master clocks per scan line.
pub const MCLK_PER_LINE: u64 = 3420;
/// Lines per NTSC frame.
pub const LINES_NTSC: u16 = 262;
/// Lines per PAL frame.
pub const LINES_PAL: u16 = 313;
/// Master clocks per YM2612 output sample (144 YM clocks of MCLK / 7).
pub const MCLK_PER_FM_SAMPLE: u64 = 7 * 144;
/// The 68000 loses two clocks to DRAM refresh every 128 of its clocks.
pub const M68K_REFRESH_PERIOD_MCLK: u64 = 128 * M68K_DIVIDER;
/// Clocks lost per refresh.
pub const M68K_REFRESH_DELAY_MCLK: u64 = 2 * M68K_DIVIDER;

/// The console's region: the version register's bits and the video standard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// Overseas (Americas/Europe) rather than domestic (Japan).
    pub overseas: bool,
    /// 50 Hz PAL video timing rather than 60 Hz NTSC.
    pub pal: bool,
}

impl Region {
    pub const JAPAN: Region = Region {
        overseas: false,
        pal: false,
    };
    pub const USA: Region = Region {
        overseas: true,
        pal: false,
    };
    pub const EUROPE: Region = Region {
        overseas: true,
        pal: true,
    };

    pub fn lines_per_frame(self) -> u16 {
        if self.pal { LINES_PAL } else { LINES_NTSC }
    }

    pub fn master_clock_hz(self) -> u32 {
        if self.pal { MCLK_PAL_HZ } else { MCLK_NTSC_HZ }
    }
}
