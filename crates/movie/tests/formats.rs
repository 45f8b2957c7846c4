//! Movies built byte by byte from the formats' documentation (TASVideos' "Bizhawk/BK2Format"
//! and "EmulatorResources/Gens/GMV" pages, PKWARE's APPNOTE for the zip container) import to
//! the scripts they encode; every kind of bad input is refused with its place. The zip
//! archives here are made by this file (stored entries, a bitwise CRC-32), not by the crate.

use movie::{Format, MovieError, bk2, gmv, read};

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), bit by bit.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A zip archive of stored (uncompressed) entries, record by record (APPNOTE 4.3.7, 4.3.12,
/// 4.3.16).
fn stored_zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut z = Vec::new();
    let mut cd = Vec::new();
    for (name, data) in files {
        let offset = z.len() as u32;
        let crc = crc32(data);
        let mut common = Vec::new();
        common.extend_from_slice(&10u16.to_le_bytes()); // version needed 1.0
        common.extend_from_slice(&0u16.to_le_bytes()); // flags
        common.extend_from_slice(&0u16.to_le_bytes()); // stored
        common.extend_from_slice(&0u16.to_le_bytes()); // time
        common.extend_from_slice(&0x21u16.to_le_bytes()); // 1980-01-01
        common.extend_from_slice(&crc.to_le_bytes());
        common.extend_from_slice(&(data.len() as u32).to_le_bytes());
        common.extend_from_slice(&(data.len() as u32).to_le_bytes());
        common.extend_from_slice(&(name.len() as u16).to_le_bytes());
        common.extend_from_slice(&0u16.to_le_bytes());
        z.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        z.extend_from_slice(&common);
        z.extend_from_slice(name.as_bytes());
        z.extend_from_slice(data);
        cd.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        cd.extend_from_slice(&10u16.to_le_bytes());
        cd.extend_from_slice(&common);
        cd.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
        cd.extend_from_slice(&0u32.to_le_bytes());
        cd.extend_from_slice(&offset.to_le_bytes());
        cd.extend_from_slice(name.as_bytes());
    }
    let cd_offset = z.len() as u32;
    z.extend_from_slice(&cd);
    z.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    z.extend_from_slice(&[0, 0, 0, 0]);
    z.extend_from_slice(&(files.len() as u16).to_le_bytes());
    z.extend_from_slice(&(files.len() as u16).to_le_bytes());
    z.extend_from_slice(&(cd.len() as u32).to_le_bytes());
    z.extend_from_slice(&cd_offset.to_le_bytes());
    z.extend_from_slice(&[0, 0]);
    z
}

const HEADER: &str = "MovieVersion BizHawk v2.0.0\nAuthor someone\nemuVersion Version 2.9.1\n\
                      Platform GEN\nGameName Sonic The Hedgehog 2\nCore Genplus-gx\n\
                      rerecordCount 12\n";
const KEY: &str = "LogKey:#Power|Reset|#P1 Up|P1 Down|P1 Left|P1 Right|P1 A|P1 B|P1 C|P1 Start|\
                   P1 X|P1 Y|P1 Z|P1 Mode|#P2 Up|P2 Down|P2 Left|P2 Right|P2 A|P2 B|P2 C|P2 Start|\
                   P2 X|P2 Y|P2 Z|P2 Mode|";

fn bk2_with(header: &str, log: &str) -> Vec<u8> {
    stored_zip(&[
        ("Header.txt", header.as_bytes()),
        ("Input Log.txt", log.as_bytes()),
    ])
}

fn import(bytes: &[u8]) -> Result<String, MovieError> {
    read(bytes, None).map(|m| padscript::format(&m.frames))
}

#[test]
fn bk2_six_button_log_imports_to_its_script() {
    let log = format!(
        "[Input]\n{KEY}\n\
         |..|............|............|\n\
         |..|...R........|............|\n\
         |..|...R........|............|\n\
         |..|...R..C.....|............|\n\
         |..|.D....C.....|............|\n\
         |..|U......S....|............|\n\
         |..|UDLRABCS....|............|\n\
         [/Input]\n"
    );
    let m = read(&bk2_with(HEADER, &log), Some(Format::Bk2)).unwrap();
    assert_eq!(padscript::format(&m.frames), ". R*2 RC DC US UDLRABCS");
    assert!(m.notes.is_empty(), "{:?}", m.notes);
    assert!(m.info.contains(&("rerecordCount".into(), "12".into())));
}

#[test]
fn bk2_any_character_but_a_dot_is_pressed_and_crlf_is_accepted() {
    // BizHawk reads by position: any character other than '.' is down.
    let log = format!("[Input]\r\n{KEY}\r\n|..|x..xxxxx....|............|\r\n[/Input]\r\n");
    assert_eq!(import(&bk2_with(HEADER, &log)).unwrap(), "URABCS");
}

#[test]
fn bk2_without_a_log_key_reads_bizhawk_positions() {
    // 3-button pads: groups of 2, 8, 8.
    let log = "[Input]\n|..|U..R....|........|\n|..|.......S|........|\n[/Input]\n";
    assert_eq!(import(&bk2_with(HEADER, log)).unwrap(), "UR S");
    let log = "|..|..L.A...|\n";
    assert_eq!(import(&bk2_with(HEADER, log)).unwrap(), "LA");
}

#[test]
fn bk2_log_key_order_is_followed() {
    // A key in another order: the positions follow it.
    let header = HEADER;
    let log = "[Input]\nLogKey:#P1 Start|P1 A|P1 Right|\n|S.R|\n|.A.|\n[/Input]\n";
    assert_eq!(import(&bk2_with(header, log)).unwrap(), "RS A");
}

#[test]
fn bk2_dropped_buttons_are_noted() {
    let log = format!(
        "[Input]\n{KEY}\n|..|........X...|............|\n|..|U...........|U...........|\n[/Input]\n"
    );
    let m = read(&bk2_with(HEADER, &log), None).unwrap();
    assert_eq!(padscript::format(&m.frames), ". U");
    assert_eq!(m.notes.len(), 2, "{:?}", m.notes);
    assert!(m.notes[0].contains("pad 1's X, Y, Z or Mode held on 1 frame (first: frame 1)"));
    assert!(m.notes[1].contains("pad 2 held on 1 frame (first: frame 2)"));
}

#[test]
fn bk2_sha1_is_read() {
    let header = format!("{HEADER}SHA1 7B905383A4BEFD1A8F0BEF6D9A6D5B1B7BAD15D6\n");
    let m = read(&bk2_with(&header, "|..|........|\n"), None).unwrap();
    assert_eq!(
        m.sha1.as_deref(),
        Some("7b905383a4befd1a8f0bef6d9a6d5b1b7bad15d6")
    );
}

#[test]
fn bk2_export_imports_back_to_the_same_script() {
    let script = ". R*60 RC*3 . S UDLRABCS A*2 B C*1000 .*7";
    let frames = padscript::parse(script).unwrap();
    let info = bk2::ExportInfo {
        game_name: "Sonic The Hedgehog 2".into(),
        sha1: Some("7b905383a4befd1a8f0bef6d9a6d5b1b7bad15d6".into()),
        emu_version: "s2lab test".into(),
    };
    let bytes = bk2::write(&frames, &info);
    let m = read(&bytes, None).unwrap();
    assert_eq!(padscript::format(&m.frames), script);
    assert!(m.notes.is_empty());
    // The same movie gives the same bytes.
    assert_eq!(bytes, bk2::write(&frames, &info));
    // And the log is what BizHawk writes: the default key, then a line a frame.
    let archive = movie::zip::Archive::open(&bytes).unwrap();
    let log = String::from_utf8(archive.read("Input Log.txt").unwrap().unwrap()).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[0], "[Input]");
    assert_eq!(lines[1], KEY);
    assert_eq!(lines[2], "|..|............|............|");
    assert_eq!(lines[3], "|..|...R........|............|");
    assert_eq!(*lines.last().unwrap(), "[/Input]");
    assert_eq!(lines.len(), frames.len() + 3);
}

/// A `.gmv` header laid out as the TASVideos page gives it.
fn gmv_header(version: u8, pad1: u8, pad2: u8, flags: u8, name: &str) -> Vec<u8> {
    let mut h = b"Gens Movie TEST".to_vec();
    h.push(version);
    h.extend_from_slice(&42u32.to_le_bytes());
    h.push(pad1);
    h.push(pad2);
    h.push(flags);
    h.push(0);
    let mut n = [0u8; 40];
    n[..name.len()].copy_from_slice(name.as_bytes());
    h.extend_from_slice(&n);
    assert_eq!(h.len(), 64);
    h
}

#[test]
fn gmv_frames_import_to_their_script() {
    let mut g = gmv_header(b'A', b'3', b'3', 0, "test run");
    // Active-low: FF is nothing; bit 3 (Right) cleared = $F7; Right + C (bit 6) = $B7;
    // Start (bit 7) + Up (bit 0) = $7E; A (bit 4) = $EF; B (bit 5) = $DF; all = $00.
    for pad1 in [0xFF, 0xF7, 0xF7, 0xB7, 0x7E, 0xEF, 0xDF, 0x00] {
        g.extend_from_slice(&[pad1, 0xFF, 0xFF]);
    }
    let m = read(&g, None).unwrap();
    assert_eq!(padscript::format(&m.frames), ". R*2 RC US A B UDLRABCS");
    assert!(m.notes.is_empty(), "{:?}", m.notes);
    assert!(m.info.contains(&("name".into(), "test run".into())));
    assert!(m.info.contains(&("rerecords".into(), "42".into())));
}

#[test]
fn gmv_pad_2_and_extra_buttons_are_dropped_with_a_note() {
    let mut g = gmv_header(b'A', b'6', b'6', 0, "");
    g.extend_from_slice(&[0xFE, 0xFF, 0xFE]); // Up; pad 1 X
    g.extend_from_slice(&[0xFF, 0xFE, 0xFF]); // pad 2 Up
    g.extend_from_slice(&[0xFF, 0xFF, 0xEF]); // pad 2 X
    let m = read(&g, None).unwrap();
    assert_eq!(padscript::format(&m.frames), "U .*2");
    assert_eq!(m.notes.len(), 2, "{:?}", m.notes);
    assert!(m.notes[0].contains("pad 1's X, Y, Z or Mode held on 1 frame"));
    assert!(m.notes[1].contains("pad 2 held on 2 frames (first: frame 2)"));
}

#[test]
fn gmv_version_9_ignores_the_flags_byte() {
    // Before version 'A' the byte at $16 is not flags.
    let mut g = gmv_header(b'9', b'3', b'3', 0x40, "");
    g.extend_from_slice(&[0xF7, 0xFF, 0xFF]);
    assert_eq!(import(&g).unwrap(), "R");
}

#[test]
fn gmv_written_reads_back() {
    let frames = padscript::parse("R*3 . RC S").unwrap();
    let g = gmv::write(&frames, "x");
    assert_eq!(g.len(), 64 + 3 * 6);
    assert_eq!(&g[64..67], &[0xF7, 0xFF, 0xFF]);
    assert_eq!(read(&g, None).unwrap().frames, frames);
}

fn err(bytes: &[u8], format: Option<Format>) -> String {
    read(bytes, format).unwrap_err().to_string()
}

// ---- bad input, one test per kind (docs/errors.md, "Movies") ----

#[test]
fn bad_neither_format() {
    assert!(err(b"hello", None).contains("neither a BizHawk .bk2"));
}

#[test]
fn bad_bk2_not_a_zip() {
    assert_eq!(
        err(b"hello", Some(Format::Bk2)),
        "not a zip archive (a .bk2 is one; it starts with 'PK')"
    );
}

#[test]
fn bad_bk2_truncated_zip() {
    let z = bk2_with(HEADER, "|..|........|\n");
    let e = err(&z[..z.len() - 10], None);
    assert!(
        e.starts_with("zip: no end-of-central-directory record"),
        "{e}"
    );
}

#[test]
fn bad_bk2_damaged_entry() {
    let mut z = bk2_with(HEADER, "|..|........|\n");
    let at = z.windows(4).position(|w| w == b"|..|").unwrap();
    z[at + 4] = b'U';
    let e = err(&z, None);
    assert!(e.starts_with("zip entry 'Input Log.txt': CRC-32"), "{e}");
}

#[test]
fn bad_bk2_unsupported_compression() {
    let mut z = bk2_with(HEADER, "|..|........|\n");
    // The method field of the second entry's central header (offset 10 in the record).
    let cds: Vec<usize> = z
        .windows(4)
        .enumerate()
        .filter(|(_, w)| *w == b"PK\x01\x02")
        .map(|(i, _)| i)
        .collect();
    z[cds[1] + 10] = 14; // LZMA
    let e = err(&z, None);
    assert!(e.contains("compression method 14"), "{e}");
}

#[test]
fn bad_bk2_missing_input_log() {
    let z = stored_zip(&[("Header.txt", HEADER.as_bytes())]);
    assert_eq!(
        err(&z, None),
        "no 'Input Log.txt' in the archive (entries: Header.txt)"
    );
}

#[test]
fn bad_bk2_missing_header() {
    let z = stored_zip(&[("Input Log.txt", b"|..|........|\n")]);
    assert!(err(&z, None).starts_with("no 'Header.txt' in the archive"));
}

#[test]
fn bad_bk2_wrong_system() {
    let header = HEADER.replace("Platform GEN", "Platform NES");
    let e = err(&bk2_with(&header, "|..|........|\n"), None);
    assert_eq!(
        e,
        "Header.txt line 4: Platform is 'NES', not 'GEN': a movie of another console"
    );
}

#[test]
fn bad_bk2_no_platform() {
    let header = HEADER.replace("Platform GEN\n", "");
    assert!(
        err(&bk2_with(&header, "|..|........|\n"), None).starts_with("Header.txt: no 'Platform'")
    );
}

#[test]
fn bad_bk2_from_a_save_state() {
    let header = format!("{HEADER}StartsFromSavestate True\n");
    let e = err(&bk2_with(&header, "|..|........|\n"), None);
    assert!(
        e.starts_with("Header.txt line 8: the movie starts from a save state"),
        "{e}"
    );
    let z = stored_zip(&[
        ("Header.txt", HEADER.as_bytes()),
        ("Core.bin", b"state"),
        ("Input Log.txt", b"|..|........|\n"),
    ]);
    assert!(err(&z, None).contains("'Core.bin'"));
}

#[test]
fn bad_bk2_line_not_a_frame() {
    let log = format!("[Input]\n{KEY}\n|..|............|............|\nhello\n");
    assert_eq!(
        err(&bk2_with(HEADER, &log), None),
        "Input Log.txt line 4: 'hello' is not a frame ('|...|'), a LogKey, [Input] or [/Input]"
    );
}

#[test]
fn bad_bk2_frame_not_closed() {
    let log = format!("[Input]\n{KEY}\n|..|............|............\n");
    assert_eq!(
        err(&bk2_with(HEADER, &log), None),
        "Input Log.txt line 3 (frame 1): the frame does not end with '|'"
    );
}

#[test]
fn bad_bk2_frame_width_differs_from_key() {
    let log = format!("[Input]\n{KEY}\n|..|............|............|\n|..|........|........|\n");
    assert_eq!(
        err(&bk2_with(HEADER, &log), None),
        "Input Log.txt line 4 (frame 2): groups of 2, 8, 8 characters, but the LogKey has 2, 12, 12"
    );
}

#[test]
fn bad_bk2_unknown_group_without_key() {
    let e = err(&bk2_with(HEADER, "|..|.....|\n"), None);
    assert!(
        e.starts_with("Input Log.txt line 1 (frame 1): group 2 has 5 characters"),
        "{e}"
    );
}

#[test]
fn bad_bk2_other_controller() {
    let log = "LogKey:#P1 Mouse X|P1 Mouse Left|\n";
    let e = err(&bk2_with(HEADER, log), None);
    assert!(
        e.starts_with("Input Log.txt line 1: the LogKey names 'P1 Mouse X'"),
        "{e}"
    );
}

#[test]
fn bad_bk2_reset_pressed() {
    let log = format!("{KEY}\n|..|............|............|\n|.r|............|............|\n");
    assert_eq!(
        err(&bk2_with(HEADER, &log), None),
        "Input Log.txt line 3 (frame 2): the movie presses Reset; an input script holds pad 1 \
         only, so s2lab cannot replay it"
    );
}

#[test]
fn bad_bk2_key_after_frames() {
    let log = format!("|..|............|............|\n{KEY}\n");
    assert!(err(&bk2_with(HEADER, &log), None).contains("line 2: a LogKey after the first frame"));
}

#[test]
fn bad_bk2_empty_log() {
    assert!(err(&bk2_with(HEADER, "[Input]\n[/Input]\n"), None).contains("an empty input log"));
}

#[test]
fn bad_bk2_not_utf8() {
    let z = stored_zip(&[
        ("Header.txt", HEADER.as_bytes()),
        ("Input Log.txt", b"|\xff|\n"),
    ]);
    assert_eq!(
        err(&z, None),
        "Input Log.txt: not UTF-8 text (byte 1 is not)"
    );
}

#[test]
fn bad_gmv_signature() {
    let mut g = gmv_header(b'A', b'3', b'3', 0, "");
    g[0] = b'g';
    assert!(err(&g, Some(Format::Gmv)).starts_with("byte 0: signature 'gens Movie TEST'"));
}

#[test]
fn bad_gmv_short_header() {
    let g = gmv_header(b'A', b'3', b'3', 0, "");
    assert_eq!(
        err(&g[..40], None),
        "truncated: 40 bytes, shorter than the 64-byte header"
    );
}

#[test]
fn bad_gmv_truncated_frame() {
    let mut g = gmv_header(b'A', b'3', b'3', 0, "");
    g.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0xF7, 0xFF]);
    assert_eq!(
        err(&g, None),
        "byte 67: truncated: frame 2 has 2 of its 3 bytes (the file ends inside it)"
    );
}

/// One frame more than an input script may hold (`padscript::MAX_SCRIPT_FRAMES`), in either
/// format: refused, not held in memory as a script no command could use.
#[test]
fn bad_longer_than_a_script_may_be() {
    let frames = padscript::MAX_SCRIPT_FRAMES + 1;
    let line = "|..|............|............|\n";
    let mut log = String::with_capacity(KEY.len() + 1 + line.len() * frames);
    log.push_str(KEY);
    log.push('\n');
    for _ in 0..frames {
        log.push_str(line);
    }
    assert_eq!(
        err(&bk2_with(HEADER, &log), None),
        "Input Log.txt line 1048578 (frame 1048577): more than the 1048576 frames an input \
         script may hold"
    );
    let mut g = gmv_header(b'A', b'3', b'3', 0, "");
    g.resize(64 + 3 * frames, 0xFF);
    assert_eq!(
        err(&g, None),
        "1048577 frames, more than the 1048576 an input script may hold"
    );
}

#[test]
fn bad_gmv_pad_type() {
    let g = gmv_header(b'A', b'3', b'4', 0, "");
    assert_eq!(
        err(&g, None),
        "byte 0x15: pad 2 type 0x34 is neither '3' nor '6' (buttons)"
    );
}

#[test]
fn bad_gmv_from_a_save_state() {
    let g = gmv_header(b'A', b'3', b'3', 0x40, "");
    assert!(err(&g, None).starts_with("byte 0x16: the movie starts from a save state"));
}

#[test]
fn gmv_pal_flag_is_noted() {
    let g = gmv_header(b'A', b'3', b'3', 0x80, "");
    let m = read(&g, None).unwrap();
    assert!(m.notes[0].contains("50 frames a second"));
}
