//! A small, deterministic YAML writer for JSON values: block style, keys in
//! their order, strings quoted whenever a plain scalar could be read back
//! as something else, multi-line text as literal blocks where that is
//! exact. Reading the output back gives the same JSON value.

use serde_json::{Number, Value};

/// Writes `v` as a YAML document (without a `---` marker), ending in a
/// newline.
pub fn to_yaml(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => write_map(&mut out, m, 0),
        Value::Array(a) if !a.is_empty() => write_seq(&mut out, a, 0),
        scalar => {
            write_scalar(&mut out, scalar, 0);
            out.push('\n');
        }
    }
    out
}

fn indent(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push(' ');
    }
}

fn write_map(out: &mut String, m: &serde_json::Map<String, Value>, ind: usize) {
    for (k, v) in m {
        indent(out, ind);
        write_string(out, k, ind, true);
        out.push(':');
        write_value_after_key(out, v, ind);
    }
}

fn write_value_after_key(out: &mut String, v: &Value, ind: usize) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            write_map(out, m, ind + 2);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            write_seq(out, a, ind);
        }
        scalar => {
            out.push(' ');
            write_scalar(out, scalar, ind + 2);
            out.push('\n');
        }
    }
}

fn write_seq(out: &mut String, a: &[Value], ind: usize) {
    for v in a {
        indent(out, ind);
        out.push_str("- ");
        match v {
            Value::Object(m) if !m.is_empty() => {
                // First key on the dash line, the rest aligned under it.
                let mut first = true;
                for (k, val) in m {
                    if !first {
                        indent(out, ind + 2);
                    }
                    first = false;
                    write_string(out, k, ind + 2, true);
                    out.push(':');
                    write_value_after_key(out, val, ind + 2);
                }
            }
            Value::Array(inner) if !inner.is_empty() => {
                out.push('\n');
                write_seq(out, inner, ind + 2);
            }
            scalar => {
                write_scalar(out, scalar, ind + 2);
                out.push('\n');
            }
        }
    }
}

fn write_scalar(out: &mut String, v: &Value, ind: usize) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number(n)),
        Value::String(s) => write_string(out, s, ind, false),
        Value::Object(_) => out.push_str("{}"),
        Value::Array(_) => out.push_str("[]"),
    }
}

/// Numbers keep their int/float kind: a float with an integral value is
/// written with `.0` so it reads back as a float.
fn number(n: &Number) -> String {
    if n.is_f64() {
        let s = n.to_string();
        if s.contains(['.', 'e', 'E']) {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        n.to_string()
    }
}

fn needs_quotes(s: &str) -> bool {
    if s.is_empty() || s.trim() != s {
        return true;
    }
    let lower = s.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "null"
            | "~"
            | "true"
            | "false"
            | "yes"
            | "no"
            | "on"
            | "off"
            | "y"
            | "n"
            | ".inf"
            | "-.inf"
            | "+.inf"
            | ".nan"
    ) {
        return true;
    }
    // Anything that starts like a number.
    let first = s.chars().next().unwrap_or(' ');
    if first.is_ascii_digit() || ((first == '-' || first == '+' || first == '.') && s.len() > 1) {
        return true;
    }
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        return true;
    }
    if s.contains(": ") || s.contains(" #") || s.ends_with(':') {
        return true;
    }
    s.chars().any(|c| {
        c.is_control() || c == '\u{feff}' || c == '\u{85}' || c == '\u{2028}' || c == '\u{2029}'
    })
}

fn literal_ok(s: &str) -> bool {
    s.contains('\n')
        && !s.starts_with([' ', '\t', '\n'])
        && !s.chars().any(|c| {
            (c.is_control() && c != '\n')
                || matches!(c, '\u{feff}' | '\u{85}' | '\u{2028}' | '\u{2029}')
        })
        && s.split('\n').all(|l| l.trim_end() == l)
}

fn write_string(out: &mut String, s: &str, ind: usize, is_key: bool) {
    if !is_key && literal_ok(s) {
        let trailing = s.len() - s.trim_end_matches('\n').len();
        out.push('|');
        match trailing {
            0 => out.push('-'),
            1 => {}
            _ => out.push('+'),
        }
        let body = if trailing == 1 {
            s.strip_suffix('\n').unwrap_or(s)
        } else {
            s
        };
        let body = if trailing > 1 {
            body.strip_suffix('\n').unwrap_or(body)
        } else {
            body
        };
        for line in body.split('\n') {
            out.push('\n');
            if !line.is_empty() {
                indent(out, ind);
                out.push_str(line);
            }
        }
        return;
    }
    if needs_quotes(s) || s.contains('\n') {
        out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()));
    } else {
        out.push_str(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_block_yaml() {
        let v = json!({"a": 1, "b": [1, {"c": "x", "d": []}], "e": {}, "f": "multi\nline\n", "g": "true", "h": 1.0});
        assert_eq!(
            to_yaml(&v),
            "a: 1\nb:\n- 1\n- c: x\n  d: []\ne: {}\nf: |\n  multi\n  line\ng: \"true\"\nh: 1.0\n"
        );
    }
}
