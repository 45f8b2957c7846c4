//! No address, VDP command or DMA sequence makes the console panic: seeded random writes and
//! reads over the whole 68000 map (VDP ports included, so random commands start random DMAs),
//! with frames run in between, and malformed save states are refused cleanly.

use megadrive::{Machine, Options, StateError};

/// A tiny cartridge: vectors, then `bra.s *` at $200.
fn idle_rom() -> Vec<u8> {
    let mut rom = vec![0u8; 0x1000];
    rom[0..4].copy_from_slice(&0x00FF_FE00u32.to_be_bytes());
    rom[4..8].copy_from_slice(&0x0000_0200u32.to_be_bytes());
    rom[0x200..0x202].copy_from_slice(&[0x60, 0xFE]);
    rom
}

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn random_bus_traffic_and_vdp_commands_never_panic() {
    for seed in 1..=8u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut m = Machine::new(idle_rom(), Options::default()).unwrap();
        // Let the game-less console hold the Z80's bus now and then.
        for _ in 0..40 {
            for _ in 0..400 {
                let r = rng.next();
                let addr = match r % 4 {
                    // The VDP ports and their mirrors.
                    0 => 0xC0_0000 | ((r >> 8) as u32 & 0x1F) | (((r >> 16) as u32 & 3) << 8),
                    // The Z80 area, I/O and control registers.
                    1 => 0xA0_0000 | ((r >> 8) as u32 & 0x1_FFFF),
                    // Anywhere.
                    _ => (r >> 8) as u32 & 0xFF_FFFF,
                };
                let value = (r >> 40) as u16;
                match (r >> 20) % 5 {
                    0 => m.write_u8(addr, value as u8),
                    1 | 2 => m.write_u16(addr & !1, value),
                    3 => {
                        m.bus.read_u8(addr);
                    }
                    _ => {
                        m.bus.read_u16(addr & !1);
                    }
                }
                // Commands that start DMA: a register write enabling DMA, then a two-word
                // command with CD5 set.
                if r.is_multiple_of(97) {
                    m.write_u16(0xC0_0004, 0x8100 | 0x14 | (value & 0x60));
                    m.write_u16(0xC0_0004, 0x9300 | (value & 0xFF));
                    m.write_u16(0xC0_0004, 0x9400 | (value >> 8));
                    m.write_u16(0xC0_0004, 0x9700 | ((r >> 32) as u16 & 0xFF));
                    m.write_u16(0xC0_0004, (r >> 16) as u16);
                    m.write_u16(0xC0_0004, ((r >> 48) as u16 & 0xFF) | 0x80);
                    m.write_u16(0xC0_0000, value);
                }
            }
            m.run_frame();
            let f = m.frame_buffer();
            assert!(f.width <= 320 && f.height <= 480);
        }
    }
}

#[test]
fn save_states_round_trip_bit_exact() {
    let mut a = Machine::new(idle_rom(), Options::default()).unwrap();
    for _ in 0..3 {
        a.run_frame();
    }
    a.write_u16(0xFF_0000, 0x1234);
    let saved = a.save_state();
    let mut b = Machine::new(idle_rom(), Options::default()).unwrap();
    b.load_state(&saved).unwrap();
    assert_eq!(b.save_state(), saved);
    for _ in 0..5 {
        a.run_frame();
        b.run_frame();
    }
    assert_eq!(a.save_state(), b.save_state());
    assert_eq!(b.read_u16(0xFF_0000), 0x1234);
}

#[test]
fn malformed_states_are_refused() {
    let mut m = Machine::new(idle_rom(), Options::default()).unwrap();
    m.run_frame();
    let saved = m.save_state();
    for cut in [0, 3, 10, 100, saved.len() / 2, saved.len() - 1] {
        assert!(m.load_state(&saved[..cut]).is_err(), "cut at {cut}");
    }
    let mut bad = saved.clone();
    bad[0] = b'X';
    assert_eq!(m.load_state(&bad), Err(StateError::NotAState));
    let mut other_rom = idle_rom();
    other_rom[0x300] = 1;
    let mut other = Machine::new(other_rom, Options::default()).unwrap();
    assert!(matches!(
        other.load_state(&saved),
        Err(StateError::RomMismatch { .. })
    ));
    let mut longer = saved.clone();
    longer.push(0);
    assert!(matches!(
        m.load_state(&longer),
        Err(StateError::TrailingBytes { .. })
    ));
    // The machine is untouched by failed loads.
    assert_eq!(m.save_state(), saved);
}

#[test]
fn watch_stops_at_the_write() {
    // Program: move.b #8,($FFF62A).w ; bra.s *
    let mut rom = idle_rom();
    rom[0x200..0x208].copy_from_slice(&[0x11, 0xFC, 0x00, 0x08, 0xF6, 0x2A, 0x60, 0xFE]);
    let mut m = Machine::new(rom, Options::default()).unwrap();
    let hit = m
        .run_until_write(0xFFF62A, Some(8), 10_000_000)
        .expect("write seen");
    assert_eq!(hit.addr, 0xFF_F62A);
    assert_eq!(m.read_u8(0xFFF62A), 8);
}
