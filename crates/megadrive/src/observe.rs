//! What two runs of the same cartridge, state and input must agree on after every frame, hashed:
//! the determinism tests (`tests/determinism.rs` on the test ROM, s2harness's
//! `determinism_sonic2.rs`) compare it frame by frame, and the sound separately.

use crate::machine::Machine;

/// FNV-1a over work RAM, Z80 RAM, VRAM, CRAM, VSRAM and the last complete picture.
pub fn observation_hash(m: &Machine) -> u64 {
    let vdp = &m.bus.sys.vdp;
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
        }
    };
    eat(&m.bus.sys.ram[..]);
    eat(&m.bus.sys.zbus.ram()[..]);
    eat(&vdp.vram);
    for w in vdp
        .cram
        .iter()
        .chain(vdp.vsram.iter())
        .chain(vdp.frame_pixels().iter())
    {
        eat(&w.to_le_bytes());
    }
    h
}
