//! Marker arguments parsed as controller-gen parses them (numbers, booleans,
//! strings bare or quoted, `any` values and slices), and values written as
//! Go's `encoding/json` writes them.

use std::collections::BTreeMap;

use serde_json::Value;

/// A float as Go's `encoding/json` writes it: integral values without a
/// fraction.
pub(super) fn go_float(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        #[allow(clippy::cast_possible_truncation)]
        Value::from(f as i64)
    } else {
        serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

/// A JSON value as Go decodes it into `any` and encodes it again: numbers
/// through float64, object keys sorted.
pub(super) fn go_json(v: &Value) -> Value {
    match v {
        Value::Number(n) => go_float(n.as_f64().unwrap_or(0.0)),
        Value::Array(a) => Value::Array(a.iter().map(go_json).collect()),
        Value::Object(m) => {
            let sorted: BTreeMap<&String, Value> = m.iter().map(|(k, v)| (k, go_json(v))).collect();
            Value::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        other => other.clone(),
    }
}

pub(super) fn parse_number(v: &str) -> Result<f64, String> {
    let t = v.trim();
    if t.is_empty() || t.contains(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c))) {
        return Err(format!("expected integer or float, got {v:?}"));
    }
    t.parse()
        .map_err(|_| format!("expected integer or float, got {v:?}"))
}

pub(super) fn parse_int(v: &str) -> Result<i64, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("expected integer, got {v:?}"))
}

pub(super) fn parse_bool(v: &str) -> Result<bool, String> {
    match v.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        "" => Err("missing argument".to_string()),
        other => Err(format!("expected true or false, got {other:?}")),
    }
}

/// A string argument: double-quoted (Go escapes), back-quoted (raw), or a
/// bare run of text without the separators `,` `;` `:` `}`.
pub(super) fn parse_string(v: &str) -> Result<String, String> {
    let t = v.trim();
    if let Some(inner) = t.strip_prefix('`') {
        return inner
            .strip_suffix('`')
            .filter(|s| !s.contains('`'))
            .map(str::to_string)
            .ok_or_else(|| format!("xtask: a raw string argument with text after it: {v:?}"));
    }
    if t.starts_with('"') {
        return go_unquote(t);
    }
    if t.is_empty() {
        return Err("missing argument".to_string());
    }
    if t.contains([',', ';', ':', '}', '"', '`', '\'']) || t.contains("//") || t.contains("/*") {
        return Err(format!(
            "xtask: a bare string argument with separators: {v:?}"
        ));
    }
    Ok(t.to_string())
}

/// A double-quoted Go string literal (the escapes JSON shares with Go).
fn go_unquote(t: &str) -> Result<String, String> {
    let parsed: Value = serde_json::from_str(t)
        .map_err(|_| format!("xtask: a quoted string argument outside JSON's escapes: {t:?}"))?;
    match parsed {
        Value::String(s) => Ok(s),
        _ => Err(format!("xtask: not a string: {t:?}")),
    }
}

/// An `any` argument (`kubebuilder:default`, enum items): a quoted string,
/// `true`/`false`, a number, or a bare string.
pub(super) fn parse_any(v: &str) -> Result<Value, String> {
    let t = v.trim();
    if t.starts_with('{') {
        return Err(format!(
            "xtask: a `{{...}}` argument is not translated: {v:?}"
        ));
    }
    if t.starts_with(['"', '`']) {
        return parse_string(t).map(Value::String);
    }
    match t {
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        _ => {}
    }
    if t.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        if let Ok(i) = t.parse::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(f) = t.parse::<f64>() {
            return Ok(serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number));
        }
    }
    parse_string(t).map(Value::String)
}

/// A slice argument, `a;b;c` (legacy) or `{a,b,c}`.
pub(super) fn parse_any_slice(v: &str) -> Result<Vec<Value>, String> {
    let t = v.trim();
    let items: Vec<&str> = if let Some(inner) = t.strip_prefix('{') {
        let inner = inner
            .strip_suffix('}')
            .ok_or_else(|| format!("unclosed slice {v:?}"))?;
        split_outside_quotes(inner, ',')
    } else {
        split_outside_quotes(t, ';')
    };
    items.into_iter().map(parse_any).collect()
}

fn split_outside_quotes(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '"' || c == '`' => quote = Some(c),
            None if c == sep => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            None => {}
        }
    }
    out.push(&s[start..]);
    out
}
