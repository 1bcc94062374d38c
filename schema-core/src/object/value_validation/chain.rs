//! The validator chain at one node (`SchemaValidator.Validate`): the type,
//! junctor, string, format, number, slice, enum and object validators in
//! kube-openapi's order, all of them even after a failure, and their match
//! counts. The type and enum checks are here; the others have their own
//! files.

use serde_json::Value;

use super::array::check_slice;
use super::error::{Kind, Raw, run_claimed};
use super::junctors::check_junctors;
use super::node::{Node, PLAIN_BOOL, PLAIN_STRING, Pattern};
use super::number::check_number;
use super::properties::check_object;
use super::string::{check_string, check_string_format};
use crate::go::json::{GoNum, enum_member_matches, is_float64_a_json_integer};
use crate::model::field::DottedPath;

/// `SchemaValidator.Validate(data)`: pushes the errors to `out` and
/// returns the result's match count.
///
/// The most common leaves are checked first: a string whose node asks
/// for its type and at most a pattern and an enum, a boolean whose node
/// asks for its type only. When they pass, they get the match count the
/// full chain gives them; otherwise the full chain runs.
#[inline(always)]
pub(super) fn validate_node<'a>(
    n: &'a Node,
    v: &'a Value,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    let fast = match v {
        Value::String(s) if n.plain & PLAIN_STRING != 0 && plain_string_passes(n, s) => 7,
        Value::Bool(_) if n.plain & PLAIN_BOOL != 0 => 6,
        _ => return validate_node_full(n, v, path, out),
    };
    debug_assert_eq!(fast, validate_node_full(n, v, path, out));
    fast
}

/// Whether a string passes a [`PLAIN_STRING`] node's pattern and enum.
#[inline(always)]
fn plain_string_passes(n: &Node, s: &str) -> bool {
    let pattern_ok = match &n.pattern {
        None => true,
        Some(Pattern { re: Ok(re), .. }) => re.is_match(s),
        Some(Pattern { re: Err(_), .. }) => false,
    };
    // A string matches exactly the string members of an enum.
    pattern_ok && (n.enum_.is_empty() || n.enum_strings.get(s).is_some())
}

/// The whole chain at `n` (see [`validate_node`]); the node is the origin
/// of the errors no node below claimed.
fn validate_node_full<'a>(
    n: &'a Node,
    v: &'a Value,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    run_claimed(out, path, false, |out| run_chain(n, v, path, out))
}

/// The validators of the chain at `n`.
fn run_chain<'a>(n: &'a Node, v: &'a Value, path: &DottedPath<'_>, out: &mut Vec<Raw<'a>>) -> u64 {
    if v.is_null() {
        // Only the type and the common (enum) validators run.
        let mut mc = 0;
        if n.has_type && !n.types.null && !n.nullable {
            out.push(Raw {
                origin: None,
                name: path.render(),
                kind: Kind::InvalidType {
                    expected: &n.type_joined,
                    actual: "null",
                },
            });
        } else {
            mc += 1;
        }
        if !n.enum_.is_empty() {
            out.push(Raw {
                origin: None,
                name: path.render(),
                kind: Kind::Enum { data: v, node: n },
            });
        }
        return mc;
    }

    let mut mc = 0;
    if n.has_type || !n.format.is_empty() {
        mc += check_type(n, v, path, out) + 1;
    }
    mc += if n.has_junctors {
        check_junctors(n, v, path, out)
    } else {
        1
    } + 1;
    match v {
        Value::String(s) => {
            mc += 1;
            check_string(n, s, path, out);
            if let Some(f) = n.string_format {
                mc += 1;
                check_string_format(n, f, s, path, out);
            }
        }
        Value::Number(num) => {
            mc += 2;
            check_number(n, GoNum::of(num), path, out);
        }
        Value::Array(items) => {
            mc += check_slice(n, items, path, out) + 1;
        }
        _ => {}
    }
    mc += 1;
    if !n.enum_.is_empty() && !n.enum_.iter().any(|m| enum_member_matches(v, m)) {
        out.push(Raw {
            origin: None,
            name: path.render(),
            kind: Kind::Enum { data: v, node: n },
        });
    }
    if let Value::Object(map) = v {
        mc += check_object(n, map, path, out) + 1;
    }
    mc + 1
}

/// `typeValidator.Validate` for a non-null value; returns its match count.
fn check_type<'a>(n: &'a Node, v: &'a Value, path: &DottedPath<'_>, out: &mut Vec<Raw<'a>>) -> u64 {
    // (type name, data format, float value, whether the type list has it)
    let t = n.types;
    let (sch_type, data_format, float, contains): (&'static str, &'static str, Option<f64>, bool) =
        match v {
            Value::Bool(_) => ("boolean", "", None, t.boolean),
            Value::String(_) => ("string", "", None, t.string),
            Value::Number(num) => match GoNum::of(num) {
                GoNum::Int(_) => ("integer", "int64", None, t.integer),
                GoNum::Float(f) => ("number", "float64", Some(f), t.number),
            },
            Value::Array(_) => ("array", "", None, t.array),
            Value::Object(_) | Value::Null => ("object", "", None, t.object),
        };
    let str_or_slice = matches!(v, Value::String(_) | Value::Array(_));
    let is_float_int = float.is_some_and(is_float64_a_json_integer) && t.integer;
    // An int64 (a number that is not a float64).
    let is_int_float = t.number && float.is_none() && matches!(v, Value::Number(_));
    // `kind != String && kind != Slice && Format != "" && !(...)`.
    if !(str_or_slice
        || n.format.is_empty()
        || contains
        || data_format == n.format
        || is_float_int
        || is_int_float)
    {
        out.push(Raw {
            origin: None,
            name: path.render(),
            kind: Kind::InvalidType {
                expected: &n.format,
                actual: data_format,
            },
        });
        return 0;
    }
    if str_or_slice && !(t.number || t.integer || n.format.is_empty()) {
        return 1;
    }
    if !(contains || is_float_int || is_int_float) {
        out.push(Raw {
            origin: None,
            name: path.render(),
            kind: Kind::InvalidType {
                expected: &n.type_joined,
                actual: sch_type,
            },
        });
        return 0;
    }
    1
}
