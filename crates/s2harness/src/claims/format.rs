//! The claims file (docs/claims.md, format 1): TOML read into claims, measurements and checks,
//! every error naming the file, the claim, the measurement and the key.

use std::collections::BTreeMap;

use toml::{Table, Value};

use super::expr::{Compiled, Expr};

/// The claims file version this reader knows.
pub const CLAIMS_FORMAT: i64 = 1;

/// A claims file, validated.
#[derive(Clone, Debug)]
pub struct ClaimsFile {
    /// Where it came from (a path, or the name of the built-in file).
    pub origin: String,
    pub claims: Vec<Claim>,
}

/// One claim: what is said, where it comes from, how it is measured.
#[derive(Clone, Debug)]
pub struct Claim {
    pub id: String,
    pub text: String,
    pub source: String,
    /// Why it cannot be measured yet (its measurements are not run).
    pub pending: Option<String>,
    pub measures: Vec<Measure>,
}

/// A measurement: a scenario with its setup, run once per case, and the checks on its frames.
#[derive(Clone, Debug)]
pub struct Measure {
    pub name: String,
    /// The measurement's table before the case's values are put in (scenario, set, ram,
    /// objects, watch).
    pub template: Table,
    /// The cases (one empty case when there is no `vary`).
    pub cases: Vec<BTreeMap<String, Value>>,
    pub checks: Vec<Check>,
}

/// Which of the frames where `when` holds a check looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    First,
    Last,
    All,
    Count,
}

impl Pick {
    pub fn as_str(self) -> &'static str {
        match self {
            Pick::First => "first",
            Pick::Last => "last",
            Pick::All => "all",
            Pick::Count => "count",
        }
    }
}

/// A check: an expectation on the picked frames.
#[derive(Clone, Debug)]
pub struct Check {
    pub name: String,
    pub when: Option<Expr>,
    pub pick: Pick,
    pub offset: i64,
    pub expect: Expr,
    pub keep: Vec<(String, Expr)>,
    pub show: Vec<String>,
}

/// A claims file that cannot be used: where and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {at}{message}")]
pub struct ClaimsError {
    pub origin: String,
    /// `claim "id": measure "name": check 2: expect: ` or empty.
    pub at: String,
    pub message: String,
}

/// Where an error is, as it is written before the message.
#[derive(Clone, Default)]
struct Place(String);

impl Place {
    fn claim(id: &str) -> Place {
        Place(format!("claim \"{id}\": "))
    }
    fn then(&self, s: impl std::fmt::Display) -> Place {
        Place(format!("{}{s}: ", self.0))
    }
}

struct Reader<'a> {
    origin: &'a str,
    engine: &'a Compiled,
}

impl Reader<'_> {
    fn err<T>(&self, at: &Place, message: impl Into<String>) -> Result<T, ClaimsError> {
        Err(ClaimsError {
            origin: self.origin.to_string(),
            at: at.0.clone(),
            message: message.into(),
        })
    }

    fn only_keys(&self, t: &Table, allowed: &[&str], at: &Place) -> Result<(), ClaimsError> {
        match t.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => self.err(
                at,
                format!(
                    "unknown key '{k}' (expected one of: {})",
                    allowed.join(", ")
                ),
            ),
            None => Ok(()),
        }
    }

    fn string(&self, t: &Table, key: &str, at: &Place) -> Result<Option<String>, ClaimsError> {
        match t.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => self.err(
                &at.then(key),
                format!("expected a string, got {}", v.type_str()),
            ),
        }
    }

    fn required(&self, t: &Table, key: &str, at: &Place) -> Result<String, ClaimsError> {
        match self.string(t, key, at)? {
            Some(s) if !s.trim().is_empty() => Ok(s),
            Some(_) => self.err(&at.then(key), "must not be empty"),
            None => self.err(at, format!("missing '{key}'")),
        }
    }

    fn tables<'t>(
        &self,
        t: &'t Table,
        key: &str,
        at: &Place,
    ) -> Result<Vec<&'t Table>, ClaimsError> {
        match t.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(a)) => a
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::Table(t) => Ok(t),
                    v => self.err(
                        &at.then(format!("{key}[{}]", i + 1)),
                        format!("expected a table, got {}", v.type_str()),
                    ),
                })
                .collect(),
            Some(v) => self.err(
                &at.then(key),
                format!(
                    "expected an array of tables ([[{key}]]), got {}",
                    v.type_str()
                ),
            ),
        }
    }

    fn expr(&self, text: &str, at: &Place) -> Result<Expr, ClaimsError> {
        self.engine
            .compile(text)
            .or_else(|e| self.err(at, format!("{e} in '{text}'")))
    }

    fn claim(&self, t: &Table, index: usize) -> Result<Claim, ClaimsError> {
        let at0 = Place(format!("claim {index}: "));
        let id = self.required(t, "id", &at0)?;
        if !valid_name(&id, true) {
            return self.err(
                &at0.then("id"),
                format!("'{id}' may hold only a-z, 0-9, '.' and '-'"),
            );
        }
        let at = Place::claim(&id);
        self.only_keys(t, &["id", "claim", "source", "pending", "measure"], &at)?;
        let text = self.required(t, "claim", &at)?;
        let source = self.required(t, "source", &at)?;
        let pending = self.string(t, "pending", &at)?;
        let mut measures = Vec::new();
        for (i, m) in self.tables(t, "measure", &at)?.into_iter().enumerate() {
            let m = self.measure(m, &at, i + 1)?;
            if measures.iter().any(|x: &Measure| x.name == m.name) {
                return self.err(&at, format!("two measurements are named '{}'", m.name));
            }
            measures.push(m);
        }
        if measures.is_empty() && pending.is_none() {
            return self.err(&at, "no [[claim.measure]] and no 'pending' reason");
        }
        Ok(Claim {
            id,
            text,
            source,
            pending,
            measures,
        })
    }

    fn measure(&self, t: &Table, at: &Place, index: usize) -> Result<Measure, ClaimsError> {
        let name = self.required(t, "name", &at.then(format!("measure {index}")))?;
        if !valid_name(&name, false) {
            return self.err(
                &at.then(format!("measure {index}")),
                format!("name '{name}' may hold only a-z, 0-9 and '-'"),
            );
        }
        let at = at.then(format!("measure \"{name}\""));
        self.only_keys(
            t,
            &[
                "name", "scenario", "set", "ram", "objects", "watch", "vary", "check",
            ],
            &at,
        )?;
        if !matches!(t.get("scenario"), Some(Value::Table(_))) {
            return self.err(&at, "missing 'scenario' (a table: docs/formats.md §2)");
        }
        let cases = self.cases(t.get("vary"), &at.then("vary"))?;
        let mut checks = Vec::new();
        for (i, c) in self.tables(t, "check", &at)?.into_iter().enumerate() {
            checks.push(self.check(c, &at.then(format!("check {}", i + 1)))?);
        }
        if checks.is_empty() {
            return self.err(&at, "no [[claim.measure.check]]");
        }
        let mut template = t.clone();
        template.remove("check");
        template.remove("vary");
        template.remove("name");
        Ok(Measure {
            name,
            template,
            cases,
            checks,
        })
    }

    fn cases(
        &self,
        vary: Option<&Value>,
        at: &Place,
    ) -> Result<Vec<BTreeMap<String, Value>>, ClaimsError> {
        let check_name = |k: &str| -> Result<(), ClaimsError> {
            if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && k.starts_with(|c: char| c.is_ascii_alphabetic())
            {
                Ok(())
            } else {
                self.err(
                    at,
                    format!("'{k}' is not a variable name (a letter, then letters, digits, '_')"),
                )
            }
        };
        match vary {
            None => Ok(vec![BTreeMap::new()]),
            Some(Value::Table(t)) => {
                let mut cases = vec![BTreeMap::new()];
                for (k, v) in t {
                    check_name(k)?;
                    let Value::Array(values) = v else {
                        return self.err(&at.then(k), "expected an array of values");
                    };
                    if values.is_empty() {
                        return self.err(&at.then(k), "is empty");
                    }
                    cases = cases
                        .into_iter()
                        .flat_map(|c| {
                            values.iter().map(move |v| {
                                let mut c = c.clone();
                                c.insert(k.clone(), v.clone());
                                c
                            })
                        })
                        .collect();
                }
                if cases.len() > MAX_CASES {
                    return self.err(at, format!("{} cases, more than {MAX_CASES}", cases.len()));
                }
                Ok(cases)
            }
            Some(Value::Array(rows)) => {
                if rows.is_empty() || rows.len() > MAX_CASES {
                    return self.err(at, format!("needs 1 to {MAX_CASES} cases"));
                }
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let Value::Table(t) = r else {
                            return self.err(&at.then(i + 1), "expected a table of values");
                        };
                        for k in t.keys() {
                            check_name(k)?;
                        }
                        Ok(t.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                    })
                    .collect()
            }
            Some(v) => self.err(
                at,
                format!(
                    "expected a table of arrays or an array of tables, got {}",
                    v.type_str()
                ),
            ),
        }
    }

    fn check(&self, t: &Table, at: &Place) -> Result<Check, ClaimsError> {
        self.only_keys(
            t,
            &["name", "when", "pick", "offset", "expect", "keep", "show"],
            at,
        )?;
        let name = self.string(t, "name", at)?.unwrap_or_default();
        let when = match self.string(t, "when", at)? {
            Some(w) => Some(self.expr(&w, &at.then("when"))?),
            None => None,
        };
        let pick = match self.string(t, "pick", at)?.as_deref() {
            None | Some("all") => Pick::All,
            Some("first") => Pick::First,
            Some("last") => Pick::Last,
            Some("count") => Pick::Count,
            Some(p) => {
                return self.err(
                    &at.then("pick"),
                    format!("'{p}' is not one of first, last, all, count"),
                );
            }
        };
        let offset = match t.get("offset") {
            None => 0,
            Some(Value::Integer(i)) if i.abs() <= 10_000 => *i,
            Some(v) => {
                return self.err(
                    &at.then("offset"),
                    format!("expected an integer from -10000 to 10000, got {v}"),
                );
            }
        };
        let expect = self.expr(&self.required(t, "expect", at)?, &at.then("expect"))?;
        let mut keep = Vec::new();
        match t.get("keep") {
            None => {}
            Some(Value::Table(k)) => {
                if matches!(pick, Pick::All | Pick::Count) {
                    return self.err(
                        &at.then("keep"),
                        "needs pick = \"first\" or \"last\" (one frame)",
                    );
                }
                for (name, v) in k {
                    let Value::String(e) = v else {
                        return self
                            .err(&at.then("keep").then(name), "expected an expression string");
                    };
                    keep.push((name.clone(), self.expr(e, &at.then("keep").then(name))?));
                }
            }
            Some(v) => {
                return self.err(
                    &at.then("keep"),
                    format!("expected a table, got {}", v.type_str()),
                );
            }
        }
        let show = match t.get("show") {
            None => expect.variables(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    v => self.err(
                        &at.then("show"),
                        format!("expected strings, got {}", v.type_str()),
                    ),
                })
                .collect::<Result<_, _>>()?,
            Some(v) => {
                return self.err(
                    &at.then("show"),
                    format!("expected an array of names, got {}", v.type_str()),
                );
            }
        };
        Ok(Check {
            name,
            when,
            pick,
            offset,
            expect,
            keep,
            show,
        })
    }
}

/// At most this many cases per measurement.
pub const MAX_CASES: usize = 256;

fn valid_name(s: &str, dots: bool) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || (dots && c == '.'))
}

/// Reads a claims file's text; `origin` names it in errors.
pub fn parse(text: &str, origin: &str, engine: &Compiled) -> Result<ClaimsFile, ClaimsError> {
    let r = Reader { origin, engine };
    let top = Place::default();
    let table: Table = text.parse().or_else(|e: toml::de::Error| {
        r.err(
            &top,
            format!("not valid TOML: {}", e.to_string().trim_end()),
        )
    })?;
    r.only_keys(&table, &["format", "game", "claim"], &top)?;
    match table.get("format") {
        Some(Value::Integer(CLAIMS_FORMAT)) => {}
        Some(v) => {
            return r.err(
                &top.then("format"),
                format!("format {v} is not supported (this reader knows {CLAIMS_FORMAT})"),
            );
        }
        None => return r.err(&top, "missing 'format = 1'"),
    }
    let mut claims: Vec<Claim> = Vec::new();
    for (i, t) in r.tables(&table, "claim", &top)?.into_iter().enumerate() {
        let c = r.claim(t, i + 1)?;
        if claims.iter().any(|x| x.id == c.id) {
            return r.err(
                &Place::claim(&c.id),
                "a claim with this id comes earlier in the file",
            );
        }
        claims.push(c);
    }
    Ok(ClaimsFile {
        origin: origin.to_string(),
        claims,
    })
}

/// The measurement's table with one case's values put in: every string "{name}" becomes the
/// value itself, and "{name}" inside a longer string its text.
pub fn instantiate(template: &Table, case: &BTreeMap<String, Value>) -> Table {
    fn subst(v: &Value, case: &BTreeMap<String, Value>) -> Value {
        match v {
            Value::String(s) => {
                if let Some(name) = s.strip_prefix('{').and_then(|r| r.strip_suffix('}'))
                    && let Some(x) = case.get(name)
                {
                    return x.clone();
                }
                let mut out = s.clone();
                for (k, x) in case {
                    let text = match x {
                        Value::String(t) => t.clone(),
                        other => other.to_string(),
                    };
                    out = out.replace(&format!("{{{k}}}"), &text);
                }
                Value::String(out)
            }
            Value::Array(a) => Value::Array(a.iter().map(|v| subst(v, case)).collect()),
            Value::Table(t) => {
                Value::Table(t.iter().map(|(k, v)| (k.clone(), subst(v, case))).collect())
            }
            other => other.clone(),
        }
    }
    template
        .iter()
        .map(|(k, v)| (k.clone(), subst(v, case)))
        .collect()
}
