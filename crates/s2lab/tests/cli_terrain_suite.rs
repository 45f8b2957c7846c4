//! `s2lab suite --only terrain-scripted` with the game: the committed terrain scenarios, model vs
//! game and game vs their MAME references, and the coverage note. ROM-gated: without a ROM (none
//! given and none in the store) it says so and skips.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_terrain_scripted_suite_runs_with_the_game_and_reports_its_coverage() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out_dir = std::env::temp_dir().join(format!("s2lab-cli-terrain-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_s2lab"))
        .args(["suite", "--only", "terrain-scripted", "-o"])
        .arg(&out_dir)
        .current_dir(&repo)
        .output()
        .expect("s2lab runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    if stderr.contains("no ROM") {
        println!(
            "the_terrain_scripted_suite_runs_with_the_game_and_reports_its_coverage: skipped: no Sonic 2 ROM (the terrain suites need the game and its terrain): {}",
            stderr.lines().next().unwrap_or("")
        );
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let scripted = std::fs::read_dir(repo.join("traces/terrain"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".scenario.json")
        })
        .count();
    let row = stdout
        .lines()
        .find(|l| l.starts_with("terrain-scripted"))
        .unwrap_or_else(|| panic!("no terrain-scripted row:\n{stdout}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[1], scripted.to_string(), "{row}");
    assert_eq!(cols[2], scripted.to_string(), "{row}");
    // The scripted moves alone go round loops, onto every quadrant and off a steep wall.
    assert!(
        stdout.contains("every quadrant, a loop and a steep fall: yes"),
        "{stdout}"
    );
    let results = std::fs::read_to_string(out_dir.join("results.json")).unwrap();
    assert!(
        results.contains("\"suite\": \"terrain-scripted\"")
            || results.contains("\"suite\":\"terrain-scripted\"")
    );
    std::fs::remove_dir_all(&out_dir).ok();
}
