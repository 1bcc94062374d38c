//! Go's view of the JSON values in and around `metadata`: maps with their
//! keys sorted, the `json.Marshal` round trip, and the bad value of a
//! `field.Invalid` error as apimachinery prints it.

use serde_json::{Map, Number, Value};

use crate::go::json::{go_json, go_json_number};
use crate::model::field::{BadValue, ErrorType, FieldError, Path};

/// `field.Invalid(p, v, detail)` where `v` is a value of Go's unstructured
/// form: maps print with sorted keys and numbers as `encoding/json` prints
/// them.
pub(super) fn invalid(p: &Path, v: &Value, detail: impl Into<String>) -> FieldError {
    FieldError {
        error_type: ErrorType::Invalid,
        field: p.clone(),
        bad_value: bad_value(&go_sorted(v)),
        detail: detail.into(),
    }
}

/// `field.Invalid(p, v, detail)` where `v` stands for a Go struct (or a
/// slice of them): keys print in the order given (struct field order).
pub(super) fn invalid_typed(p: &Path, v: &Value, detail: impl Into<String>) -> FieldError {
    FieldError {
        error_type: ErrorType::Invalid,
        field: p.clone(),
        bad_value: bad_value(v),
        detail: detail.into(),
    }
}

/// The bad value `field.Error` prints: scalars as `%v`/`%q` (a `uint64`
/// beyond `int64` is a `float64` in Go), arrays and objects as
/// `json.Marshal` output in the key order given. A structured
/// [`BadValue::Json`] is kept whenever it prints the same; otherwise the
/// exact text is kept as [`BadValue::Raw`].
fn bad_value(v: &Value) -> BadValue {
    match v {
        Value::Number(n) if n.as_i64().is_none() && n.as_u64().is_some() => {
            BadValue::Json(Number::from_f64(number_f64(n)).map_or(Value::Null, Value::Number))
        }
        Value::Array(_) | Value::Object(_) => {
            let go = go_json(v, false);
            if go == go_json(v, true) {
                BadValue::Json(v.clone())
            } else {
                BadValue::Raw(go)
            }
        }
        _ => BadValue::Json(v.clone()),
    }
}

/// A value as a Go `map[string]interface{}` sees it: object keys sorted
/// (recursively).
fn go_sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            sorted_entries(m)
                .into_iter()
                .map(|(k, x)| (k.clone(), go_sorted(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(go_sorted).collect()),
        other => other.clone(),
    }
}

/// A value after `json.Marshal` and a decode that keeps integers
/// (`sigs.k8s.io/json`): keys sorted, a float that `encoding/json` prints
/// without `.` or exponent and that fits an `int64` becomes an integer.
pub(super) fn go_roundtrip(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.as_i64().is_none() => {
            let s = go_json_number(n);
            match s.parse::<i64>() {
                Ok(i) if !s.contains('.') => Value::from(i),
                _ => Number::from_f64(number_f64(n)).map_or(Value::Null, Value::Number),
            }
        }
        Value::Object(m) => Value::Object(
            sorted_entries(m)
                .into_iter()
                .map(|(k, x)| (k.clone(), go_roundtrip(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(go_roundtrip).collect()),
        other => other.clone(),
    }
}

fn number_f64(n: &Number) -> f64 {
    n.as_f64().unwrap_or(0.0)
}

/// The entries of a map in sorted key order (`encoding/json` marshals map
/// keys sorted, so the decoder sees them in that order).
pub(super) fn sorted_entries(m: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut v: Vec<_> = m.iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::go::json::{go_json, go_json_float};

    #[test]
    fn go_number_and_string_encoding() {
        for (f, s) in [
            (1.5, "1.5"),
            (100.0, "100"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (1e-7, "1e-7"),
            (1.25e-10, "1.25e-10"),
            (0.000_001, "0.000001"),
            (-0.0, "-0"),
        ] {
            assert_eq!(go_json_float(f), s, "{f}");
        }
        assert_eq!(
            go_json(
                &json!({"a": "<x>&\u{2028}\n\u{1}", "b": [1, 2.5, null, true]}),
                false
            ),
            r#"{"a":"\u003cx\u003e\u0026\u2028\n\u0001","b":[1,2.5,null,true]}"#
        );
    }
}
