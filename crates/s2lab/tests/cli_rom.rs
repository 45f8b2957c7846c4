//! `s2lab rom info` on small generated files: every way a file can fail to be a ROM gets a
//! clear error and exit code 2; a file without "SEGA" gets a warning and still reports.

use std::path::PathBuf;
use std::process::{Command, Output};

mod common;

fn s2lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_s2lab"))
        .args(args)
        .output()
        .expect("s2lab runs")
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = common::dir().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn info(name: &str, bytes: &[u8]) -> (Option<i32>, String, String) {
    let path = temp_file(name, bytes);
    let out = s2lab(&["rom", "info", path.to_str().unwrap()]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn empty_file_is_an_error() {
    let (code, _, err) = info("empty.bin", &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("empty.bin") && err.contains("empty"), "{err}");
}

#[test]
fn file_over_4_mib_is_an_error() {
    let (code, _, err) = info("big.bin", &vec![0u8; 4 * 1024 * 1024 + 2]);
    assert_eq!(code, Some(2));
    assert!(err.contains("larger than"), "{err}");
}

#[test]
fn odd_length_is_an_error() {
    let (code, _, err) = info("odd.bin", &[0u8; 0x201]);
    assert_eq!(code, Some(2));
    assert!(err.contains("2-byte words"), "{err}");
}

#[test]
fn missing_file_is_an_error_naming_it() {
    let out = s2lab(&["rom", "info", "/nonexistent/s2.bin"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/s2.bin"));
}

#[test]
fn no_sega_is_a_warning_and_unknown_rom_still_reports() {
    let mut bytes = vec![0u8; 0x400];
    bytes[0x120..0x124].copy_from_slice(b"TEST");
    let (code, out, err) = info("nosega.bin", &bytes);
    assert_eq!(code, Some(0));
    assert!(err.contains("warning") && err.contains("SEGA"), "{err}");
    assert!(out.contains("size:      1024 bytes"), "{out}");
    assert!(out.contains("title:     TEST"), "{out}");
    assert!(out.contains("revision:  unknown"), "{out}");
}

#[test]
fn import_refuses_an_unknown_rom() {
    let mut bytes = vec![0u8; 0x400];
    bytes[0x100..0x104].copy_from_slice(b"SEGA");
    let path = temp_file("unknown.bin", &bytes);
    let store = common::dir().join("store");
    let out = Command::new(env!("CARGO_BIN_EXE_s2lab"))
        .args(["rom", "import", path.to_str().unwrap()])
        .env("S2LAB_ROM_STORE", &store)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a known Sonic the Hedgehog 2 revision") && err.contains("Rev B"),
        "{err}"
    );
    assert!(!store.join(format!("{}.bin", "x")).exists());
}
