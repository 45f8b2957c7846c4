//! The model's generated tables against a real ROM, byte for byte: `Sine_Data`, `Angle_Data` and the
//! animation scripts of `SonicAniData`. Needs `S2_ROM` = the path of a Sonic 2 ROM (Rev 00, Rev A or
//! Rev B, identified by SHA-1); without it each test prints why it skipped and passes.
//!
//! The ROM offsets are those of `/work/shared/data/s2-symbols.json` (from assembler listings of the
//! public disassembly), copied here so that the test needs nothing outside the repository.

use s2model::animate::SONIC_ANI_DATA;
use s2model::trig::{ANGLE_BYTES, ANGLE_DATA, SINE_DATA, SINE_WORDS};

struct Revision {
    name: &'static str,
    sha1: &'static str,
    sine_data: usize,
    angle_data: usize,
    sonic_ani_data: usize,
}

const REVISIONS: [Revision; 3] = [
    Revision {
        name: "Rev 00",
        sha1: "14dd06fc3aa19a59a818ea1f6de150c9061b14d4",
        sine_data: 0x33C2,
        angle_data: 0x36A8,
        sonic_ani_data: 0x1B624,
    },
    Revision {
        name: "Rev A",
        sha1: "8bca5dcef1af3e00098666fd892dc1c2a76333f9",
        sine_data: 0x33CE,
        angle_data: 0x36B4,
        sonic_ani_data: 0x1B618,
    },
    Revision {
        name: "Rev B",
        sha1: "2af1003247aec262089c8df22d05e80d04a1b5e4",
        sine_data: 0x3388,
        angle_data: 0x366E,
        sonic_ani_data: 0x1B58A,
    },
];

/// SHA-1 (FIPS 180-4), enough to identify a ROM without another dependency.
fn sha1_hex(data: &[u8]) -> String {
    let mut h: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    for chunk in msg.chunks(64) {
        let mut w = [0u32; 80];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                chunk[4 * i],
                chunk[4 * i + 1],
                chunk[4 * i + 2],
                chunk[4 * i + 3],
            ]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A827999),
                20..=39 => (b ^ c ^ d, 0x6ED9EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1BBCDC),
                _ => (b ^ c ^ d, 0xCA62C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(*wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

/// The ROM and its revision, or `None` (with the reason printed) when the test must skip.
fn rom() -> Option<(Vec<u8>, &'static Revision)> {
    let Some(path) = std::env::var_os("S2_ROM") else {
        // Written straight to stderr (not eprintln!, which the test harness captures) so that the
        // skip is visible in a normal `cargo test` run.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "rom_tables: skipped (set S2_ROM to a Sonic 2 ROM file to check the tables against it)"
        );
        return None;
    };
    let data = match std::fs::read(&path) {
        Ok(d) => d,
        Err(e) => panic!("S2_ROM = {}: {e}", path.to_string_lossy()),
    };
    let sha = sha1_hex(&data);
    let Some(rev) = REVISIONS.iter().find(|r| r.sha1 == sha) else {
        panic!(
            "S2_ROM = {}: SHA-1 {sha} is not a known Sonic 2 revision (Rev 00, Rev A, Rev B)",
            path.to_string_lossy()
        );
    };
    eprintln!("checking against {} ({})", rev.name, path.to_string_lossy());
    Some((data, rev))
}

#[test]
fn sha1_known_answer() {
    assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    assert_eq!(sha1_hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
}

#[test]
fn sine_table_matches_rom() {
    let Some((rom, rev)) = rom() else { return };
    assert_eq!(SINE_DATA.len(), SINE_WORDS);
    for (i, &model) in SINE_DATA.iter().enumerate() {
        let o = rev.sine_data + 2 * i;
        let word = i16::from_be_bytes([rom[o], rom[o + 1]]);
        assert_eq!(
            model, word,
            "Sine_Data[{i:#x}] at ROM {o:#x}: model {model}, ROM {word}"
        );
    }
}

#[test]
fn angle_table_matches_rom() {
    let Some((rom, rev)) = rom() else { return };
    assert_eq!(ANGLE_DATA.len(), ANGLE_BYTES);
    for (i, &model) in ANGLE_DATA.iter().enumerate() {
        let o = rev.angle_data + i;
        assert_eq!(
            model, rom[o],
            "Angle_Data[{i}] at ROM {o:#x}: model {model}, ROM {}",
            rom[o]
        );
    }
}

#[test]
fn animation_scripts_match_rom() {
    let Some((rom, rev)) = rom() else { return };
    let base = rev.sonic_ani_data;
    for (id, script) in SONIC_ANI_DATA.iter().enumerate() {
        let off = u16::from_be_bytes([rom[base + 2 * id], rom[base + 2 * id + 1]]) as usize;
        let at = base + off;
        assert_eq!(
            *script,
            &rom[at..at + script.len()],
            "SonicAniData script {id:#x} at ROM {at:#x}"
        );
    }
}
