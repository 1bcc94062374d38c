//! JSON paths of field and map accessors resolved in a structural schema
//! (apiextensions `cel.ValidFieldPath`): the `fieldPath` of
//! `x-kubernetes-validations` rules (checked at CRD validation, used to
//! place rule errors at run time) and the `jsonPath` of selectable fields
//! (without array notation).
//!
//! A path is a sequence of `.name` and `['name']` steps (single-quoted,
//! with backslash escapes), starting at the node the rule sits on, e.g.
//! `.spec.ports` or `.labels['a.b/c']`. A step goes to a property when the
//! node has properties, else to the additional properties (a map key).

use crate::model::field::Path;
use crate::model::structural::Structural;
use crate::model::wire::JsonSchemaProps;

/// Why a path does not resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldPathError {
    /// The server's message (`does not refer to a valid field`, …).
    Message(String),
    /// A step below a node without a schema (additional properties without
    /// one, or no schema at all), where the server would dereference a nil
    /// schema; the path up to there.
    NilSchema(Path),
}

/// `cel.ValidFieldPath`: the path as a field path, and the schema it
/// resolves to (`None` below additional properties without a schema).
/// `allow_array_notation: false` is `WithFieldPathAllowArrayNotation(false)`.
///
/// # Errors
///
/// The server's messages for malformed or unknown paths.
pub fn valid_field_path<'s>(
    json_path: &str,
    schema: Option<&'s Structural>,
    allow_array_notation: bool,
) -> Result<(Path, Option<&'s Structural>), FieldPathError> {
    let msg = |m: &str| FieldPathError::Message(m.to_string());
    let mut tokens = tokens(json_path).into_iter();
    let mut path = Path::root();
    let mut current = schema;
    while let Some(tok) = tokens.next() {
        let name = match tok {
            "[" => {
                if !allow_array_notation {
                    return Err(msg("array notation is not allowed"));
                }
                let t = tokens
                    .next()
                    .ok_or_else(|| msg("unexpected end of JSON path"))?;
                let quoted = t
                    .strip_prefix('\'')
                    .and_then(|r| r.strip_suffix('\''))
                    .filter(|_| t.len() >= 2);
                let Some(quoted) = quoted else {
                    return Err(FieldPathError::Message(format!(
                        "expected single quoted string but got {t}"
                    )));
                };
                unescape_single_quote(quoted)
                    .map_err(|e| FieldPathError::Message(format!("invalid string literal: {e}")))?
            }
            "." => tokens
                .next()
                .ok_or_else(|| msg("unexpected end of JSON path"))?
                .to_string(),
            other => {
                return Err(FieldPathError::Message(format!(
                    "expected [ or . but got: {other}"
                )));
            }
        };
        let Some(s) = current else {
            return Err(FieldPathError::NilSchema(path));
        };
        if !s.properties.is_empty() {
            path = path.child(name.as_str());
            match s.properties.get(&name) {
                Some(next) => current = Some(next),
                None => return Err(msg("does not refer to a valid field")),
            }
        } else if let Some(ap) = &s.generic.additional_properties {
            path = path.key(name.as_str());
            current = ap.structural.as_deref();
        } else {
            return Err(msg("does not refer to a valid field"));
        }
        if tok == "[" {
            match tokens.next() {
                None => return Err(msg("unexpected end of JSON path")),
                Some("]") => {}
                Some(close) => {
                    return Err(FieldPathError::Message(format!(
                        "expected ] but got {close}"
                    )));
                }
            }
        }
    }
    Ok((path, current))
}

/// `pathValid`: whether a rule's `fieldPath` resolves in the schema `s`;
/// schemas that are not structural are not checked.
pub fn path_valid(s: &JsonSchemaProps, path: &str) -> bool {
    let Ok(ss) = Structural::from_props(s) else {
        return true;
    };
    valid_field_path(path, Some(&ss), true).is_ok()
}

/// Splits a JSON path into `.`, `[`, `]`, single-quoted strings and the
/// text between them, like the scanner of `cel.ValidFieldPath`.
fn tokens(path: &str) -> Vec<&str> {
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut start = 0usize;
    while let Some(data) = bytes.get(start..).filter(|d| !d.is_empty()) {
        let advance = match data.first() {
            Some(b'\'') => {
                let mut end = data.len();
                for i in 1..data.len() {
                    if data.get(i) == Some(&b'\'') && data.get(i - 1) != Some(&b'\\') {
                        end = i + 1;
                        break;
                    }
                }
                end
            }
            Some(b'.' | b'[' | b']') => 1,
            _ => data
                .iter()
                .position(|c| matches!(c, b'.' | b'[' | b']'))
                .unwrap_or(data.len()),
        };
        match path.get(start..start + advance) {
            Some(tok) => out.push(tok),
            None => break,
        }
        start += advance;
    }
    out
}

/// `unescapeSingleQuote`: the escapes `\a \b \f \n \r \t \v \' \\` (a
/// backslash before a line break, or at the end, is kept).
fn unescape_single_quote(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(d) = chars.next() else {
            out.push('\\');
            break;
        };
        if d == '\n' {
            // `\\.` does not match a line break: both are kept.
            out.push('\\');
        }
        out.push(match d {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\'' => '\'',
            '\\' => '\\',
            '\n' => '\n',
            other => return Err(format!("invalid escape char \\{other}")),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;

    use super::*;
    use crate::model::wire::codec::{DecodeCx, Wire};

    fn structural(v: serde_json::Value) -> Structural {
        let mut cx = DecodeCx::default();
        let p = JsonSchemaProps::decode(&v, &Path::root(), &mut cx).unwrap();
        Structural::from_props(&p).unwrap()
    }

    #[test]
    fn resolves_as_the_server_does() {
        let s = structural(json!({
            "type": "object",
            "properties": {
                "a": {"type": "object", "properties": {"b.c": {"type": "string"}}},
                "m": {"type": "object", "additionalProperties": {"type": "string"}},
                "l": {"type": "array", "items": {"type": "string"}},
                "x": {"type": "object", "additionalProperties": true}
            }
        }));
        let ok = |p: &str| {
            valid_field_path(p, Some(&s), true)
                .map(|(p, _)| p.to_string())
                .map_err(|e| match e {
                    FieldPathError::Message(m) => m,
                    FieldPathError::NilSchema(p) => format!("nil at {p}"),
                })
        };
        assert_eq!(ok(".a['b.c']"), Ok("a.b.c".into()));
        assert_eq!(ok(".m.k"), Ok("m[k]".into()));
        assert_eq!(ok(".m['k\\'s']"), Ok("m[k's]".into()));
        assert_eq!(ok(".x.y"), Ok("x[y]".into()));
        assert_eq!(ok(".x.y.z"), Err("nil at x[y]".into()));
        assert_eq!(
            ok(".l[0]"),
            Err("expected single quoted string but got 0".into())
        );
        assert_eq!(ok(".nope"), Err("does not refer to a valid field".into()));
        assert_eq!(ok("a"), Err("expected [ or . but got: a".into()));
        assert_eq!(ok("."), Err("unexpected end of JSON path".into()));
        assert_eq!(ok(".a['b.c'"), Err("unexpected end of JSON path".into()));
        assert_eq!(
            ok(".a['\\q']"),
            Err("invalid string literal: invalid escape char \\q".into())
        );
        assert_eq!(
            valid_field_path(".a['b.c']", Some(&s), false),
            Err(FieldPathError::Message(
                "array notation is not allowed".into()
            ))
        );
        assert_eq!(
            valid_field_path(".a", None, true),
            Err(FieldPathError::NilSchema(Path::root()))
        );
        // `pathValid` of CRD validation: upstream's `.list[0]` case.
        let mut cx = DecodeCx::default();
        let props = JsonSchemaProps::decode(
            &json!({"type": "object", "properties": {"list": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "number"}}}}}}),
            &Path::root(),
            &mut cx,
        )
        .unwrap();
        assert!(path_valid(&props, ".list"));
        assert!(!path_valid(&props, ".list[0]"));
        assert!(!path_valid(&props, ".list.a"));
    }
}
