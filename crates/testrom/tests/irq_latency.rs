//! Scene 12 of the test ROM (`sc_irq_setup` in `src/asm/scenes.s`): the probes' results in
//! work RAM against what the hardware does, as notaz's testpico expects it ("z80 vdp read",
//! "irq ack h-v", "irq ack h-v 2"; measured on consoles by its author). The expected values
//! come from those facts, not from an emulator.

use megadrive::machine::{Machine, Options};

/// The V-int pending flag (F) in the VDP status.
const F: u16 = 0x80;

fn run_to_scene_12() -> Machine {
    let mut m = Machine::new(testrom::rom().to_vec(), Options::default()).expect("test ROM");
    // Scene 12 starts at frame_count 12 * 32 (frame 385); its probes take about three frames.
    for _ in 0..395 {
        m.run_frame();
    }
    assert_eq!(m.read_u16(0xFF0006), 12, "scene 12 is showing");
    m
}

#[test]
fn z80_reads_the_vdp_data_port_a_word_per_byte() {
    let m = run_to_scene_12();
    // VRAM $0100 holds $1122 $3344; each Z80 byte read is a data-port read of the next word.
    assert_eq!(m.read_u16(0xFF0028), 0x1144);
}

#[test]
fn vint_enable_takes_effect_after_the_next_instruction() {
    let m = run_to_scene_12();
    let s0 = m.read_u16(0xFF002A);
    let s1 = m.read_u16(0xFF002C);
    let l1 = m.read_u32(0xFF002E);
    let l2 = m.read_u32(0xFF0032);
    assert_eq!(s0 & F, F, "V-int pending at line 226 (status {s0:04X})");
    assert_eq!(
        s1 & F,
        F,
        "the H-int does not acknowledge a disabled V-int ({s1:04X})"
    );
    assert_eq!(
        (l1 >> 16) as u16 & F,
        F,
        "first word of the MOVE.L after the enabling write ({l1:08X})"
    );
    assert_eq!(l1 as u16 & F, F, "second word of that MOVE.L ({l1:08X})");
    assert_eq!(
        l2 & 0x0080_0080,
        0,
        "the V-int was taken before the next MOVE.L ({l2:08X})"
    );
    assert_eq!(m.read_u16(0xFF0036), 0x0101, "one H-int, one V-int");
}

#[test]
fn the_latched_hint_is_taken_and_its_acknowledge_clears_the_vint() {
    let m = run_to_scene_12();
    let s0 = m.read_u16(0xFF0038);
    let s1 = m.read_u16(0xFF003A);
    assert_eq!(s0 & F, F, "V-int pending at line 226 ({s0:04X})");
    assert_eq!(s1 & F, 0, "V-int acknowledged ({s1:04X})");
    assert_eq!(m.read_u16(0xFF003C), 0x0200, "two H-ints, no V-int");
}
