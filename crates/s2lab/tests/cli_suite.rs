//! `s2lab suite` without a ROM runs the model against the 54 MAME reference traces and prints the
//! table; its shards, joined by `s2lab report merge`, give the same table and JUnit content;
//! `s2lab diff --html` draws a difference.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// s2lab in the repository, with no ROM anywhere.
fn s2lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_s2lab"))
        .args(args)
        .current_dir(repo())
        .env("S2_ROM", "")
        .env("S2LAB_ROM_STORE", "/nonexistent/s2lab-roms")
        .output()
        .expect("s2lab runs")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("s2lab-cli-suite-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn without_times(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(i) = rest.find(" time=\"") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 7..];
        rest = &after[after.find('"').unwrap() + 1..];
    }
    out.push_str(rest);
    out
}

/// The summary table of stdout (the lines from "suite" to "total").
fn table(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .skip_while(|l| !l.starts_with("suite "))
        .take_while(|l| !l.starts_with("wall time") && !l.starts_with("merged"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn without_a_rom_the_suite_is_the_model_against_the_references_and_shards_merge() {
    let dir = temp_dir("shards");
    let whole = dir.join("whole");
    let out = s2lab(&["suite", "-o", whole.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("MAME reference traces"), "{err}");
    let t = table(&out);
    assert!(
        t.contains("reference        54         54     59439"),
        "{t}"
    );

    let mut shard_dirs = Vec::new();
    for k in 1..=3 {
        let d = dir.join(format!("shard-{k}"));
        let out = s2lab(&[
            "suite",
            "--shard",
            &format!("{k}/3"),
            "-o",
            d.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0));
        shard_dirs.push(d);
    }
    let merged = dir.join("merged");
    let mut args: Vec<&str> = vec!["report", "merge"];
    args.extend(shard_dirs.iter().map(|d| d.to_str().unwrap()));
    args.extend(["-o", merged.to_str().unwrap()]);
    let out = s2lab(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(table(&out), t);
    let junit = |d: &Path| without_times(&std::fs::read_to_string(d.join("junit.xml")).unwrap());
    assert_eq!(junit(&merged), junit(&whole));
    assert!(junit(&whole).contains("tests=\"54\" failures=\"0\" errors=\"0\""));

    // Two shards of three: refused, naming the missing one, exit code 2.
    let out = s2lab(&[
        "report",
        "merge",
        shard_dirs[0].to_str().unwrap(),
        shard_dirs[2].to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing shards: 2/3"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn diff_html_plots_the_difference_and_draws_the_stage() {
    let dir = temp_dir("diff");
    let a = dir.join("a.trace.jsonl");
    let b = dir.join("b.trace.jsonl");
    let scenario = repo().join("traces/move03-skid.scenario.json");
    let out = s2lab(&[
        "model",
        scenario.to_str().unwrap(),
        "-o",
        a.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    // B: A with x_pos one higher from line 41 on (frame 40) — a made-up difference to draw.
    let text = std::fs::read_to_string(&a).unwrap();
    let bent: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i < 41 {
                return l.to_string();
            }
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["x_pos"] = (v["x_pos"].as_i64().unwrap() + 1).into();
            v.to_string()
        })
        .collect();
    std::fs::write(&b, bent.join("\n") + "\n").unwrap();
    let page = dir.join("diff.html");
    let out = s2lab(&[
        "diff",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
        "--scenario",
        scenario.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "the traces differ");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("First divergence at frame 40 in x_pos"),
        "{html}"
    );
    assert_eq!(
        html.matches("<line class=\"div\"").count(),
        5,
        "five plots marked"
    );
    assert!(html.contains("<rect class=\"solid\""), "the stage");
    assert!(html.contains("<circle class=\"game\"") && html.contains("<circle class=\"model\""));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fuzz_without_a_rom_says_so() {
    let out = s2lab(&["fuzz", "--count", "1", "-o", "/nonexistent/fuzz-out"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no ROM given"), "{err}");
    let out = s2lab(&["fuzz", "--kind", "hills", "--rom", "x.bin"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("kind 'hills'"),
        "checked before the ROM: {err}"
    );
    let out = s2lab(&["suite", "--shard", "5/4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 <= K <= N"));
}
