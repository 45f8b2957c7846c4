//! The claims' verdicts written out: a terminal table, JSON, a Markdown ledger, and an HTML page
//! that plots the frames that decided each verdict.

use std::fmt::Write as _;

use super::{Agreement, CaseResult, ClaimResult, Verdict, values_text};

/// What a report says about where the verdicts come from.
pub struct Provenance {
    pub rom_revision: String,
    pub rom_sha1: String,
    pub version: String,
    /// The command that reproduces the run.
    pub command: String,
    pub claims_file: String,
}

/// The terminal table: id, verdict, what was measured.
pub fn table(results: &[ClaimResult]) -> String {
    let w = results.iter().map(|r| r.id.len()).max().unwrap_or(2).max(5);
    let mut out = format!("{:w$}  {:18}  measured\n", "claim", "verdict");
    for r in results {
        let mut summary = r.summary.replace('\n', " ");
        if summary.chars().count() > 160 {
            summary = summary.chars().take(157).collect::<String>() + "...";
        }
        let _ = writeln!(out, "{:w$}  {:18}  {summary}", r.id, r.verdict.as_str());
    }
    let count = |v: Verdict| results.iter().filter(|r| r.verdict == v).count();
    let _ = writeln!(
        out,
        "{} claims: {} hold, {} fail, {} cannot be measured yet, {} errors",
        results.len(),
        count(Verdict::Holds),
        count(Verdict::Fails),
        count(Verdict::CannotMeasureYet),
        count(Verdict::Error)
    );
    out
}

fn agreement_json(a: &Agreement) -> serde_json::Value {
    let (status, text) = match a {
        Agreement::NotCompared(t) => ("not compared", t),
        Agreement::Agrees(t) => ("agrees", t),
        Agreement::Differs(t) => ("differs", t),
    };
    serde_json::json!({ "status": status, "detail": text })
}

fn case_json(c: &CaseResult) -> serde_json::Value {
    serde_json::json!({
        "measure": c.measure,
        "case": c.case,
        "key": c.key,
        "frames": c.frames.as_ref().map(|f| f.rows.len()),
        "stop": c.frames.as_ref().map(|f| f.stop.clone()),
        "error": c.error,
        "model": agreement_json(&c.model),
        "reference": agreement_json(&c.reference),
        "checks": c.checks.iter().map(|k| serde_json::json!({
            "name": k.name,
            "holds": k.holds,
            "message": k.message,
            "deciding_frame": k.deciding_frame,
            "values": k.values.iter().map(|(n, v)| (n.clone(), serde_json::Value::from(*v))).collect::<serde_json::Map<_, _>>(),
        })).collect::<Vec<_>>(),
    })
}

/// The results as JSON (format 1 of the claims results, docs/formats.md).
pub fn json(results: &[ClaimResult], p: &Provenance) -> String {
    let v = serde_json::json!({
        "format": 1,
        "tool": "s2lab claims",
        "rom": { "revision": p.rom_revision, "sha1": p.rom_sha1 },
        "s2lab": p.version,
        "command": p.command,
        "claims_file": p.claims_file,
        "claims": results.iter().map(|r| serde_json::json!({
            "id": r.id,
            "claim": r.text,
            "source": r.source,
            "verdict": r.verdict.as_str(),
            "summary": r.summary,
            "cases": r.cases.iter().map(case_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&v).expect("JSON values serialise") + "\n"
}

fn agreement_text(a: &Agreement) -> &str {
    match a {
        Agreement::NotCompared(t) | Agreement::Agrees(t) | Agreement::Differs(t) => t,
    }
}

/// The ledger in Markdown: one section a claim.
pub fn markdown(results: &[ClaimResult], p: &Provenance) -> String {
    let mut out = String::from("# Claims measured in the game\n\n");
    let _ = writeln!(
        out,
        "ROM: {} (SHA-1 `{}`); s2lab {}; claims file `{}`.\n\nReproduce: `{}`\n",
        p.rom_revision, p.rom_sha1, p.version, p.claims_file, p.command
    );
    out.push_str("| claim | verdict | measured |\n|---|---|---|\n");
    for r in results {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} |",
            r.id,
            r.verdict.as_str(),
            r.summary.replace('|', "\\|")
        );
    }
    for r in results {
        let _ = write!(
            out,
            "\n## `{}`: {}\n\n{}\n\nSource: {}\n\n",
            r.id,
            r.verdict.as_str(),
            r.text,
            r.source
        );
        for c in &r.cases {
            let case = if c.case.is_empty() {
                String::new()
            } else {
                format!(" ({})", c.case)
            };
            let _ = writeln!(out, "- **{}**{case}:", c.measure);
            if let Some(e) = &c.error {
                let _ = writeln!(out, "  - error: {e}");
            }
            for k in &c.checks {
                let _ = writeln!(
                    out,
                    "  - {} {}: {}; {}",
                    if k.holds { "holds" } else { "FAILS" },
                    k.name,
                    k.message,
                    values_text(&k.values)
                );
            }
            let _ = writeln!(out, "  - model: {}", agreement_text(&c.model));
            let _ = writeln!(out, "  - MAME: {}", agreement_text(&c.reference));
        }
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An SVG line plot of `series` over the frames, the picked frames marked.
fn plot(name: &str, series: &[i64], marks: &[usize], deciding: Option<usize>) -> String {
    let (w, h) = (560.0, 120.0);
    if series.is_empty() {
        return String::new();
    }
    let lo = *series.iter().min().unwrap() as f64;
    let hi = *series.iter().max().unwrap() as f64;
    let span = if hi > lo { hi - lo } else { 1.0 };
    let n = series.len().max(2) as f64 - 1.0;
    let x = |i: usize| 40.0 + (w - 50.0) * i as f64 / n;
    let y = |v: i64| 10.0 + (h - 25.0) * (1.0 - (v as f64 - lo) / span);
    // At most about 600 points a line: a long run's plot stays a few kilobytes.
    let step = series.len().div_ceil(600).max(1);
    let mut pts = String::new();
    for (i, &v) in series.iter().enumerate() {
        if i % step == 0 || i + 1 == series.len() {
            let _ = write!(pts, "{:.1},{:.1} ", x(i), y(v));
        }
    }
    let mut s = format!(
        "<svg width=\"{w}\" height=\"{h}\" class=\"plot\"><text x=\"2\" y=\"12\">{}</text>\
         <text x=\"2\" y=\"{:.0}\">{}</text><text x=\"2\" y=\"{:.0}\">{}</text>",
        esc(name),
        y(hi as i64) + 12.0,
        hi,
        y(lo as i64),
        lo
    );
    for &m in marks.iter().take(200) {
        if m < series.len() {
            let _ = write!(
                s,
                "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"10\" y2=\"{1:.0}\" class=\"mark\"/>",
                x(m),
                h - 15.0
            );
        }
    }
    if let Some(d) = deciding.filter(|&d| d < series.len()) {
        let _ = write!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" class=\"decide\"><title>frame {d}: {}</title></circle>",
            x(d),
            y(series[d]),
            series[d]
        );
    }
    let _ = write!(
        s,
        "<polyline points=\"{pts}\" class=\"line\"/><text x=\"40\" y=\"{h}\">frame 0</text>\
         <text x=\"{:.0}\" y=\"{h}\">{}</text></svg>",
        w - 60.0,
        series.len() - 1
    );
    s
}

/// The verdict page: each claim as a ledger entry, with plots of the deciding frames.
pub fn html(results: &[ClaimResult], p: &Provenance) -> String {
    let mut out = String::from(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>s2lab claims</title><style>\
         body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em}\
         .holds{color:#176117}.fails{color:#a11}.pending{color:#777}.error{color:#a60}\
         table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;vertical-align:top}\
         .plot{background:#fafafa;margin:2px}.line{fill:none;stroke:#236;stroke-width:1.2}\
         .mark{stroke:#e9b;stroke-width:1}.decide{fill:#c22}text{font-size:10px}\
         </style></head><body><h1>Claims measured in the game</h1>",
    );
    let _ = write!(
        out,
        "<p>ROM: {} (SHA-1 <code>{}</code>) &middot; s2lab {} &middot; claims file <code>{}</code></p>\
         <p>Reproduce: <code>{}</code></p><table><tr><th>claim</th><th>verdict</th><th>measured</th></tr>",
        esc(&p.rom_revision),
        esc(&p.rom_sha1),
        esc(&p.version),
        esc(&p.claims_file),
        esc(&p.command)
    );
    let class = |v: Verdict| match v {
        Verdict::Holds => "holds",
        Verdict::Fails => "fails",
        Verdict::CannotMeasureYet => "pending",
        Verdict::Error => "error",
    };
    for r in results {
        let _ = write!(
            out,
            "<tr><td><a href=\"#{0}\">{0}</a></td><td class=\"{1}\">{2}</td><td>{3}</td></tr>",
            esc(&r.id),
            class(r.verdict),
            r.verdict.as_str(),
            esc(&r.summary)
        );
    }
    out.push_str("</table>");
    for r in results {
        let _ = write!(
            out,
            "<h2 id=\"{0}\">{0}: <span class=\"{1}\">{2}</span></h2><p>{3}</p><p>Source: {4}</p>",
            esc(&r.id),
            class(r.verdict),
            r.verdict.as_str(),
            esc(&r.text),
            esc(&r.source)
        );
        if r.verdict == Verdict::CannotMeasureYet {
            let _ = write!(out, "<p>Why not yet: {}</p>", esc(&r.summary));
        }
        for c in &r.cases {
            let case = if c.case.is_empty() {
                String::new()
            } else {
                format!(" ({})", c.case)
            };
            let _ = write!(out, "<h3>{}{}</h3>", esc(&c.measure), esc(&case));
            if let Some(e) = &c.error {
                let _ = write!(out, "<p class=\"error\">{}</p>", esc(e));
            }
            let _ = write!(
                out,
                "<p>Model: {}<br>MAME: {}</p>",
                esc(agreement_text(&c.model)),
                esc(agreement_text(&c.reference))
            );
            for k in &c.checks {
                let _ = write!(
                    out,
                    "<p class=\"{}\">{}: {} &mdash; {}; {}</p>",
                    if k.holds { "holds" } else { "fails" },
                    esc(&k.name),
                    if k.holds { "holds" } else { "fails" },
                    esc(&k.message),
                    esc(&values_text(&k.values))
                );
                if let Some(f) = &c.frames {
                    for (name, _) in k.values.iter().filter(|(n, _)| n != "count").take(3) {
                        if let Some(series) = f.series(name) {
                            out.push_str(&plot(name, &series, &k.frames, k.deciding_frame));
                        }
                    }
                }
            }
        }
    }
    out.push_str("</body></html>\n");
    out
}
