//! Helpers for values of any depth: serde_json's own `Drop` recurses, so a
//! value nested deeply enough overflows the stack when it is dropped. The
//! algorithms drop the values they remove through [`drop_deep`]. Go's
//! views of a decoded value live here too, built without recursion: its
//! `json.Marshal` form ([`go_json`]), its `%v` ([`go_v`]) and its `%T`
//! ([`go_type`]).

use std::fmt::Write as _;

use serde_json::Value;

/// Drops `v` without recursion: containers are emptied onto an explicit
/// stack, so each value dropped is at most one level deep.
pub(crate) fn drop_deep(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Drops an optional removed value (see [`drop_deep`]).
pub(crate) fn drop_removed(v: Option<Value>) {
    if let Some(v) = v {
        drop_deep(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_a_million_levels_without_overflow() {
        let mut v = Value::Null;
        for _ in 0..1_000_000 {
            v = Value::Array(vec![v]);
        }
        drop_deep(v);
    }
}

/// `v` as Go's `json.Marshal` encodes the decoded value: object keys
/// sorted as in a Go map (or kept in order, for values that stand for Go
/// structs), numbers as Go prints them (`1.0` as `1`, `1e+21`), and `<`, `>`,
/// `&`, U+2028 and U+2029 escaped. It is the identity the server gives
/// compound list-set items and the way `field.Error` prints compound
/// values. Built without recursion.
pub(crate) fn go_json(v: &Value, sort_keys: bool) -> String {
    enum Step<'a> {
        Value(&'a Value),
        Text(&'static str),
        Key(&'a str),
    }
    let mut out = String::new();
    let mut stack = vec![Step::Value(v)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Text(t) => out.push_str(t),
            Step::Key(k) => {
                push_json_string(&mut out, k);
                out.push(':');
            }
            Step::Value(v) => match v {
                Value::Null => out.push_str("null"),
                Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Value::Number(n) => out.push_str(&go_json_number(n)),
                Value::String(s) => push_json_string(&mut out, s),
                Value::Array(items) => {
                    out.push('[');
                    stack.push(Step::Text("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push(Step::Value(item));
                        if i > 0 {
                            stack.push(Step::Text(","));
                        }
                    }
                }
                Value::Object(map) => {
                    out.push('{');
                    stack.push(Step::Text("}"));
                    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                    if sort_keys {
                        entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                    }
                    for (i, (k, v)) in entries.into_iter().enumerate().rev() {
                        stack.push(Step::Value(v));
                        stack.push(Step::Key(k));
                        if i > 0 {
                            stack.push(Step::Text(","));
                        }
                    }
                }
            },
        }
    }
    out
}

fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{0}'..='\u{1f}' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A JSON number as `encoding/json` marshals the Go value it decodes to
/// (`int64` when it fits, else `float64`).
pub(crate) fn go_json_number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    go_json_float(n.as_f64().unwrap_or(0.0))
}

/// `encoding/json`'s float64 encoding: shortest digits, `%f` style unless
/// the magnitude is below 1e-6 or at least 1e21, then strconv's `%e` with
/// `e-07` shortened to `e-7`.
pub(crate) fn go_json_float(f: f64) -> String {
    let a = f.abs();
    if a == 0.0 || (1e-6..1e21).contains(&a) {
        return format!("{f}");
    }
    let e = crate::model::field::format_float_e(f);
    match e.rsplit_once("e-0") {
        Some((mantissa, d)) if d.len() == 1 => format!("{mantissa}e-{d}"),
        _ => e,
    }
}

/// `fmt.Sprintf("%v", x)` of a decoded JSON value (`<nil>`, `[a b]`,
/// `map[k:v]` with sorted keys).
pub(crate) fn go_v(v: &Value) -> String {
    enum Step<'a> {
        Val(&'a Value),
        Lit(&'static str),
        Key(&'a str),
    }
    let mut out = String::new();
    let mut stack = vec![Step::Val(v)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Lit(s) => out.push_str(s),
            Step::Key(k) => {
                out.push_str(k);
                out.push(':');
            }
            Step::Val(v) => match v {
                Value::Null => out.push_str("<nil>"),
                Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Value::Number(n) => match n.as_i64() {
                    Some(i) => {
                        let _ = write!(out, "{i}");
                    }
                    None => out.push_str(&crate::model::field::format_float(
                        n.as_f64().unwrap_or(f64::NAN),
                    )),
                },
                Value::String(s) => out.push_str(s),
                Value::Array(items) => {
                    out.push('[');
                    stack.push(Step::Lit("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push(Step::Val(item));
                        if i > 0 {
                            stack.push(Step::Lit(" "));
                        }
                    }
                }
                Value::Object(m) => {
                    out.push_str("map[");
                    stack.push(Step::Lit("]"));
                    let mut entries: Vec<(&String, &Value)> = m.iter().collect();
                    entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                    for (i, (k, item)) in entries.into_iter().enumerate().rev() {
                        stack.push(Step::Val(item));
                        stack.push(Step::Key(k));
                        if i > 0 {
                            stack.push(Step::Lit(" "));
                        }
                    }
                }
            },
        }
    }
    out
}

/// Go's `%T` of a decoded JSON value.
pub(crate) fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

#[cfg(test)]
mod identity_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn identity_follows_go_marshal() {
        let id = |v: &Value| go_json(v, true);
        assert_eq!(
            id(&json!({"b": [1.0, "x"], "a": null})),
            id(&json!({"a": null, "b": [1, "x"]}))
        );
        assert_ne!(id(&json!([1.5])), id(&json!([1])));
        assert_eq!(
            id(&json!({"b": 1, "a": {"d": true, "c": "\"q\""}})),
            r#"{"a":{"c":"\"q\"","d":true},"b":1}"#
        );
        let mut deep = Value::Null;
        for _ in 0..200_000 {
            deep = Value::Array(vec![deep]);
        }
        assert_eq!(id(&deep).len(), 400_004);
        assert_eq!(
            id(&json!([
                1.0,
                0.5,
                1e21,
                1.5e-7,
                -0.0,
                123456789.0,
                "<a&b>\n\u{1}"
            ])),
            r#"[1,0.5,1e+21,1.5e-7,-0,123456789,"\u003ca\u0026b\u003e\n\u0001"]"#
        );
        drop_deep(deep);
    }

    #[test]
    fn go_views_of_values() {
        assert_eq!(
            go_v(&json!({"b": [1000000, 1e6, "x"], "a": null})),
            "map[a:<nil> b:[1000000 1e+06 x]]"
        );
        assert_eq!(go_type(&json!(1)), "int64");
        assert_eq!(go_type(&json!(1.5)), "float64");
        assert_eq!(go_type(&json!(u64::MAX)), "float64");
        assert_eq!(go_type(&json!({})), "map[string]interface {}");
        assert_eq!(go_json_float(1e-7), "1e-7");
        assert_eq!(go_json_float(1.5e-10), "1.5e-10");
        assert_eq!(go_json_float(-1e21), "-1e+21");
        assert_eq!(go_json_float(1e100), "1e+100");
    }
}

/// The deepest nesting the API server's JSON decoder accepts (Go's
/// `encoding/json` scanner, which sigs.k8s.io/json shares, stops at 10,000
/// levels of arrays and objects).
pub const MAX_DEPTH: usize = 10_000;

/// Whether `v` nests arrays and objects more than `limit` levels deep,
/// found without recursion.
pub(crate) fn deeper_than(v: &Value, limit: usize) -> bool {
    let container = |v: &&Value| matches!(v, Value::Array(_) | Value::Object(_));
    if !container(&v) {
        return false;
    }
    // Only containers are stacked: scalars have no depth of their own.
    let mut stack = vec![(v, 1usize)];
    while let Some((v, d)) = stack.pop() {
        if d > limit {
            return true;
        }
        match v {
            Value::Array(items) => stack.extend(items.iter().filter(container).map(|c| (c, d + 1))),
            Value::Object(map) => stack.extend(map.values().filter(container).map(|c| (c, d + 1))),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod depth_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn depth_counts_containers() {
        assert!(!deeper_than(&json!(1), 0));
        assert!(!deeper_than(&json!([1]), 1));
        assert!(deeper_than(&json!([[1]]), 1));
        assert!(!deeper_than(&json!({"a": [1], "b": 2}), 2));
        assert!(deeper_than(&json!({"a": [{}], "b": 2}), 2));
    }
}
