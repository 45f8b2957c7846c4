//! Claims about the game's physics measured in the game (docs/claims.md): a claims file names
//! each claim, the scenarios that measure it and the checks on their frames; [`run`] runs every
//! measurement in our emulator, the model too where it covers the measurement, and a recorded
//! reference (MAME) where one is given, and gives each claim its verdict.

mod expr;
mod format;
mod frames;
pub mod report;
mod setup;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use expr::Compiled;
pub use format::{CLAIMS_FORMAT, Claim, ClaimsError, ClaimsFile, Pick, instantiate};
pub use frames::{CheckOutcome, Frames};

use crate::game::Game;
use crate::rom::RomImage;
use crate::terrain_run::TerrainKit;
use s2model::terrain_scenario::{AnyScenario, run_terrain_scenario};

/// Reads and validates a claims file.
pub fn load(path: &Path, engine: &Compiled) -> Result<ClaimsFile, ClaimsError> {
    let origin = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ClaimsError {
        origin: origin.clone(),
        at: String::new(),
        message: format!("cannot read it: {e}"),
    })?;
    format::parse(&text, &origin, engine)
}

/// Validates a claims file's text (`origin` names it in errors).
pub fn parse(text: &str, origin: &str, engine: &Compiled) -> Result<ClaimsFile, ClaimsError> {
    format::parse(text, origin, engine)
}

/// A claim's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Holds,
    Fails,
    /// The claim has a `pending` reason.
    CannotMeasureYet,
    /// A measurement could not be run or an expression could not be evaluated.
    Error,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Fails => "fails",
            Verdict::CannotMeasureYet => "cannot measure yet",
            Verdict::Error => "error",
        }
    }
}

/// How a second trace of a case agreed with the game's: the model's or a recording's.
#[derive(Clone, Debug, PartialEq)]
pub enum Agreement {
    /// Not compared (the model does not cover the case, or no recording was found).
    NotCompared(String),
    /// Equal on every compared field of every frame (model), or on every asserted value
    /// (recording).
    Agrees(String),
    Differs(String),
}

/// One case of one measurement: what the game did and what each check found.
#[derive(Clone, Debug)]
pub struct CaseResult {
    pub measure: String,
    /// The case's values (`charge=3`), empty without `vary`.
    pub case: String,
    /// The file stem the case's exported scenario and reference trace use.
    pub key: String,
    pub frames: Option<Frames>,
    pub checks: Vec<CheckOutcome>,
    pub error: Option<String>,
    pub model: Agreement,
    pub reference: Agreement,
    /// The scenario and setup as `tools/mame` reads them (JSON), for `--export`.
    pub export: Option<serde_json::Value>,
}

/// A claim's outcome.
#[derive(Clone, Debug)]
pub struct ClaimResult {
    pub id: String,
    pub text: String,
    pub source: String,
    pub verdict: Verdict,
    /// The pending reason, or a short summary of what was measured or why it failed.
    pub summary: String,
    pub cases: Vec<CaseResult>,
}

/// What to run and compare with.
#[derive(Default)]
pub struct RunOptions {
    /// Only these claim ids (all when empty).
    pub only: Vec<String>,
    /// A directory of recorded traces: `DIR/<claim id>/<key>.trace.jsonl[.gz]`.
    pub reference: Option<PathBuf>,
}

/// Runs every selected claim of `file` in `game` (booted from `rom`).
pub fn run(
    file: &ClaimsFile,
    game: &Game,
    rom: &RomImage,
    engine: &Compiled,
    opts: &RunOptions,
    mut progress: impl FnMut(&str),
) -> Vec<ClaimResult> {
    let mut kit: Option<Result<TerrainKit, String>> = None;
    let mut out = Vec::new();
    for claim in &file.claims {
        if !opts.only.is_empty() && !opts.only.contains(&claim.id) {
            continue;
        }
        progress(&claim.id);
        if let Some(reason) = &claim.pending {
            out.push(ClaimResult {
                id: claim.id.clone(),
                text: claim.text.clone(),
                source: claim.source.clone(),
                verdict: Verdict::CannotMeasureYet,
                summary: reason.clone(),
                cases: Vec::new(),
            });
            continue;
        }
        let mut cases = Vec::new();
        for m in &claim.measures {
            for (ci, case) in m.cases.iter().enumerate() {
                let key = if m.cases.len() > 1 {
                    format!("{}-{}", m.name, ci + 1)
                } else {
                    m.name.clone()
                };
                cases.push(run_case(
                    claim, m, case, &key, game, rom, engine, opts, &mut kit,
                ));
            }
        }
        let (verdict, summary) = verdict_of(&cases);
        out.push(ClaimResult {
            id: claim.id.clone(),
            text: claim.text.clone(),
            source: claim.source.clone(),
            verdict,
            summary,
            cases,
        });
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn run_case(
    claim: &Claim,
    m: &format::Measure,
    case: &BTreeMap<String, toml::Value>,
    key: &str,
    game: &Game,
    rom: &RomImage,
    engine: &Compiled,
    opts: &RunOptions,
    kit: &mut Option<Result<TerrainKit, String>>,
) -> CaseResult {
    let mut r = CaseResult {
        measure: m.name.clone(),
        case: setup::case_label(case),
        key: key.to_string(),
        frames: None,
        checks: Vec::new(),
        error: None,
        model: Agreement::NotCompared(
            "the measurement writes state the model does not take".into(),
        ),
        reference: Agreement::NotCompared("no reference directory given".into()),
        export: None,
    };
    let table = instantiate(&m.template, case);
    let name = format!("{}/{}", claim.id, key);
    let cs = match setup::case_setup(&table, &name, game.revision()) {
        Ok(cs) => cs,
        Err(e) => {
            r.error = Some(format!("measure \"{}\" {}: {e}", m.name, r.case));
            return r;
        }
    };
    r.export = Some(export_json(&cs, &name));
    let game_for = |zone_act: Option<(u8, u8)>,
                    kit: &mut Option<Result<TerrainKit, String>>|
     -> Result<Game, String> {
        match zone_act {
            None => Ok(game.clone()),
            Some((_, act)) => {
                let k = kit.get_or_insert_with(|| TerrainKit::new(game, rom));
                let k = k.as_ref().map_err(|e| e.clone())?;
                k.games
                    .get(act as usize)
                    .cloned()
                    .ok_or_else(|| format!("no act {}", act + 1))
            }
        }
    };
    let zone_act = match &cs.scenario {
        AnyScenario::Built(_) => None,
        AnyScenario::Terrain(t) => Some((t.zone, t.act)),
    };
    let measured = game_for(zone_act, kit).and_then(|g| {
        g.run_measurement(&cs.scenario, &cs.setup)
            .map_err(|e| e.to_string())
    });
    let measured = match measured {
        Ok(x) => x,
        Err(e) => {
            r.error = Some(format!(
                "the game could not run measure \"{}\" {}: {e}",
                m.name, r.case
            ));
            return r;
        }
    };
    let frames = Frames::from_measured(&measured, &cs.watch_names);
    let vars = setup::case_vars(case);
    match frames::evaluate(engine, &frames, &m.checks, &vars) {
        Ok(c) => r.checks = c,
        Err(e) => r.error = Some(format!("measure \"{}\" {}: {e}", m.name, r.case)),
    }
    if cs.model_covers {
        r.model = model_agreement(&cs.scenario, &measured.trace, kit);
    }
    if let Some(dir) = &opts.reference {
        r.reference = reference_agreement(
            dir,
            &claim.id,
            key,
            &cs.watch_names,
            engine,
            m,
            &vars,
            &r.checks,
        );
    }
    r.frames = Some(frames);
    r
}

fn model_agreement(
    sc: &AnyScenario,
    game_trace: &s2model::Trace,
    kit: &Option<Result<TerrainKit, String>>,
) -> Agreement {
    let model = match sc {
        AnyScenario::Built(b) => s2model::run_scenario(b),
        AnyScenario::Terrain(t) => match kit {
            Some(Ok(k)) => match k.terrains.get(t.act as usize) {
                Some(terrain) => run_terrain_scenario(t, terrain),
                None => return Agreement::NotCompared("no terrain for this act".into()),
            },
            _ => return Agreement::NotCompared("the act's terrain could not be read".into()),
        },
    };
    let d = s2model::diff(&model, game_trace);
    if d.is_equal() {
        Agreement::Agrees(format!(
            "the model equals the game on all {} frames",
            game_trace.frames.len()
        ))
    } else {
        let at = match d.first.as_ref().map(|f| (&f.at, &f.fields, &f.note)) {
            Some((s2model::trace::DiffAt::Initial, ..)) => "initial".to_string(),
            Some((s2model::trace::DiffAt::Frame(k), fields, note)) => format!(
                "frame {k}: {}{}",
                fields
                    .iter()
                    .map(|f| format!("{} {} (model) vs {} (game)", f.field, f.a, f.b))
                    .collect::<Vec<_>>()
                    .join(", "),
                note.as_deref().unwrap_or("")
            ),
            None => String::new(),
        };
        Agreement::Differs(format!("the model differs from the game at {at}"))
    }
}

#[allow(clippy::too_many_arguments)]
fn reference_agreement(
    dir: &Path,
    id: &str,
    key: &str,
    watch_names: &[String],
    engine: &Compiled,
    m: &format::Measure,
    vars: &BTreeMap<String, rhai::Dynamic>,
    ours: &[CheckOutcome],
) -> Agreement {
    let base = dir.join(id);
    let Some(path) = [
        format!("{key}.trace.jsonl.gz"),
        format!("{key}.trace.jsonl"),
    ]
    .iter()
    .map(|n| base.join(n))
    .find(|p| p.exists()) else {
        return Agreement::NotCompared(format!(
            "no recording {}/{key}.trace.jsonl[.gz]",
            base.display()
        ));
    };
    let text = match read_text(&path) {
        Ok(t) => t,
        Err(e) => return Agreement::Differs(format!("{}: {e}", path.display())),
    };
    let frames = match Frames::from_jsonl(&text, watch_names) {
        Ok(f) => f,
        Err(e) => return Agreement::Differs(format!("{}: {e}", path.display())),
    };
    let theirs = match frames::evaluate(engine, &frames, &m.checks, vars) {
        Ok(t) => t,
        Err(e) => return Agreement::Differs(format!("{}: {e}", path.display())),
    };
    let asserted: usize = ours.iter().map(|c| c.values.len() + 1).sum();
    for (a, b) in ours.iter().zip(&theirs) {
        if a.holds != b.holds || a.values != b.values || a.deciding_frame != b.deciding_frame {
            return Agreement::Differs(format!(
                "{}: the recording gives {} ({}), the game here {} ({})",
                a.name,
                if b.holds { "holds" } else { "fails" },
                values_text(&b.values),
                if a.holds { "holds" } else { "fails" },
                values_text(&a.values)
            ));
        }
    }
    Agreement::Agrees(format!(
        "the recording agrees on all {asserted} asserted values and verdicts"
    ))
}

/// `y_vel = -1664 (-$680)`, joined.
pub fn values_text(v: &[(String, i64)]) -> String {
    v.iter()
        .map(|(n, x)| {
            if x.unsigned_abs() >= 10 {
                format!(
                    "{n} = {x} ({}${:X})",
                    if *x < 0 { "-" } else { "" },
                    x.unsigned_abs()
                )
            } else {
                format!("{n} = {x}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn verdict_of(cases: &[CaseResult]) -> (Verdict, String) {
    if let Some(e) = cases.iter().find_map(|c| c.error.clone()) {
        return (Verdict::Error, e);
    }
    let failing = cases
        .iter()
        .flat_map(|c| c.checks.iter().map(move |k| (c, k)))
        .find(|(_, k)| !k.holds);
    match failing {
        Some((c, k)) => {
            let case = if c.case.is_empty() {
                String::new()
            } else {
                format!(" [{}]", c.case)
            };
            (
                Verdict::Fails,
                format!(
                    "{}{case}: {}: {}; {}",
                    c.measure,
                    k.name,
                    k.message,
                    values_text(&k.values)
                ),
            )
        }
        None => {
            let checks: usize = cases.iter().map(|c| c.checks.len()).sum();
            let first = cases
                .first()
                .and_then(|c| c.checks.first())
                .map(|k| values_text(&k.values))
                .unwrap_or_default();
            (
                Verdict::Holds,
                format!(
                    "{checks} check{} in {} run{} hold; {first}",
                    if checks == 1 { "" } else { "s" },
                    cases.len(),
                    if cases.len() == 1 { "" } else { "s" }
                ),
            )
        }
    }
}

/// The case as `tools/mame/s2trace.py` reads it: the scenario (formats.md §2) with a `setup`
/// key holding the writes, the objects and the watched values.
fn export_json(cs: &setup::CaseSetup, name: &str) -> serde_json::Value {
    let mut sc: serde_json::Value = serde_json::from_str(&match &cs.scenario {
        AnyScenario::Built(b) => crate::suites::scenario_json(b),
        AnyScenario::Terrain(t) => t.to_json(),
    })
    .unwrap_or_default();
    if let Some(o) = sc.as_object_mut() {
        o.insert("name".into(), name.into());
        o.insert(
            "setup".into(),
            serde_json::json!({
                "writes": cs.setup.writes.iter().map(|w| serde_json::json!([w.addr, w.size, w.value])).collect::<Vec<_>>(),
                "objects": cs.setup.objects.iter().map(|o| serde_json::json!({
                    "id": o.id, "subtype": o.subtype, "x": o.x, "y": o.y,
                    "flip_x": o.flip_x, "flip_y": o.flip_y})).collect::<Vec<_>>(),
                "watch": cs.setup.watch.iter().map(|w| serde_json::json!([w.name, w.addr, w.size, w.signed])).collect::<Vec<_>>(),
            }),
        );
    }
    sc
}

/// A file's text, gunzipped when it starts with gzip's magic bytes.
fn read_text(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if bytes.starts_with(&[0x1F, 0x8B]) {
        let mut s = String::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .map_err(|e| e.to_string())?;
        Ok(s)
    } else {
        String::from_utf8(bytes).map_err(|e| e.to_string())
    }
}
