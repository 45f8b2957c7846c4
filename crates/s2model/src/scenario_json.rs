//! What both scenario formats read the same way (built stages, [`crate::scenario`]; an act's
//! terrain, [`crate::terrain_scenario`]): the file and its JSON, and the fields they share
//! (`name`, `sonic.facing`, `input` or `input_file`, `note`), each error naming the file, then
//! the field.

use std::path::Path;

use serde_json::{Map, Value};

use crate::scenario::ScenarioError;
use crate::script::parse_script;

/// A scenario file's text, the name errors give it, and the directory its `input_file` is
/// read from.
pub(crate) fn read(path: &Path) -> Result<(String, String, &Path), ScenarioError> {
    let text = std::fs::read_to_string(path).map_err(|e| ScenarioError::Io {
        path: path.to_path_buf(),
        err: e,
    })?;
    let dir = path.parent().unwrap_or(Path::new("."));
    Ok((text, path.display().to_string(), dir))
}

/// The text as JSON (the error gives serde_json's line and column).
pub(crate) fn json(text: &str, origin: &str) -> Result<Value, ScenarioError> {
    serde_json::from_str(text).map_err(|e| ScenarioError::Json {
        origin: origin.to_string(),
        err: e,
    })
}

/// The value at `at` (a JSON path such as `stage.solid[3][2]`) is wrong.
pub(crate) fn invalid(origin: &str, at: &str, message: impl Into<String>) -> ScenarioError {
    ScenarioError::Invalid {
        origin: origin.to_string(),
        at: at.to_string(),
        message: message.into(),
    }
}

/// `name`: a string, required.
pub(crate) fn name(obj: &Map<String, Value>, origin: &str) -> Result<String, ScenarioError> {
    match obj.get("name") {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(v) => Err(invalid(
            origin,
            "name",
            format!("expected a string, got {v}"),
        )),
        None => Err(invalid(origin, "name", "missing")),
    }
}

/// `sonic.facing`: `left` (true) or `right` (false, also when absent).
pub(crate) fn facing_left(sonic: &Map<String, Value>, origin: &str) -> Result<bool, ScenarioError> {
    match sonic.get("facing") {
        None => Ok(false),
        Some(Value::String(s)) if s == "right" => Ok(false),
        Some(Value::String(s)) if s == "left" => Ok(true),
        Some(v) => Err(invalid(
            origin,
            "sonic.facing",
            format!("expected \"left\" or \"right\", got {v}"),
        )),
    }
}

/// The script, from `input` (the script itself) or `input_file` (read relative to `base_dir`;
/// without one, an error): exactly one of them.
pub(crate) fn input(
    obj: &Map<String, Value>,
    origin: &str,
    base_dir: Option<&Path>,
) -> Result<Vec<u8>, ScenarioError> {
    let script_err = |at: String, err| ScenarioError::Script {
        origin: origin.to_string(),
        at,
        err,
    };
    match (obj.get("input"), obj.get("input_file")) {
        (Some(_), Some(_)) => Err(invalid(
            origin,
            "input",
            "give either 'input' or 'input_file', not both",
        )),
        (Some(Value::String(s)), None) => {
            parse_script(s).map_err(|e| script_err("input".into(), e))
        }
        (Some(v), None) => Err(invalid(
            origin,
            "input",
            format!("expected a string, got {v}"),
        )),
        (None, Some(Value::String(f))) => {
            let Some(dir) = base_dir else {
                return Err(invalid(
                    origin,
                    "input_file",
                    "no directory to resolve it against",
                ));
            };
            let p = dir.join(f);
            let text = std::fs::read_to_string(&p).map_err(|e| ScenarioError::Io {
                path: p.clone(),
                err: e,
            })?;
            parse_script(&text).map_err(|e| script_err(p.display().to_string(), e))
        }
        (None, Some(v)) => Err(invalid(
            origin,
            "input_file",
            format!("expected a string, got {v}"),
        )),
        (None, None) => Err(invalid(
            origin,
            "input",
            "missing ('input' or 'input_file')",
        )),
    }
}

/// `note`: a string, optional.
pub(crate) fn note(
    obj: &Map<String, Value>,
    origin: &str,
) -> Result<Option<String>, ScenarioError> {
    match obj.get("note") {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => Err(invalid(
            origin,
            "note",
            format!("expected a string, got {v}"),
        )),
    }
}
