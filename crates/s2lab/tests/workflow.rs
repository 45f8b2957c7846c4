//! The GitHub Actions workflow (`.github/workflows/suite.yml`) parses, its shard matrix is 1..N,
//! every sharded command asks for `matrix.shard` of that same N, the ROM comes from a secret into
//! the runner's temporary directory, and a merge job joins the shards.

use std::path::PathBuf;

use yaml_rust2::{Yaml, YamlLoader};

fn workflow() -> Yaml {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.github/workflows/suite.yml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    YamlLoader::load_from_str(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .remove(0)
}

fn runs(job: &Yaml) -> Vec<String> {
    job["steps"]
        .as_vec()
        .expect("steps")
        .iter()
        .filter_map(|s| s["run"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn shard_matrix_covers_1_to_n_and_commands_agree() {
    let wf = workflow();
    let suite = &wf["jobs"]["suite"];
    let shards: Vec<i64> = suite["strategy"]["matrix"]["shard"]
        .as_vec()
        .expect("a shard matrix")
        .iter()
        .map(|v| v.as_i64().expect("shard numbers"))
        .collect();
    let n = shards.len() as i64;
    assert!(n >= 2, "{shards:?}");
    assert_eq!(
        shards,
        (1..=n).collect::<Vec<_>>(),
        "shards 1..N, each once"
    );
    let want = format!("--shard ${{{{ matrix.shard }}}}/{n}");
    let sharded: Vec<String> = runs(suite)
        .into_iter()
        .filter(|r| r.contains("--shard"))
        .collect();
    assert!(
        sharded.iter().any(|r| r.contains("s2lab -- suite")),
        "the suite runs sharded: {sharded:?}"
    );
    for r in &sharded {
        assert!(r.contains(&want), "{r:?} should take {want}");
    }
    assert_eq!(
        suite["name"].as_str(),
        Some(format!("suite shard ${{{{ matrix.shard }}}}/{n}").as_str())
    );
}

#[test]
fn rom_comes_from_a_secret_into_the_runner_temp_dir() {
    let wf = workflow();
    let suite = &wf["jobs"]["suite"];
    let step = suite["steps"]
        .as_vec()
        .unwrap()
        .iter()
        .find(|s| s["env"]["S2_ROM_BASE64"].as_str().is_some())
        .expect("a step with the ROM secret");
    assert_eq!(
        step["env"]["S2_ROM_BASE64"].as_str(),
        Some("${{ secrets.S2_ROM_BASE64 }}")
    );
    let run = step["run"].as_str().unwrap();
    assert!(run.contains("base64 -d > \"$RUNNER_TEMP/"), "{run}");
    assert!(run.contains("S2_ROM=$RUNNER_TEMP/"), "{run}");
}

#[test]
fn a_merge_job_joins_the_shards() {
    let wf = workflow();
    let merge = &wf["jobs"]["merge"];
    assert_eq!(merge["needs"].as_str(), Some("suite"));
    assert_eq!(merge["if"].as_str(), Some("always()"));
    let runs = runs(merge);
    assert!(
        runs.iter()
            .any(|r| r.contains("s2lab -- report merge shards/suite-*")),
        "{runs:?}"
    );
}
