//! Suite reports: a summary table for the terminal, JUnit XML for CI systems, and an HTML page
//! whose SVG plots show the model and the game over time with the first divergence marked.

use std::fmt::Write as _;

use s2model::state::FIELDS;
use s2model::trace::{DiffAt, DiffReport, Trace};

/// The outcome of one scenario run.
pub struct RunOutcome {
    pub suite: String,
    pub name: String,
    pub seconds: f64,
    /// Frames of the game's trace (0 when the run could not be made).
    pub frames: usize,
    /// The plotted fields of both traces, downsampled ([`plots_of`]): a suite keeps these
    /// rather than whole traces, so its memory does not grow with the runs' lengths.
    pub plots: Vec<Plot>,
    /// Model vs game.
    pub vs_model: Option<DiffReport>,
    /// Game vs a recorded reference trace, when one was given.
    pub vs_reference: Option<DiffReport>,
    /// Why the run could not be made or was aborted.
    pub error: Option<String>,
}

impl RunOutcome {
    pub fn passed(&self) -> bool {
        self.error.is_none()
            && self.vs_model.as_ref().is_some_and(|d| d.is_equal())
            && self.vs_reference.as_ref().is_none_or(|d| d.is_equal())
    }

    pub fn frames(&self) -> usize {
        self.frames
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
                && let Some(first) = &d.first
            {
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
                return Some(format!(
                    "{what}: first difference at {at}: {} {note}",
                    fields.join(", ")
                ));
            }
        }
        None
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// JUnit XML: one testsuite per suite, one testcase per scenario.
pub fn junit_xml(outcomes: &[RunOutcome]) -> String {
    let mut suites: Vec<&str> = Vec::new();
    for o in outcomes {
        if !suites.contains(&o.suite.as_str()) {
            suites.push(&o.suite);
        }
    }
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"s2lab suite\">\n",
    );
    for suite in suites {
        let runs: Vec<&RunOutcome> = outcomes.iter().filter(|o| o.suite == suite).collect();
        let failures = runs
            .iter()
            .filter(|o| o.error.is_none() && !o.passed())
            .count();
        let errors = runs.iter().filter(|o| o.error.is_some()).count();
        let time: f64 = runs.iter().map(|o| o.seconds).sum();
        writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{time:.3}\">",
            xml_escape(suite),
            runs.len()
        )
        .ok();
        for o in runs {
            write!(
                x,
                "    <testcase classname=\"s2lab.{}\" name=\"{}\" time=\"{:.3}\"",
                xml_escape(suite),
                xml_escape(&o.name),
                o.seconds
            )
            .ok();
            match (&o.error, o.failure()) {
                (Some(e), _) => {
                    writeln!(
                        x,
                        ">\n      <error message=\"{}\"/>\n    </testcase>",
                        xml_escape(e)
                    )
                    .ok();
                }
                (None, Some(f)) => {
                    writeln!(
                        x,
                        ">\n      <failure message=\"{}\"/>\n    </testcase>",
                        xml_escape(&f)
                    )
                    .ok();
                }
                (None, None) => {
                    writeln!(x, "/>").ok();
                }
            }
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    x
}

/// The fields plotted for each run.
const PLOTTED: [&str; 4] = ["x_vel", "y_vel", "inertia", "y_pos"];
const PLOT_W: f64 = 560.0;
const PLOT_H: f64 = 110.0;
/// At most this many points a line (runs are downsampled evenly; the divergence stays marked).
const MAX_POINTS: usize = 200;

/// One plotted field of a run: its range over both traces and at most [`MAX_POINTS`] points
/// (frame, value) of each, taken evenly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plot {
    /// Frames of the longer trace.
    pub frames: usize,
    pub lo: i32,
    pub hi: i32,
    pub game: Vec<(u32, i32)>,
    pub model: Vec<(u32, i32)>,
}

/// The [`PLOTTED`] fields of a run's traces, downsampled for the HTML report.
pub fn plots_of(model: Option<&Trace>, game: Option<&Trace>) -> Vec<Plot> {
    let series = |t: Option<&Trace>, field: usize| -> Vec<i32> {
        t.map(|t| t.frames.iter().map(|f| f.values[field]).collect())
            .unwrap_or_default()
    };
    let points = |values: &[i32]| -> Vec<(u32, i32)> {
        let step = values.len().div_ceil(MAX_POINTS).max(1);
        values
            .iter()
            .enumerate()
            .step_by(step)
            .map(|(i, &v)| (i as u32, v))
            .collect()
    };
    PLOTTED
        .iter()
        .map(|name| {
            let field = FIELDS
                .iter()
                .position(|f| f == name)
                .expect("plotted field exists");
            let (m, g) = (series(model, field), series(game, field));
            Plot {
                frames: m.len().max(g.len()),
                lo: m.iter().chain(&g).copied().min().unwrap_or(0),
                hi: m.iter().chain(&g).copied().max().unwrap_or(1),
                game: points(&g),
                model: points(&m),
            }
        })
        .collect()
}

/// `down`: larger values plot lower (screen coordinates, for y_pos: a jump goes up).
fn polyline(points: &[(u32, i32)], p: &Plot, down: bool, class: &str) -> String {
    let span = (p.hi - p.lo).max(1) as f64;
    let mut pts = String::new();
    for &(i, v) in points {
        let x = i as f64 / p.frames.max(1) as f64 * PLOT_W;
        let t = (v - p.lo) as f64 / span * PLOT_H;
        let y = if down { t } else { PLOT_H - t };
        write!(pts, "{x:.1},{y:.1} ").ok();
    }
    format!("<polyline class=\"{class}\" points=\"{pts}\"/>")
}

fn plot(o: &RunOutcome, field_name: &str) -> String {
    let empty = Plot::default();
    let p = PLOTTED
        .iter()
        .position(|f| *f == field_name)
        .and_then(|i| o.plots.get(i))
        .unwrap_or(&empty);
    let (lo, hi, frames) = (p.lo, p.hi, p.frames);
    let mut svg = format!(
        "<svg class=\"plot\" viewBox=\"-2 -14 {} {}\" width=\"{}\" height=\"{}\"><text x=\"0\" y=\"-3\">{field_name} ({lo}…{hi})</text>",
        PLOT_W + 4.0,
        PLOT_H + 18.0,
        PLOT_W + 4.0,
        PLOT_H + 18.0
    );
    let down = field_name.ends_with("y_pos");
    svg.push_str(&polyline(&p.game, p, down, "game"));
    svg.push_str(&polyline(&p.model, p, down, "model"));
    if let Some(DiffAt::Frame(k)) = o
        .vs_model
        .as_ref()
        .and_then(|d| d.first.as_ref())
        .map(|f| f.at.clone())
    {
        let x = k as f64 / frames.max(1) as f64 * PLOT_W;
        write!(
            svg,
            "<line class=\"div\" x1=\"{x:.1}\" y1=\"0\" x2=\"{x:.1}\" y2=\"{PLOT_H}\"/>"
        )
        .ok();
    }
    svg.push_str("</svg>");
    svg
}

/// A self-contained HTML page: summary per suite, then every run (failures first) with plots.
pub fn html(outcomes: &[RunOutcome], title: &str) -> String {
    let mut h = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{t}</title><style>\
body{{font:14px sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 8px}}\
.pass{{color:#070}}.fail{{color:#b00}}svg.plot{{margin:2px;background:#fafafa}}svg text{{font:10px sans-serif}}\
polyline{{fill:none;stroke-width:1}}polyline.game{{stroke:#1f77b4;stroke-width:2.5;opacity:.5}}\
polyline.model{{stroke:#d62728}}line.div{{stroke:#000;stroke-dasharray:3 2}}</style></head><body>\
<h1>{t}</h1><p>Blue (wide): the game in the emulator. Red: the model. Dashed: first divergence.</p>",
        t = xml_escape(title)
    );
    h.push_str(&summary_html(outcomes));
    let mut order: Vec<&RunOutcome> = outcomes.iter().collect();
    order.sort_by_key(|o| o.passed());
    for o in order {
        let class = if o.passed() { "pass" } else { "fail" };
        write!(
            h,
            "<h3 class=\"{class}\">{} / {} — {} frames, {}</h3>",
            xml_escape(&o.suite),
            xml_escape(&o.name),
            o.frames(),
            if o.passed() {
                "identical".to_string()
            } else {
                xml_escape(&o.failure().unwrap_or_default())
            }
        )
        .ok();
        for f in PLOTTED {
            h.push_str(&plot(o, f));
        }
    }
    h.push_str("</body></html>\n");
    h
}

fn summary_rows(outcomes: &[RunOutcome]) -> Vec<(String, usize, usize, usize)> {
    let mut rows: Vec<(String, usize, usize, usize)> = Vec::new();
    for o in outcomes {
        let i = match rows.iter().position(|r| r.0 == o.suite) {
            Some(i) => i,
            None => {
                rows.push((o.suite.clone(), 0, 0, 0));
                rows.len() - 1
            }
        };
        rows[i].1 += 1;
        rows[i].2 += o.passed() as usize;
        rows[i].3 += o.frames();
    }
    rows
}

fn summary_html(outcomes: &[RunOutcome]) -> String {
    let mut h = String::from(
        "<table><tr><th>suite</th><th>runs</th><th>identical</th><th>frames</th></tr>",
    );
    for (suite, runs, ok, frames) in summary_rows(outcomes) {
        write!(
            h,
            "<tr><td>{}</td><td>{runs}</td><td>{ok}</td><td>{frames}</td></tr>",
            xml_escape(&suite)
        )
        .ok();
    }
    h.push_str("</table>");
    h
}

/// The terminal's summary table.
pub fn summary_table(outcomes: &[RunOutcome]) -> String {
    let mut t = format!(
        "{:<12} {:>6} {:>10} {:>9}\n",
        "suite", "runs", "identical", "frames"
    );
    let (mut runs, mut ok, mut frames) = (0, 0, 0);
    for (suite, r, o, f) in summary_rows(outcomes) {
        writeln!(t, "{suite:<12} {r:>6} {o:>10} {f:>9}").ok();
        runs += r;
        ok += o;
        frames += f;
    }
    writeln!(t, "{:<12} {runs:>6} {ok:>10} {frames:>9}", "total").ok();
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use s2model::{CellRect, Scenario, diff, run_scenario};

    fn outcome(name: &str, bend: bool) -> RunOutcome {
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
            frames: game.frames.len(),
            plots: plots_of(Some(&model), Some(&game)),
            vs_reference: None,
            error: None,
        }
    }

    #[test]
    fn junit_counts_failures_and_names_the_first_difference() {
        let xml = junit_xml(&[outcome("same", false), outcome("bent", true)]);
        assert!(
            xml.contains(r#"<testsuite name="moves" tests="2" failures="1" errors="0""#),
            "{xml}"
        );
        assert!(xml.contains("first difference at frame 7: x_pos"), "{xml}");
    }

    #[test]
    fn html_marks_the_divergence_and_lists_failures_first() {
        let page = html(&[outcome("same", false), outcome("bent", true)], "t");
        assert!(page.find("moves / bent").unwrap() < page.find("moves / same").unwrap());
        assert_eq!(page.matches("<line class=\"div\"").count(), PLOTTED.len());
        assert!(
            summary_table(&[outcome("same", false)]).contains("total             1          1")
        );
    }
}
