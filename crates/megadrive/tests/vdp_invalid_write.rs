//! Genesis Plus GX 1.7 charges the 68000 2 master clocks for each data-port word written while
//! the code register selects no memory (its `vdp_bus_w`, "add some delay until 68k periodical
//! wait-states are accurately emulated", 2013; removed from Genesis Plus GX in February 2024).
//! BlastEm's gen_test_hv writes its FIFO-filling sync words right after a register write (code
//! 2), and its HV dump equals Genesis Plus GX's only with the charge. The other profiles do
//! not charge it: it is not a hardware behaviour.

use megadrive::{Machine, Options, Timing};

/// Sets mode 5 with the display off (no FIFO wait), gives `command` to the control port, then
/// writes 32 words to the data port between two markers at $FF0000.
fn rom(command: u32) -> Vec<u8> {
    let mut code: Vec<u16> = vec![
        0x41F9,
        0x00C0,
        0x0000, // lea $C00000,a0
        0x43F9,
        0x00C0,
        0x0004, // lea $C00004,a1
        0x32BC,
        0x8104, // move.w #$8104,(a1)
        0x22BC,
        (command >> 16) as u16,
        command as u16, // move.l #command,(a1)
        0x13FC,
        0x0001,
        0x00FF,
        0x0000, // move.b #1,$FF0000
    ];
    code.extend([0x3080; 32]); // move.w d0,(a0)
    code.extend([0x13FC, 0x0002, 0x00FF, 0x0000, 0x60FE]); // move.b #2,$FF0000; bra.s *
    let mut rom = vec![0u8; 0x1000];
    rom[0..4].copy_from_slice(&0x00FF_FE00u32.to_be_bytes());
    rom[4..8].copy_from_slice(&0x200u32.to_be_bytes());
    for (i, w) in code.iter().enumerate() {
        rom[0x200 + 2 * i..0x202 + 2 * i].copy_from_slice(&w.to_be_bytes());
    }
    rom
}

/// Master clocks between the two markers.
fn writes_mclk(command: u32, timing: Timing) -> u64 {
    let options = Options {
        timing,
        ..Options::default()
    };
    let mut m = Machine::new(rom(command), options).unwrap();
    m.run_until_write(0xFF0000, Some(1), 10_000_000)
        .expect("first marker");
    let start = m.master_clock();
    m.run_until_write(0xFF0000, Some(2), 10_000_000)
        .expect("second marker");
    m.master_clock() - start
}

#[test]
fn invalid_code_data_writes_cost_2_mclk_each_in_the_gpgx_1_7_profile_only() {
    // $40000000: VRAM write at 0. $8F028F02: two register writes, which leave CD1-0 = 2.
    let (vram, invalid) = (0x4000_0000, 0x8F02_8F02);
    let t = Timing::GPGX_1_7;
    assert_eq!(writes_mclk(invalid, t), writes_mclk(vram, t) + 32 * 2);
    for t in [Timing::GPGX_2024, Timing::HARDWARE] {
        assert_eq!(writes_mclk(invalid, t), writes_mclk(vram, t));
    }
}
