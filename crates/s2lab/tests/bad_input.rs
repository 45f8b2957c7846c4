//! Every row of `docs/errors.md`: each kind of bad input gets its message, naming the file once
//! and then the place, with exit code 2 and no panic. Small generated files only, no game ROM:
//! `check` is given a ROM that does not exist, so its rows pass only if the input is refused
//! before the ROM is even looked at (no boot for a typo).

use std::process::Command;

mod common;
use common::{assert_refused, cartridge, dir, file, refused, s2lab};

// ---- ROMs ----------------------------------------------------------------------------------

#[test]
fn rom_missing() {
    refused(
        &["run", "/nonexistent/cart.bin", "--frames", "1"],
        "cart.bin",
        &["No such file"],
    );
}

#[test]
fn rom_empty() {
    let p = file("empty-cart.bin", []);
    refused(&["run", &p, "--frames", "1"], "empty-cart.bin", &["empty"]);
}

#[test]
fn rom_oversized() {
    let p = file("huge-cart.bin", vec![0u8; 10 * 1024 * 1024 + 2]);
    refused(
        &["run", &p, "--frames", "1"],
        "huge-cart.bin",
        &["too large"],
    );
}

#[test]
fn rom_odd_sized_runs_padded_but_is_no_sonic_2() {
    let mut rom = cartridge();
    rom.push(0);
    let p = file("odd-cart.bin", &rom);
    let out = s2lab(&["run", &p, "--frames", "2"]);
    assert_eq!(out.status.code(), Some(0));
    refused(
        &["rom", "info", &p],
        "odd-cart.bin",
        &["not a whole number of 2-byte words"],
    );
}

#[test]
fn rom_truncated_or_unknown_for_the_sonic_2_commands() {
    let sc = file("ok.scenario.json", SCENARIO);
    let p = file("not-sonic2.bin", cartridge());
    refused(
        &["trace", "--rom", &p, &sc],
        "not-sonic2.bin",
        &["not a known Sonic the Hedgehog 2 revision"],
    );
}

#[test]
fn unknown_revision() {
    let sc = file("rev.scenario.json", SCENARIO);
    let p = file("rev-cart.bin", cartridge());
    let err = refused(
        &["trace", "--revision", "revz", "--rom", &p, &sc],
        "\"revz\"",
        &["unknown revision", "rev00, reva, revb"],
    );
    assert!(!err.contains("rev-cart.bin"), "{err}");
}

#[test]
fn a_crashing_cartridge_runs_its_frames_and_says_the_cpu_halted() {
    let mut rom = cartridge();
    rom[4..8].copy_from_slice(&0x0000_0201u32.to_be_bytes());
    let p = file("crash-cart.bin", &rom);
    let out = s2lab(&["run", &p, "--frames", "30"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("halted on a double bus fault in frame 1"),
        "{err}"
    );
}

#[test]
fn too_many_frames() {
    let p = file("frames-cart.bin", cartridge());
    refused(
        &["run", &p, "--frames", "99999999999"],
        "--frames",
        &["more than 1048576"],
    );
}

// ---- input scripts -------------------------------------------------------------------------

fn script_refused(name: &str, text: &str, wanted: &[&str]) {
    let rom = file("script-cart.bin", cartridge());
    let p = file(name, text);
    refused(&["run", &rom, "--frames", "1", "--input", &p], name, wanted);
}

#[test]
fn script_unknown_button() {
    script_refused(
        "button.txt",
        "R*3\n  RX*4",
        &["button.txt: line 2, col 4: unknown button 'X' in 'RX*4'"],
    );
}

#[test]
fn script_zero_count() {
    script_refused(
        "zero.txt",
        "R*0",
        &["zero.txt: line 1, col 3: count must be positive"],
    );
}

#[test]
fn script_huge_count() {
    script_refused(
        "huge.txt",
        "R*99999999999999999999",
        &["huge.txt: line 1, col 3: count '99999999999999999999' is too large"],
    );
    script_refused(
        "long.txt",
        ". R*2000000",
        &["long.txt: line 1, col 5: script longer than 1048576 frames"],
    );
    // Fuzzing finding 1: this count wrapped the length check and panicked.
    script_refused(
        "wrap.txt",
        "R U*18446744073709551615",
        &["wrap.txt: line 1, col 5: script longer than 1048576 frames"],
    );
}

#[test]
fn script_stray_characters() {
    script_refused(
        "stray.txt",
        "R R;",
        &["stray.txt: line 1, col 4: unknown button ';' in 'R;'"],
    );
    script_refused(
        "nul.txt",
        "R\u{0}",
        &["nul.txt: line 1, col 2: unknown button '\\0'"],
    );
    script_refused(
        "count.txt",
        "R*3x",
        &["count.txt: line 1, col 4: count '3x' is not a positive decimal number"],
    );
}

#[test]
fn script_not_text() {
    let rom = file("script-cart.bin", cartridge());
    let p = file("binary.txt", [0xFFu8, 0xFE, 0x00]);
    refused(
        &["run", &rom, "--frames", "1", "--input", &p],
        "binary.txt",
        &["valid UTF-8"],
    );
}

// ---- scenarios -----------------------------------------------------------------------------

const SCENARIO: &str = r#"{
  "format": 1,
  "name": "t",
  "stage": { "block": 60, "solid": [[0, 43, 200, 2], [40, 38, 3, 1]] },
  "sonic": { "x": 128, "y": 668, "facing": "right" },
  "input": "R*30 RC R*40 .*20"
}"#;

/// `model` (no ROM) and `check` (given a ROM that does not exist: the scenario must be refused
/// before the ROM is looked at) both refuse it.
fn scenario_refused(name: &str, text: &str, wanted: &[&str]) {
    let p = file(name, text);
    refused(&["model", &p], name, wanted);
    let err = refused(
        &["check", "--rom", "/nonexistent/rom.bin", &p],
        name,
        wanted,
    );
    assert!(!err.contains("rom.bin"), "{err}");
}

#[test]
fn scenario_invalid_json() {
    scenario_refused(
        "json.scenario.json",
        "{\n  \"format\": 1,,\n}",
        &["not valid JSON", "line 2 column"],
    );
}

#[test]
fn scenario_missing_field() {
    let text = SCENARIO.replace(r#""sonic": { "x": 128, "y": 668, "facing": "right" },"#, "");
    scenario_refused(
        "missing.scenario.json",
        &text,
        &["missing.scenario.json: sonic: missing"],
    );
    let text = SCENARIO.replace(r#""x": 128, "#, "");
    scenario_refused(
        "nox.scenario.json",
        &text,
        &["nox.scenario.json: sonic.x: missing"],
    );
}

#[test]
fn scenario_extra_field() {
    let text = SCENARIO.replace(r#""facing""#, r#""facign""#);
    scenario_refused(
        "extra.scenario.json",
        &text,
        &["extra.scenario.json: sonic.facign: unknown field (expected x, y, facing)"],
    );
}

#[test]
fn scenario_stage_outside_the_act() {
    let text = SCENARIO.replace("[0, 43, 200, 2]", "[600, 43, 200, 2]");
    scenario_refused(
        "act.scenario.json",
        &text,
        &["act.scenario.json: stage.solid[0]: cells 600..800 reach past x = 688 cells"],
    );
    let text = SCENARIO.replace("[40, 38, 3, 1]", "[40, 38, -3, 1]");
    scenario_refused(
        "neg.scenario.json",
        &text,
        &["neg.scenario.json: stage.solid[1][2]: expected a non-negative integer, got -3"],
    );
    let text = SCENARIO.replace(r#""x": 128"#, r#""x": 20000"#);
    scenario_refused(
        "far.scenario.json",
        &text,
        &["far.scenario.json: sonic: (20000, 668) is outside the act"],
    );
}

#[test]
fn scenario_block_not_allowed() {
    let text = SCENARIO.replace(r#""block": 60"#, r#""block": 0"#);
    scenario_refused(
        "block0.scenario.json",
        &text,
        &["block0.scenario.json: stage.block: block 0 is the empty block"],
    );
    let text = SCENARIO.replace(r#""block": 60"#, r#""block": 1024"#);
    scenario_refused(
        "block1024.scenario.json",
        &text,
        &["block1024.scenario.json: stage.block: 1024 is larger than 1023"],
    );
}

#[test]
fn scenario_bad_input_script() {
    let text = SCENARIO.replace("R*30", "R*3x");
    scenario_refused(
        "script.scenario.json",
        &text,
        &["script.scenario.json: input: line 1, col 4: count '3x'"],
    );
}

#[test]
fn scenario_sonic_inside_a_wall_is_a_warning() {
    let text = SCENARIO.replace(r#""y": 668"#, r#""y": 692"#);
    let p = file("wall.scenario.json", text);
    let out = s2lab(&[
        "model",
        &p,
        "-o",
        dir().join("wall.trace.jsonl").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: ") && err.contains("wall.scenario.json: sonic: Sonic's centre (128, 692) is inside a wall: solid cell (8, 43) of stage.solid[0]"),
        "{err}"
    );
}

/// A block that is not a full square: only the game's collision tables (in RAM once Emerald Hill
/// is loaded) know, so `trace` and `check` refuse it right after the boot, before any frame
/// runs. ROM-gated: the ROM store's Rev B (the default); without it the test says so.
#[test]
fn scenario_block_not_a_full_square() {
    let text = SCENARIO.replace(r#""block": 60"#, r#""block": 1"#);
    let p = file("notfull.scenario.json", text);
    let out = dir().join("notfull.trace.jsonl");
    for args in [
        vec!["trace", &p, "-o", out.to_str().unwrap()],
        vec!["check", &p],
    ] {
        let run = s2lab(&args);
        let err = String::from_utf8_lossy(&run.stderr).into_owned();
        if !err.contains("block") && err.contains("ROM") {
            eprintln!("skipped: no Sonic 2 ROM in the ROM store ({})", err.trim());
            return;
        }
        refused(
            &args,
            "notfull.scenario.json",
            &[
                "notfull.scenario.json: ",
                "block 1 is not a full square here (its primary collision id is not $FF)",
            ],
        );
        assert!(!out.exists(), "no trace is written");
    }
}

// ---- save states ---------------------------------------------------------------------------

fn saved_state(rom: &str, name: &str) -> String {
    let p = dir().join(name);
    let out = s2lab(&[
        "run",
        rom,
        "--frames",
        "3",
        "--save-state",
        p.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    p.to_str().unwrap().to_string()
}

#[test]
fn state_from_another_rom() {
    let a = file("state-a.bin", cartridge());
    let mut other = cartridge();
    other[0x300] = 1;
    let b = file("state-b.bin", other);
    let st = saved_state(&a, "a.state");
    refused(
        &["run", &b, "--frames", "1", "--load-state", &st],
        "a.state",
        &["made with another ROM (4096 bytes, FNV-1a", "not this one"],
    );
}

#[test]
fn state_from_another_version() {
    let a = file("state-v.bin", cartridge());
    let st = saved_state(&a, "v.state");
    let mut bytes = std::fs::read(&st).unwrap();
    // Version 5, the last before the large memories were stored as runs.
    bytes[4..8].copy_from_slice(&5u32.to_le_bytes());
    let old = file("old.state", &bytes);
    refused(
        &["run", &a, "--frames", "1", "--load-state", &old],
        "old.state",
        &[
            "save state version 5 was written by an older build (this build reads version 8 only)",
            "make the state again",
        ],
    );
    bytes[4..8].copy_from_slice(&99u32.to_le_bytes());
    let new = file("new.state", &bytes);
    refused(
        &["run", &a, "--frames", "1", "--load-state", &new],
        "new.state",
        &["version 99 was written by a newer build"],
    );
}

#[test]
fn state_truncated_or_not_a_state() {
    let a = file("state-t.bin", cartridge());
    let st = saved_state(&a, "t.state");
    let bytes = std::fs::read(&st).unwrap();
    let cut = file("cut.state", &bytes[..bytes.len() / 2]);
    refused(
        &["run", &a, "--frames", "1", "--load-state", &cut],
        "cut.state",
        &["save state truncated at byte"],
    );
    let junk = file("junk.state", b"hello");
    refused(
        &["run", &a, "--frames", "1", "--load-state", &junk],
        "junk.state",
        &["not a Mega Drive save state"],
    );
}

// ---- traces --------------------------------------------------------------------------------

/// A valid trace of the scenario above, made by the model.
fn model_trace(name: &str) -> String {
    // One scenario file per trace: tests run in parallel.
    let sc = file(&format!("{name}.scenario.json"), SCENARIO);
    let p = dir().join(name);
    let out = s2lab(&["model", &sc, "-o", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    p.to_str().unwrap().to_string()
}

fn trace_refused(name: &str, text: &str, wanted: &[&str]) {
    let good = model_trace(&format!("good-for-{name}"));
    let p = file(name, text);
    refused(&["diff", &good, &p], name, wanted);
}

#[test]
fn trace_bad_header() {
    let good = std::fs::read_to_string(model_trace("h.trace.jsonl")).unwrap();
    let (header, rest) = good.split_once('\n').unwrap();
    trace_refused(
        "nojson.trace.jsonl",
        "{",
        &["nojson.trace.jsonl: line 1: not JSON"],
    );
    trace_refused(
        "format.trace.jsonl",
        &format!("{}\n{rest}", header.replace("\"format\":1", "\"format\":2")),
        &["format.trace.jsonl: line 1: header: unsupported format 2 (expected 1)"],
    );
    trace_refused(
        "noinit.trace.jsonl",
        &format!(
            "{}}}\n{rest}",
            &header[..header.find(",\"initial\"").unwrap()]
        ),
        &["noinit.trace.jsonl: line 1: header: missing 'initial'"],
    );
    trace_refused(
        "empty.trace.jsonl",
        "",
        &["empty.trace.jsonl: line 1: empty trace"],
    );
    trace_refused(
        "twice.trace.jsonl",
        &format!(
            "{}\n{rest}",
            header.replace("\"fields\":[\"x_pos\"", "\"fields\":[\"x_pos\",\"x_pos\"")
        ),
        &["twice.trace.jsonl: line 1: header: 'fields' names 'x_pos' twice"],
    );
    trace_refused(
        "lacks.trace.jsonl",
        &format!(
            "{}\n{rest}",
            header.replace("\"fields\":[\"x_pos\",", "\"fields\":[")
        ),
        &["lacks.trace.jsonl: line 1: header: 'fields' lacks 'x_pos'"],
    );
}

#[test]
fn trace_mismatched_fields() {
    let good = std::fs::read_to_string(model_trace("m.trace.jsonl")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let extra = lines[2].replacen("{", "{\"speed\":3,", 1);
    trace_refused(
        "extra.trace.jsonl",
        &[lines[0], lines[1], &extra].join("\n"),
        &["extra.trace.jsonl: line 3: frame 1: field 'speed' is not in the header's 'fields'"],
    );
    let missing = lines[2].replace(",\"x_vel\":", ",\"x_velocity\":");
    trace_refused(
        "missing.trace.jsonl",
        &[lines[0], lines[1], &missing].join("\n"),
        &["missing.trace.jsonl: line 3: frame 1: missing field 'x_vel'"],
    );
    trace_refused(
        "order.trace.jsonl",
        &[lines[0], lines[2]].join("\n"),
        &["order.trace.jsonl: line 2: frame 1: expected frame 0"],
    );
    let range = lines[1].replace("\"y_radius\":19", "\"y_radius\":300");
    trace_refused(
        "range.trace.jsonl",
        &[lines[0], &range].join("\n"),
        &["range.trace.jsonl: line 2: frame 0: field 'y_radius' = 300 is out of range for u8"],
    );
    let input = lines[1].replacen("\"input\":\"R\"", "\"input\":\"Q\"", 1);
    trace_refused(
        "input.trace.jsonl",
        &[lines[0], &input].join("\n"),
        &["input.trace.jsonl: line 2: frame 0: 'input' \"Q\": unknown button 'Q'"],
    );
}

#[test]
fn outputs_leave_no_temporary_files() {
    let d = dir().join("outputs");
    std::fs::create_dir_all(&d).unwrap();
    let rom = file("out-cart.bin", cartridge());
    let out = s2lab(&[
        "run",
        &rom,
        "--frames",
        "2",
        "--trace-ram",
        "a:FF0000:u8",
        "-o",
        d.join("t.csv").to_str().unwrap(),
        "--png",
        &format!("2:{}", d.join("f.png").display()),
        "--save-state",
        d.join("s.state").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let mut names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["f.png", "s.state", "t.csv"]);
    assert_eq!(
        std::fs::read_to_string(d.join("t.csv")).unwrap(),
        "frame,a\n1,0\n2,0\n"
    );
}

// ---- play (refused before any window opens) ------------------------------------------------

fn play_refused(args: &[&str], name: &str, wanted: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_s2lab"))
        .arg("play")
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_CONFIG_HOME", dir().join("config"))
        .env("XDG_DATA_HOME", dir().join("data"))
        .output()
        .expect("s2lab runs");
    assert_refused(&out, args, name, wanted);
}

#[test]
fn play_bad_bindings() {
    let a = file("play-b.bin", cartridge());
    let keys = file("keys.toml", "[hotkeys]\npause = [\"Spcae\"]\n");
    play_refused(
        &[&a, "--bindings", &keys],
        "keys.toml",
        &["keys.toml: [hotkeys] pause: unknown key 'Spcae'"],
    );
    let keys = file("keys-syntax.toml", "[pad1]\nup = [\"Up\"\n");
    play_refused(
        &[&a, "--bindings", &keys],
        "keys-syntax.toml",
        &["keys-syntax.toml: TOML parse error at line 2"],
    );
    let keys = file("keys-action.toml", "[pad1]\njump = [\"C\"]\n");
    play_refused(
        &[&a, "--bindings", &keys],
        "keys-action.toml",
        &["[pad1] jump: unknown action (one of up, down"],
    );
}

#[test]
fn play_state_from_another_rom() {
    let a = file("play-sa.bin", cartridge());
    let mut other = cartridge();
    other[0x300] = 1;
    let b = file("play-sb.bin", other);
    let st = saved_state(&a, "play-a.state");
    let keys = file("keys-ok.toml", "");
    play_refused(
        &[&b, "--state", &st, "--bindings", &keys],
        "play-a.state",
        &["made with another ROM (4096 bytes, FNV-1a", "not this one"],
    );
}

#[test]
fn play_bad_replay() {
    let a = file("play-r.bin", cartridge());
    let keys = file("keys-ok2.toml", "");
    let script = file("bad-replay.txt", "R*3\n  R RX\n");
    play_refused(
        &[&a, "--replay", &script, "--bindings", &keys],
        "bad-replay.txt",
        &["line 2, col 6: unknown button 'X' in 'RX'"],
    );
    let script = file("lost-state.txt", "# start: state gone.state\nR*3\n");
    play_refused(
        &[&a, "--replay", &script, "--bindings", &keys],
        "gone.state",
        &["cannot read", "the save state the replay", "starts from"],
    );
}
