//! The results file a run writes beside its JUnit XML (docs/formats.md §5), and the merge of the
//! shards of one run into the whole.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::RunRecord;
use crate::shard::Shard;

/// The results file's format version.
pub const RESULTS_FORMAT: u32 = 1;

/// One run's (or one shard's) results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub format: u32,
    /// What made it: "s2lab suite" or "s2lab fuzz".
    pub tool: String,
    /// The report's title (the game's revision; the fuzz seed).
    pub title: String,
    pub shard: Shard,
    /// Jobs in the whole, unsharded list, when it is known in advance (not for `fuzz --time`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jobs: Option<u64>,
    /// This shard's runs, in index order.
    pub runs: Vec<RunRecord>,
}

impl Results {
    /// The JSON text (pretty: one field a line, diffable).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("results serialise");
        s.push('\n');
        s
    }
}

/// Reads a results file, naming it in errors.
pub fn read_results(path: &Path) -> Result<Results, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let r: Results = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: not an s2lab results file: line {}, column {}: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    if r.format != RESULTS_FORMAT {
        return Err(format!(
            "{}: results format {} (this s2lab reads format {RESULTS_FORMAT})",
            path.display(),
            r.format
        ));
    }
    Ok(r)
}

/// The whole run's size as the merge's messages say it: "40 jobs", or, when the count was not
/// fixed in advance (a fuzz campaign bounded by `--time` or `--stop-after`), that.
fn job_count(jobs: Option<u64>) -> String {
    match jobs {
        Some(1) => "1 job".into(),
        Some(n) => format!("{n} jobs"),
        None => "a campaign with no fixed job count (fuzz --time or --stop-after)".into(),
    }
}

/// Joins the shards of one run: same tool, title and shard count; every shard once; no run
/// twice; and, when the job count is known, every job present. The runs come back in index
/// order: the order of the unsharded run.
pub fn merge(parts: &[(String, Results)]) -> Result<Results, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("nothing to merge: no results files".into());
    };
    let n = first.shard.n;
    let mut seen: BTreeMap<u64, &str> = BTreeMap::new();
    let mut runs: BTreeMap<u64, RunRecord> = BTreeMap::new();
    for (name, r) in parts {
        for (what, a, b) in [
            ("tool", &r.tool, &first.tool),
            ("title", &r.title, &first.title),
        ] {
            if a != b {
                return Err(format!(
                    "{name}: {what} '{a}' differs from {first_name}'s '{b}': not shards of one run"
                ));
            }
        }
        if r.shard.n != n || r.jobs != first.jobs {
            return Err(format!(
                "{name}: shard {} of {}, but {first_name} is shard {} of {}: not shards of one run",
                r.shard,
                job_count(r.jobs),
                first.shard,
                job_count(first.jobs)
            ));
        }
        if let Some(other) = seen.insert(r.shard.k, name) {
            return Err(format!("{name}: shard {} is also in {other}", r.shard));
        }
        for run in &r.runs {
            if !r.shard.contains(run.index) {
                return Err(format!(
                    "{name}: run {} ({}) does not belong to shard {}",
                    run.index, run.name, r.shard
                ));
            }
            runs.insert(run.index, run.clone());
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("missing shards: {}", missing.join(", ")));
    }
    if let Some(jobs) = first.jobs
        && let Some(gap) = (0..jobs).find(|i| !runs.contains_key(i))
    {
        return Err(format!(
            "run {gap} of {jobs} is in no shard (shard {}/{n} is incomplete)",
            gap % n + 1
        ));
    }
    Ok(Results {
        format: RESULTS_FORMAT,
        tool: first.tool.clone(),
        title: first.title.clone(),
        shard: Shard::ALL,
        jobs: first.jobs,
        runs: runs.into_values().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(k: u64, n: u64, jobs: Option<u64>) -> (String, Results) {
        let r = Results {
            format: RESULTS_FORMAT,
            tool: "s2lab fuzz".into(),
            title: "t".into(),
            shard: Shard { k, n },
            jobs,
            runs: Vec::new(),
        };
        (format!("shard-{k}"), r)
    }

    #[test]
    fn shards_of_different_runs_are_named_in_words() {
        let e = merge(&[part(1, 4, Some(40)), part(2, 4, Some(41))]).unwrap_err();
        assert_eq!(
            e,
            "shard-2: shard 2/4 of 41 jobs, but shard-1 is shard 1/4 of 40 jobs: not shards of one run"
        );
        let e = merge(&[part(1, 4, None), part(2, 3, None)]).unwrap_err();
        assert!(
            e.starts_with("shard-2: shard 2/3 of a campaign with no fixed job count"),
            "{e}"
        );
        assert!(!e.contains("Some(") && !e.contains("None"), "{e}");
    }
}
