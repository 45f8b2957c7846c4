//! Traces (formats.md §3): a JSON Lines file, header then one line per frame, optionally gzip; the
//! reader, the writer (atomic: temp file + rename) and the comparison of §4.

use crate::state::{FIELD_COUNT, FIELD_SPECS, FIELDS};
use serde_json::{Map, Value};
use std::fmt::{self, Write as _};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

mod quick;

/// The compared fields' values of one state, in [`FIELDS`] order.
pub type Values = [i32; FIELD_COUNT];

/// Sonic's collision layer (obj+$3E `top_solid_bit`, obj+$3F `lrb_solid_bit`): $C/$D on path 1,
/// $E/$F on path 2. Optional compared fields (formats.md §3): terrain traces carry them, the
/// flat traces recorded before them do not, and two traces compare them only when both do.
pub type Layer = [u8; 2];

/// The names of [`Layer`]'s two fields, as a trace writes them.
pub const LAYER_FIELDS: [&str; 2] = ["top_solid_bit", "lrb_solid_bit"];

/// A header's `fields`: the compared fields, and the layer's when `with_layer`.
pub fn field_names(with_layer: bool) -> Vec<String> {
    let layer: &[&str] = if with_layer { &LAYER_FIELDS } else { &[] };
    FIELDS.iter().chain(layer).map(|s| s.to_string()).collect()
}

/// A trace's first line.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceHeader {
    /// `format` (1).
    pub format: u64,
    /// `scenario`: the scenario's name.
    pub scenario: String,
    /// `source`: what produced the trace.
    pub source: String,
    /// `rom_sha1`, when a ROM was involved.
    pub rom_sha1: Option<String>,
    /// `fields`: the field names the frames carry (the compared ones and any extras).
    pub fields: Vec<String>,
    /// `initial`: the compared fields of the state before frame 0.
    pub initial: Values,
    /// `initial`'s collision layer, when the trace carries the layer fields.
    pub initial_layer: Option<Layer>,
    /// `frames`: the number of frame lines, when given.
    pub frames: Option<u64>,
    /// `stop`: `end`, `dead` or `floor_end`, when given.
    pub stop: Option<String>,
    /// `floor_x`: `[lo, hi]`, when given.
    pub floor_x: Option<(i64, i64)>,
    /// Any other keys, kept as they were (not compared).
    pub extra: Map<String, Value>,
}

/// One frame line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceFrame {
    /// `frame`: the script frame number, from 0.
    pub frame: u64,
    /// `input`: the buttons held in this script frame, as in a script.
    pub input: String,
    /// The compared fields after the frame.
    pub values: Values,
    /// The collision layer after the frame, when the trace carries it.
    pub layer: Option<Layer>,
}

/// A whole trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The header line.
    pub header: TraceHeader,
    /// The frame lines.
    pub frames: Vec<TraceFrame>,
}

/// A trace that cannot be read or written: which file, which line, what.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// An I/O error on a file.
    #[error("{path}: {err}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        err: std::io::Error,
    },
    /// A malformed line.
    #[error("{path}: line {line}: {message}")]
    Malformed {
        /// The file (or `<input>`).
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

fn malformed(path: &Path, line: usize, message: impl Into<String>) -> TraceError {
    TraceError::Malformed {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

/// Read the compared fields from a JSON object, range-checked by type.
fn read_values(obj: &Map<String, Value>, what: &str) -> Result<Values, String> {
    let mut v = [0i32; FIELD_COUNT];
    for (i, (name, ty)) in FIELD_SPECS.iter().enumerate() {
        let x = obj
            .get(*name)
            .ok_or_else(|| format!("{what}: missing field '{name}'"))?;
        let n = x
            .as_i64()
            .ok_or_else(|| format!("{what}: field '{name}' is not an integer: {x}"))?;
        let (lo, hi) = match ty {
            crate::state::FieldType::U8 => (0, 0xFF),
            crate::state::FieldType::U16 => (0, 0xFFFF),
            crate::state::FieldType::S16 => (-0x8000, 0x7FFF),
        };
        if n < lo || n > hi {
            return Err(format!(
                "{what}: field '{name}' = {n} is out of range for {}",
                ty.name()
            ));
        }
        v[i] = n as i32;
    }
    Ok(v)
}

/// Read the layer fields from a JSON object when `with_layer` (the header names them).
fn read_layer(
    obj: &Map<String, Value>,
    what: &str,
    with_layer: bool,
) -> Result<Option<Layer>, String> {
    if !with_layer {
        return Ok(None);
    }
    let mut l = [0u8; 2];
    for (i, name) in LAYER_FIELDS.iter().enumerate() {
        let x = obj
            .get(*name)
            .ok_or_else(|| format!("{what}: missing field '{name}'"))?;
        l[i] = x
            .as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .ok_or_else(|| format!("{what}: field '{name}' = {x} is out of range for u8"))?;
    }
    Ok(Some(l))
}

fn has_layer(fields: &[String]) -> bool {
    LAYER_FIELDS.iter().all(|f| fields.iter().any(|g| g == f))
}

impl Trace {
    /// Read a trace file, gzip-compressed (detected by its magic bytes) or plain.
    pub fn read(path: &Path) -> Result<Trace, TraceError> {
        let io = |e| TraceError::Io {
            path: path.to_path_buf(),
            err: e,
        };
        let mut f = std::fs::File::open(path).map_err(io)?;
        let mut magic = [0u8; 2];
        let n = f.read(&mut magic).map_err(io)?;
        let f = std::fs::File::open(path).map_err(io)?;
        if n == 2 && magic == [0x1F, 0x8B] {
            Self::read_from(BufReader::new(flate2::read::MultiGzDecoder::new(f)), path)
        } else {
            Self::read_from(BufReader::new(f), path)
        }
    }

    /// Read a trace from lines of text; `path` only names the source in errors.
    pub fn read_from(reader: impl BufRead, path: &Path) -> Result<Trace, TraceError> {
        Self::read_lines(reader, path, true)
    }

    /// [`Trace::read_from`]; with `quick`, frame lines in the recorders' plain form are read
    /// without a JSON tree (`quick.rs`; the same frames, and the general reader for the rest).
    fn read_lines(reader: impl BufRead, path: &Path, quick: bool) -> Result<Trace, TraceError> {
        let mut header: Option<TraceHeader> = None;
        let mut layout: Option<quick::Layout> = None;
        let mut frames = Vec::new();
        for (i, line) in reader.lines().enumerate() {
            let ln = i + 1;
            let line = line.map_err(|e| match e.kind() {
                std::io::ErrorKind::InvalidData => malformed(path, ln, e.to_string()),
                _ => TraceError::Io {
                    path: path.to_path_buf(),
                    err: e,
                },
            })?;
            if let Some(f) = layout.as_ref().and_then(|l| l.frame(&line, frames.len())) {
                frames.push(f);
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(&line)
                .map_err(|e| malformed(path, ln, format!("not JSON: {e}")))?;
            let Value::Object(obj) = v else {
                return Err(malformed(path, ln, "not a JSON object"));
            };
            match &header {
                None => {
                    let h = parse_header(obj).map_err(|m| malformed(path, ln, m))?;
                    layout = if quick { quick::Layout::new(&h) } else { None };
                    header = Some(h);
                }
                Some(h) => {
                    let f = parse_frame(&obj, has_layer(&h.fields))
                        .map_err(|m| malformed(path, ln, m))?;
                    check_frame(h, &obj, &f, frames.len()).map_err(|m| malformed(path, ln, m))?;
                    frames.push(f);
                }
            }
        }
        let header = header.ok_or_else(|| malformed(path, 1, "empty trace: no header line"))?;
        Ok(Trace { header, frames })
    }

    /// The trace as JSON Lines text.
    pub fn to_jsonl(&self) -> String {
        let mut out = String::with_capacity(64 + self.frames.len() * 600);
        let h = &self.header;
        let mut obj = String::new();
        write!(obj, "{{\"format\":{}", h.format).ok();
        write!(obj, ",\"scenario\":{}", json_str(&h.scenario)).ok();
        write!(obj, ",\"source\":{}", json_str(&h.source)).ok();
        if let Some(sha) = &h.rom_sha1 {
            write!(obj, ",\"rom_sha1\":{}", json_str(sha)).ok();
        }
        obj.push_str(",\"fields\":[");
        for (i, f) in h.fields.iter().enumerate() {
            if i > 0 {
                obj.push(',');
            }
            obj.push_str(&json_str(f));
        }
        obj.push_str("],\"initial\":");
        write_values(&mut obj, &h.initial, h.initial_layer);
        if let Some(n) = h.frames {
            write!(obj, ",\"frames\":{n}").ok();
        }
        if let Some(s) = &h.stop {
            write!(obj, ",\"stop\":{}", json_str(s)).ok();
        }
        if let Some((lo, hi)) = h.floor_x {
            write!(obj, ",\"floor_x\":[{lo},{hi}]").ok();
        }
        for (k, v) in &h.extra {
            write!(obj, ",{}:{}", json_str(k), v).ok();
        }
        obj.push('}');
        out.push_str(&obj);
        out.push('\n');
        for f in &self.frames {
            write!(
                out,
                "{{\"frame\":{},\"input\":{}",
                f.frame,
                json_str(&f.input)
            )
            .ok();
            for (name, v) in FIELDS.iter().zip(f.values.iter()) {
                write!(out, ",\"{name}\":{v}").ok();
            }
            if let Some(l) = f.layer {
                for (name, v) in LAYER_FIELDS.iter().zip(l) {
                    write!(out, ",\"{name}\":{v}").ok();
                }
            }
            out.push_str("}\n");
        }
        out
    }

    /// Write the trace as plain JSON Lines to `w`.
    pub fn write_to(&self, mut w: impl Write) -> std::io::Result<()> {
        w.write_all(self.to_jsonl().as_bytes())?;
        w.flush()
    }

    /// Write the trace to `path` without ever leaving a half-written file there: the text goes to
    /// a temporary file in the same directory, which is then renamed over `path`. A name ending in
    /// `.gz` is gzip-compressed.
    pub fn write(&self, path: &Path) -> Result<(), TraceError> {
        let io = |e| TraceError::Io {
            path: path.to_path_buf(),
            err: e,
        };
        let gz = path.extension().is_some_and(|e| e == "gz");
        outfile::write_with(path, |f| {
            if gz {
                let mut enc = flate2::write::GzEncoder::new(f, flate2::Compression::default());
                enc.write_all(self.to_jsonl().as_bytes())?;
                enc.finish()?;
                Ok(())
            } else {
                f.write_all(self.to_jsonl().as_bytes())
            }
        })
        .map_err(io)
    }
}

fn parse_header(obj: Map<String, Value>) -> Result<TraceHeader, String> {
    let mut obj = obj;
    let format = obj
        .remove("format")
        .ok_or("header: missing 'format'")?
        .as_u64()
        .ok_or("header: 'format' is not a non-negative integer")?;
    if format != 1 {
        return Err(format!("header: unsupported format {format} (expected 1)"));
    }
    let str_field = |obj: &mut Map<String, Value>, k: &str| -> Result<Option<String>, String> {
        match obj.remove(k) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(format!("header: '{k}' is not a string: {v}")),
        }
    };
    let scenario = str_field(&mut obj, "scenario")?.unwrap_or_default();
    let source = str_field(&mut obj, "source")?.unwrap_or_default();
    let rom_sha1 = str_field(&mut obj, "rom_sha1")?;
    let stop = str_field(&mut obj, "stop")?;
    let fields: Vec<String> = match obj.remove("fields") {
        None => FIELDS.iter().map(|s| s.to_string()).collect(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("header: 'fields' holds a non-string: {v}"))
            })
            .collect::<Result<_, _>>()?,
        Some(v) => return Err(format!("header: 'fields' is not an array: {v}")),
    };
    // Recorders may add fields of their own (MAME's traces add `level_frame`...).
    for (i, f) in fields.iter().enumerate() {
        if fields[..i].contains(f) {
            return Err(format!("header: 'fields' names '{f}' twice"));
        }
    }
    if let Some(missing) = FIELDS.iter().find(|f| !fields.iter().any(|g| g == *f)) {
        return Err(format!("header: 'fields' lacks '{missing}'"));
    }
    let with_layer = has_layer(&fields);
    let (initial, initial_layer) = match obj.remove("initial") {
        Some(Value::Object(o)) => (
            read_values(&o, "header 'initial'")?,
            read_layer(&o, "header 'initial'", with_layer)?,
        ),
        Some(v) => return Err(format!("header: 'initial' is not an object: {v}")),
        None => return Err("header: missing 'initial'".into()),
    };
    let frames = match obj.remove("frames") {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .ok_or_else(|| format!("header: 'frames' is not a non-negative integer: {v}"))?,
        ),
    };
    let floor_x = match obj.remove("floor_x") {
        None => None,
        Some(Value::Array(a)) if a.len() == 2 && a.iter().all(|v| v.as_i64().is_some()) => {
            Some((a[0].as_i64().unwrap_or(0), a[1].as_i64().unwrap_or(0)))
        }
        Some(v) => return Err(format!("header: 'floor_x' is not [lo, hi]: {v}")),
    };
    Ok(TraceHeader {
        format,
        scenario,
        source,
        rom_sha1,
        fields,
        initial,
        initial_layer,
        frames,
        stop,
        floor_x,
        extra: obj,
    })
}

/// A frame line agrees with its header and its place: numbered in order from 0, holding only
/// the header's fields, with an `input` written as in a script.
fn check_frame(
    h: &TraceHeader,
    obj: &Map<String, Value>,
    f: &TraceFrame,
    index: usize,
) -> Result<(), String> {
    if f.frame != index as u64 {
        return Err(format!(
            "frame {}: expected frame {index} (frames are numbered in order from 0)",
            f.frame
        ));
    }
    if let Some(k) = obj
        .keys()
        .find(|k| *k != "frame" && *k != "input" && !h.fields.iter().any(|f| f == *k))
    {
        return Err(format!(
            "frame {}: field '{k}' is not in the header's 'fields'",
            f.frame
        ));
    }
    crate::script::parse_buttons_field(&f.input)
        .map(|_| ())
        .map_err(|e| format!("frame {}: 'input' {:?}: {e}", f.frame, f.input))
}

fn parse_frame(obj: &Map<String, Value>, with_layer: bool) -> Result<TraceFrame, String> {
    let frame = obj
        .get("frame")
        .ok_or("missing 'frame'")?
        .as_u64()
        .ok_or("'frame' is not a non-negative integer")?;
    let what = format!("frame {frame}");
    let input = match obj.get("input") {
        Some(Value::String(s)) => s.clone(),
        Some(v) => return Err(format!("{what}: 'input' is not a string: {v}")),
        None => return Err(format!("{what}: missing 'input'")),
    };
    let values = read_values(obj, &what)?;
    let layer = read_layer(obj, &what, with_layer)?;
    Ok(TraceFrame {
        frame,
        input,
        values,
        layer,
    })
}

fn json_str(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

fn write_values(out: &mut String, v: &Values, layer: Option<Layer>) {
    out.push('{');
    for (i, (name, x)) in FIELDS.iter().zip(v.iter()).enumerate() {
        if i > 0 {
            out.push(',');
        }
        write!(out, "\"{name}\":{x}").ok();
    }
    for (name, x) in layer.iter().flat_map(|l| LAYER_FIELDS.iter().zip(*l)) {
        write!(out, ",\"{name}\":{x}").ok();
    }
    out.push('}');
}

/// One field that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDiff {
    /// The field's name.
    pub field: &'static str,
    /// Its value in trace A.
    pub a: i32,
    /// Its value in trace B.
    pub b: i32,
}

/// Where two traces first disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffAt {
    /// In `initial`.
    Initial,
    /// In the frame line at this index (its `frame` number in A).
    Frame(u64),
}

/// The result of comparing two traces (formats.md §4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffReport {
    /// Scenario names of A and B.
    pub names: (String, String),
    /// Sources of A and B.
    pub sources: (String, String),
    /// Frame lines of A and B.
    pub frame_counts: (usize, usize),
    /// Frame lines compared and equal before the first difference (all of them when equal).
    pub frames_compared: usize,
    /// The first difference, if any.
    pub first: Option<FirstDiff>,
}

/// The first difference of two traces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstDiff {
    /// Where.
    pub at: DiffAt,
    /// Every compared field that differs there (empty when only the frame count or frame
    /// numbering differs).
    pub fields: Vec<FieldDiff>,
    /// A note on a structural difference (frame count, frame numbering), if any.
    pub note: Option<String>,
    /// The frame numbers and inputs of up to ten frames before, oldest first (from A).
    pub inputs_before: Vec<(u64, String)>,
    /// The input of the differing frame itself, in A and B.
    pub input_here: Option<(String, String)>,
}

impl DiffReport {
    /// Do the traces agree?
    pub fn is_equal(&self) -> bool {
        self.first.is_none()
    }
}

/// The fields that differ: the compared ones, then the layer's when both sides carry it.
fn field_diffs(a: &Values, b: &Values, la: Option<Layer>, lb: Option<Layer>) -> Vec<FieldDiff> {
    let mut out: Vec<FieldDiff> = (0..FIELD_COUNT)
        .filter(|&i| a[i] != b[i])
        .map(|i| FieldDiff {
            field: FIELDS[i],
            a: a[i],
            b: b[i],
        })
        .collect();
    if let (Some(la), Some(lb)) = (la, lb) {
        for i in 0..2 {
            if la[i] != lb[i] {
                out.push(FieldDiff {
                    field: LAYER_FIELDS[i],
                    a: la[i] as i32,
                    b: lb[i] as i32,
                });
            }
        }
    }
    out
}

/// Compare two traces: `initial`, then frame by frame every compared field; the same number of
/// frames with the same frame numbers.
pub fn diff(a: &Trace, b: &Trace) -> DiffReport {
    let mut report = DiffReport {
        names: (a.header.scenario.clone(), b.header.scenario.clone()),
        sources: (a.header.source.clone(), b.header.source.clone()),
        frame_counts: (a.frames.len(), b.frames.len()),
        frames_compared: 0,
        first: None,
    };
    let init = field_diffs(
        &a.header.initial,
        &b.header.initial,
        a.header.initial_layer,
        b.header.initial_layer,
    );
    if !init.is_empty() {
        report.first = Some(FirstDiff {
            at: DiffAt::Initial,
            fields: init,
            note: None,
            inputs_before: vec![],
            input_here: None,
        });
        return report;
    }
    let before = |i: usize| -> Vec<(u64, String)> {
        a.frames[i.saturating_sub(10)..i]
            .iter()
            .map(|f| (f.frame, f.input.clone()))
            .collect()
    };
    let n = a.frames.len().min(b.frames.len());
    for i in 0..n {
        let (fa, fb) = (&a.frames[i], &b.frames[i]);
        let fields = field_diffs(&fa.values, &fb.values, fa.layer, fb.layer);
        let note = (fa.frame != fb.frame).then(|| {
            format!(
                "frame numbers differ at line {}: A has {}, B has {}",
                i + 2,
                fa.frame,
                fb.frame
            )
        });
        if !fields.is_empty() || note.is_some() {
            report.first = Some(FirstDiff {
                at: DiffAt::Frame(fa.frame),
                fields,
                note,
                inputs_before: before(i),
                input_here: Some((fa.input.clone(), fb.input.clone())),
            });
            return report;
        }
        report.frames_compared += 1;
    }
    if a.frames.len() != b.frames.len() {
        let (longer, which) = if a.frames.len() > b.frames.len() {
            (a, "A")
        } else {
            (b, "B")
        };
        report.first = Some(FirstDiff {
            at: DiffAt::Frame(longer.frames[n].frame),
            fields: vec![],
            note: Some(format!(
                "frame counts differ: A has {}, B has {} (only {which} has frame {})",
                a.frames.len(),
                b.frames.len(),
                longer.frames[n].frame
            )),
            inputs_before: before(n.min(a.frames.len())),
            input_here: None,
        });
    }
    report
}

fn hex(field: &str, v: i32) -> String {
    let ty = if LAYER_FIELDS.contains(&field) {
        crate::state::FieldType::U8
    } else {
        FIELD_SPECS
            .iter()
            .find(|(n, _)| *n == field)
            .map(|(_, t)| *t)
            .unwrap_or(crate::state::FieldType::U16)
    };
    let digits = ty.hex_digits();
    let mask: u32 = if digits == 2 { 0xFF } else { 0xFFFF };
    format!("${:0digits$X}", (v as u32) & mask)
}

impl fmt::Display for DiffReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "A: {} ({}), {} frames",
            self.names.0, self.sources.0, self.frame_counts.0
        )?;
        writeln!(
            f,
            "B: {} ({}), {} frames",
            self.names.1, self.sources.1, self.frame_counts.1
        )?;
        let Some(d) = &self.first else {
            return writeln!(
                f,
                "equal: initial and {} frames agree in every compared field",
                self.frames_compared
            );
        };
        match d.at {
            DiffAt::Initial => writeln!(f, "first difference: initial")?,
            DiffAt::Frame(n) => writeln!(
                f,
                "first difference: frame {n} (after {} equal frames)",
                self.frames_compared
            )?,
        }
        if let Some(note) = &d.note {
            writeln!(f, "  {note}")?;
        }
        if !d.fields.is_empty() {
            writeln!(f, "  {:<20} {:>14} {:>14}", "field", "A", "B")?;
            for fd in &d.fields {
                writeln!(
                    f,
                    "  {:<20} {:>14} {:>14}",
                    fd.field,
                    format!("{} {}", fd.a, hex(fd.field, fd.a)),
                    format!("{} {}", fd.b, hex(fd.field, fd.b)),
                )?;
            }
        }
        if let Some((ia, ib)) = &d.input_here {
            if ia == ib {
                writeln!(f, "  input of that frame: {ia}")?;
            } else {
                writeln!(f, "  input of that frame: A {ia}, B {ib}")?;
            }
        }
        if !d.inputs_before.is_empty() {
            write!(
                f,
                "  inputs of the {} frames before:",
                d.inputs_before.len()
            )?;
            for (n, inp) in &d.inputs_before {
                write!(f, " {n}:{inp}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::SonicState;

    pub(super) fn sample() -> Trace {
        let s = SonicState::at(300, 668, false);
        let mut frames = vec![];
        for i in 0..15u64 {
            let mut v = s.trace_values();
            v[0] += i as i32;
            frames.push(TraceFrame {
                frame: i,
                input: if i % 2 == 0 { "R".into() } else { ".".into() },
                values: v,
                layer: None,
            });
        }
        Trace {
            header: TraceHeader {
                format: 1,
                scenario: "t".into(),
                source: "s2lab model".into(),
                rom_sha1: None,
                fields: FIELDS.iter().map(|s| s.to_string()).collect(),
                initial: s.trace_values(),
                initial_layer: None,
                frames: Some(15),
                stop: Some("end".into()),
                floor_x: Some((0, 11008)),
                extra: Map::new(),
            },
            frames,
        }
    }

    #[test]
    fn round_trip_plain_and_gz() {
        let t = sample();
        let dir = std::env::temp_dir().join(format!("s2model-trace-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["a.trace.jsonl", "a.trace.jsonl.gz"] {
            let p = dir.join(name);
            t.write(&p).unwrap();
            let r = Trace::read(&p).unwrap();
            assert_eq!(r, t);
        }
        // No temp file left behind.
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
            .collect();
        assert!(left.is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn diff_reports_first_frame_fields_and_inputs() {
        let a = sample();
        let mut b = sample();
        b.frames[12].values[4] = -1; // x_vel
        b.frames[12].values[14] = 2; // status
        b.frames[13].values[0] = 0;
        let r = diff(&a, &b);
        let d = r.first.clone().unwrap();
        assert_eq!(d.at, DiffAt::Frame(12));
        assert_eq!(d.fields.len(), 2);
        assert_eq!(
            d.fields[0],
            FieldDiff {
                field: "x_vel",
                a: 0,
                b: -1
            }
        );
        assert_eq!(d.inputs_before.len(), 10);
        assert_eq!(d.inputs_before[0].0, 2);
        let text = r.to_string();
        assert!(text.contains("x_vel"), "{text}");
        assert!(text.contains("$FFFF"), "{text}");
        assert!(text.contains("$02"), "{text}");
        assert!(diff(&a, &a).is_equal());
    }

    #[test]
    fn layer_fields_round_trip_and_compare_only_when_both_carry_them() {
        let plain = sample();
        let mut t = sample();
        t.header.fields = field_names(true);
        t.header.initial_layer = Some([0x0C, 0x0D]);
        for f in &mut t.frames {
            f.layer = Some([0x0C, 0x0D]);
        }
        t.frames[7].layer = Some([0x0E, 0x0F]);
        let text = t.to_jsonl();
        assert!(
            text.contains("\"top_solid_bit\":14,\"lrb_solid_bit\":15"),
            "{text}"
        );
        let back = Trace::read_from(text.as_bytes(), Path::new("x")).unwrap();
        assert_eq!(back, t);
        // An old trace without them still reads, and compares on the 28 fields alone.
        assert!(diff(&t, &plain).is_equal());
        let mut u = t.clone();
        u.frames[7].layer = Some([0x0C, 0x0D]);
        let r = diff(&t, &u);
        let d = r.first.clone().unwrap();
        assert_eq!(d.at, DiffAt::Frame(7));
        assert_eq!(d.fields[0].field, "top_solid_bit");
        assert!(r.to_string().contains("$0E"), "{r}");
        // Named in the header but missing on a frame line: an error naming the line.
        let bad = text.replacen(",\"lrb_solid_bit\":15", "", 1);
        let e = Trace::read_from(bad.as_bytes(), Path::new("x")).unwrap_err();
        assert!(
            e.to_string().contains("line 9") && e.to_string().contains("lrb_solid_bit"),
            "{e}"
        );
    }

    #[test]
    fn diff_frame_count() {
        let a = sample();
        let mut b = sample();
        b.frames.pop();
        let r = diff(&a, &b);
        assert!(!r.is_equal());
        assert!(r.to_string().contains("frame counts differ"));
    }

    #[test]
    fn malformed_lines_are_named() {
        let text = "{\"format\":1,\"initial\":{}}\n";
        let e = Trace::read_from(text.as_bytes(), Path::new("x")).unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
        assert!(e.to_string().contains("missing field 'x_pos'"), "{e}");
        let mut t = sample().to_jsonl();
        t.push_str("{\"frame\":15,\"input\":\".\",\"x_pos\":-3}\n");
        let e = Trace::read_from(t.as_bytes(), Path::new("x")).unwrap_err();
        assert!(e.to_string().contains("line 17"), "{e}");
        let e = Trace::read_from("not json\n".as_bytes(), Path::new("x")).unwrap_err();
        assert!(e.to_string().contains("not JSON"), "{e}");
    }
}
