//! How a YAML scalar becomes a JSON value, as the API server's YAML to JSON
//! decoding makes it: the YAML 1.2 core schema for plain scalars (null,
//! booleans, integers, floats, else strings), the tags that force or check a
//! type (`!!str`, `!!int`, `!!binary`, ...), and the string form a
//! non-string mapping key takes.

use crate::go::fmt::go_quote;
use std::borrow::Cow;

use saphyr_parser::Tag;
use serde_json::{Number, Value};

/// What a node's tag asks of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TagKind {
    None,
    NonSpecific,
    Str,
    Int,
    Float,
    Bool,
    Null,
    Binary,
    Map,
    Seq,
}

/// The prefix of the YAML core schema's tags (`!!str` is `tag:yaml.org,2002:str`).
const CORE: &str = "tag:yaml.org,2002:";

/// How a tag is written, for messages (`!!int`, `!`, `!<tag:x>`).
pub(super) fn tag_name(tag: Option<&Tag>) -> String {
    match tag {
        None => String::new(),
        Some(t) if t.handle == CORE => format!("!!{}", t.suffix),
        Some(t) if t.handle.is_empty() && t.suffix == "!" => "!".to_string(),
        Some(t) if t.handle.is_empty() => format!("!<{}>", t.suffix),
        Some(t) => format!("{}{}", t.handle, t.suffix),
    }
}

/// What a tag asks of its node; an error for a tag not understood here.
pub(super) fn classify_tag(tag: Option<&Tag>) -> Result<TagKind, String> {
    let Some(t) = tag else {
        return Ok(TagKind::None);
    };
    if t.handle.is_empty() && t.suffix == "!" {
        return Ok(TagKind::NonSpecific);
    }
    // `!!int` arrives as (CORE, "int"); `!<tag:yaml.org,2002:int>` as ("", full).
    let name = if t.handle == CORE {
        Some(t.suffix.as_str())
    } else if t.handle.is_empty() {
        t.suffix.strip_prefix(CORE)
    } else {
        None
    };
    Ok(match name {
        Some("str") => TagKind::Str,
        Some("int") => TagKind::Int,
        Some("float") => TagKind::Float,
        Some("bool") => TagKind::Bool,
        Some("null") => TagKind::Null,
        Some("binary") => TagKind::Binary,
        Some("map") => TagKind::Map,
        Some("seq") => TagKind::Seq,
        _ => return Err(format!("unknown tag {}", tag_name(tag))),
    })
}

/// A resolved scalar, before conversion to JSON (floats may not be finite).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Resolved<'t> {
    Null,
    Bool(bool),
    Int(i64),
    /// A float, with its source text for messages.
    Float(f64, Cow<'t, str>),
    Str(Cow<'t, str>),
}

impl Resolved<'_> {
    /// The same, owning its text.
    pub(super) fn into_static(self) -> Resolved<'static> {
        match self {
            Resolved::Null => Resolved::Null,
            Resolved::Bool(b) => Resolved::Bool(b),
            Resolved::Int(i) => Resolved::Int(i),
            Resolved::Float(f, t) => Resolved::Float(f, Cow::Owned(t.into_owned())),
            Resolved::Str(s) => Resolved::Str(Cow::Owned(s.into_owned())),
        }
    }

    /// The JSON value; an error for a float JSON cannot hold.
    pub(super) fn into_value(self) -> Result<Value, String> {
        Ok(match self {
            Resolved::Null => Value::Null,
            Resolved::Bool(b) => Value::Bool(b),
            Resolved::Int(i) => Value::Number(i.into()),
            Resolved::Float(f, text) => match Number::from_f64(f) {
                Some(n) => Value::Number(n),
                None if f.is_nan() || is_inf_literal(&text) => {
                    return Err(format!("{text} cannot be represented in JSON"));
                }
                None => return Err(format!("number {text} is out of the range of a float64")),
            },
            Resolved::Str(s) => Value::String(s.into_owned()),
        })
    }
}

fn is_inf_literal(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    matches!(s, ".inf" | ".Inf" | ".INF")
}

/// A scalar's value by its text, whether it is plain (else quoted or a
/// block scalar) and its tag (`raw_tag`, classified as `tag`).
pub(super) fn resolve<'t>(
    text: Cow<'t, str>,
    plain: bool,
    tag: TagKind,
    raw_tag: Option<&Tag>,
) -> Result<Resolved<'t>, String> {
    let bad = |text: &str| {
        format!(
            "invalid value {} for tag {}",
            go_quote(text),
            tag_name(raw_tag)
        )
    };
    match tag {
        TagKind::None if plain => Ok(resolve_plain(text)),
        TagKind::None | TagKind::NonSpecific | TagKind::Str => Ok(Resolved::Str(text)),
        TagKind::Int => match core_int(&text) {
            Some(r) => Ok(r),
            None => Err(bad(&text)),
        },
        TagKind::Float => match core_int(&text) {
            Some(Resolved::Int(i)) => Ok(Resolved::Float(i as f64, text)),
            Some(r) => Ok(r),
            None => match core_float(&text) {
                Some(f) => Ok(Resolved::Float(f, text)),
                None => Err(bad(&text)),
            },
        },
        TagKind::Bool => match core_bool(&text) {
            Some(v) => Ok(Resolved::Bool(v)),
            None => Err(bad(&text)),
        },
        TagKind::Null => {
            if is_core_null(&text) {
                Ok(Resolved::Null)
            } else {
                Err(bad(&text))
            }
        }
        TagKind::Binary => match crate::go::base64::std_decode(&text) {
            Some(bytes) => Ok(Resolved::Str(Cow::Owned(lossy_utf8(&bytes)))),
            None => Err(format!(
                "invalid base64 data for tag !!binary: {}",
                go_quote(&text)
            )),
        },
        TagKind::Map | TagKind::Seq => Err(format!(
            "tag {} cannot be applied to a scalar",
            tag_name(raw_tag)
        )),
    }
}

/// The YAML 1.2 core schema for plain scalars.
fn resolve_plain(text: Cow<'_, str>) -> Resolved<'_> {
    match text.as_bytes().first() {
        None => return Resolved::Null,
        Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F') => {
        }
        Some(_) => return Resolved::Str(text),
    }
    if is_core_null(&text) {
        return Resolved::Null;
    }
    if let Some(b) = core_bool(&text) {
        return Resolved::Bool(b);
    }
    if let Some(r) = core_int(&text) {
        return match r {
            Resolved::Float(f, _) => Resolved::Float(f, text),
            r => r,
        };
    }
    if let Some(f) = core_float(&text) {
        return Resolved::Float(f, text);
    }
    Resolved::Str(text)
}

fn is_core_null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

fn core_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// A core-schema integer: `Int` when it fits in `i64`, else `Float`.
fn core_int(s: &str) -> Option<Resolved<'static>> {
    if let Some(hex) = s.strip_prefix("0x") {
        return radix_int(hex, 16);
    }
    if let Some(oct) = s.strip_prefix("0o") {
        return radix_int(oct, 8);
    }
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match s.parse::<i64>() {
        Ok(i) => Some(Resolved::Int(i)),
        Err(_) => Some(Resolved::Float(
            s.parse::<f64>().unwrap_or(f64::INFINITY),
            Cow::Owned(s.to_string()),
        )),
    }
}

fn radix_int(digits: &str, radix: u32) -> Option<Resolved<'static>> {
    if digits.is_empty() {
        return None;
    }
    let mut exact: Option<i64> = Some(0);
    let mut approx = 0f64;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        exact = exact
            .and_then(|v| v.checked_mul(i64::from(radix)))
            .and_then(|v| v.checked_add(i64::from(d)));
        approx = approx * f64::from(radix) + f64::from(d);
    }
    Some(match exact {
        Some(i) => Resolved::Int(i),
        None => Resolved::Float(approx, Cow::Owned(digits.to_string())),
    })
}

/// A core-schema float (including `.inf` and `.nan`).
fn core_float(s: &str) -> Option<f64> {
    match s {
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Some(if s.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    let b = unsigned.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let int_digits = digits(&mut i);
    if b.get(i) == Some(&b'.') {
        i += 1;
        let frac = digits(&mut i);
        if int_digits == 0 && frac == 0 {
            return None;
        }
    } else if int_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    s.parse::<f64>().ok()
}

/// The string form `sigs.k8s.io/yaml` gives a non-string key.
pub(super) fn key_string<'t>(r: &'t Resolved<'_>) -> Result<Cow<'t, str>, String> {
    Ok(match r {
        Resolved::Str(s) => Cow::Borrowed(s.as_ref()),
        Resolved::Int(i) => Cow::Owned(i.to_string()),
        Resolved::Float(f, _) => Cow::Owned(go_format_float32(*f)),
        Resolved::Bool(b) => Cow::Borrowed(if *b { "true" } else { "false" }),
        Resolved::Null => return Err("mapping keys must not be null".into()),
    })
}

/// The string form of a mapping key given as an already built value (an
/// alias to a scalar used as a key), as [`key_string`].
pub(super) fn key_from_value(v: &Value) -> Result<Cow<'_, str>, String> {
    match v {
        Value::String(s) => Ok(Cow::Borrowed(s)),
        Value::Number(n) => Ok(Cow::Owned(match n.as_i64() {
            Some(i) => i.to_string(),
            None => go_format_float32(n.as_f64().unwrap_or(f64::NAN)),
        })),
        Value::Bool(b) => Ok(Cow::Borrowed(if *b { "true" } else { "false" })),
        Value::Null => Err("mapping keys must not be null".into()),
        Value::Array(_) | Value::Object(_) => {
            Err("mapping keys must be scalars, found an alias to a collection".into())
        }
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`, with go-yaml's names for the
/// non-finite values.
fn go_format_float32(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_string();
    }
    #[allow(clippy::cast_possible_truncation)]
    let x = f as f32;
    if x.is_infinite() {
        return if x > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    // Shortest round-trip digits for f32, e.g. "-1.2345e-7".
    let sci = format!("{x:e}");
    let (neg, sci) = match sci.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, sci.as_str()),
    };
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if !(-4..6).contains(&exp) {
        let mut chars = digits.chars();
        if let Some(first) = chars.next() {
            out.push(first);
        }
        let rest: String = chars.collect();
        if !rest.is_empty() {
            out.push('.');
            out.push_str(&rest);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let e = exp.unsigned_abs();
        if e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
    } else if exp >= 0 {
        let int_len = usize::try_from(exp).unwrap_or(0) + 1;
        for k in 0..int_len {
            out.push(digits.as_bytes().get(k).map_or('0', |b| char::from(*b)));
        }
        if let Some(frac) = digits.get(int_len..).filter(|f| !f.is_empty()) {
            out.push('.');
            out.push_str(frac);
        }
    } else {
        out.push_str("0.");
        for _ in 0..(exp.unsigned_abs() - 1) {
            out.push('0');
        }
        out.push_str(&digits);
    }
    out
}

/// Bytes as a string, each byte of an invalid sequence replaced by U+FFFD
/// (as Go's `encoding/json` writes invalid UTF-8).
fn lossy_utf8(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for _ in chunk.invalid() {
            out.push('\u{FFFD}');
        }
    }
    out
}
