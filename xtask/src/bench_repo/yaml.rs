//! JSON values written as block-style YAML manifests.

use serde_json::Value;

/// A JSON value as block-style YAML (strings always double-quoted, so that
/// no YAML 1.1 reader takes `no` or `y` for a boolean).
pub(crate) fn yaml(v: &Value) -> String {
    let mut out = String::new();
    if is_block(v) {
        block(v, 0, false, &mut out);
    } else {
        out.push_str(&scalar(v));
        out.push('\n');
    }
    out
}

fn is_block(v: &Value) -> bool {
    match v {
        Value::Object(m) => !m.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Object(_) => "{}".to_string(),
        Value::Array(_) => "[]".to_string(),
        other => other.to_string(),
    }
}

fn key(k: &str) -> String {
    const WORDS: [&str; 12] = [
        "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "<<", "=",
    ];
    let plain = k
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
        && !WORDS.contains(&k.to_ascii_lowercase().as_str());
    if plain {
        k.to_string()
    } else {
        Value::String(k.to_string()).to_string()
    }
}

/// Writes a non-empty map or sequence at `indent`; `inline`: the first line
/// continues the current one (after `- `).
fn block(v: &Value, indent: usize, inline: bool, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (i, (k, val)) in m.iter().enumerate() {
                if !(inline && i == 0) {
                    out.push_str(&pad);
                }
                out.push_str(&key(k));
                out.push(':');
                match val {
                    Value::Object(_) if is_block(val) => {
                        out.push('\n');
                        block(val, indent + 2, false, out);
                    }
                    Value::Array(_) if is_block(val) => {
                        out.push('\n');
                        block(val, indent, false, out);
                    }
                    _ => {
                        out.push(' ');
                        out.push_str(&scalar(val));
                        out.push('\n');
                    }
                }
            }
        }
        Value::Array(a) => {
            for (i, item) in a.iter().enumerate() {
                if !(inline && i == 0) {
                    out.push_str(&pad);
                }
                out.push_str("- ");
                if is_block(item) {
                    block(item, indent + 2, true, out);
                } else {
                    out.push_str(&scalar(item));
                    out.push('\n');
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_is_block_style_and_quotes_strings() {
        let v = json!({"a": {"b": [1, {"c": "no", "d": []}], "y": {}}, "e": [[true]]});
        assert_eq!(
            yaml(&v),
            "a:\n  b:\n  - 1\n  - c: \"no\"\n    d: []\n  \"y\": {}\ne:\n- - true\n"
        );
    }
}
