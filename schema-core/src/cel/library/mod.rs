//! The functions of the API server's CEL environment: cel-go's standard
//! library and optional types, the strings extension (version 2), sets,
//! the lists extension (version 3), and the Kubernetes libraries (lists, regex, URLs, quantity, IP, CIDR,
//! format, semver), with their runtime costs (cel-go's `costCall` and the
//! Kubernetes `library.CostEstimator.CallCost`).

mod arithmetic;
mod comparisons;
pub(crate) mod entry;
pub(crate) mod ip;
pub(crate) mod lists;
pub(crate) mod lists_ext;
mod operands;
pub(crate) mod optional;
pub(crate) mod quantity;
pub(crate) mod regex;
pub(crate) mod registry;
pub(crate) mod semver;
pub(crate) mod sets;
pub(crate) mod strings;
pub(crate) mod time;
pub(crate) mod url;

#[cfg(test)]
mod tests;

use std::cmp::Ordering;
use std::rc::Rc;

use arithmetic::arith;
use cel::IdedExpr;
use entry::RuntimeCost;

use super::cost::{REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR, mul_factor};
use super::error::EvalError;
use super::value::{
    EvalResult, Ext, MapV, OwnedMap, Val, compare, display, equals, format_duration, owned_str,
};
use operands::{arg, bool_of, compile_regex, str_arg, string_conv_err};

/// The Kubernetes `traversalCost` of a value.
fn traversal_cost(v: &Val<'_>, depth: usize) -> u64 {
    if depth > super::value::MAX_VALUE_DEPTH {
        return 1;
    }
    match v {
        Val::Str(s) => (s.as_str().len() as f64 * STRING_TRAVERSAL_COST_FACTOR) as u64,
        Val::Bytes(b) => (b.len() as f64 * STRING_TRAVERSAL_COST_FACTOR) as u64,
        Val::List(l) => (0..l.len())
            .filter_map(|i| l.get(i).and_then(Result::ok))
            .map(|e| traversal_cost(&e, depth + 1))
            .fold(0u64, u64::saturating_add),
        Val::Map(m) => m
            .keys()
            .iter()
            .map(|k| {
                let v = m.find(k).ok().flatten().unwrap_or(Val::Null);
                traversal_cost(k, depth + 1).saturating_add(traversal_cost(&v, depth + 1))
            })
            .fold(0u64, u64::saturating_add),
        _ => 1,
    }
}

/// Calls function `name` (`ns.fn` for namespaced globals) on an optional
/// receiver and arguments; returns the result and the call's runtime cost.
pub fn call<'a>(
    name: &str,
    target: Option<Val<'a>>,
    args: Vec<Val<'a>>,
    arg_exprs: &[IdedExpr],
) -> (EvalResult<'a>, u64) {
    // cel-go passes the receiver as the first argument.
    let mut all = Vec::with_capacity(args.len() + 1);
    let receiver = target.is_some();
    if let Some(t) = target {
        all.push(t);
    }
    all.extend(args);
    let result = dispatch(name, receiver, &all, arg_exprs);
    let cost = match &result {
        Ok(r) => call_cost(name, receiver, &all, Some(r)),
        Err(_) => call_cost(name, receiver, &all, None),
    };
    (result, cost)
}

/// What cel-go's cost tracker charges for a call one of whose arguments is
/// an error: the function is not called, its cost is computed from the
/// arguments with an error's size 1 (as `null`'s). A `matches` against a
/// constant pattern (precompiled by cel-go's regex optimization) is not a
/// call step of its own and costs nothing.
pub(crate) fn error_call_cost(
    name: &str,
    receiver: bool,
    args: &[EvalResult<'_>],
    constant_pattern: bool,
) -> u64 {
    if name == "matches" && constant_pattern {
        return 0;
    }
    let args: Vec<Val<'_>> = args
        .iter()
        .map(|a| a.as_ref().map_or(Val::Null, Clone::clone))
        .collect();
    call_cost(name, receiver, &args, None)
}

/// The cost of a call dispatched at runtime (the checker matched several
/// overloads): cel-go's cost tracker has no overload id for it, so its
/// costs by overload id (its own O(n) functions, the lists extension's
/// trackers) give way to the default 1; the Kubernetes costs, by function
/// name, still apply.
pub(crate) fn runtime_dispatch_cost(name: &str, cost: u64) -> u64 {
    let by_overload_id = matches!(
        name,
        "startsWith"
            | "endsWith"
            | "string"
            | "bytes"
            | "@in"
            | "_<_"
            | "_>_"
            | "_<=_"
            | "_>=_"
            | "_+_"
            | "matches"
            | "contains"
            | "format"
            | "strings.quote"
            | "slice"
            | "flatten"
            | "sort"
            | "@sortByAssociatedKeys"
            | "lists.range"
            | "reverse"
            | "distinct"
    );
    if by_overload_id { 1 } else { cost }
}

fn call_cost(name: &str, receiver: bool, args: &[Val<'_>], result: Option<&Val<'_>>) -> u64 {
    let size = |i: usize| args.get(i).map_or(1, Val::actual_size);
    let first = args.first();
    if lists_ext::handles(name, receiver, args) {
        return lists_ext::cost(name, args, result);
    }
    if let Some(f) = registry::named(name).first() {
        return match f.runtime_cost {
            RuntimeCost::Constant => 1,
            RuntimeCost::FirstArgumentTraversal => {
                mul_factor(size(0), STRING_TRAVERSAL_COST_FACTOR)
            }
            RuntimeCost::FirstArgumentTraversalTwice => {
                mul_factor(size(0) * 2, STRING_TRAVERSAL_COST_FACTOR)
            }
            RuntimeCost::ConstantOnCidrElseFirstArgumentTraversal => {
                if matches!(first, Some(Val::Ext(e)) if matches!(**e, Ext::Cidr(_))) {
                    1
                } else {
                    mul_factor(size(0), STRING_TRAVERSAL_COST_FACTOR)
                }
            }
            RuntimeCost::FirstArgumentElementsTraversal => {
                first.map_or(0, |a| traversal_cost(a, 0))
            }
            RuntimeCost::SetComparison { passes } => {
                1 + size(0).saturating_mul(size(1)).saturating_mul(passes)
            }
            RuntimeCost::RegexSearch => regex_search_cost(size(0), size(1)),
            RuntimeCost::CidrContainment { of_cidr } => {
                let c = size(0);
                let mut cost = mul_factor(c + c, STRING_TRAVERSAL_COST_FACTOR);
                if of_cidr {
                    cost += mul_factor(c, STRING_TRAVERSAL_COST_FACTOR) + 1;
                }
                if matches!(args.get(1), Some(Val::Str(_))) {
                    cost += mul_factor(size(1), STRING_TRAVERSAL_COST_FACTOR);
                }
                cost
            }
        };
    }
    match name {
        // cel-go's own O(n) overloads.
        // The prefix or suffix is traversed, not the receiver.
        "startsWith" | "endsWith" if receiver => mul_factor(size(1), STRING_TRAVERSAL_COST_FACTOR),
        "string" if matches!(first, Some(Val::Bytes(_))) => {
            mul_factor(size(0), STRING_TRAVERSAL_COST_FACTOR)
        }
        "bytes" if matches!(first, Some(Val::Str(_))) => {
            mul_factor(size(0), STRING_TRAVERSAL_COST_FACTOR)
        }
        "@in" => match args.get(1) {
            Some(Val::List(l)) => l.len() as u64,
            _ => 1,
        },
        "_<_" | "_>_" | "_<=_" | "_>=_"
            if matches!(
                (args.first(), args.get(1)),
                (Some(Val::Str(_)), Some(Val::Str(_))) | (Some(Val::Bytes(_)), Some(Val::Bytes(_)))
            ) =>
        {
            mul_factor(size(0).min(size(1)), STRING_TRAVERSAL_COST_FACTOR)
        }
        "_==_" | "_!=_" => mul_factor(size(0).min(size(1)), STRING_TRAVERSAL_COST_FACTOR),
        "_+_"
            if matches!(
                (args.first(), args.get(1)),
                (Some(Val::Str(_)), Some(Val::Str(_))) | (Some(Val::Bytes(_)), Some(Val::Bytes(_)))
            ) =>
        {
            mul_factor(size(0) + size(1), STRING_TRAVERSAL_COST_FACTOR)
        }
        "matches" if receiver => regex_search_cost(size(0), size(1)),
        "contains" if receiver && matches!(first, Some(Val::Str(_))) => {
            let s = mul_factor(size(0), STRING_TRAVERSAL_COST_FACTOR);
            let t = mul_factor(size(1), STRING_TRAVERSAL_COST_FACTOR);
            s.saturating_mul(t)
        }
        // The Kubernetes library costs.
        "lowerAscii" | "upperAscii" | "substring" | "trim" => {
            mul_factor(size(0), STRING_TRAVERSAL_COST_FACTOR)
        }
        "replace" | "split" => mul_factor(size(0) * 2, STRING_TRAVERSAL_COST_FACTOR),
        "join" => mul_factor(
            result.map_or(1, Val::actual_size) * 2,
            STRING_TRAVERSAL_COST_FACTOR,
        ),
        "validate" if receiver => match first {
            Some(Val::Ext(e)) => match &**e {
                Ext::Format(f) => {
                    // The string against a regex as long as the format's.
                    let s = ((1.0 + size(1) as f64) * STRING_TRAVERSAL_COST_FACTOR).ceil() as u64;
                    let r = (format_max_regex_size(f) as f64 * REGEX_STRING_LENGTH_COST_FACTOR)
                        .ceil() as u64;
                    s.saturating_mul(r)
                }
                _ => 1,
            },
            _ => 1,
        },
        // cel-go's costs of `format` and `strings.quote`: their string.
        "format" | "strings.quote" if matches!(first, Some(Val::Str(_))) => {
            mul_factor(size(0), STRING_TRAVERSAL_COST_FACTOR)
        }
        // Everything else costs 1.
        _ => 1,
    }
}

/// A regex search of a string of size `string` for a pattern of size
/// `pattern`: the string traversed once more than its length, for each
/// unit of the pattern's cost.
fn regex_search_cost(string: u64, pattern: u64) -> u64 {
    let s = ((1.0 + string as f64) * STRING_TRAVERSAL_COST_FACTOR).ceil() as u64;
    let r = mul_factor(pattern, REGEX_STRING_LENGTH_COST_FACTOR);
    s.saturating_mul(r)
}

/// The `MaxRegexSize` of a named format of the Kubernetes format library:
/// the length of the regex its check is costed as.
fn format_max_regex_size(name: &str) -> u64 {
    match name {
        "dns1123Label" | "dns1035Label" | "dns1123LabelPrefix" | "dns1035LabelPrefix" => 30,
        "dns1123Subdomain" | "qualifiedName" | "dns1123SubdomainPrefix" => 60,
        "labelValue" => 40,
        "uri" => 1103,
        // strfmt's `UUIDPattern`.
        "uuid" => 70,
        "byte" => 84,
        // strfmt's `DateTimePattern`, for both.
        "date" | "datetime" => 71,
        _ => 1,
    }
}

fn dispatch<'a>(
    name: &str,
    receiver: bool,
    args: &[Val<'a>],
    exprs: &[IdedExpr],
) -> EvalResult<'a> {
    if let Some(f) = registry::resolve(name, receiver, args) {
        return (f.call)(args);
    }
    let n = args.len();
    match (name, receiver, n) {
        ("!_", false, 1) => match arg(args, 0)? {
            Val::Bool(b) => bool_of(!b),
            _ => Err(EvalError::no_overload()),
        },
        ("-_", false, 1) => match arg(args, 0)? {
            Val::Int(i) => i
                .checked_neg()
                .map(Val::Int)
                .ok_or_else(|| EvalError::new("integer overflow")),
            Val::Double(d) => Ok(Val::Double(-d)),
            Val::Duration(d) => d
                .checked_neg()
                .map(Val::Duration)
                .ok_or_else(|| EvalError::new("duration overflow")),
            _ => Err(EvalError::no_overload()),
        },
        ("_==_", false, 2) => bool_of(equals(arg(args, 0)?, arg(args, 1)?, 0)?),
        ("_!=_", false, 2) => bool_of(!equals(arg(args, 0)?, arg(args, 1)?, 0)?),
        ("_<_" | "_<=_" | "_>_" | "_>=_", false, 2) => {
            let (a, b) = (arg(args, 0)?, arg(args, 1)?);
            let Some(o) = compare(a, b) else {
                // NaN compares false; anything else has no overload.
                if matches!(
                    (a, b),
                    (
                        Val::Int(_) | Val::Uint(_) | Val::Double(_),
                        Val::Int(_) | Val::Uint(_) | Val::Double(_)
                    )
                ) {
                    return bool_of(false);
                }
                return Err(EvalError::no_overload());
            };
            bool_of(match name {
                "_<_" => o == Ordering::Less,
                "_<=_" => o != Ordering::Greater,
                "_>_" => o == Ordering::Greater,
                _ => o != Ordering::Less,
            })
        }
        ("_+_" | "_-_" | "_*_" | "_/_" | "_%_", false, 2) => {
            arith(name, arg(args, 0)?, arg(args, 1)?)
        }
        ("@in", false, 2) => {
            let (v, c) = (arg(args, 0)?, arg(args, 1)?);
            match c {
                Val::List(l) => {
                    for i in 0..l.len() {
                        if let Some(e) = l.get(i)
                            && equals(&e?, v, 0)?
                        {
                            return bool_of(true);
                        }
                    }
                    bool_of(false)
                }
                Val::Map(m) => bool_of(m.find(v).ok().flatten().is_some()),
                _ => Err(EvalError::no_overload()),
            }
        }
        ("size", _, 1) => match arg(args, 0)? {
            Val::Str(s) => Ok(Val::Int(s.as_str().chars().count() as i64)),
            Val::Bytes(b) => Ok(Val::Int(b.len() as i64)),
            Val::List(l) => Ok(Val::Int(l.len() as i64)),
            Val::Map(m) => Ok(Val::Int(m.len() as i64)),
            _ => Err(EvalError::no_overload()),
        },
        ("contains", true, 2) => bool_of(str_arg(args, 0)?.contains(str_arg(args, 1)?)),
        ("startsWith", true, 2) => bool_of(str_arg(args, 0)?.starts_with(str_arg(args, 1)?)),
        ("endsWith", true, 2) => bool_of(str_arg(args, 0)?.ends_with(str_arg(args, 1)?)),
        ("matches", _, 2) => {
            let re = compile_regex(str_arg(args, 1)?)?;
            bool_of(re.is_match(str_arg(args, 0)?))
        }
        (super::functions::MAP_INSERT, false, 2 | 3) => map_insert(args),
        ("dyn", false, 1) => Ok(arg(args, 0)?.clone()),
        ("type", false, 1) => Ok(Val::Type(type_of(arg(args, 0)?).into())),
        ("int", false, 1) => to_int(arg(args, 0)?),
        ("uint", false, 1) => to_uint(arg(args, 0)?),
        ("double", false, 1) => to_double(arg(args, 0)?),
        ("string", false, 1) => to_string(arg(args, 0)?),
        ("bytes", false, 1) => match arg(args, 0)? {
            Val::Bytes(b) => Ok(Val::Bytes(b.clone())),
            Val::Str(s) => Ok(Val::Bytes(s.as_str().as_bytes().into())),
            _ => Err(EvalError::no_overload()),
        },
        ("bool", false, 1) => match arg(args, 0)? {
            Val::Bool(b) => bool_of(*b),
            Val::Str(s) => match s.as_str() {
                "1" | "t" | "T" | "TRUE" | "true" | "True" => bool_of(true),
                "0" | "f" | "F" | "FALSE" | "false" | "False" => bool_of(false),
                _ => Err(string_conv_err("bool")),
            },
            _ => Err(EvalError::no_overload()),
        },
        ("duration", false, 1) => match arg(args, 0)? {
            Val::Duration(d) => Ok(Val::Duration(*d)),
            Val::Str(s) => time::string_to_duration(s.as_str()).map(Val::Duration),
            _ => Err(EvalError::no_overload()),
        },
        ("timestamp", false, 1) => match arg(args, 0)? {
            Val::Timestamp(s, n, off) => Ok(Val::Timestamp(*s, *n, *off)),
            Val::Int(i) => time::check_ts(*i, 0, 0),
            Val::Str(s) => time::string_to_timestamp(s.as_str()),
            _ => Err(EvalError::no_overload()),
        },
        _ if lists_ext::handles(name, receiver, args) => lists_ext::call(name, args),
        _ if name.starts_with("format.") || name == "validate" => {
            strings::format_lib(name, receiver, args)
        }
        _ => strings::call(name, receiver, args, exprs),
    }
}

/// `cel.@mapInsert(m, k, v)` and `cel.@mapInsert(m, entries)`: a map with
/// the new entries; a key already present is an error.
fn map_insert<'a>(args: &[Val<'a>]) -> EvalResult<'a> {
    let Val::Map(m) = arg(args, 0)? else {
        return Err(EvalError::no_overload());
    };
    let mut out = match m {
        MapV::Owned(o) => (**o).clone(),
        MapV::Json { .. } => {
            let mut o = OwnedMap::default();
            for k in m.keys() {
                let v = m.find(&k)?.unwrap_or(Val::Null);
                o.insert(k, v);
            }
            o
        }
    };
    let new: Vec<(Val<'a>, Val<'a>)> = if args.len() == 3 {
        vec![(arg(args, 1)?.clone(), arg(args, 2)?.clone())]
    } else {
        let Val::Map(e) = arg(args, 1)? else {
            return Err(EvalError::no_overload());
        };
        let mut pairs = Vec::new();
        for k in e.keys() {
            let v = e.find(&k)?.unwrap_or(Val::Null);
            pairs.push((k, v));
        }
        pairs
    };
    for (k, v) in new {
        if !super::value::key_ok(&k) {
            return Err(EvalError::new(format!(
                "unsupported key type: {}",
                k.type_name()
            )));
        }
        let shown = display(&k);
        if !out.insert(k, v) {
            return Err(EvalError::new(format!(
                "insert failed: key {shown} already exists"
            )));
        }
    }
    Ok(Val::Map(MapV::Owned(Rc::new(out))))
}

/// The CEL type name of a value, as `type()` returns it.
fn type_of(v: &Val<'_>) -> String {
    v.type_name()
}

fn conv_err(from: &Val<'_>, to: &str) -> EvalError {
    EvalError::new(format!(
        "type conversion error from '{}' to '{to}'",
        from.type_name()
    ))
}

fn to_int<'a>(v: &Val<'a>) -> EvalResult<'a> {
    match v {
        Val::Int(i) => Ok(Val::Int(*i)),
        Val::Uint(u) => i64::try_from(*u)
            .map(Val::Int)
            .map_err(|_| EvalError::new("integer overflow")),
        Val::Double(d) => {
            if d.is_nan() || *d <= -9_223_372_036_854_775_808.0 || *d >= 9_223_372_036_854_775_807.0
            {
                Err(EvalError::new("integer overflow"))
            } else {
                Ok(Val::Int(d.trunc() as i64))
            }
        }
        Val::Str(s) => go_parse_int(s.as_str())
            .map(Val::Int)
            .ok_or_else(|| string_conv_err("int")),
        Val::Timestamp(s, _, _) => Ok(Val::Int(*s)),
        Val::Duration(d) => Ok(Val::Int(*d)),
        _ => Err(conv_err(v, "int")),
    }
}

/// `strconv.ParseInt(s, 10, 64)`.
fn go_parse_int(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut v: i128 = 0;
    for c in digits.bytes() {
        v = v * 10 + i128::from(c - b'0');
        if v > i128::from(i64::MAX) + 1 {
            return None;
        }
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).ok()
}

fn to_uint<'a>(v: &Val<'a>) -> EvalResult<'a> {
    match v {
        Val::Uint(u) => Ok(Val::Uint(*u)),
        Val::Int(i) => u64::try_from(*i)
            .map(Val::Uint)
            .map_err(|_| EvalError::new("unsigned integer overflow")),
        Val::Double(d) => {
            if d.is_nan() || *d < 0.0 || *d >= 18_446_744_073_709_551_615.0 {
                Err(EvalError::new("unsigned integer overflow"))
            } else {
                Ok(Val::Uint(d.trunc() as u64))
            }
        }
        Val::Str(s) => {
            let t = s.as_str();
            if !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()) {
                t.parse::<u64>()
                    .map(Val::Uint)
                    .map_err(|_| string_conv_err("uint"))
            } else {
                Err(string_conv_err("uint"))
            }
        }
        _ => Err(conv_err(v, "uint")),
    }
}

fn to_double<'a>(v: &Val<'a>) -> EvalResult<'a> {
    match v {
        Val::Double(d) => Ok(Val::Double(*d)),
        Val::Int(i) => Ok(Val::Double(*i as f64)),
        Val::Uint(u) => Ok(Val::Double(*u as f64)),
        Val::Str(s) => strings::go_parse_float(s.as_str())
            .map(Val::Double)
            .ok_or_else(|| string_conv_err("double")),
        _ => Err(conv_err(v, "double")),
    }
}

fn to_string<'a>(v: &Val<'a>) -> EvalResult<'a> {
    match v {
        Val::Str(s) => Ok(Val::Str(s.clone())),
        Val::Int(i) => Ok(owned_str(i.to_string())),
        Val::Uint(u) => Ok(owned_str(u.to_string())),
        Val::Double(d) => Ok(owned_str(crate::go::fmt::format_float(*d))),
        Val::Bool(b) => Ok(owned_str(b.to_string())),
        Val::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => Ok(owned_str(s.to_string())),
            Err(_) => Err(EvalError::new(
                "invalid UTF-8 in bytes, cannot convert to string",
            )),
        },
        Val::Duration(d) => Ok(owned_str(format_duration(*d))),
        Val::Timestamp(s, n, off) => Ok(owned_str(crate::go::time::format_rfc3339_nano_in(
            *s, *n, *off,
        ))),
        Val::Ext(e) => match &**e {
            Ext::Ip(ip) => Ok(owned_str(ip.to_string())),
            Ext::Cidr(c) => Ok(owned_str(c.to_string())),
            _ => Err(conv_err(v, "string")),
        },
        Val::Type(t) => Ok(owned_str(t.to_string())),
        _ => Err(conv_err(v, "string")),
    }
}
