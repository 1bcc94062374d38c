//! cel-go's strings extension (`ext/strings.go`, version 2): `charAt`,
//! `indexOf`, `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`,
//! `split`, `substring`, `trim`, `join`, `format`, `strings.quote`; and the
//! Kubernetes format library (`format.<name>()`, `format.named`,
//! `validate`).

use std::rc::Rc;

use cel::IdedExpr;

use super::operands::{MAX_STRING_BYTES, check_len, int_arg, list_strings, str_arg};
use crate::cel::error::EvalError;
use crate::cel::functions::FORMAT_NAMES;
use crate::cel::value::{EvalResult, owned_str};
use crate::cel::value::{Ext, Val, display};
use crate::go::names;

fn out_of_range(i: i64) -> EvalError {
    EvalError::new(format!("index out of range: {i}"))
}

/// Dispatches the strings extension; anything else has no overload.
pub(crate) fn call<'a>(
    name: &str,
    receiver: bool,
    args: &[Val<'a>],
    _exprs: &[IdedExpr],
) -> EvalResult<'a> {
    if name == "strings.quote" && !receiver {
        return Ok(owned_str(quote(str_arg(args, 0)?)));
    }
    if !receiver {
        return Err(EvalError::no_overload());
    }
    if name == "join" {
        let Some(Val::List(l)) = args.first() else {
            return Err(EvalError::no_overload());
        };
        let sep = if args.len() == 2 {
            str_arg(args, 1)?
        } else {
            ""
        };
        let parts = list_strings(l)?;
        let total: usize = parts.iter().map(String::len).sum::<usize>()
            + sep.len() * parts.len().saturating_sub(1);
        if total > MAX_STRING_BYTES {
            return Err(EvalError::new("string result exceeds the maximum size"));
        }
        return Ok(owned_str(parts.join(sep)));
    }
    if name == "format" {
        let s = str_arg(args, 0)?;
        let Some(Val::List(l)) = args.get(1) else {
            return Err(EvalError::no_overload());
        };
        return check_len(format(s, &l.to_vec()?)?);
    }
    let s = str_arg(args, 0)?;
    match (name, args.len()) {
        ("charAt", 2) => {
            let i = int_arg(args, 1)?;
            let n = s.chars().count() as i64;
            if i < 0 || i > n {
                return Err(out_of_range(i));
            }
            Ok(owned_str(
                s.chars()
                    .nth(i as usize)
                    .map(String::from)
                    .unwrap_or_default(),
            ))
        }
        ("indexOf", 2 | 3) => {
            let sub = str_arg(args, 1)?;
            let offset = if args.len() == 3 {
                int_arg(args, 2)?
            } else {
                0
            };
            let chars: Vec<char> = s.chars().collect();
            let subc: Vec<char> = sub.chars().collect();
            if offset < 0 || offset > chars.len() as i64 {
                return Err(out_of_range(offset));
            }
            if subc.is_empty() {
                return Ok(Val::Int(offset));
            }
            let off = offset as usize;
            if subc.len() > chars.len() {
                return Ok(Val::Int(-1));
            }
            let mut i = off;
            while i + subc.len() <= chars.len() {
                if chars.get(i..i + subc.len()) == Some(subc.as_slice()) {
                    return Ok(Val::Int(i as i64));
                }
                i += 1;
            }
            Ok(Val::Int(-1))
        }
        ("lastIndexOf", 2 | 3) => {
            let sub = str_arg(args, 1)?;
            let chars: Vec<char> = s.chars().collect();
            let subc: Vec<char> = sub.chars().collect();
            let offset = if args.len() == 3 {
                int_arg(args, 2)?
            } else {
                chars.len() as i64
            };
            if subc.is_empty() {
                return Ok(Val::Int(offset));
            }
            if offset < 0 || offset > chars.len() as i64 {
                return Err(out_of_range(offset));
            }
            if subc.len() > chars.len() {
                return Ok(Val::Int(-1));
            }
            let mut off = offset as usize;
            if off + subc.len() > chars.len() {
                off = chars.len() - subc.len();
            }
            let mut i = off as i64;
            while i >= 0 {
                let u = i as usize;
                if chars.get(u..u + subc.len()) == Some(subc.as_slice()) {
                    return Ok(Val::Int(i));
                }
                i -= 1;
            }
            Ok(Val::Int(-1))
        }
        ("lowerAscii", 1) => Ok(owned_str(s.to_ascii_lowercase())),
        ("upperAscii", 1) => Ok(owned_str(s.to_ascii_uppercase())),
        ("replace", 3 | 4) => {
            let old = str_arg(args, 1)?;
            let new = str_arg(args, 2)?;
            let n = if args.len() == 4 {
                int_arg(args, 3)?
            } else {
                -1
            };
            check_len(go_replace(s, old, new, n)?)
        }
        ("split", 2 | 3) => {
            let sep = str_arg(args, 1)?;
            let n = if args.len() == 3 {
                int_arg(args, 2)?
            } else {
                -1
            };
            Ok(Val::list(
                go_split_n(s, sep, n).into_iter().map(owned_str).collect(),
            ))
        }
        ("substring", 2 | 3) => {
            let chars: Vec<char> = s.chars().collect();
            let start = int_arg(args, 1)?;
            let end = if args.len() == 3 {
                int_arg(args, 2)?
            } else {
                chars.len() as i64
            };
            if start < 0 || start > chars.len() as i64 {
                return Err(out_of_range(start));
            }
            if end < 0 || end > chars.len() as i64 {
                return Err(out_of_range(end));
            }
            if start > end {
                return Err(EvalError::new(format!(
                    "invalid substring range. start: {start}, end: {end}"
                )));
            }
            Ok(owned_str(
                chars
                    .get(start as usize..end as usize)
                    .unwrap_or_default()
                    .iter()
                    .collect(),
            ))
        }
        ("trim", 1) => Ok(owned_str(s.trim().to_string())),
        _ => Err(EvalError::no_overload()),
    }
}

/// Go's `strings.Replace(s, old, new, n)`.
fn go_replace(s: &str, old: &str, new: &str, n: i64) -> Result<String, EvalError> {
    if n == 0 || old == new {
        return Ok(s.to_string());
    }
    let limit = if n < 0 { usize::MAX } else { n as usize };
    let mut out = String::new();
    if old.is_empty() {
        // An empty `old` matches before every rune and at the end.
        let mut count = 0;
        for c in s.chars() {
            if count < limit {
                out.push_str(new);
                count += 1;
            }
            out.push(c);
            if out.len() > MAX_STRING_BYTES {
                return Err(EvalError::new("string result exceeds the maximum size"));
            }
        }
        if count < limit {
            out.push_str(new);
        }
        return Ok(out);
    }
    let mut rest = s;
    let mut count = 0;
    while count < limit {
        let Some(i) = rest.find(old) else { break };
        out.push_str(rest.get(..i).unwrap_or_default());
        out.push_str(new);
        rest = rest.get(i + old.len()..).unwrap_or_default();
        count += 1;
        if out.len() > MAX_STRING_BYTES {
            return Err(EvalError::new("string result exceeds the maximum size"));
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// Go's `strings.SplitN(s, sep, n)`.
fn go_split_n(s: &str, sep: &str, n: i64) -> Vec<String> {
    if n == 0 {
        return Vec::new();
    }
    let limit = if n < 0 { usize::MAX } else { n as usize };
    if sep.is_empty() {
        let chars: Vec<char> = s.chars().collect();
        let mut out: Vec<String> = Vec::new();
        for (i, c) in chars.iter().enumerate() {
            if out.len() + 1 == limit {
                out.push(chars.get(i..).unwrap_or_default().iter().collect());
                return out;
            }
            out.push(c.to_string());
        }
        return out;
    }
    let mut out = Vec::new();
    let mut rest = s;
    while out.len() + 1 < limit {
        let Some(i) = rest.find(sep) else { break };
        out.push(rest.get(..i).unwrap_or_default().to_string());
        rest = rest.get(i + sep.len()..).unwrap_or_default();
    }
    out.push(rest.to_string());
    out
}

/// `strings.quote`: a double-quoted CEL string literal.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match crate::go::fmt::backslash_escape(c) {
            Some(e) => out.push_str(e),
            None => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The string form `%s` gives a value in `format`.
fn format_s(v: &Val<'_>) -> Result<String, EvalError> {
    Ok(match v {
        Val::Str(s) => s.as_str().to_string(),
        Val::List(l) => {
            let parts = l
                .to_vec()?
                .iter()
                .map(format_s)
                .collect::<Result<Vec<_>, _>>()?;
            format!("[{}]", parts.join(", "))
        }
        Val::Map(m) => {
            let mut parts = Vec::new();
            for k in m.keys() {
                let v = m.find(&k)?.unwrap_or(Val::Null);
                parts.push(format!("{}: {}", format_s(&k)?, format_s(&v)?));
            }
            parts.sort();
            format!("{{{}}}", parts.join(", "))
        }
        Val::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        Val::Double(d) => {
            if d.is_nan() {
                "NaN".into()
            } else if d.is_infinite() {
                if *d > 0.0 { "Infinity" } else { "-Infinity" }.into()
            } else {
                crate::go::fmt::format_float(*d)
            }
        }
        other => display(other),
    })
}

/// The strings extension's `format`: `%s`, `%d`, `%f`, `%e`, `%b`, `%o`,
/// `%x`, `%X`, `%%`, with an optional precision for `%f` and `%e`.
fn format(s: &str, args: &[Val<'_>]) -> Result<String, EvalError> {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    let mut next = 0usize;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let mut precision: Option<usize> = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut p = 0usize;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                p = p * 10 + d as usize;
                chars.next();
            }
            precision = Some(p);
        }
        let Some(verb) = chars.next() else {
            return Err(EvalError::new("unexpected end of format string"));
        };
        let Some(v) = args.get(next) else {
            return Err(EvalError::new(format!("index {next} out of range")));
        };
        next += 1;
        match verb {
            's' => out.push_str(&format_s(v)?),
            'd' => match v {
                Val::Int(i) => out.push_str(&i.to_string()),
                Val::Uint(u) => out.push_str(&u.to_string()),
                Val::Double(d) if d.is_nan() => out.push_str("NaN"),
                _ => return Err(EvalError::new("error during formatting: decimal clause can only be used on integers, was given ".to_string() + &v.type_name())),
            },
            'f' | 'e' => {
                let clause = if verb == 'f' { "fixed-point" } else { "scientific" };
                let d = match v {
                    Val::Double(d) => *d,
                    // The strings of the special values convert.
                    Val::Str(s) if matches!(s.as_str(), "NaN" | "Infinity" | "-Infinity") => {
                        match s.as_str() {
                            "NaN" => f64::NAN,
                            "Infinity" => f64::INFINITY,
                            _ => f64::NEG_INFINITY,
                        }
                    }
                    _ => {
                        return Err(EvalError::new(format!(
                            "error during formatting: {clause} clause can only be used on doubles, was given {}",
                            v.type_name()
                        )));
                    }
                };
                if verb == 'f' {
                    out.push_str(&locale_fixed(d, precision.unwrap_or(6)));
                } else {
                    out.push_str(&locale_scientific(d));
                }
            }
            'b' | 'o' | 'x' | 'X' => {
                let text = match v {
                    Val::Int(i) => match verb {
                        'b' => go_radix(*i, 2),
                        'o' => go_radix(*i, 8),
                        'x' => go_radix(*i, 16),
                        _ => go_radix(*i, 16).to_uppercase(),
                    },
                    Val::Uint(u) => match verb {
                        'b' => format!("{u:b}"),
                        'o' => format!("{u:o}"),
                        'x' => format!("{u:x}"),
                        _ => format!("{u:X}"),
                    },
                    Val::Str(s) if verb == 'x' || verb == 'X' => {
                        let h: String = s.as_str().bytes().map(|b| format!("{b:02x}")).collect();
                        if verb == 'X' { h.to_uppercase() } else { h }
                    }
                    Val::Bytes(b) if verb == 'x' || verb == 'X' => {
                        let h: String = b.iter().map(|b| format!("{b:02x}")).collect();
                        if verb == 'X' { h.to_uppercase() } else { h }
                    }
                    Val::Bool(b) if verb == 'b' => b.to_string(),
                    _ => return Err(EvalError::new(format!("error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given {}", v.type_name()))),
                };
                out.push_str(&text);
            }
            other => {
                return Err(EvalError::new(format!(
                    "could not parse formatting clause: unrecognized formatting clause \"{other}\""
                )));
            }
        }
        if out.len() > MAX_STRING_BYTES {
            return Err(EvalError::new("string result exceeds the maximum size"));
        }
    }
    Ok(out)
}

fn go_radix(i: i64, radix: u32) -> String {
    let neg = i < 0;
    let mut u = i.unsigned_abs();
    if u == 0 {
        return "0".into();
    }
    let mut digits = Vec::new();
    while u > 0 {
        let d = (u % u64::from(radix)) as u32;
        digits.push(char::from_digit(d, radix).unwrap_or('0'));
        u /= u64::from(radix);
    }
    if neg {
        digits.push('-');
    }
    digits.iter().rev().collect()
}

/// `%.<p>f` as cel-go prints it through golang.org/x/text's message
/// printer in the `en` locale: grouped thousands, `∞` and `NaN`, no sign on
/// zero.
fn locale_fixed(d: f64, precision: usize) -> String {
    if let Some(special) = locale_special(d) {
        return special;
    }
    let text = format!("{:.precision$}", d.abs());
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::with_capacity(text.len() + text.len() / 3 + 1);
    if d < 0.0 {
        out.push('-');
    }
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// `%e` as cel-go prints it (its clause's precision is a width there, so
/// six digits always) through the message printer: `3.140000×10⁰⁰`.
fn locale_scientific(d: f64) -> String {
    if let Some(special) = locale_special(d) {
        return special;
    }
    let text = format!("{:.6e}", d.abs());
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut out = String::new();
    if d < 0.0 {
        out.push('-');
    }
    out.push_str(mantissa);
    out.push_str("×10");
    if exp < 0 {
        out.push('⁻');
    }
    const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    for c in format!("{:02}", exp.unsigned_abs()).chars() {
        out.push(SUPERSCRIPT[c.to_digit(10).unwrap_or(0) as usize]);
    }
    out
}

/// NaN and the infinities in the printer's words.
fn locale_special(d: f64) -> Option<String> {
    if d.is_nan() {
        Some("NaN".into())
    } else if d.is_infinite() {
        Some(if d < 0.0 { "-∞" } else { "∞" }.into())
    } else {
        None
    }
}

/// Go's `strconv.ParseFloat(s, 64)` for decimal forms, `Inf`, `NaN`.
pub(crate) fn go_parse_float(s: &str) -> Option<f64> {
    let t = s.trim_start_matches(['+', '-']);
    let lower = t.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity" | "nan") {
        return s.parse::<f64>().ok().or(Some(if s.starts_with('-') {
            f64::NEG_INFINITY
        } else if lower == "nan" {
            f64::NAN
        } else {
            f64::INFINITY
        }));
    }
    if t.is_empty()
        || !t
            .bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-' | b'_'))
    {
        return None;
    }
    s.parse::<f64>().ok()
}

/// The Kubernetes format library.
pub(crate) fn format_lib<'a>(name: &str, receiver: bool, args: &[Val<'a>]) -> EvalResult<'a> {
    if name == "validate" && receiver {
        let Some(Val::Ext(e)) = args.first() else {
            return Err(EvalError::no_overload());
        };
        let Ext::Format(f) = &**e else {
            return Err(EvalError::no_overload());
        };
        let s = str_arg(args, 1)?;
        let errs = validate_format(f, s);
        return Ok(if errs.is_empty() {
            Val::Optional(None)
        } else {
            Val::Optional(Some(Rc::new(Val::list(
                errs.into_iter().map(owned_str).collect(),
            ))))
        });
    }
    if name == "format.named" && !receiver {
        let n = str_arg(args, 0)?;
        return Ok(Val::Optional(
            FORMAT_NAMES
                .iter()
                .find(|f| **f == n)
                .map(|f| Rc::new(Val::Ext(Rc::new(Ext::Format(f))))),
        ));
    }
    if let Some(f) = name.strip_prefix("format.")
        && let Some(known) = FORMAT_NAMES.iter().find(|k| **k == f)
        && args.is_empty()
    {
        return Ok(Val::Ext(Rc::new(Ext::Format(known))));
    }
    Err(EvalError::no_overload())
}

fn validate_format(f: &str, s: &str) -> Vec<String> {
    let prefix = |s: &str| -> String {
        match s.strip_suffix('-') {
            Some(p) => format!("{p}a"),
            None => s.to_string(),
        }
    };
    match f {
        "dns1123Label" => names::is_dns1123_label(s),
        "dns1123Subdomain" => names::is_dns1123_subdomain(s),
        "dns1035Label" => names::is_dns1035_label(s),
        "qualifiedName" => names::is_qualified_name(s),
        "dns1123LabelPrefix" => names::is_dns1123_label(&prefix(s)),
        "dns1123SubdomainPrefix" => names::is_dns1123_subdomain(&prefix(s)),
        "dns1035LabelPrefix" => names::is_dns1035_label(&prefix(s)),
        "labelValue" => names::is_valid_label_value(s),
        "uri" => {
            if crate::go::url::is_request_uri(s) {
                vec![]
            } else {
                vec!["invalid URI".into()]
            }
        }
        "uuid" => {
            if crate::go::formats::check("uuid", s) == Some(true) {
                vec![]
            } else {
                vec!["does not match the UUID format".into()]
            }
        }
        "byte" => {
            if crate::go::base64::std_decode(s).is_some() {
                vec![]
            } else {
                vec!["invalid base64".into()]
            }
        }
        "date" => {
            if crate::go::time::parse_date(s).is_some() {
                vec![]
            } else {
                vec!["invalid date".into()]
            }
        }
        "datetime" => {
            if crate::go::formats::check("date-time", s) == Some(true) {
                vec![]
            } else {
                vec!["invalid datetime".into()]
            }
        }
        _ => vec![],
    }
}
