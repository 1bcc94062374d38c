//! Go's view of decoded JSON values: `int64` versus `float64` numbers, the
//! conversions `reflect` performs, `reflect.DeepEqual`, `encoding/json`
//! output and `fmt`'s `%v`.
//!
//! Every walk over a value here is iterative: values can nest far deeper
//! than any schema (preserve-unknown-fields), and must not overflow the
//! stack.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::fmt::Write as _;
use std::hash::{BuildHasher, Hash, Hasher};

use serde_json::{Map, Number, Value};

use crate::go::fmt::format_float;

/// A JSON number as the API server's decoder produces it: integers that fit
/// `int64` are `int64`, everything else is `float64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum GoNum {
    /// `int64`.
    Int(i64),
    /// `float64`.
    Float(f64),
}

impl GoNum {
    /// The Go value of a `serde_json` number.
    pub(crate) fn of(n: &Number) -> Self {
        if let Some(i) = n.as_i64() {
            GoNum::Int(i)
        } else if let Some(u) = n.as_u64() {
            // Beyond int64: the apiserver decodes it as float64.
            GoNum::Float(u as f64)
        } else {
            GoNum::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// `valueHelp.asFloat64`.
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            GoNum::Int(i) => i as f64,
            GoNum::Float(f) => f,
        }
    }

    /// Go `%v`.
    pub(crate) fn go_v(self) -> String {
        match self {
            GoNum::Int(i) => i.to_string(),
            GoNum::Float(f) => format_float(f),
        }
    }

    /// The value as a JSON value whose `field.Error` rendering is Go's `%v`
    /// of this number.
    pub(crate) fn to_value(self) -> Value {
        match self {
            GoNum::Int(i) => Value::from(i),
            GoNum::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        }
    }
}

/// Go's `int64(f)` conversion as amd64 performs it (`CVTTSD2SI`):
/// truncation, and `math.MinInt64` for NaN or out-of-range values.
pub(crate) fn go_f64_to_i64(f: f64) -> i64 {
    if f.is_nan() || !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

/// `conv.IsFloat64AJSONInteger` (go-openapi/swag v0.27): within
/// ±(2^53−1) and within relative 1e-9 of `math.Round(f)`.
pub(crate) fn is_float64_a_json_integer(f: f64) -> bool {
    const MAX: f64 = 9_007_199_254_740_991.0;
    if f.is_nan() || f.is_infinite() || !(-MAX..=MAX).contains(&f) {
        return false;
    }
    let rounded = f.round();
    if f == rounded {
        return true;
    }
    if rounded == 0.0 {
        return false;
    }
    let diff = (f - rounded).abs();
    if diff == 0.0 {
        return true;
    }
    diff < 1e-9 * rounded.abs()
}

fn scalar_equal(a: &Value, b: &Value) -> Option<bool> {
    Some(match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => match (GoNum::of(x), GoNum::of(y)) {
            (GoNum::Int(p), GoNum::Int(q)) => p == q,
            (GoNum::Float(p), GoNum::Float(q)) => p == q,
            _ => false,
        },
        (Value::Array(_), Value::Array(_)) | (Value::Object(_), Value::Object(_)) => return None,
        _ => false,
    })
}

/// `reflect.DeepEqual` of two decoded JSON values (`int64(1)` differs
/// from `float64(1)`). Iterative.
pub(crate) fn deep_equal(a: &Value, b: &Value) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        if std::ptr::eq(a, b) {
            continue;
        }
        match scalar_equal(a, b) {
            Some(true) => {}
            Some(false) => return false,
            None => match (a, b) {
                (Value::Array(x), Value::Array(y)) => {
                    if x.len() != y.len() {
                        return false;
                    }
                    stack.extend(x.iter().zip(y.iter()));
                }
                (Value::Object(x), Value::Object(y)) => {
                    if x.len() != y.len() {
                        return false;
                    }
                    for (k, xv) in x {
                        match y.get(k) {
                            Some(yv) => stack.push((xv, yv)),
                            None => return false,
                        }
                    }
                }
                _ => return false,
            },
        }
    }
    true
}

/// A hash of a decoded JSON value consistent with [`deep_equal`]: equal
/// values hash equally (object entries are combined order-independently).
/// Iterative.
fn deep_hash<S: BuildHasher>(v: &Value, state: &S) -> u64 {
    enum Visit<'a> {
        Enter(&'a Value),
        ExitArray(usize),
        ExitObject(&'a Map<String, Value>),
    }
    let mut steps = vec![Visit::Enter(v)];
    let mut hashes: Vec<u64> = Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Visit::Enter(v) => {
                let mut h = state.build_hasher();
                match v {
                    Value::Null => 0u8.hash(&mut h),
                    Value::Bool(b) => (1u8, *b).hash(&mut h),
                    Value::String(s) => (2u8, s.as_str()).hash(&mut h),
                    Value::Number(n) => match GoNum::of(n) {
                        GoNum::Int(i) => (3u8, i).hash(&mut h),
                        GoNum::Float(f) => {
                            // -0 == 0 under Go's ==.
                            let f = if f == 0.0 { 0.0 } else { f };
                            (4u8, f.to_bits()).hash(&mut h);
                        }
                    },
                    Value::Array(items) => {
                        steps.push(Visit::ExitArray(items.len()));
                        steps.extend(items.iter().rev().map(Visit::Enter));
                        continue;
                    }
                    Value::Object(m) => {
                        steps.push(Visit::ExitObject(m));
                        steps.extend(m.values().rev().map(Visit::Enter));
                        continue;
                    }
                }
                hashes.push(h.finish());
            }
            Visit::ExitArray(n) => {
                let start = hashes.len().saturating_sub(n);
                let mut h = state.build_hasher();
                (5u8, n).hash(&mut h);
                for x in hashes.drain(start..) {
                    x.hash(&mut h);
                }
                hashes.push(h.finish());
            }
            Visit::ExitObject(m) => {
                let n = m.len();
                let start = hashes.len().saturating_sub(n);
                let mut sum: u64 = 0;
                for (k, x) in m.keys().zip(hashes.drain(start..)) {
                    sum = sum.wrapping_add(state.hash_one((k.as_str(), x)));
                }
                hashes.push(state.hash_one((6u8, n, sum)));
            }
        }
    }
    hashes.pop().unwrap_or(0)
}

/// Whether two elements of `items` are `reflect.DeepEqual` (Go's
/// `UniqueItems` check), in expected linear time.
pub(crate) fn has_duplicates(items: &[Value]) -> bool {
    if items.len() < 2 {
        return false;
    }
    let state = RandomState::new();
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let h = deep_hash(item, &state);
        let bucket = seen.entry(h).or_default();
        if bucket
            .iter()
            .filter_map(|&j| items.get(j))
            .any(|other| deep_equal(other, item))
        {
            return true;
        }
        bucket.push(i);
    }
    false
}

/// Go's `reflect` conversion of a decoded value to the type of an enum
/// member followed by `reflect.DeepEqual` (kube-openapi's
/// `basicCommonValidator`): `int64` converts to `float64` and to `string`
/// (as a rune), `float64` converts to `int64` (truncating).
pub(crate) fn enum_member_matches(data: &Value, member: &Value) -> bool {
    match (data, member) {
        (_, Value::Null) | (Value::Null, _) => false,
        (Value::Number(d), Value::String(m)) => match GoNum::of(d) {
            GoNum::Int(i) => {
                let s = i32::try_from(i)
                    .ok()
                    .and_then(|r| u32::try_from(r).ok())
                    .and_then(char::from_u32)
                    .unwrap_or('\u{FFFD}');
                m.chars().eq(std::iter::once(s))
            }
            GoNum::Float(_) => false,
        },
        (Value::Number(d), Value::Number(m)) => match (GoNum::of(d), GoNum::of(m)) {
            (GoNum::Int(a), GoNum::Int(b)) => a == b,
            (GoNum::Float(a), GoNum::Int(b)) => go_f64_to_i64(a) == b,
            (GoNum::Int(a), GoNum::Float(b)) => (a as f64) == b,
            (GoNum::Float(a), GoNum::Float(b)) => a == b,
        },
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Array(_), Value::Array(_)) | (Value::Object(_), Value::Object(_)) => {
            deep_equal(data, member)
        }
        _ => false,
    }
}

/// `v` as Go's `json.Marshal` encodes the decoded value: object keys
/// sorted as in a Go map (or kept in order, for values that stand for Go
/// structs), numbers as Go prints them (`1.0` as `1`, `1e+21`), and `<`, `>`,
/// `&`, U+2028 and U+2029 escaped. It is the identity the server gives
/// compound list-set items and the way `field.Error` prints compound
/// values. Built without recursion.
pub(crate) fn go_json(v: &Value, sort_keys: bool) -> String {
    enum Pending<'a> {
        Value(&'a Value),
        Text(&'static str),
        Key(&'a str),
    }
    let mut out = String::new();
    let mut stack = vec![Pending::Value(v)];
    while let Some(step) = stack.pop() {
        match step {
            Pending::Text(t) => out.push_str(t),
            Pending::Key(k) => {
                push_json_string(&mut out, k);
                out.push(':');
            }
            Pending::Value(v) => match v {
                Value::Null => out.push_str("null"),
                Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Value::Number(n) => out.push_str(&go_json_number(n)),
                Value::String(s) => push_json_string(&mut out, s),
                Value::Array(items) => {
                    out.push('[');
                    stack.push(Pending::Text("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push(Pending::Value(item));
                        if i > 0 {
                            stack.push(Pending::Text(","));
                        }
                    }
                }
                Value::Object(map) => {
                    out.push('{');
                    stack.push(Pending::Text("}"));
                    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                    if sort_keys {
                        entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                    }
                    for (i, (k, v)) in entries.into_iter().enumerate().rev() {
                        stack.push(Pending::Value(v));
                        stack.push(Pending::Key(k));
                        if i > 0 {
                            stack.push(Pending::Text(","));
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
    let e = crate::go::fmt::format_float_e(f);
    match e.rsplit_once("e-0") {
        Some((mantissa, d)) if d.len() == 1 => format!("{mantissa}e-{d}"),
        _ => e,
    }
}

/// `fmt.Sprintf("%v", x)` of a decoded JSON value (`<nil>`, `[a b]`,
/// `map[k:v]` with sorted keys).
pub(crate) fn go_v(v: &Value) -> String {
    enum Pending<'a> {
        Val(&'a Value),
        Lit(&'static str),
        Key(&'a str),
    }
    let mut out = String::new();
    let mut stack = vec![Pending::Val(v)];
    while let Some(step) = stack.pop() {
        match step {
            Pending::Lit(s) => out.push_str(s),
            Pending::Key(k) => {
                out.push_str(k);
                out.push(':');
            }
            Pending::Val(v) => match v {
                Value::Null => out.push_str("<nil>"),
                Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Value::Number(n) => match n.as_i64() {
                    Some(i) => {
                        let _ = write!(out, "{i}");
                    }
                    None => out.push_str(&crate::go::fmt::format_float(
                        n.as_f64().unwrap_or(f64::NAN),
                    )),
                },
                Value::String(s) => out.push_str(s),
                Value::Array(items) => {
                    out.push('[');
                    stack.push(Pending::Lit("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push(Pending::Val(item));
                        if i > 0 {
                            stack.push(Pending::Lit(" "));
                        }
                    }
                }
                Value::Object(m) => {
                    out.push_str("map[");
                    stack.push(Pending::Lit("]"));
                    let mut entries: Vec<(&String, &Value)> = m.iter().collect();
                    entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                    for (i, (k, item)) in entries.into_iter().enumerate().rev() {
                        stack.push(Pending::Val(item));
                        stack.push(Pending::Key(k));
                        if i > 0 {
                            stack.push(Pending::Lit(" "));
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
        // Taken apart level by level: serde_json's own `Drop` recurses.
        let mut v = deep;
        while let Value::Array(mut items) = v {
            v = items.pop().unwrap_or(Value::Null);
        }
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
