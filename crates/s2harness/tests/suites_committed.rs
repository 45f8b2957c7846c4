//! The suites under `traces/suites/` are exactly what the generators write: nobody edits them by
//! hand, and a generator change shows up as a diff to commit.

mod common;

use s2harness::suites;

#[test]
fn committed_suites_match_the_generators() {
    let dir = common::traces_dir().join("suites");
    let mut expected = 0;
    for suite in suites::all() {
        for sc in &suite.scenarios {
            let path = dir
                .join(suite.name)
                .join(format!("{}.scenario.json", sc.name));
            let on_disk = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (run `s2lab gen-suites`)", path.display()));
            assert_eq!(
                on_disk,
                suites::scenario_json(sc),
                "{} differs: run `s2lab gen-suites`",
                path.display()
            );
            expected += 1;
        }
        let files = std::fs::read_dir(dir.join(suite.name)).unwrap().count();
        assert_eq!(
            files,
            suite.scenarios.len(),
            "stray files in {}",
            suite.name
        );
    }
    assert_eq!(expected, 320);
}
