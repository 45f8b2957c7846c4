//! Ctrl-C (SIGINT) stops long commands cleanly: `run` keeps the frames it ran and writes its CSV
//! whole; `suite` (ROM-gated) writes valid reports of the finished runs and lists the rest.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::dir;

/// Starts `s2lab ARGS`, sends SIGINT once `ready` (checked every 50 ms) or after `wait`, and
/// returns (exit code, stderr).
fn interrupted(args: &[&str], wait: Duration, ready: impl Fn() -> bool) -> (Option<i32>, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_s2lab"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while start.elapsed() < wait && !ready() {
        std::thread::sleep(Duration::from_millis(50));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn run_stops_between_frames_and_keeps_them() {
    let d = dir();
    // `bra.s *` with the display off: fast, endless.
    let mut rom = vec![0u8; 0x1000];
    rom[0..4].copy_from_slice(&0x00FF_FE00u32.to_be_bytes());
    rom[4..8].copy_from_slice(&0x0000_0200u32.to_be_bytes());
    rom[0x200..0x202].copy_from_slice(&[0x60, 0xFE]);
    let cart = d.join("loop.bin");
    std::fs::write(&cart, rom).unwrap();
    let csv = d.join("run.csv");
    let (code, err) = interrupted(
        &[
            "run",
            cart.to_str().unwrap(),
            "--frames",
            "1000000",
            "--trace-ram",
            "x:FF0000:u8",
            "-o",
            csv.to_str().unwrap(),
        ],
        Duration::from_millis(1500),
        || false,
    );
    assert_eq!(code, Some(130), "{err}");
    let ran: usize = err
        .split("interrupted: ran ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(err.contains("were not run"), "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(
        text.lines().count(),
        ran + 1,
        "header and one line per frame run"
    );
    assert!(text.ends_with(&format!("{ran},0\n")));
}

#[test]
fn suite_writes_the_reports_of_finished_runs() {
    let d = dir();
    let junit = d.join("suite.xml");
    let traces = concat!(env!("CARGO_MANIFEST_DIR"), "/../../traces");
    // Stop a few seconds into the runs (after the boot).
    let (code, err) = interrupted(
        &[
            "suite",
            "--traces",
            traces,
            "--jobs",
            "1",
            "--junit",
            junit.to_str().unwrap(),
        ],
        Duration::from_secs(6),
        || false,
    );
    if err.contains("no ROM given") {
        println!("suite_writes_the_reports_of_finished_runs: skipped: no Sonic 2 ROM found");
        return;
    }
    assert_eq!(code, Some(130), "{err}");
    assert!(
        err.contains("runs finished (their reports are written); not run:"),
        "{err}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.starts_with("<?xml") && xml.trim_end().ends_with("</testsuites>"),
        "{xml}"
    );
}
