//! Bounded, one-line renderings of names and values for messages.

use std::fmt::Write as _;

use serde_json::Value;

use crate::go::json::go_json;

/// The most characters of one quoted value (a default, an enum member, a
/// CEL rule, a pattern).
pub(super) const MAX_VALUE_CHARS: usize = 60;

/// The most enum values listed in one message.
pub(super) const MAX_LISTED: usize = 5;

/// `s` with control characters escaped (`\n`, `\u{7}`), so it stays on
/// one line.
pub(super) fn one_line(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// `s` cut to `max` characters (with `…` when cut), on one line.
pub(super) fn bounded(s: &str, max: usize) -> String {
    let cut = match s.char_indices().nth(max) {
        Some((i, _)) => s.get(..i).unwrap_or(s),
        None => s,
    };
    let mut out = one_line(cut);
    if cut.len() < s.len() {
        out.push('…');
    }
    out
}

/// A string quoted, bounded: `"abc"`.
pub(super) fn quoted(s: &str) -> String {
    format!("\"{}\"", bounded(s, MAX_VALUE_CHARS))
}

/// A JSON value as Go's encoder writes it, bounded.
pub(super) fn value(v: &Value) -> String {
    // Long strings are cut before encoding, so that no more than a bounded
    // prefix of a huge scalar is copied.
    match v {
        Value::String(s) => quoted(s),
        _ => bounded(&go_json(v, true), MAX_VALUE_CHARS),
    }
}

/// At most [`MAX_LISTED`] values, then `and N more`.
pub(super) fn value_list<'a>(values: impl ExactSizeIterator<Item = &'a Value>) -> String {
    let total = values.len();
    let mut out = String::new();
    for (i, v) in values.take(MAX_LISTED).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&value(v));
    }
    if total > MAX_LISTED {
        let _ = write!(out, " and {} more", total - MAX_LISTED);
    }
    out
}

/// A list of names, each bounded, at most [`MAX_LISTED`].
pub(super) fn name_list<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    let total = names.len();
    let mut out = String::new();
    for (i, n) in names.take(MAX_LISTED).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&quoted(n));
    }
    if total > MAX_LISTED {
        let _ = write!(out, " and {} more", total - MAX_LISTED);
    }
    out
}
