//! One case of a measurement made concrete for a revision: the scenario (formats.md §2, either
//! format), Sonic's fields and RAM by symbol name as writes, the objects, the watched values.

use std::collections::BTreeMap;

use s2model::state::{FIELD_SPECS, FIELDS, FieldType};
use s2model::terrain_scenario::AnyScenario;
use toml::{Table, Value};

use crate::game::{PlacedObject, RamWrite, Setup, Watch};
use crate::rom::KnownRom;

/// Sonic's fields a measurement may set beyond the trace's, with their sizes (SST offsets from
/// roms.toml).
const SONIC_EXTRA: [(&str, u8); 9] = [
    ("status_secondary", 1),
    ("air_left", 1),
    ("obj_control", 1),
    ("invulnerable_time", 2),
    ("invincibility_time", 2),
    ("speedshoes_time", 2),
    ("top_solid_bit", 1),
    ("lrb_solid_bit", 1),
    ("flip_angle", 1),
];

/// The globals among the trace's fields and their RAM symbols.
const GLOBAL_FIELDS: [(&str, &str, u32); 6] = [
    ("look_delay", "Sonic_Look_delay_counter", 0),
    ("ctrl_held", "Ctrl_1_Logical", 0),
    ("ctrl_pressed", "Ctrl_1_Logical", 1),
    ("primary_angle", "Primary_Angle", 0),
    ("secondary_angle", "Secondary_Angle", 0),
    ("camera_bias", "Camera_Y_pos_bias", 0),
];

/// A case ready to run: what the game needs, and whether the model can run it too (nothing
/// written beyond the scenario).
pub struct CaseSetup {
    pub scenario: AnyScenario,
    pub setup: Setup,
    pub watch_names: Vec<String>,
    pub model_covers: bool,
}

/// Makes `table` (a measurement's table with the case's values put in) concrete for `rom`.
/// Errors say which key and what.
pub fn case_setup(table: &Table, name: &str, rom: &KnownRom) -> Result<CaseSetup, String> {
    let scenario = scenario(table.get("scenario"), name)?;
    let mut setup = Setup::default();
    let sst = sym(rom, "MainCharacter")?;
    if let Some(v) = table.get("set") {
        let Value::Table(set) = v else {
            return Err("set: expected a table of Sonic's field names and values".into());
        };
        for (field, v) in set {
            let value =
                int(v).ok_or_else(|| format!("set.{field}: expected an integer, got {v}"))?;
            let (addr, size) = sonic_field(rom, sst, field).ok_or_else(|| {
                format!(
                    "set.{field}: not one of Sonic's fields (the trace's fields, {})",
                    SONIC_EXTRA.map(|e| e.0).join(", ")
                )
            })?;
            setup
                .writes
                .push(write(addr, size, value, &format!("set.{field}"))?);
        }
    }
    if let Some(v) = table.get("ram") {
        let Value::Table(ram) = v else {
            return Err("ram: expected a table of \"SYMBOL.size\" = value".into());
        };
        for (at, v) in ram {
            let value =
                int(v).ok_or_else(|| format!("ram.\"{at}\": expected an integer, got {v}"))?;
            let (addr, size, _) = address(rom, at).map_err(|e| format!("ram.\"{at}\": {e}"))?;
            setup
                .writes
                .push(write(addr, size, value, &format!("ram.\"{at}\""))?);
        }
    }
    if let Some(v) = table.get("objects") {
        let Value::Array(objs) = v else {
            return Err("objects: expected an array of tables".into());
        };
        for (i, o) in objs.iter().enumerate() {
            setup
                .objects
                .push(object(o).map_err(|e| format!("objects[{}]: {e}", i + 1))?);
        }
    }
    if !setup.objects.is_empty()
        && let AnyScenario::Built(b) = &scenario
    {
        // The object manager's coarse camera (`Camera_X_pos_coarse`, `(Camera_X_pos - $80) &
        // $FF80`, ObjectsManager_Main) is only brought up to date after the objects have run
        // once, so MarkObjGone would measure a placed object against the camera of the boot
        // (x 0) and delete any beyond x 640. Written as the game will compute it for the new
        // camera. The address is not among roms.toml's symbols: it is Control_Locked + $E in the
        // RAM map (s2.constants.asm, Control_Locked $FFF7CC to Camera_X_pos_coarse $FFF7DA, a
        // stretch with no revision conditionals).
        let (cam_x, _) = crate::game::flat_camera(b.x, b.y);
        let coarse = (cam_x as i64 - 0x80) & 0xFF80;
        let addr = sym(rom, "Control_Locked")? + 0x0E;
        setup
            .writes
            .push(write(addr, 2, coarse, "Camera_X_pos_coarse")?);
    }
    let mut watch_names = Vec::new();
    if let Some(v) = table.get("watch") {
        let Value::Table(w) = v else {
            return Err("watch: expected a table of name = \"SYMBOL.size\"".into());
        };
        for (n, v) in w {
            let Value::String(at) = v else {
                return Err(format!("watch.{n}: expected an address string"));
            };
            if FIELDS.contains(&n.as_str())
                || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                return Err(format!(
                    "watch.{n}: the name is a trace field or not a variable name"
                ));
            }
            let (addr, size, signed) = address(rom, at).map_err(|e| format!("watch.{n}: {e}"))?;
            setup.watch.push(Watch {
                name: n.clone(),
                addr,
                size,
                signed,
            });
            watch_names.push(n.clone());
        }
    }
    let model_covers = setup.writes.is_empty() && setup.objects.is_empty();
    Ok(CaseSetup {
        scenario,
        setup,
        watch_names,
        model_covers,
    })
}

fn sym(rom: &KnownRom, name: &str) -> Result<u32, String> {
    rom.symbol(name)
        .ok_or_else(|| format!("roms.toml has no symbol {name} for {}", rom.revision))
}

/// An integer: a TOML integer or truth value, or a string in the claims' own notation
/// (`"-0x300"`, `"$680"`, `"-768"`: TOML has no negative hex literals).
fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Integer(i) => Some(*i),
        Value::Boolean(b) => Some(*b as i64),
        Value::String(s) => {
            let s = s.trim();
            let (neg, body) = match s.strip_prefix('-') {
                Some(r) => (true, r.trim_start()),
                None => (false, s),
            };
            let n = match body.strip_prefix("0x").or_else(|| body.strip_prefix('$')) {
                Some(h) => i64::from_str_radix(h, 16).ok()?,
                None => body.parse().ok()?,
            };
            Some(if neg { -n } else { n })
        }
        _ => None,
    }
}

fn write(addr: u32, size: u8, value: i64, at: &str) -> Result<RamWrite, String> {
    let bits = 8 * size as u32;
    let lo = -(1i64 << (bits - 1));
    let hi = (1i64 << bits) - 1;
    if !(lo..=hi).contains(&value) {
        return Err(format!("{at}: {value} does not fit in {size} byte(s)"));
    }
    Ok(RamWrite {
        addr,
        size,
        value: value as u32 & (((1u64 << bits) - 1) as u32),
    })
}

/// Sonic's field `name`: its address and size.
fn sonic_field(rom: &KnownRom, sst: u32, name: &str) -> Option<(u32, u8)> {
    if let Some(i) = FIELDS.iter().position(|f| *f == name) {
        let size = match FIELD_SPECS[i].1 {
            FieldType::U8 => 1,
            _ => 2,
        };
        if let Some((_, s, off)) = GLOBAL_FIELDS.iter().find(|g| g.0 == name) {
            return Some((rom.symbol(s)? + off, size));
        }
        return Some((sst + rom.symbol(name)?, size));
    }
    let (_, size) = SONIC_EXTRA.iter().find(|e| e.0 == name)?;
    Some((sst + rom.symbol(name)?, *size))
}

/// `SYMBOL[+OFF|-OFF].SIZE` (or a `0x` address for SYMBOL): the address in work RAM, the size
/// in bytes and whether it reads signed (`.sb`, `.sw`, `.sl`).
pub fn address(rom: &KnownRom, text: &str) -> Result<(u32, u8, bool), String> {
    let (base, size) = text
        .rsplit_once('.')
        .ok_or("expected SYMBOL.b, .w or .l (or .sb, .sw, .sl for signed)")?;
    let (size, signed) = match size {
        "b" => (1, false),
        "w" => (2, false),
        "l" => (4, false),
        "sb" => (1, true),
        "sw" => (2, true),
        "sl" => (4, true),
        s => return Err(format!("'.{s}' is not a size (.b .w .l .sb .sw .sl)")),
    };
    let split = base.find(['+', '-']).unwrap_or(base.len());
    let (name, off) = base.split_at(split);
    let name = name.trim();
    let addr = match name.strip_prefix("0x") {
        Some(h) => {
            u32::from_str_radix(h, 16).map_err(|_| format!("'{name}' is not a hex address"))?
        }
        None => sym(rom, name)?,
    };
    let off = if off.is_empty() {
        0
    } else {
        let (neg, num) = (off.starts_with('-'), off[1..].trim());
        let n = match num.strip_prefix("0x") {
            Some(h) => i64::from_str_radix(h, 16),
            None => num.parse(),
        }
        .map_err(|_| format!("'{num}' is not an offset"))?;
        if neg { -n } else { n }
    };
    let addr = (addr as i64 + off) as u32 | 0xFF_0000;
    let end = addr as u64 + size as u64;
    if !(0xFF_0000..=0x100_0000).contains(&end)
        || (addr & 0xFF_0000) != 0xFF_0000
        || (size > 1 && addr % 2 == 1)
    {
        return Err(format!(
            "${addr:06X} is not a{} address in work RAM",
            if size > 1 { "n even" } else { "" }
        ));
    }
    Ok((addr, size, signed))
}

fn object(v: &Value) -> Result<PlacedObject, String> {
    let Value::Table(t) = v else {
        return Err("expected a table { id, subtype, x, y, flip_x, flip_y }".into());
    };
    if let Some(k) = t
        .keys()
        .find(|k| !["id", "subtype", "x", "y", "flip_x", "flip_y"].contains(&k.as_str()))
    {
        return Err(format!("unknown key '{k}'"));
    }
    let get = |k: &str, max: i64, default: Option<i64>| -> Result<i64, String> {
        match t.get(k) {
            None => default.ok_or(format!("missing '{k}'")),
            Some(v) => match int(v) {
                Some(i) if (0..=max).contains(&i) => Ok(i),
                _ => Err(format!("{k}: expected an integer from 0 to {max}, got {v}")),
            },
        }
    };
    let id = get("id", 0xFF, None)?;
    if id == 0 {
        return Err("id: 0 is an empty slot".into());
    }
    Ok(PlacedObject {
        id: id as u8,
        subtype: get("subtype", 0xFF, Some(0))? as u8,
        x: get("x", 0xFFFF, None)? as u16,
        y: get("y", 0xFFF, None)? as u16,
        flip_x: get("flip_x", 1, Some(0))? == 1,
        flip_y: get("flip_y", 1, Some(0))? == 1,
    })
}

/// The scenario table as a scenario of either format (its own validation and messages).
fn scenario(v: Option<&Value>, name: &str) -> Result<AnyScenario, String> {
    let Some(Value::Table(t)) = v else {
        return Err("scenario: expected a table".into());
    };
    let mut json = toml_to_json(&Value::Table(t.clone()));
    let obj = json.as_object_mut().expect("a table becomes an object");
    // A stage of kind "terrain" is format 2's; the author need not say so twice.
    let terrain = obj
        .get("stage")
        .and_then(|st| st.get("kind"))
        .is_some_and(|k| k == "terrain");
    obj.entry("format")
        .or_insert(if terrain { 2 } else { 1 }.into());
    obj.insert("name".into(), name.into());
    AnyScenario::parse(&json.to_string(), "scenario", None).map_err(|e| e.to_string())
}

fn toml_to_json(v: &Value) -> serde_json::Value {
    match v {
        Value::String(s) => s.clone().into(),
        Value::Integer(i) => (*i).into(),
        Value::Float(f) => {
            serde_json::Number::from_f64(*f).map_or(serde_json::Value::Null, Into::into)
        }
        Value::Boolean(b) => (*b).into(),
        Value::Datetime(d) => d.to_string().into(),
        Value::Array(a) => a.iter().map(toml_to_json).collect(),
        Value::Table(t) => t
            .iter()
            .map(|(k, v)| (k.clone(), toml_to_json(v)))
            .collect::<serde_json::Map<_, _>>()
            .into(),
    }
}

/// A case's values as expression variables.
pub fn case_vars(case: &BTreeMap<String, Value>) -> BTreeMap<String, rhai::Dynamic> {
    case.iter()
        .map(|(k, v)| {
            let d = match v {
                Value::Integer(i) => rhai::Dynamic::from(*i),
                Value::Boolean(b) => rhai::Dynamic::from(*b),
                Value::String(s) => rhai::Dynamic::from(s.clone()),
                other => rhai::Dynamic::from(other.to_string()),
            };
            (k.clone(), d)
        })
        .collect()
}

/// A case's values as text, for names and reports: `charge=3 presses=DC D`.
pub fn case_label(case: &BTreeMap<String, Value>) -> String {
    case.iter()
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}={s}"),
            other => format!("{k}={other}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}
