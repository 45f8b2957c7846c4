//! Scene 13 of the test ROM (`sc_z80w_setup` in `src/asm/scenes.s`): the Z80 writing the
//! VDP and the PSG at $7F00-$7F11, and two FIFO probes whose results differ between the
//! Genesis Plus GX 1.7 timing profile (pinned by the scene's golden frame, recorded with
//! Genesis Plus GX) and the hardware profile (checked here against the hardware's results as
//! Nemesis's VDPFIFOTesting records them in its test 16, "FIFO Wait States"). The expected
//! values come from those facts and the chips' documented formats, not from an emulator.

use megadrive::Timing;
use megadrive::machine::{Machine, Options};

/// Status bits: FIFO full, FIFO empty.
const FULL: u16 = 0x100;
const EMPTY: u16 = 0x200;

fn run_to_scene_13(timing: Timing) -> Machine {
    let options = Options {
        timing,
        ..Options::default()
    };
    let mut m = Machine::new(testrom::rom().to_vec(), options).expect("test ROM");
    // Scene 13 starts at frame_count 13 * 32 (frame 417); its probes take a few frames.
    for _ in 0..425 {
        m.run_frame();
    }
    assert_eq!(m.read_u16(0xFF0006), 13, "scene 13 is showing");
    m
}

#[test]
fn the_z80_writes_vdp_registers_cram_vram_and_the_psg_at_7f00() {
    let m = run_to_scene_13(Timing::default());
    assert_eq!(
        m.read_u16(0xFF003E),
        0x00A5,
        "the Z80 program ran to its end"
    );
    let vdp = &m.bus.sys.vdp;
    // Each Z80 byte is a word with the byte in both halves (genvdp.txt, "Z80 access").
    assert_eq!(vdp.regs[7], 0xA7, "control byte $A7: register 7 = $A7");
    assert_eq!(
        vdp.cram[0x27], 0x0E0E,
        "CRAM command $CECE $0000, data $0E0E"
    );
    // VRAM command $4040 $0303 = write at $C040; data at $7F00, $7F01 (odd) and $7F02
    // (mirror) all reach the data port.
    let cells: Vec<u16> = (0..4).map(|i| vdp.vram_word(0xC040 + 2 * i)).collect();
    assert_eq!(cells, [0x2020, 0x2828, 0x1010, 0x0808]);
    // SN76489: latch $8E (channel 0 tone, low bits $E), data $0F (high bits), latch $9F
    // (channel 0 attenuation 15).
    let psg = &m.bus.sys.psg;
    assert_eq!(psg.tone[0], 0x0FE);
    assert_eq!(psg.volume[0], 15);
}

#[test]
fn hardware_profile_data_read_waits_for_the_fifo_to_drain() {
    let m = run_to_scene_13(Timing::HARDWARE);
    assert_eq!(m.read_u16(0xFF0040), 0x1111, "the first word written");
    let s = m.read_u16(0xFF0042);
    // VDPFIFOTesting test 16 sub-test 7: after a data-port read every status read shows the
    // FIFO empty (never full, never partly full).
    assert_eq!(s & (FULL | EMPTY), EMPTY, "status after the read: {s:04X}");
}

#[test]
fn hardware_profile_bus_dma_leaves_the_fifo_full() {
    let m = run_to_scene_13(Timing::HARDWARE);
    let s = m.read_u16(0xFF0044);
    // VDPFIFOTesting test 16 sub-test 9: right after an 8-word 68000 > VRAM DMA in active
    // lines the 68000 runs again with the last four words still in the FIFO.
    assert_eq!(s & (FULL | EMPTY), FULL, "status after the DMA: {s:04X}");
}
