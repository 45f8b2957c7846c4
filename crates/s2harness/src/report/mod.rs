//! Run reports: a summary table for the terminal, JUnit XML for CI systems, a JSON results file
//! that shards write and `s2lab report merge` joins, and an HTML page that plots the model and
//! the game around the first divergence and draws the stage with both paths.
//!
//! A run in memory is a [`RunOutcome`] (with both traces); what is written and merged is its
//! [`RunRecord`] (the verdict, and for a failure the [`Detail`] the page draws), so a merged
//! report is made from exactly what the unsharded run would have shown.

mod detail;
mod html;
mod plot;
pub mod results;
mod stage;
pub mod terrain_shape;

use std::fmt::Write as _;

use s2model::CellRect;
use s2model::trace::{DiffAt, DiffReport, Trace};
use serde::{Deserialize, Serialize};

pub use detail::{Detail, Window};
pub use html::{detail_page, html};
pub use results::{Results, merge, read_results};

/// The outcome of one scenario run.
pub struct RunOutcome {
    pub suite: String,
    pub name: String,
    pub seconds: f64,
    /// The game's trace: from the emulator, or the recorded reference when the model alone ran
    /// (absent when the run could not be made).
    pub game: Option<Trace>,
    /// The model's trace (absent when the scenario could not be read).
    pub model: Option<Trace>,
    /// Model vs game.
    pub vs_model: Option<DiffReport>,
    /// Game vs a recorded reference trace, when one was given.
    pub vs_reference: Option<DiffReport>,
    /// Why the run could not be made or was aborted.
    pub error: Option<String>,
    /// The scenario's solid rectangles, for drawing the stage (empty when unreadable).
    pub solid: Vec<CellRect>,
    /// What [`RunOutcome::compact`] keeps of the traces: the game's frame count and, for a
    /// model-vs-game difference, the page's detail.
    pub kept: Option<(usize, Option<Detail>)>,
}

impl RunOutcome {
    /// A run of `name` in `suite` with nothing in it yet.
    pub fn new(suite: &str, name: String) -> Self {
        RunOutcome {
            suite: suite.to_string(),
            name,
            seconds: 0.0,
            game: None,
            model: None,
            vs_model: None,
            vs_reference: None,
            error: None,
            solid: Vec::new(),
            kept: None,
        }
    }

    /// Takes the game's run (or why it failed, prefixed with `scenario`) and the model's trace:
    /// model vs game, and game vs the recorded `reference` trace when there is one.
    pub fn compare_game<E: std::fmt::Display>(
        &mut self,
        scenario: &str,
        game: Result<Trace, E>,
        model: Trace,
        reference: Option<&std::path::Path>,
    ) {
        let reference = || reference.map(|r| Trace::read(r).map_err(|e| e.to_string()));
        match game {
            Ok(g) => self.compare_with(Ok(g), model, reference()),
            Err(e) => self.compare_with(Err(format!("{scenario}: {e}")), model, None),
        }
    }

    /// [`RunOutcome::compare_game`] with the reference trace already read (or why it could not
    /// be) and the game's failure already worded.
    pub fn compare_with(
        &mut self,
        game: Result<Trace, String>,
        model: Trace,
        reference: Option<Result<Trace, String>>,
    ) {
        match game {
            Ok(g) => {
                self.vs_model = Some(s2model::diff(&model, &g));
                match reference {
                    Some(Ok(reference)) => self.vs_reference = Some(s2model::diff(&reference, &g)),
                    Some(Err(e)) => self.error = Some(e),
                    None => {}
                }
                self.game = Some(g);
            }
            Err(e) => self.error = Some(e),
        }
        self.model = Some(model);
    }

    pub fn passed(&self) -> bool {
        self.error.is_none()
            && self.vs_model.as_ref().is_some_and(|d| d.is_equal())
            && self.vs_reference.as_ref().is_none_or(|d| d.is_equal())
    }

    pub fn frames(&self) -> usize {
        match (&self.game, &self.kept) {
            (Some(t), _) => t.frames.len(),
            (None, Some((frames, _))) => *frames,
            (None, None) => 0,
        }
    }

    /// The detail a report draws for a model-vs-game difference, from the traces or from
    /// what [`RunOutcome::compact`] kept.
    fn detail(&self) -> Option<Detail> {
        match (&self.game, &self.model, &self.vs_model) {
            (Some(game), Some(model), Some(d)) if !d.is_equal() => {
                Some(Detail::build(game, model, &self.solid, d))
            }
            _ => self.kept.as_ref().and_then(|(_, d)| d.clone()),
        }
    }

    /// Drops both traces, keeping what the reports need (the frame count, the detail around a
    /// divergence): a suite holds hundreds of outcomes, and its memory must not grow with the
    /// runs' lengths.
    pub fn compact(&mut self) {
        self.kept = Some((self.frames(), self.detail()));
        self.game = None;
        self.model = None;
    }

    /// One line on what went wrong, for tables and XML.
    pub fn failure(&self) -> Option<String> {
        if let Some(e) = &self.error {
            return Some(format!("error: {e}"));
        }
        for (what, d) in [
            ("model vs game", &self.vs_model),
            ("game vs reference", &self.vs_reference),
        ] {
            if let Some(d) = d
                && let Some(line) = first_difference_line(d)
            {
                return Some(format!("{what}: {line}"));
            }
        }
        None
    }

    /// What is written and merged: the verdict, and for a model-vs-game failure what the page
    /// draws. `index` is the run's place in the whole (unsharded) job list.
    pub fn record(&self, index: u64) -> RunRecord {
        let status = if self.error.is_some() {
            Status::Error
        } else if self.passed() {
            Status::Identical
        } else {
            Status::Different
        };
        let failure = match (&self.error, status) {
            (Some(e), _) => Some(e.clone()),
            (None, Status::Different) => self.failure(),
            _ => None,
        };
        let detail = self.detail();
        RunRecord {
            index,
            suite: self.suite.clone(),
            name: self.name.clone(),
            seconds: self.seconds,
            frames: self.frames(),
            status,
            failure,
            detail,
        }
    }
}

/// "first difference at frame 12: x_pos 300 vs 301 ($12C vs $12D)".
pub fn first_difference_line(d: &DiffReport) -> Option<String> {
    let first = d.first.as_ref()?;
    let at = match first.at {
        DiffAt::Initial => "initial".to_string(),
        DiffAt::Frame(k) => format!("frame {k}"),
    };
    let fields: Vec<String> = first
        .fields
        .iter()
        .map(|f| format!("{} {} vs {} (${:X} vs ${:X})", f.field, f.a, f.b, f.a, f.b))
        .collect();
    let note = first.note.clone().unwrap_or_default();
    Some(format!(
        "first difference at {at}: {} {note}",
        fields.join(", ")
    ))
}

/// A run's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Model and game agree on every frame (and the game agrees with its reference).
    Identical,
    /// They differ.
    Different,
    /// The run could not be made (bad scenario, the game lagged, ...).
    Error,
}

/// One run as written to a results file (docs/formats.md §5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The run's place in the whole campaign or job list, before sharding.
    pub index: u64,
    pub suite: String,
    pub name: String,
    pub seconds: f64,
    /// Frame lines of the game's trace.
    pub frames: usize,
    pub status: Status,
    /// What went wrong, in one line (the error, or the first difference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// For a model-vs-game difference: the traces around it and the stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Detail>,
}

impl RunRecord {
    pub fn passed(&self) -> bool {
        self.status == Status::Identical
    }

    /// The table's line for a run that did not pass.
    pub fn failure_line(&self) -> String {
        let f = self.failure.clone().unwrap_or_default();
        match self.status {
            Status::Error => format!("error: {f}"),
            _ => f,
        }
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Suites in order of first appearance.
fn suite_names(records: &[RunRecord]) -> Vec<&str> {
    let mut suites: Vec<&str> = Vec::new();
    for r in records {
        if !suites.contains(&r.suite.as_str()) {
            suites.push(&r.suite);
        }
    }
    suites
}

/// JUnit XML: one testsuite per suite, one testcase per scenario.
pub fn junit_xml(records: &[RunRecord]) -> String {
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"s2lab suite\">\n",
    );
    for suite in suite_names(records) {
        let runs: Vec<&RunRecord> = records.iter().filter(|r| r.suite == suite).collect();
        let failures = runs
            .iter()
            .filter(|r| r.status == Status::Different)
            .count();
        let errors = runs.iter().filter(|r| r.status == Status::Error).count();
        let time: f64 = runs.iter().map(|r| r.seconds).sum();
        writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{time:.3}\">",
            xml_escape(suite),
            runs.len()
        )
        .ok();
        for r in runs {
            write!(
                x,
                "    <testcase classname=\"s2lab.{}\" name=\"{}\" time=\"{:.3}\"",
                xml_escape(suite),
                xml_escape(&r.name),
                r.seconds
            )
            .ok();
            let message = xml_escape(r.failure.as_deref().unwrap_or_default());
            match r.status {
                Status::Error => {
                    writeln!(
                        x,
                        ">\n      <error message=\"{message}\"/>\n    </testcase>"
                    )
                    .ok();
                }
                Status::Different => {
                    writeln!(
                        x,
                        ">\n      <failure message=\"{message}\"/>\n    </testcase>"
                    )
                    .ok();
                }
                Status::Identical => {
                    writeln!(x, "/>").ok();
                }
            }
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    x
}

/// (suite, runs, identical, frames) per suite, in order of first appearance.
fn summary_rows(records: &[RunRecord]) -> Vec<(String, usize, usize, usize)> {
    suite_names(records)
        .into_iter()
        .map(|suite| {
            let runs: Vec<&RunRecord> = records.iter().filter(|r| r.suite == suite).collect();
            (
                suite.to_string(),
                runs.len(),
                runs.iter().filter(|r| r.passed()).count(),
                runs.iter().map(|r| r.frames).sum(),
            )
        })
        .collect()
}

/// The terminal's summary table.
pub fn summary_table(records: &[RunRecord]) -> String {
    let rows = summary_rows(records);
    // As wide as the longest suite name (`terrain-scripted`), at least 12.
    let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(12);
    let mut t = format!(
        "{:<w$} {:>6} {:>10} {:>9}\n",
        "suite", "runs", "identical", "frames"
    );
    let (mut runs, mut ok, mut frames) = (0, 0, 0);
    for (suite, r, o, f) in rows {
        writeln!(t, "{suite:<w$} {r:>6} {o:>10} {f:>9}").ok();
        runs += r;
        ok += o;
        frames += f;
    }
    writeln!(t, "{:<w$} {runs:>6} {ok:>10} {frames:>9}", "total").ok();
    t
}

/// Records of outcomes in job order, numbered from 0.
pub fn records(outcomes: &[RunOutcome]) -> Vec<RunRecord> {
    outcomes
        .iter()
        .enumerate()
        .map(|(i, o)| o.record(i as u64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use s2model::{Scenario, diff, run_scenario};

    pub(crate) fn outcome(name: &str, bend: bool) -> RunOutcome {
        let floor = CellRect {
            x: 0,
            y: 43,
            w: 100,
            h: 2,
        };
        let sc = Scenario::new(name, vec![floor], 400, 668, false, vec![0x08; 20]);
        let model = run_scenario(&sc);
        let mut game = model.clone();
        if bend {
            game.frames[7].values[0] += 1;
        }
        RunOutcome {
            suite: "moves".into(),
            name: name.into(),
            seconds: 0.5,
            vs_model: Some(diff(&model, &game)),
            game: Some(game),
            model: Some(model),
            vs_reference: None,
            error: None,
            solid: vec![floor],
            kept: None,
        }
    }

    #[test]
    fn junit_counts_failures_and_names_the_first_difference() {
        let xml = junit_xml(&records(&[outcome("same", false), outcome("bent", true)]));
        assert!(
            xml.contains(r#"<testsuite name="moves" tests="2" failures="1" errors="0""#),
            "{xml}"
        );
        assert!(xml.contains("first difference at frame 7: x_pos"), "{xml}");
    }

    #[test]
    fn html_marks_the_divergence_and_lists_failures_first() {
        let page = html(
            &records(&[outcome("same", false), outcome("bent", true)]),
            "t",
        );
        assert!(page.find("moves / bent").unwrap() < page.find("moves / same").unwrap());
        assert_eq!(
            page.matches("<line class=\"div\"").count(),
            plot::PLOTTED.len()
        );
        assert!(page.contains("<rect class=\"solid\""), "the stage is drawn");
        assert!(
            summary_table(&records(&[outcome("same", false)]))
                .contains("total             1          1")
        );
    }

    #[test]
    fn records_round_trip_through_json() {
        let recs = records(&[outcome("same", false), outcome("bent", true)]);
        let text = serde_json::to_string(&recs).unwrap();
        let back: Vec<RunRecord> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, recs);
    }
}
