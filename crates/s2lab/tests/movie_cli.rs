//! `s2lab movie import/export` on small generated files: a script exported as a `.bk2` imports
//! back to itself; bad movies are refused naming the file once, then the place (the rows of
//! docs/errors.md, "Movies"; the parser's own tests are `crates/movie/tests/formats.rs`).
//! Also `run --wav`'s options.

mod common;
use common::{cartridge, dir, file, refused, s2lab};

#[test]
fn exported_bk2_imports_back_to_the_same_script() {
    let script = ". R*60 RC*3 . S UDLRABCS A*2 B C*100 .*7";
    let s = file("round.txt", format!("# a test\n{script}\n"));
    let bk2 = dir().join("round.bk2");
    let out = s2lab(&["movie", "export", &s, "-o", bk2.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{:?}", out);
    let back = dir().join("back.txt");
    let out = s2lab(&[
        "movie",
        "import",
        bk2.to_str().unwrap(),
        "-o",
        back.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{:?}", out);
    let text = std::fs::read_to_string(&back).unwrap();
    assert_eq!(text.lines().last().unwrap(), script);
    assert!(text.contains("# ROM: Sonic 2 Rev B"), "{text}");
    // No temporary files left beside the outputs.
    let names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn gmv_imports_to_standard_output_with_notes() {
    let mut g = b"Gens Movie TESTA".to_vec();
    g.extend_from_slice(&0u32.to_le_bytes());
    g.extend_from_slice(b"33\0\0");
    g.extend_from_slice(&[0; 40]);
    g.extend_from_slice(&[0xF7, 0xFF, 0xFF, 0xF7, 0xFE, 0xFF]); // R, R (+ pad 2 Up)
    let f = file("notes.gmv", g);
    let out = s2lab(&["movie", "import", &f]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().last().unwrap(), "R*2");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning:") && err.contains("pad 2 held on 1 frame"),
        "{err}"
    );
}

#[test]
fn movie_neither_format() {
    let f = file("what.mov", "hello");
    refused(
        &["movie", "import", &f],
        "what.mov",
        &["neither a BizHawk .bk2"],
    );
}

#[test]
fn movie_bk2_not_a_zip() {
    let f = file("text.bk2", "hello");
    refused(&["movie", "import", &f], "text.bk2", &["not a zip archive"]);
}

#[test]
fn movie_bk2_truncated() {
    let s = file("t.txt", "R*10");
    let bk2 = dir().join("cut.bk2");
    assert_eq!(
        s2lab(&["movie", "export", &s, "-o", bk2.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
    let bytes = std::fs::read(&bk2).unwrap();
    let f = file("cut2.bk2", &bytes[..bytes.len() - 30]);
    refused(
        &["movie", "import", &f],
        "cut2.bk2",
        &["zip: no end-of-central-directory record"],
    );
}

#[test]
fn movie_gmv_truncated() {
    let mut g = b"Gens Movie TESTA".to_vec();
    g.extend_from_slice(&[0, 0, 0, 0, b'3', b'3', 0, 0]);
    g.extend_from_slice(&[0; 40]);
    g.extend_from_slice(&[0xFF, 0xFF]);
    let f = file("cut.gmv", g);
    refused(
        &["movie", "import", &f],
        "cut.gmv",
        &["byte 64: truncated: frame 1 has 2 of its 3 bytes"],
    );
}

#[test]
fn movie_export_bad_script() {
    let s = file("bad.txt", "R X");
    refused(
        &[
            "movie",
            "export",
            &s,
            "-o",
            dir().join("x.bk2").to_str().unwrap(),
        ],
        "bad.txt",
        &["line 1, col 3: unknown button 'X'"],
    );
    assert!(!dir().join("x.bk2").exists());
}

#[test]
fn movie_export_unknown_revision() {
    let s = file("ok.txt", "R");
    let out = s2lab(&[
        "movie",
        "export",
        &s,
        "-o",
        dir().join("y.bk2").to_str().unwrap(),
        "--revision",
        "revz",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown revision \"revz\""));
}

#[test]
fn run_wav_writes_the_frames_sound() {
    let rom = file("cart.bin", cartridge());
    let wav = dir().join("c.wav");
    let out = s2lab(&[
        "run",
        &rom,
        "--frames",
        "60",
        "--wav",
        wav.to_str().unwrap(),
        "--wav-rate",
        "44100",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let bytes = std::fs::read(&wav).unwrap();
    assert_eq!(&bytes[..4], b"RIFF");
    assert_eq!(
        u32::from_le_bytes(bytes[24..28].try_into().unwrap()),
        44_100
    );
    // 60 NTSC frames: 60 x 896,040 master clocks at 44,100 Hz, less the resampler's latency.
    let frames = (bytes.len() - 44) / 4;
    let want = 60.0 * 896_040.0 / 53_693_175.0 * 44_100.0;
    assert!((frames as f64 - want).abs() < 32.0, "{frames} vs {want}");
    // A cartridge that makes no sound: silence.
    assert!(bytes[44..].iter().all(|&b| b == 0));
}

/// `play` takes the same chip names and refuses others before it opens a window.
#[test]
fn play_unknown_chip() {
    let rom = file("cart3.bin", cartridge());
    let out = s2lab(&["play", &rom, "--ym2612", "ym9999"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown --ym2612 'ym9999' (integrated, discrete)"),
        "{err}"
    );
}

/// `--timing` picks a profile; an unknown name is refused, by `run` and by `play` before it
/// opens a window.
#[test]
fn run_timing_profiles() {
    let rom = file("cart4.bin", cartridge());
    for profile in ["gpgx17", "gpgx2024", "hardware"] {
        let out = s2lab(&["run", &rom, "--frames", "2", "--timing", profile]);
        assert_eq!(out.status.code(), Some(0), "{profile}: {out:?}");
    }
    for cmd in ["run", "play"] {
        let out = s2lab(&[cmd, &rom, "--frames", "2", "--timing", "fast"]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("unknown --timing 'fast' (gpgx17, gpgx2024, hardware)"),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn run_wav_unknown_chip() {
    let rom = file("cart2.bin", cartridge());
    let out = s2lab(&[
        "run", &rom, "--frames", "1", "--wav", "x.wav", "--ym2612", "ym9999",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown --ym2612 'ym9999' (integrated, discrete)"),
        "{err}"
    );
}
