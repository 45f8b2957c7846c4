//! The timing switches: where emulators (and revisions of one emulator) differ, and the
//! profiles that set them.

use super::z80_bus::M68K_Z80_ACCESS_MCLK;

/// Timing choices where emulators (and revisions of one emulator) differ. The default is the
/// reference the project measures against: Genesis Plus GX 1.7.x as shipped in stable-retro.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// The 68000 loses bus cycles while the Z80 reads through the bank window (hardware does;
    /// Genesis Plus GX does not model it).
    pub bank_contention: bool,
    /// The 68000 loses 2 of every 128 clocks to DRAM refresh (Genesis Plus GX since 2024).
    pub refresh_stall: bool,
    /// 68000 clocks of an auto-vectored interrupt entry, replacing the core's figure
    /// (Genesis Plus GX 1.7: 54; the 68000 manual: 44 plus the E-clock wait).
    pub interrupt_clocks: Option<u32>,
    /// Master clocks the 68000 waits on a read / a write of Z80 RAM (arbitration);
    /// Genesis Plus GX 1.7: 0 / 14 (Pacman 2 and Puyo Puyo 2 need the write delay).
    pub z80_ram_read_mclk: u64,
    pub z80_ram_write_mclk: u64,
    /// A DMA fill starts two slots after the data-port write that gives its value
    /// (Genesis Plus GX since 2024).
    pub fill_start_delay: bool,
    /// 68000 instruction clocks as Genesis Plus GX 1.7's Musashi table charges them where it
    /// differs from the 68000 (see [`crate::cpu::cpu68k::gpgx17_clocks`]).
    pub musashi_clocks: bool,
    /// A 68000 > CRAM/VSRAM DMA loses the refresh slots while blanking: 198 words a line in
    /// H40, 161 in H32 (later Genesis Plus GX; 1.7 moves 204/166, and Sonic 2's palette
    /// DMA in V-int then ends 32 master clocks earlier).
    pub color_dma_refresh: bool,
    /// A 68000 held by a full FIFO resumes on its own next clock edge (later Genesis Plus
    /// GX); Genesis Plus GX 1.7 resumes it on the slot's master clock, which Sonic 2's
    /// VRAM-clearing loops in its title-card code see as a few master clocks' difference.
    pub fifo_resume_on_cpu_clock: bool,
    /// The 68000 reads the VDP status as Genesis Plus GX 1.7 computes it: sampled 28 master
    /// clocks into the reading instruction, HBLANK set for the first 588 master clocks of a
    /// line (see [`crate::vdp::Vdp::read_status`]).
    pub gpgx17_status_read: bool,
    /// The VDP's ports as measured on hardware where Genesis Plus GX differs (Nemesis's
    /// VDPFIFOTesting, test 16): each 68000 access to them happens at its own bus cycle
    /// (not at the instruction's start), a full FIFO holds that bus cycle, a data-port read
    /// waits until the FIFO has drained ([`crate::vdp::Vdp::read_ready_at`]), and a short
    /// bus DMA goes through the FIFO
    /// ([`System::bus_dma_through_fifo`](super::System::bus_dma_through_fifo)).
    pub hardware_vdp: bool,
    /// A data-port write whose code selects no memory costs the 68000 2 master clocks more:
    /// Genesis Plus GX's stand-in for unmeasured 68000 wait states ("Clue", "Microcosm";
    /// `vdp_bus_w`, added in 2013, removed in February 2024), not a hardware behaviour.
    pub gpgx17_invalid_write_delay: bool,
}

impl Timing {
    /// Genesis Plus GX 1.7.4/1.7.5 (the stable-retro build the figures come from).
    pub const GPGX_1_7: Timing = Timing {
        bank_contention: false,
        refresh_stall: false,
        interrupt_clocks: Some(54),
        z80_ram_read_mclk: 0,
        z80_ram_write_mclk: 14,
        fill_start_delay: false,
        musashi_clocks: true,
        color_dma_refresh: false,
        fifo_resume_on_cpu_clock: false,
        gpgx17_status_read: true,
        hardware_vdp: false,
        gpgx17_invalid_write_delay: true,
    };
    /// Genesis Plus GX as of 2024-2026 (refresh stalls, 7-clock Z80 bus accesses).
    pub const GPGX_2024: Timing = Timing {
        bank_contention: false,
        refresh_stall: true,
        interrupt_clocks: None,
        z80_ram_read_mclk: M68K_Z80_ACCESS_MCLK,
        z80_ram_write_mclk: M68K_Z80_ACCESS_MCLK,
        fill_start_delay: true,
        musashi_clocks: false,
        color_dma_refresh: true,
        fifo_resume_on_cpu_clock: true,
        gpgx17_status_read: false,
        hardware_vdp: false,
        gpgx17_invalid_write_delay: false,
    };
    /// The hardware as documented and measured where it is known (the 68000 loses bus
    /// cycles to the Z80's bank-window reads, the FIFO's read wait), later Genesis Plus GX
    /// elsewhere. Nothing verified against Genesis Plus GX 1.7 runs in it.
    pub const HARDWARE: Timing = Timing {
        bank_contention: true,
        hardware_vdp: true,
        ..Timing::GPGX_2024
    };
}

impl Default for Timing {
    fn default() -> Self {
        Timing::GPGX_1_7
    }
}
