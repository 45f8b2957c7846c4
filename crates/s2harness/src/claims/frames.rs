//! A measurement's frames as named integer columns, from our emulator's run or from a recording
//! (MAME's trace with the watched values on each frame line), and the checks evaluated on them.

use std::collections::BTreeMap;

use rhai::Scope;
use s2model::state::FIELDS;

use super::expr::Compiled;
use super::format::{Check, Pick};
use crate::game::Measured;

/// Status bits by the names checks use (`status`, obj+$22).
const STATUS_BITS: [(&str, u8); 7] = [
    ("facing_left", 0),
    ("air", 1),
    ("rolling", 2),
    ("on_object", 3),
    ("roll_jump", 4),
    ("pushing", 5),
    ("underwater", 6),
];

/// Pad bits in the SACBRLDU order of `Ctrl_1_Logical`.
const BUTTONS: [(&str, u8); 8] = [
    ("u", 0x01),
    ("d", 0x02),
    ("l", 0x04),
    ("r", 0x08),
    ("b", 0x10),
    ("c", 0x20),
    ("a", 0x40),
    ("s", 0x80),
];

/// The frames of one run: column names, the values before frame 0, and one row per frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Frames {
    pub names: Vec<String>,
    pub initial: Vec<i64>,
    pub rows: Vec<Vec<i64>>,
    /// Why the run ended (`end`, `dead`, `floor_end`, `event_line`).
    pub stop: String,
}

impl Frames {
    /// Our emulator's run: the trace fields, the collision layer on terrain, the watched values.
    pub fn from_measured(m: &Measured, watch_names: &[String]) -> Frames {
        let mut names: Vec<String> = FIELDS.iter().map(|s| s.to_string()).collect();
        names.extend(["top_solid_bit", "lrb_solid_bit"].map(String::from));
        names.extend(watch_names.iter().cloned());
        let row = |values: &[i32], layer: Option<[u8; 2]>, watched: &[i64]| {
            let mut r: Vec<i64> = values.iter().map(|&v| v as i64).collect();
            let [top, lrb] = layer.unwrap_or([0x0C, 0x0D]);
            r.extend([top as i64, lrb as i64]);
            r.extend(watched.iter().copied());
            r
        };
        let h = &m.trace.header;
        Frames {
            initial: row(&h.initial, h.initial_layer, &m.watched_initial),
            rows: m
                .trace
                .frames
                .iter()
                .zip(&m.watched)
                .map(|(f, w)| row(&f.values, f.layer, w))
                .collect(),
            names,
            stop: h.stop.clone().unwrap_or_else(|| "end".into()),
        }
    }

    /// A recorded trace (JSON Lines, formats.md §3) whose frame lines carry the watched values as
    /// extra keys: `initial` in the header, one row a line. Missing values are an error naming
    /// the line.
    pub fn from_jsonl(text: &str, watch_names: &[String]) -> Result<Frames, String> {
        let mut names: Vec<String> = FIELDS.iter().map(|s| s.to_string()).collect();
        names.extend(["top_solid_bit", "lrb_solid_bit"].map(String::from));
        names.extend(watch_names.iter().cloned());
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, head) = lines.next().ok_or("empty trace")?;
        let head: serde_json::Value =
            serde_json::from_str(head).map_err(|e| format!("line 1: {e}"))?;
        let take = |obj: &serde_json::Value, line: usize| -> Result<Vec<i64>, String> {
            names
                .iter()
                .map(|n| match obj.get(n).and_then(|v| v.as_i64()) {
                    Some(v) => Ok(v),
                    None if n == "top_solid_bit" => Ok(0x0C),
                    None if n == "lrb_solid_bit" => Ok(0x0D),
                    None => Err(format!("line {line}: no integer '{n}'")),
                })
                .collect()
        };
        let initial_obj = head.get("initial").ok_or("line 1: no 'initial'")?;
        let mut initial = take(initial_obj, 1)?;
        // The watched values before frame 0 may sit in the header's `initial_watch`.
        if let Some(w) = head.get("initial_watch") {
            for (i, n) in watch_names.iter().enumerate() {
                if let Some(v) = w.get(n).and_then(|v| v.as_i64()) {
                    initial[FIELDS.len() + 2 + i] = v;
                }
            }
        }
        let mut rows = Vec::new();
        for (i, l) in lines {
            let v: serde_json::Value =
                serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1))?;
            rows.push(take(&v, i + 1)?);
        }
        Ok(Frames {
            names,
            initial,
            rows,
            stop: head
                .get("stop")
                .and_then(|s| s.as_str())
                .unwrap_or("end")
                .to_string(),
        })
    }

    fn col(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The series of one column over the frames (for plots).
    pub fn series(&self, name: &str) -> Option<Vec<i64>> {
        let i = self.col(name)?;
        Some(self.rows.iter().map(|r| r[i]).collect())
    }

    /// The variables of frame `k` (docs/claims.md, "Variables").
    fn scope(&self, k: usize, fixed: &BTreeMap<String, rhai::Dynamic>) -> Scope<'static> {
        let mut s = Scope::new();
        let row = &self.rows[k];
        let prev = if k == 0 {
            &self.initial
        } else {
            &self.rows[k - 1]
        };
        for (i, n) in self.names.iter().enumerate() {
            s.push(n.clone(), row[i]);
            s.push(format!("prev_{n}"), prev[i]);
            s.push(format!("d_{n}"), row[i] - prev[i]);
            s.push(format!("initial_{n}"), self.initial[i]);
        }
        s.push("frame", k as i64);
        if let Some(st) = self.col("status") {
            for (name, bit) in STATUS_BITS {
                s.push(name, row[st] >> bit & 1 == 1);
            }
        }
        if let (Some(h), Some(p)) = (self.col("ctrl_held"), self.col("ctrl_pressed")) {
            for (name, bit) in BUTTONS {
                s.push(format!("held_{name}"), row[h] & bit as i64 != 0);
                s.push(format!("pressed_{name}"), row[p] & bit as i64 != 0);
            }
            s.push("jump_held", row[h] & 0x70 != 0);
            s.push("jump_pressed", row[p] & 0x70 != 0);
        }
        for (k, v) in fixed {
            s.push(k.clone(), v.clone());
        }
        s
    }
}

/// What one check found in one case.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckOutcome {
    pub name: String,
    pub holds: bool,
    /// Why it fails, or what it measured (for the table).
    pub message: String,
    /// The frames it looked at (after the offset), at most [`MAX_FRAMES_KEPT`].
    pub frames: Vec<usize>,
    /// The shown values on the deciding frame (the first false one, or the first looked at),
    /// and `count` for a count.
    pub values: Vec<(String, i64)>,
    pub deciding_frame: Option<usize>,
}

/// Frames listed per check in a report.
pub const MAX_FRAMES_KEPT: usize = 400;

/// Evaluates `checks` on `frames` in order (kept values flow to later checks): one outcome each.
/// An expression that cannot be evaluated (an unknown variable, a wrong type) is an error, unless
/// an earlier check has failed (its kept values may be missing): then the check is not evaluated
/// and counts as failing with that said.
pub fn evaluate(
    engine: &Compiled,
    frames: &Frames,
    checks: &[Check],
    case: &BTreeMap<String, rhai::Dynamic>,
) -> Result<Vec<CheckOutcome>, String> {
    let mut fixed = case.clone();
    let mut out: Vec<CheckOutcome> = Vec::new();
    for (ci, c) in checks.iter().enumerate() {
        let label = if c.name.is_empty() {
            format!("check {}", ci + 1)
        } else {
            c.name.clone()
        };
        match check_one(engine, frames, c, &label, &mut fixed) {
            Ok(o) => out.push(o),
            Err(e) if out.iter().any(|o| !o.holds) => out.push(CheckOutcome {
                name: label,
                holds: false,
                message: format!("not evaluated after an earlier check failed ({e})"),
                frames: Vec::new(),
                values: Vec::new(),
                deciding_frame: None,
            }),
            Err(e) => return Err(format!("{label}: {e}")),
        }
    }
    Ok(out)
}

fn check_one(
    engine: &Compiled,
    frames: &Frames,
    c: &Check,
    label: &str,
    fixed: &mut BTreeMap<String, rhai::Dynamic>,
) -> Result<CheckOutcome, String> {
    let label = label.to_string();
    let mut matched = Vec::new();
    for k in 0..frames.rows.len() {
        let ok = match &c.when {
            None => true,
            Some(w) => engine.eval_bool(w, &mut frames.scope(k, fixed))?,
        };
        if ok {
            matched.push(k);
        }
    }
    let shown = |k: Option<usize>, extra: &[(String, i64)]| -> Vec<(String, i64)> {
        let mut v: Vec<(String, i64)> = Vec::new();
        for n in &c.show {
            let value = match k {
                Some(k) => frames.scope(k, fixed).get_value::<i64>(n).or_else(|| {
                    frames
                        .scope(k, fixed)
                        .get_value::<bool>(n)
                        .map(|b| b as i64)
                }),
                None => fixed.get(n).and_then(|d| d.as_int().ok()),
            };
            if let Some(x) = value {
                v.push((n.clone(), x));
            }
        }
        v.extend(extra.iter().cloned());
        v
    };
    if c.pick == Pick::Count {
        let count = matched.len() as i64;
        let mut s = Scope::new();
        for (k, v) in fixed.iter() {
            s.push(k.clone(), v.clone());
        }
        s.push("count", count);
        let holds = engine.eval_bool(&c.expect, &mut s)?;
        return Ok(CheckOutcome {
            name: label,
            holds,
            message: "counted".into(),
            frames: matched.iter().copied().take(MAX_FRAMES_KEPT).collect(),
            values: shown(None, &[("count".into(), count)])
                .into_iter()
                .filter(|(n, _)| n != "count")
                .chain([("count".into(), count)])
                .collect(),
            deciding_frame: None,
        });
    }
    let picked: Vec<usize> = match c.pick {
        Pick::First => matched.first().copied().into_iter().collect(),
        Pick::Last => matched.last().copied().into_iter().collect(),
        _ => matched,
    };
    if picked.is_empty() {
        let what = c.when.as_ref().map_or("any frame".to_string(), |w| {
            format!("a frame where {}", w.text)
        });
        return Ok(CheckOutcome {
            name: label,
            holds: false,
            message: format!(
                "the run ({} frames, stop {}) has no {what}",
                frames.rows.len(),
                frames.stop
            ),
            frames: Vec::new(),
            values: Vec::new(),
            deciding_frame: None,
        });
    }
    let mut looked = Vec::new();
    let mut failed: Option<(usize, String)> = None;
    for &k in &picked {
        let j = k as i64 + c.offset;
        if j < 0 || j >= frames.rows.len() as i64 {
            failed = Some((
                k,
                format!(
                    "frame {k} + offset {} is outside the run's {} frames",
                    c.offset,
                    frames.rows.len()
                ),
            ));
            break;
        }
        let j = j as usize;
        looked.push(j);
        if !engine.eval_bool(&c.expect, &mut frames.scope(j, fixed))? {
            failed = Some((j, format!("false at frame {j}")));
            break;
        }
    }
    let deciding = failed.as_ref().map(|f| f.0).or(looked.first().copied());
    let values = shown(deciding.filter(|&d| d < frames.rows.len()), &[]);
    {
        if let Some(&k) = looked.first() {
            for (name, e) in &c.keep {
                let v = engine.eval_int(e, &mut frames.scope(k, fixed))?;
                fixed.insert(name.clone(), rhai::Dynamic::from(v));
            }
        }
    }
    let message = match &failed {
        Some((_, m)) => m.clone(),
        None if looked.len() == 1 => format!("at frame {}", looked[0]),
        None => format!("on all {} frames", looked.len()),
    };
    Ok(CheckOutcome {
        name: label,
        holds: failed.is_none(),
        message,
        frames: looked.into_iter().take(MAX_FRAMES_KEPT).collect(),
        values,
        deciding_frame: deciding,
    })
}
