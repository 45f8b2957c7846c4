//! What the CLI tests on small generated files share: running s2lab, a directory of each test's
//! own for its files, and what a refusal must look like (exit code 2, the file named once, no
//! panic: docs/errors.md).
#![allow(dead_code)] // each test binary uses part of this module

use std::path::PathBuf;
use std::process::{Command, Output};

/// s2lab with these arguments, `$S2_ROM` unset.
pub fn s2lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_s2lab"))
        .args(args)
        .env_remove("S2_ROM")
        .output()
        .expect("s2lab runs")
}

/// This test's own directory, `<temp>/s2lab-<test binary>-<pid>/<test>`: the harness names each
/// test's thread after the test. Tests run in parallel; with a directory each, none sees
/// another's files, so a file is written in place and a test that lists its directory (no
/// temporary files left beside the outputs) finds only its own. The directory is removed when
/// the test's thread ends, unless the test failed: its files are then kept to look at.
pub fn dir() -> PathBuf {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("unnamed").replace("::", "-");
    let parent = std::env::temp_dir().join(format!(
        "s2lab-{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let d = parent.join(test);
    std::fs::create_dir_all(&d).unwrap();
    SCRATCH.with(|s| {
        s.borrow_mut().get_or_insert_with(|| {
            mark_failures();
            Scratch {
                dir: d.clone(),
                parent,
            }
        });
    });
    d
}

/// A test's directory, removed with the test's thread (thread-locals are dropped when the
/// harness's thread for the test ends, after the test returned or its panic was caught).
struct Scratch {
    dir: PathBuf,
    parent: PathBuf,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if FAILED.with(|f| f.get()) {
            eprintln!("test files kept in {}", self.dir.display());
            return;
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        // Fails, as it should, while another test's directory is still in it.
        let _ = std::fs::remove_dir(&self.parent);
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Option<Scratch>> = const { std::cell::RefCell::new(None) };
    static FAILED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Chains a panic hook that marks the panicking thread's test as failed (a failed assertion is
/// a panic on the test's own thread), so its directory is kept.
fn mark_failures() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            FAILED.with(|f| f.set(true));
            previous(info);
        }));
    });
}

/// Writes `bytes` to `name` in this test's directory; its path.
pub fn file(name: &str, bytes: impl AsRef<[u8]>) -> String {
    let p = dir().join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

/// Runs and expects a refusal (see [`assert_refused`]); the error text.
pub fn refused(args: &[&str], name: &str, wanted: &[&str]) -> String {
    assert_refused(&s2lab(args), args, name, wanted)
}

/// Expects exit code 2, no panic, an error naming `name` exactly once, and each of `wanted`
/// in it; the error text.
pub fn assert_refused(out: &Output, args: &[&str], name: &str, wanted: &[&str]) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.matches(name).count(), 1, "{name} not named once: {err}");
    for w in wanted {
        assert!(err.contains(w), "{args:?}: wanted {w:?} in: {err}");
    }
    err
}

/// A tiny cartridge: vectors, "SEGA" header, `bra.s *` at $200.
pub fn cartridge() -> Vec<u8> {
    let mut rom = vec![0u8; 0x1000];
    rom[0..4].copy_from_slice(&0x00FF_FE00u32.to_be_bytes());
    rom[4..8].copy_from_slice(&0x0000_0200u32.to_be_bytes());
    rom[0x100..0x110].copy_from_slice(b"SEGA MEGA DRIVE ");
    rom[0x200..0x202].copy_from_slice(&[0x60, 0xFE]);
    rom
}
