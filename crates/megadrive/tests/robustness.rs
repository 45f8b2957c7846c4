//! No address, VDP command or DMA sequence makes the console panic: seeded random writes and
//! reads over the whole 68000 map (VDP ports included, so random commands start random DMAs),
//! with frames run in between, and malformed save states are refused cleanly.

use megadrive::{Machine, Options, StateError, Timing};
use testsupport::Rng;

/// A tiny cartridge: vectors, then `bra.s *` at $200.
fn idle_rom() -> Vec<u8> {
    let mut rom = vec![0u8; 0x1000];
    rom[0..4].copy_from_slice(&0x00FF_FE00u32.to_be_bytes());
    rom[4..8].copy_from_slice(&0x0000_0200u32.to_be_bytes());
    rom[0x200..0x202].copy_from_slice(&[0x60, 0xFE]);
    rom
}

#[test]
fn random_bus_traffic_and_vdp_commands_never_panic() {
    // Both timing profiles: the hardware one routes port accesses and short DMAs through
    // the FIFO differently.
    for (seed, timing) in (1..=8u64).flat_map(|s| [(s, Timing::default()), (s, Timing::HARDWARE)]) {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let options = Options {
            timing,
            ..Options::default()
        };
        let mut m = Machine::new(idle_rom(), options).unwrap();
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
fn states_are_compact_and_other_versions_are_refused() {
    let mut m = Machine::new(idle_rom(), Options::default()).unwrap();
    m.run_frame();
    m.run_frame();
    let saved = m.save_state();
    // Since version 6 RAM, VRAM and the frame buffers are stored as runs: this console's state was
    // 755 KB in version 5 and must now fit the save-state fuzz target's inputs (4 KiB).
    assert!(saved.len() <= 4096, "{} bytes", saved.len());
    assert_eq!(&saved[4..8], &8u32.to_le_bytes());
    for version in [4u32, 5, 6, 7, 9] {
        let mut other = saved.clone();
        other[4..8].copy_from_slice(&version.to_le_bytes());
        assert_eq!(
            m.load_state(&other),
            Err(StateError::Version {
                found: version,
                supported: 8
            })
        );
    }
    // A state with every memory busy (no long runs) still round-trips.
    let mut busy = m.clone();
    for i in 0..0x8000u32 {
        busy.write_u16(0xFF_0000 + 2 * i, (i.wrapping_mul(0x9E37) >> 3) as u16);
    }
    let saved = busy.save_state();
    let mut back = Machine::new(idle_rom(), Options::default()).unwrap();
    back.load_state(&saved).unwrap();
    assert_eq!(back.save_state(), saved);
    for a in (0..0x1_0000u32).step_by(0x101) {
        assert_eq!(back.read_u8(0xFF_0000 + a), busy.read_u8(0xFF_0000 + a));
    }
}

/// The save-state fuzz target's input (`fuzz/fuzz_targets/save_state.rs`) applied to the same
/// state: the idle cartridge after two frames, cut or extended to the input's first 4 bytes
/// (little-endian, modulo the length + 64), then 5-byte (offset, value) edits.
fn fuzz_edited_state(data: &[u8]) -> (Machine, Vec<u8>) {
    let mut m = Machine::new(idle_rom(), Options::default()).unwrap();
    m.run_frame();
    m.run_frame();
    let mut s = m.save_state();
    let len = u32::from_le_bytes(data[0..4].try_into().unwrap()) as usize % (s.len() + 64);
    s.resize(len, 0xA5);
    for e in data[4..].chunks_exact(5) {
        let at = u32::from_le_bytes(e[0..4].try_into().unwrap()) as usize % s.len();
        s[at] = e[4];
    }
    (m, s)
}

/// [`fuzz_edited_state`] for edits found against state version 7. Version 8 inserted two bytes
/// into the timing block (the switches `hardware_vdp` and `gpgx17_invalid_write_delay`, after
/// `gpgx17_status_read`); the edits are applied as the fuzz target applied them to the
/// version-7 state (its length two bytes shorter), and offsets at or past the inserted bytes
/// move by two, so each edit hits the field it hit when it was found.
fn fuzz_edited_v7_state(data: &[u8]) -> (Machine, Vec<u8>) {
    const INSERTED: usize = 2;
    let mut m = Machine::new(idle_rom(), Options::default()).unwrap();
    m.run_frame();
    m.run_frame();
    let base = m.save_state();
    // Where the inserted bytes start: the first byte that changes with `hardware_vdp` alone.
    let mut flipped = m.clone();
    flipped.bus.sys.timing.hardware_vdp = !flipped.bus.sys.timing.hardware_vdp;
    let insert_at = base
        .iter()
        .zip(flipped.save_state())
        .position(|(a, b)| *a != b)
        .unwrap();
    let to_v8 = |at: usize| if at >= insert_at { at + INSERTED } else { at };
    let v7_len = base.len() - INSERTED;
    let len = u32::from_le_bytes(data[0..4].try_into().unwrap()) as usize % (v7_len + 64);
    let mut s = base;
    if len <= insert_at {
        s.truncate(len);
    } else {
        s.resize(len + INSERTED, 0xA5);
    }
    for e in data[4..].chunks_exact(5) {
        let at = u32::from_le_bytes(e[0..4].try_into().unwrap()) as usize % len;
        s[to_v8(at)] = e[4];
    }
    (m, s)
}

/// Fuzz finding (`fuzz/regressions/save_state-timeout-99b71ef1.edits`): an edited state whose
/// Z80 clock lay far behind the master clock loaded, and the Z80 then caught up for minutes
/// instead of running 16 lines. The edits were found against state version 6; a later layout
/// moves the bytes they hit, so this keeps the property the finding broke (the state is refused,
/// or the machine runs the fuzz target's 16 lines in bounded time) and the next test pins the
/// refusal of clocks out of step itself.
#[test]
fn the_save_state_timeout_input_is_refused_or_runs_bounded() {
    let input = include_bytes!("../../../fuzz/regressions/save_state-timeout-99b71ef1.edits");
    let (mut m, state) = fuzz_edited_state(input);
    if m.load_state(&state).is_ok() {
        let started = std::time::Instant::now();
        m.run(16 * megadrive::clock::MCLK_PER_LINE);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}

/// A state whose scheduler clock lies more than 16 frames from the machine's clock is refused
/// (with such a state the other CPUs would catch up for minutes).
#[test]
fn a_state_with_clocks_out_of_step_is_refused() {
    let mut m = Machine::new(idle_rom(), Options::default()).unwrap();
    m.run_frame();
    m.run_frame();
    let mut state = m.save_state();
    // The layout's head (state.rs, `save_state`): magic 4, version 4, ROM length 8, ROM hash 8,
    // frame line 2, phase 1, frame count 8, then the scheduler's line start in master clocks.
    const LINE_START: usize = 35;
    let line_start = u64::from_le_bytes(state[LINE_START..LINE_START + 8].try_into().unwrap());
    let far = line_start + 20 * 313 * megadrive::clock::MCLK_PER_LINE;
    state[LINE_START..LINE_START + 8].copy_from_slice(&far.to_le_bytes());
    let err = m.load_state(&state).unwrap_err();
    assert!(err.to_string().contains("clocks out of step"), "{err}");
}

/// Fuzz finding (`fuzz/regressions/save_state-timeout-75c56370.edits`, state version 7): an
/// edited state with its scheduler on line 1,536 of a 262-line frame and a 68000-to-CRAM DMA of
/// 3,724,541,952 words loaded, and the fuzz target's 16 lines ran 64,262 lines (the DMA held the
/// 68000 past each line's end, and the frame never ended before the line count wrapped): 0.2 s
/// in release, over libFuzzer's 10 s instrumented on the loaded machine. Both are refused now.
/// The edits also made the 68000's prefetch address odd, which no 68000 can hold and which is
/// refused first; with that bit cleared the state must still be refused for its line.
#[test]
fn the_save_state_input_on_line_1536_is_refused() {
    let input = include_bytes!("../../../fuzz/regressions/save_state-timeout-75c56370.edits");
    let (mut m, mut state) = fuzz_edited_v7_state(input);
    let err = m.load_state(&state).unwrap_err();
    assert_eq!(
        err.to_string(),
        "save state invalid at byte 122: 68000 prefetch address (PC) odd"
    );
    // The PC is the u32 (little-endian) that ends at byte 122.
    state[118] &= !1;
    let err = m.load_state(&state).unwrap_err();
    assert!(
        err.to_string()
            .contains("scheduler line past the frame's last line"),
        "{err}"
    );
}

/// A state whose scheduler line lies past the frame's last line, or whose DMA is longer than the
/// 16-bit length register allows, is refused (the finding above).
#[test]
fn a_state_past_the_frame_or_with_an_impossible_dma_is_refused() {
    let mut m = Machine::new(idle_rom(), Options::default()).unwrap();
    m.run_frame();
    m.run_frame();
    let mut past = m.clone();
    past.frame_line = past.bus.sys.vdp.lines_per_frame();
    let err = m.load_state(&past.save_state()).unwrap_err();
    assert!(
        err.to_string().contains("past the frame's last line"),
        "{err}"
    );
    let mut last = m.clone();
    last.frame_line = last.bus.sys.vdp.lines_per_frame() - 1;
    m.clone().load_state(&last.save_state()).unwrap();
    let mut dma = m.clone();
    dma.bus.sys.vdp.dma.length = 0x1_0001;
    let err = m.load_state(&dma.save_state()).unwrap_err();
    assert!(
        err.to_string().contains("DMA length above 65,536 words"),
        "{err}"
    );
    dma.bus.sys.vdp.dma.length = 0x1_0000;
    m.clone().load_state(&dma.save_state()).unwrap();
}

/// Fuzz finding (`fuzz/regressions/save_state-crash-9fdab285.edits`, state version 7): an edited
/// state whose PSG latched register was 33 (the chip has 8: 4 channels, tone or volume) loaded,
/// and the Z80's next write to the PSG indexed channel 16 of 4 (a panic). Refused now.
#[test]
fn the_save_state_input_with_psg_register_33_is_refused() {
    let input = include_bytes!("../../../fuzz/regressions/save_state-crash-9fdab285.edits");
    let (mut m, state) = fuzz_edited_v7_state(input);
    let err = m.load_state(&state).unwrap_err();
    assert!(
        err.to_string().contains("PSG latched register above 7"),
        "{err}"
    );
    let mut m = Machine::new(idle_rom(), Options::default()).unwrap();
    m.run_frame();
    let mut psg = m.clone();
    psg.bus.sys.psg.latched = 7;
    m.clone().load_state(&psg.save_state()).unwrap();
    psg.bus.sys.psg.latched = 8;
    let err = m.load_state(&psg.save_state()).unwrap_err();
    assert!(
        err.to_string().contains("PSG latched register above 7"),
        "{err}"
    );
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

/// Word writes reach a watched byte through either half, at the edges of the watched range
/// (the inline test before `note_write` is a range test on the watched work RAM offsets).
#[test]
fn watches_see_both_halves_of_a_word_write() {
    let run = |program: &[u8], watches: Vec<megadrive::Watch>| {
        let mut rom = idle_rom();
        rom[0x200..0x200 + program.len()].copy_from_slice(program);
        let mut m = Machine::new(rom, Options::default()).unwrap();
        m.set_watches(watches);
        for _ in 0..3 {
            if let megadrive::RunStop::Watch(hit) = m.run(u64::MAX) {
                return Some(hit);
            }
        }
        None
    };
    let watch = |addr| megadrive::Watch { addr, value: None };
    // move.w #$1111,($FFF62C).w ; move.w #$2208,($FFF62A).w ; bra.s *
    let program = [
        0x31, 0xFC, 0x11, 0x11, 0xF6, 0x2C, 0x31, 0xFC, 0x22, 0x08, 0xF6, 0x2A, 0x60, 0xFE,
    ];
    let hit = run(&program, vec![watch(0xFFF62B)]).expect("low half seen");
    assert_eq!((hit.addr, hit.value), (0xFF_F62B, 0x08));
    let hit = run(&program, vec![watch(0xFFF62C)]).expect("high half seen");
    assert_eq!((hit.addr, hit.value), (0xFF_F62C, 0x11));
    // Two watches: the word at the last watched offset, the byte below the first.
    let hit = run(&program, vec![watch(0xFFF62C), watch(0xFFF62E)]).expect("first word seen");
    assert_eq!((hit.addr, hit.value), (0xFF_F62C, 0x11));
    let hit = run(&program, vec![watch(0xFFF624), watch(0xFFF62A)]).expect("second word seen");
    assert_eq!((hit.addr, hit.value), (0xFF_F62A, 0x22));
    assert_eq!(run(&program, vec![watch(0xFFF62E)]), None);
    // move.w #$ABCD,($FF0000).l ; bra.s *: the first work RAM offset.
    let program = [0x33, 0xFC, 0xAB, 0xCD, 0x00, 0xFF, 0x00, 0x00, 0x60, 0xFE];
    let hit = run(&program, vec![watch(0xFF0001)]).expect("offset 1 seen");
    assert_eq!((hit.addr, hit.value), (0xFF_0001, 0xCD));
    let hit = run(&program, vec![watch(0xFF0000)]).expect("offset 0 seen");
    assert_eq!((hit.addr, hit.value), (0xFF_0000, 0xAB));
}

/// A state whose visible frame is wider than a line can be (the VDP draws 256 or 320 pixels)
/// is refused: `frame_buffer` would read it against the 320-pixel stride, past the buffer's
/// end (found reading the loader after the fuzz campaigns; the fuzz target never reads the
/// picture).
#[test]
fn a_state_with_an_impossible_frame_width_is_refused() {
    let mut m = Machine::new(idle_rom(), Options::default()).unwrap();
    m.run_frame();
    for width in [0u16, 255, 321, 0xFFFF] {
        let mut wide = m.clone();
        wide.bus.sys.vdp.frame_width = width;
        let err = m.clone().load_state(&wide.save_state()).unwrap_err();
        assert!(err.to_string().contains("VDP geometry"), "{width}: {err}");
        let mut drawing = m.clone();
        drawing.bus.sys.vdp.drawing_width = width;
        let err = m.clone().load_state(&drawing.save_state()).unwrap_err();
        assert!(err.to_string().contains("VDP geometry"), "{width}: {err}");
    }
    for width in [256u16, 320] {
        let mut ok = m.clone();
        ok.bus.sys.vdp.frame_width = width;
        let mut loaded = m.clone();
        loaded.load_state(&ok.save_state()).unwrap();
        assert_eq!(loaded.frame_buffer().width, width as usize);
    }
}
