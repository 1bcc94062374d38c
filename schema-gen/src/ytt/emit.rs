//! YAML text as ytt prints it: go-yaml v2's encoder and libyaml-style
//! emitter, for JSON values.
//!
//! Block style with two-space indentation, sequences in a mapping not
//! indented, empty collections as `{}` and `[]`, strings plain when they
//! read back as strings (otherwise double quoted, or single quoted when a
//! plain scalar would be ambiguous), multi-line strings as literal blocks,
//! and floats in Go's shortest `%g` form (`1.0` prints as `1`). ytt's copy
//! of go-yaml v2 starts its emitter with no line width (`best_width: -1`),
//! so long scalars are never folded.

use serde_json::{Map, Value};

use super::yaml::{PlainKind, plain_kind};
use schema_core::go::fmt::format_number;

const BEST_INDENT: i64 = 2;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

struct Emitter {
    out: String,
    column: usize,
    indent: i64,
    whitespace: bool,
    indention: bool,
}

/// Writes `v` as one YAML document (no `---`), as ytt prints it.
#[must_use]
pub fn to_yaml(v: &Value) -> String {
    let mut e = Emitter {
        out: String::new(),
        column: 0,
        indent: -1,
        whitespace: true,
        indention: true,
    };
    e.node(v, false, false);
    if !e.out.ends_with('\n') {
        e.put_break();
    }
    e.out
}

/// Whether go-yaml v2 writes `s` plain (it reads back as a string).
fn can_use_plain(s: &str) -> bool {
    match s {
        "" | "~" | "null" | "Null" | "NULL" | "y" | "Y" | "yes" | "Yes" | "YES" | "true"
        | "True" | "TRUE" | "on" | "On" | "ON" | "n" | "N" | "no" | "No" | "NO" | "false"
        | "False" | "FALSE" | "off" | "Off" | "OFF" | ".nan" | ".NaN" | ".NAN" | ".inf"
        | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF" | "<<" => {
            return false;
        }
        _ => {}
    }
    if matches!(plain_kind(s), PlainKind::Str) {
        !is_base60_float(s)
    } else {
        false
    }
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
fn is_base60_float(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (main, frac) = body.split_once('.').unwrap_or((body, ""));
    if !frac.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return false;
    }
    let mut parts = main.split(':');
    let first = parts.next().unwrap_or("");
    if !first.starts_with(|c: char| c.is_ascii_digit())
        || !first.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return false;
    }
    let mut n = 0;
    for p in parts {
        n += 1;
        let ok = match p.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, b] => (b'0'..=b'5').contains(a) && b.is_ascii_digit(),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    n > 0
}

fn printable(c: char) -> bool {
    let u = u32::from(c);
    c == '\n'
        || (0x20..=0x7E).contains(&u)
        || (0xA0..=0xD7FF).contains(&u)
        || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: Option<char>) -> bool {
    matches!(c, Some(' ' | '\t'))
}

#[derive(Default)]
struct Analysis {
    multiline: bool,
    flow_plain: bool,
    block_plain: bool,
    single: bool,
    block: bool,
}

fn analyze(s: &str) -> Analysis {
    let chars: Vec<char> = s.chars().collect();
    if chars.is_empty() {
        return Analysis {
            multiline: false,
            flow_plain: false,
            block_plain: true,
            single: true,
            block: false,
        };
    }
    let (mut block_ind, mut flow_ind) = (false, false);
    if s.starts_with("---") || s.starts_with("...") {
        block_ind = true;
        flow_ind = true;
    }
    let (mut line_breaks, mut special) = (false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
        (false, false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut prev_space, mut prev_break) = (false, false);
    let mut preceded_by_ws = true;
    let n = chars.len();
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let followed_by_ws = i + 1 >= n || is_blank(next);
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => {
                    flow_ind = true;
                    block_ind = true;
                }
                '?' | ':' => {
                    flow_ind = true;
                    if followed_by_ws {
                        block_ind = true;
                    }
                }
                '-' if followed_by_ws => {
                    flow_ind = true;
                    block_ind = true;
                }
                _ => {}
            }
        } else {
            match c {
                ',' | '?' | '[' | ']' | '{' | '}' => flow_ind = true,
                ':' => {
                    flow_ind = true;
                    if followed_by_ws {
                        block_ind = true;
                    }
                }
                '#' if preceded_by_ws => {
                    flow_ind = true;
                    block_ind = true;
                }
                _ => {}
            }
        }
        if !printable(c) {
            special = true;
        }
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i + 1 == n {
                trailing_space = true;
            }
            if prev_break {
                break_space = true;
            }
            prev_space = true;
            prev_break = false;
        } else if is_break(c) {
            line_breaks = true;
            if i == 0 {
                leading_break = true;
            }
            if i + 1 == n {
                trailing_break = true;
            }
            if prev_space {
                space_break = true;
            }
            prev_space = false;
            prev_break = true;
        } else {
            prev_space = false;
            prev_break = false;
        }
        preceded_by_ws = matches!(c, ' ' | '\t' | '\0') || is_break(c);
    }
    let mut a = Analysis {
        multiline: line_breaks,
        flow_plain: true,
        block_plain: true,
        single: true,
        block: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.flow_plain = false;
        a.block_plain = false;
    }
    if trailing_space {
        a.block = false;
    }
    if break_space {
        a.flow_plain = false;
        a.block_plain = false;
        a.single = false;
    }
    if space_break || special {
        a.flow_plain = false;
        a.block_plain = false;
        a.single = false;
        a.block = false;
    }
    if line_breaks {
        a.flow_plain = false;
        a.block_plain = false;
    }
    if flow_ind {
        a.flow_plain = false;
    }
    if block_ind {
        a.block_plain = false;
    }
    a
}

impl Emitter {
    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn write_str(&mut self, s: &str) {
        for c in s.chars() {
            self.put(c);
        }
    }

    fn write_indent(&mut self) {
        let indent = usize::try_from(self.indent.max(0)).unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, ind: &str, need_ws: bool, is_ws: bool, is_indention: bool) {
        if need_ws && !self.whitespace {
            self.put(' ');
        }
        self.write_str(ind);
        self.whitespace = is_ws;
        self.indention = self.indention && is_indention;
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn node(&mut self, v: &Value, mapping_ctx: bool, simple_key: bool) {
        match v {
            Value::Object(m) if !m.is_empty() => self.block_mapping(m),
            Value::Array(a) if !a.is_empty() => self.block_sequence(a, mapping_ctx),
            Value::Object(_) => {
                self.write_indicator("{", true, true, false);
                self.write_indicator("}", false, false, false);
            }
            Value::Array(_) => {
                self.write_indicator("[", true, true, false);
                self.write_indicator("]", false, false, false);
            }
            Value::Null => self.scalar("null", Style::Plain, simple_key),
            Value::Bool(b) => {
                self.scalar(if *b { "true" } else { "false" }, Style::Plain, simple_key)
            }
            Value::Number(n) => self.scalar(&format_number(n), Style::Plain, simple_key),
            Value::String(s) => {
                let style = if s.contains('\n') {
                    Style::Literal
                } else if can_use_plain(s) {
                    Style::Plain
                } else {
                    Style::Double
                };
                self.scalar(s, style, simple_key);
            }
        }
    }

    fn block_mapping(&mut self, m: &Map<String, Value>) {
        let saved = self.indent;
        self.increase_indent(false, false);
        for (k, v) in m {
            self.write_indent();
            let key = Value::String(k.clone());
            self.node(&key, false, true);
            self.write_indicator(":", false, false, false);
            self.node(v, true, false);
        }
        self.indent = saved;
    }

    fn block_sequence(&mut self, a: &[Value], mapping_ctx: bool) {
        let saved = self.indent;
        let indentless = mapping_ctx && !self.indention;
        self.increase_indent(false, indentless);
        for v in a {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(v, false, false);
        }
        self.indent = saved;
    }

    fn scalar(&mut self, s: &str, requested: Style, simple_key: bool) {
        let a = analyze(s);
        let mut style = requested;
        if simple_key && a.multiline {
            style = Style::Double;
        }
        if style == Style::Plain {
            if !a.block_plain {
                style = Style::Single;
            }
            if s.is_empty() && simple_key {
                style = Style::Single;
            }
        }
        if style == Style::Single && !a.single {
            style = Style::Double;
        }
        if style == Style::Literal && (!a.block || simple_key) {
            style = Style::Double;
        }
        let saved = self.indent;
        self.increase_indent(true, false);
        match style {
            Style::Plain => self.plain(s),
            Style::Single => self.single(s),
            Style::Double => self.double(s),
            Style::Literal => self.literal(s),
        }
        self.indent = saved;
    }

    fn plain(&mut self, s: &str) {
        if !s.is_empty() && !self.whitespace {
            self.put(' ');
        }
        // A plain scalar has no line breaks (those are literal blocks), and
        // with no line width nothing is folded.
        self.write_str(s);
        if !s.is_empty() {
            self.whitespace = false;
        }
        self.indention = false;
    }

    fn single(&mut self, s: &str) {
        self.write_indicator("'", true, false, false);
        let mut breaks = false;
        for c in s.chars() {
            if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.put_break();
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn double(&mut self, s: &str) {
        self.write_indicator("\"", true, false, false);
        for c in s.chars() {
            if !printable(c) || c == '\u{feff}' || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let u = u32::from(c);
                match c {
                    '\0' => self.put('0'),
                    '\u{7}' => self.put('a'),
                    '\u{8}' => self.put('b'),
                    '\t' => self.put('t'),
                    '\n' => self.put('n'),
                    '\u{b}' => self.put('v'),
                    '\u{c}' => self.put('f'),
                    '\r' => self.put('r'),
                    '\u{1b}' => self.put('e'),
                    '"' => self.put('"'),
                    '\\' => self.put('\\'),
                    '\u{85}' => self.put('N'),
                    '\u{a0}' => self.put('_'),
                    '\u{2028}' => self.put('L'),
                    '\u{2029}' => self.put('P'),
                    _ => {
                        let (tag, width) = if u <= 0xFF {
                            ('x', 2)
                        } else if u <= 0xFFFF {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(tag);
                        self.write_str(&format!("{u:0width$X}"));
                    }
                }
            } else {
                self.put(c);
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn literal(&mut self, s: &str) {
        self.write_indicator("|", true, false, false);
        let chars: Vec<char> = s.chars().collect();
        if chars.first().is_some_and(|c| *c == ' ' || is_break(*c)) {
            self.write_indicator(&BEST_INDENT.to_string(), false, false, false);
        }
        let chomp = match chars.as_slice() {
            [] => Some("-"),
            [.., last] if !is_break(*last) => Some("-"),
            [_] => Some("+"),
            [.., prev, _] if is_break(*prev) => Some("+"),
            _ => None,
        };
        if let Some(c) = chomp {
            self.write_indicator(c, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for &c in &chars {
            if is_break(c) {
                self.put_break();
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prints_like_go_yaml_v2() {
        let v = json!({
            "a": {"b": [1, {"c": "", "d": []}], "e": {}},
            "f": 1.0,
            "g": "some text",
            "h": "true",
            "i": "a: b",
            "j": "multi\nline",
            "k": [[1, 2]],
            "l": "it's: x",
            "m": null,
            "n": 1e21,
        });
        assert_eq!(
            to_yaml(&v),
            "a:\n  b:\n  - 1\n  - c: \"\"\n    d: []\n  e: {}\nf: 1\ng: some text\nh: \"true\"\ni: 'a: b'\nj: |-\n  multi\n  line\nk:\n- - 1\n  - 2\nl: 'it''s: x'\nm: null\n\"n\": 1e+21\n"
        );
    }

    #[test]
    fn never_folds_long_scalars() {
        let long = "word ".repeat(30);
        let v = json!({"description": long.trim_end(), "q": format!("{}: x", long.trim_end())});
        let out = to_yaml(&v);
        assert_eq!(out.lines().count(), 2, "{out}");
    }
}
