//! Go's view of decoded JSON values: `int64` versus `float64` numbers, the
//! conversions `reflect` performs, `reflect.DeepEqual`, `encoding/json`
//! output and `fmt`'s `%v`.
//!
//! Every walk over a value here is iterative: values can nest far deeper
//! than any schema (preserve-unknown-fields), and must not overflow the
//! stack.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash, Hasher};

use serde_json::{Map, Number, Value};

use crate::model::field::format_float;

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

/// Go's `strconv.FormatFloat(f, 'f', -1, 64)`: shortest round-trip
/// digits, never an exponent.
pub(crate) fn format_float_f(f: f64) -> String {
    // Rust's `Display` for f64 is exactly that.
    format!("{f}")
}

/// `json.Marshal` of a decoded JSON value, map keys sorted
/// ([`crate::model::depth::go_json`]).
pub(crate) fn go_json(v: &Value) -> String {
    crate::model::depth::go_json(v, true)
}

pub(crate) use crate::model::depth::go_v;

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
    enum Step<'a> {
        Enter(&'a Value),
        ExitArray(usize),
        ExitObject(&'a Map<String, Value>),
    }
    let mut steps = vec![Step::Enter(v)];
    let mut hashes: Vec<u64> = Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Step::Enter(v) => {
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
                        steps.push(Step::ExitArray(items.len()));
                        steps.extend(items.iter().rev().map(Step::Enter));
                        continue;
                    }
                    Value::Object(m) => {
                        steps.push(Step::ExitObject(m));
                        steps.extend(m.values().rev().map(Step::Enter));
                        continue;
                    }
                }
                hashes.push(h.finish());
            }
            Step::ExitArray(n) => {
                let start = hashes.len().saturating_sub(n);
                let mut h = state.build_hasher();
                (5u8, n).hash(&mut h);
                for x in hashes.drain(start..) {
                    x.hash(&mut h);
                }
                hashes.push(h.finish());
            }
            Step::ExitObject(m) => {
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
