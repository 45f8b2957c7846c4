//! Self-contained HTML pages: the suite's summary with every difference drawn, and the one-page
//! report of a single difference (`s2lab diff --html`, a fuzz case).

use std::fmt::Write as _;

use super::detail::Detail;
use super::plot::field_plot;
use super::stage::stage_svg;
use super::{RunRecord, summary_rows, xml_escape};

const STYLE: &str = "body{font:14px sans-serif;margin:2em;max-width:70em}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}\
.pass{color:#070}.fail{color:#b00}svg{margin:2px;background:#fafafa}svg text{font:10px sans-serif}\
polyline{fill:none;stroke-width:1}polyline.game{stroke:#1f77b4;stroke-width:2.5;opacity:.5}\
polyline.model{stroke:#d62728}line.div{stroke:#000;stroke-dasharray:3 2}\
svg.stage{background:#fff;border:1px solid #ccc}rect.solid{fill:#bbb}rect.start{fill:#2a2}\
path.terrain{fill:#bbb;shape-rendering:crispEdges}path.terrain2{fill:#e8c8c8;shape-rendering:crispEdges}\
circle.game{fill:#1f77b4}circle.model{fill:#d62728}pre{background:#f4f4f4;padding:.5em}";

fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{t}</title><style>{STYLE}</style></head><body><h1>{t}</h1>\
<p>Blue (wide): the game. Red: the model. Dashed line and dots: the first divergence. Green square: Sonic's start. \
Grey: solid blocks (on an act's own terrain: shaped by their collision heights, path 1; pink: path 2 alone).</p>",
        t = xml_escape(title)
    )
}

/// The plots and the stage of one difference.
pub fn detail_html(d: &Detail) -> String {
    let mut h = String::new();
    let at =
        d.at.map_or("the initial state".into(), |k| format!("frame {k}"));
    write!(
        h,
        "<p>First divergence at {at}{}; the game's trace: {}.</p><div>",
        if d.fields.is_empty() {
            String::new()
        } else {
            format!(" in {}", xml_escape(&d.fields.join(", ")))
        },
        xml_escape(&d.truth)
    )
    .ok();
    for i in 0..d.window.fields.len() {
        h.push_str(&field_plot(&d.window, i, d.at));
    }
    h.push_str("</div><div>");
    h.push_str(&stage_svg(d));
    h.push_str("</div>");
    h
}

/// A page: summary per suite, every difference drawn (in run order), then every run.
pub fn html(records: &[RunRecord], title: &str) -> String {
    let mut h = head(title);
    h.push_str("<table><tr><th>suite</th><th>runs</th><th>identical</th><th>frames</th></tr>");
    for (suite, runs, ok, frames) in summary_rows(records) {
        write!(
            h,
            "<tr><td>{}</td><td>{runs}</td><td>{ok}</td><td>{frames}</td></tr>",
            xml_escape(&suite)
        )
        .ok();
    }
    h.push_str("</table>");
    for r in records.iter().filter(|r| !r.passed()) {
        write!(
            h,
            "<h3 class=\"fail\">{} / {} — {} frames, {}</h3>",
            xml_escape(&r.suite),
            xml_escape(&r.name),
            r.frames,
            xml_escape(&r.failure_line())
        )
        .ok();
        if let Some(d) = &r.detail {
            h.push_str(&detail_html(d));
        }
    }
    h.push_str("<h2>Every run</h2><table><tr><th>run</th><th>frames</th><th>result</th></tr>");
    for r in records {
        let (class, what) = if r.passed() {
            ("pass", "identical".to_string())
        } else {
            ("fail", r.failure_line())
        };
        write!(
            h,
            "<tr class=\"{class}\"><td>{} / {}</td><td>{}</td><td>{}</td></tr>",
            xml_escape(&r.suite),
            xml_escape(&r.name),
            r.frames,
            xml_escape(&what)
        )
        .ok();
    }
    h.push_str("</table></body></html>\n");
    h
}

/// A one-page report of one difference: `text` (the diff, the scenario...) as preformatted
/// lines, then the plots and the stage.
pub fn detail_page(title: &str, text: &str, d: Option<&Detail>) -> String {
    let mut h = head(title);
    write!(h, "<pre>{}</pre>", xml_escape(text)).ok();
    if let Some(d) = d {
        h.push_str(&detail_html(d));
    }
    h.push_str("</body></html>\n");
    h
}
