//! A ytt file read as ytt's `yamlmeta` reads it: documents, maps, map
//! items and array items with their lines, and the `#@` annotations of
//! each node.
//!
//! Scalars resolve as go-yaml v2 resolves plain scalars (YAML 1.1: `yes`,
//! `on` and `y` are booleans, `1_000` and `0x1f` integers), which is what
//! ytt uses when not in strict mode. Quoted and block scalars are strings.
//!
//! Comments are found in the text (the event stream does not carry them)
//! and given to nodes as ytt does: a comment belongs to the first node on
//! its line or below; on its own line, to the outermost node of that line;
//! at the end of a line, to the innermost. A document is on the line of its
//! `---`, a map item on the line of its key, an array item on the line of
//! its `-`.

use std::collections::BTreeMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};
use serde_json::{Number, Value};

use super::error::{Frame, YttError};
use super::starlark::{Args, parse_args};
use schema_core::model::source::{self, Limits};

/// Deepest nesting of maps and arrays accepted in a schema.
pub const MAX_NESTING: usize = 100;

/// Most nodes an input may expand to (aliases included).
const MAX_NODES: usize = 1_000_000;

/// One `#@name args` annotation.
#[derive(Clone, Debug)]
pub(crate) struct Ann {
    pub name: String,
    pub args: Args,
    pub line: usize,
}

/// The value of a node.
#[derive(Clone, Debug)]
pub(crate) enum SrcValue {
    Scalar(Value),
    Map(Vec<SrcItem>),
    Array(Vec<SrcItem>),
}

/// A map item (with a key) or an array item.
#[derive(Clone, Debug)]
pub(crate) struct SrcItem {
    pub key: Option<String>,
    pub line: usize,
    pub value: SrcValue,
    pub anns: Vec<Ann>,
}

/// One YAML document.
#[derive(Clone, Debug)]
pub(crate) struct SrcDoc {
    /// The line of its `---`; 0 for a first document without one.
    pub line: usize,
    pub value: SrcValue,
    pub anns: Vec<Ann>,
    /// Whether the document has no content at all.
    pub empty: bool,
}

/// A file: its documents and its lines (for error excerpts).
#[derive(Clone, Debug)]
pub(crate) struct SrcFile {
    pub name: String,
    pub lines: Vec<String>,
    pub docs: Vec<SrcDoc>,
}

impl SrcFile {
    /// The text of line `n` (1-based), as ytt shows it in excerpts.
    pub(crate) fn line(&self, n: usize) -> String {
        n.checked_sub(1)
            .and_then(|i| self.lines.get(i))
            .cloned()
            .unwrap_or_default()
    }
}

impl SrcValue {
    /// The value as plain data, as written.
    pub(crate) fn to_json(&self) -> Value {
        match self {
            SrcValue::Scalar(v) => v.clone(),
            SrcValue::Map(items) => Value::Object(
                items
                    .iter()
                    .map(|i| (i.key.clone().unwrap_or_default(), i.value.to_json()))
                    .collect(),
            ),
            SrcValue::Array(items) => {
                Value::Array(items.iter().map(|i| i.value.to_json()).collect())
            }
        }
    }
}

enum Building {
    Map {
        items: Vec<SrcItem>,
        key: Option<(String, usize)>,
        anchor: usize,
        start: Span,
    },
    Seq {
        items: Vec<SrcItem>,
        anchor: usize,
        start: Span,
    },
}

/// Reads `bytes` as a ytt file named `name`.
pub(crate) fn read(name: &str, bytes: &[u8]) -> Result<SrcFile, YttError> {
    // The shared reader checks encoding, syntax and limits, and reports
    // them with positions; the walk below can then trust the input.
    source::parse_documents(name, bytes, &Limits::default()).map_err(YttError::Source)?;
    let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
        .map_err(|e| syntax(name, 1, &format!("invalid UTF-8: {e}")))?;
    let lines: Vec<String> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect();
    // Lines as the parser counts characters (a `\r` before `\n` included).
    let line_chars: Vec<Vec<char>> = text.split('\n').map(|l| l.chars().collect()).collect();

    let mut masks: Vec<(usize, usize)> = Vec::new();
    let mut docs = Vec::new();
    let mut stack: Vec<Building> = Vec::new();
    let mut anchors: BTreeMap<usize, SrcValue> = BTreeMap::new();
    let mut doc_line = 0usize;
    let mut nodes = 0usize;
    let mut root: Option<SrcValue> = None;

    let mut parser = Parser::new_from_str(text);
    while let Some(ev) = parser.next_event() {
        let (ev, span) = ev.map_err(|e| syntax(name, e.marker().line(), e.info()))?;
        let start_line = span.start.line();
        let completed: Option<(SrcValue, Span, usize)> = match ev {
            Event::DocumentStart(explicit) => {
                doc_line = if explicit { start_line } else { 0 };
                root = None;
                anchors.clear();
                None
            }
            Event::DocumentEnd => {
                let empty = root.is_none();
                docs.push(SrcDoc {
                    line: doc_line,
                    value: root.take().unwrap_or(SrcValue::Scalar(Value::Null)),
                    anns: Vec::new(),
                    empty,
                });
                None
            }
            Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_NESTING {
                    return Err(syntax(
                        name,
                        start_line,
                        &format!("nesting deeper than {MAX_NESTING} levels is not supported"),
                    ));
                }
                stack.push(Building::Map {
                    items: Vec::new(),
                    key: None,
                    anchor,
                    start: span,
                });
                None
            }
            Event::SequenceStart(anchor, _) => {
                if stack.len() >= MAX_NESTING {
                    return Err(syntax(
                        name,
                        start_line,
                        &format!("nesting deeper than {MAX_NESTING} levels is not supported"),
                    ));
                }
                stack.push(Building::Seq {
                    items: Vec::new(),
                    anchor,
                    start: span,
                });
                None
            }
            Event::MappingEnd => match stack.pop() {
                Some(Building::Map {
                    items,
                    anchor,
                    start,
                    ..
                }) => Some((SrcValue::Map(items), start, anchor)),
                _ => return Err(syntax(name, start_line, "unbalanced mapping")),
            },
            Event::SequenceEnd => match stack.pop() {
                Some(Building::Seq {
                    items,
                    anchor,
                    start,
                }) => Some((SrcValue::Array(items), start, anchor)),
                _ => return Err(syntax(name, start_line, "unbalanced sequence")),
            },
            Event::Scalar(value, style, anchor, tag) => {
                let end = match style {
                    // The parser's span of a quoted scalar runs on past
                    // the closing quote; find the quote.
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => quoted_end(
                        &line_chars,
                        span.start.line(),
                        span.start.col(),
                        span.start.index(),
                    ),
                    _ => span.end.index(),
                };
                if end > span.start.index() {
                    masks.push((span.start.index(), end));
                }
                let tag_suffix = tag.as_ref().map(|t| t.suffix.clone());
                let v = match (style, tag_suffix.as_deref()) {
                    (_, Some("str")) => Value::String(value.to_string()),
                    (ScalarStyle::Plain, _) => {
                        resolve_plain(&value).map_err(|m| syntax(name, start_line, &m))?
                    }
                    _ => Value::String(value.to_string()),
                };
                Some((SrcValue::Scalar(v), span, anchor))
            }
            Event::Alias(id) => {
                let v = anchors
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| syntax(name, start_line, "alias to an unknown anchor"))?;
                nodes += count_nodes(&v);
                if nodes > MAX_NODES {
                    return Err(syntax(
                        name,
                        start_line,
                        "too many nodes (aliases expand too far)",
                    ));
                }
                Some((v, span, 0))
            }
            Event::StreamStart | Event::StreamEnd | Event::Nothing => None,
        };
        let Some((value, span, anchor)) = completed else {
            continue;
        };
        nodes += 1;
        if nodes > MAX_NODES {
            return Err(syntax(name, start_line, "too many nodes"));
        }
        if anchor > 0 {
            anchors.insert(anchor, value.clone());
        }
        attach(name, &mut stack, &mut root, value, span, &line_chars)?;
    }

    let comments = find_comments(&line_chars, &mut masks);
    let mut file = SrcFile {
        name: name.to_string(),
        lines,
        docs,
    };
    assign_comments(&mut file, comments)?;
    Ok(file)
}

fn syntax(name: &str, line: usize, message: &str) -> YttError {
    YttError::Syntax {
        file: name.to_string(),
        line,
        message: message.to_string(),
    }
}

fn count_nodes(v: &SrcValue) -> usize {
    let mut n = 0;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        n += 1;
        if let SrcValue::Map(items) | SrcValue::Array(items) = v {
            stack.extend(items.iter().map(|i| &i.value));
        }
    }
    n
}

/// Adds a completed value (whose start is `span`) to its parent.
fn attach(
    name: &str,
    stack: &mut [Building],
    root: &mut Option<SrcValue>,
    value: SrcValue,
    span: Span,
    lines: &[Vec<char>],
) -> Result<(), YttError> {
    let start_line = span.start.line();
    match stack.last_mut() {
        None => {
            *root = Some(value);
        }
        Some(Building::Map { items, key, .. }) => match key.take() {
            None => {
                let k = match value {
                    SrcValue::Scalar(Value::String(s)) => s,
                    SrcValue::Scalar(Value::Null) => {
                        return Err(syntax(name, start_line, "a map key must not be null"));
                    }
                    SrcValue::Scalar(Value::Bool(b)) => b.to_string(),
                    SrcValue::Scalar(Value::Number(n)) => schema_core::go::fmt::format_number(&n),
                    _ => {
                        return Err(syntax(name, start_line, "a map key must be a scalar"));
                    }
                };
                if k == "<<" {
                    return Err(syntax(
                        name,
                        start_line,
                        "merge keys (<<) are not supported in a schema",
                    ));
                }
                *key = Some((k, start_line));
            }
            Some((k, key_line)) => items.push(SrcItem {
                key: Some(k),
                line: key_line,
                value,
                anns: Vec::new(),
            }),
        },
        Some(Building::Seq { items, .. }) => {
            let line = item_line(lines, span.start.line(), span.start.col());
            items.push(SrcItem {
                key: None,
                line,
                value,
                anns: Vec::new(),
            });
        }
    }
    Ok(())
}

/// The line of the `-` of an array item whose value starts at `line`
/// (1-based) and `col` (0-based): that line if anything precedes the value
/// on it, else the closest line above that is neither blank nor only a
/// comment.
fn item_line(lines: &[Vec<char>], line: usize, col: usize) -> usize {
    let before_blank = lines
        .get(line.saturating_sub(1))
        .map(|l| l.iter().take(col).all(|c| matches!(c, ' ' | '\t' | '\r')))
        .unwrap_or(true);
    if !before_blank {
        return line;
    }
    let mut l = line.saturating_sub(1);
    while l >= 1 {
        let text = lines.get(l - 1).map(|l| l.as_slice()).unwrap_or_default();
        let first = text.iter().find(|c| !matches!(c, ' ' | '\t' | '\r'));
        match first {
            None | Some('#') => l -= 1,
            Some(_) => return l,
        }
    }
    line
}

/// The character index just past the closing quote of the quoted scalar
/// that starts at `line` (1-based), `col` (0-based), character `index`.
fn quoted_end(lines: &[Vec<char>], line: usize, col: usize, index: usize) -> usize {
    let mut l = line.saturating_sub(1);
    let mut c = col;
    let mut at = index;
    let Some(q) = lines.get(l).and_then(|chars| chars.get(c)).copied() else {
        return index;
    };
    c += 1;
    at += 1;
    while let Some(chars) = lines.get(l) {
        while let Some(&ch) = chars.get(c) {
            if q == '"' && ch == '\\' {
                c += 2;
                at += 2;
                continue;
            }
            if ch == q {
                if q == '\'' && chars.get(c + 1) == Some(&'\'') {
                    c += 2;
                    at += 2;
                    continue;
                }
                return at + 1;
            }
            c += 1;
            at += 1;
        }
        // On to the next line (an escape may have skipped the newline).
        at = (at + chars.len() + 1).saturating_sub(c);
        l += 1;
        c = 0;
    }
    at
}

/// Plain-scalar resolution of go-yaml v2.
pub(crate) fn resolve_plain(s: &str) -> Result<Value, String> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Ok(Value::Bool(true));
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Ok(Value::Bool(false));
        }
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF"
        | "-.inf" | "-.Inf" | "-.INF" => {
            return Err(format!(
                "the float {s} cannot be represented in a data value"
            ));
        }
        _ => {}
    }
    match plain_kind(s) {
        PlainKind::Int(i) => Ok(Value::Number(i.into())),
        PlainKind::Uint(u) => Ok(Value::Number(u.into())),
        PlainKind::Float(f) => Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| format!("the float {s} cannot be represented in a data value")),
        PlainKind::Str | PlainKind::Other => Ok(Value::String(s.to_string())),
    }
}

/// What a plain scalar resolves to in go-yaml v2, beyond its fixed words.
pub(crate) enum PlainKind {
    Int(i64),
    Uint(u64),
    Float(f64),
    /// A timestamp (kept as a string when read, but quoted when written).
    Other,
    Str,
}

pub(crate) fn plain_kind(s: &str) -> PlainKind {
    let Some(first) = s.chars().next() else {
        return PlainKind::Str;
    };
    if first == '.' {
        return match s.parse::<f64>() {
            Ok(f) if go_float_syntax(s) => PlainKind::Float(f),
            _ => PlainKind::Str,
        };
    }
    if !(first.is_ascii_digit() || first == '+' || first == '-') {
        return PlainKind::Str;
    }
    if is_timestamp(s) {
        return PlainKind::Other;
    }
    let plain: String = s.chars().filter(|c| *c != '_').collect();
    if let Some(i) = go_parse_int(&plain) {
        return match i {
            Ok(i) => PlainKind::Int(i),
            Err(u) => PlainKind::Uint(u),
        };
    }
    if yaml_style_float(&plain) {
        if let Ok(f) = plain.parse::<f64>() {
            return PlainKind::Float(f);
        }
    }
    PlainKind::Str
}

fn go_float_syntax(s: &str) -> bool {
    // strconv.ParseFloat on a string starting with '.': digits, an optional
    // exponent (underscores are not accepted without a base prefix).
    let rest = s.strip_prefix('.').unwrap_or(s);
    let (mant, exp) = match rest.find(['e', 'E']) {
        Some(i) => (
            rest.get(..i).unwrap_or(""),
            Some(rest.get(i + 1..).unwrap_or("")),
        ),
        None => (rest, None),
    };
    !mant.is_empty()
        && mant.chars().all(|c| c.is_ascii_digit())
        && exp.is_none_or(|e| {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
        })
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn yaml_style_float(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(i) => (s.get(..i).unwrap_or(""), Some(s.get(i + 1..).unwrap_or(""))),
        None => (s, None),
    };
    let mant_ok = if let Some(frac) = mant.strip_prefix('.') {
        !frac.is_empty() && frac.chars().all(|c| c.is_ascii_digit())
    } else {
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        !int.is_empty()
            && int.chars().all(|c| c.is_ascii_digit())
            && frac.chars().all(|c| c.is_ascii_digit())
    };
    mant_ok
        && exp.is_none_or(|e| {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
        })
}

/// Go's `strconv.ParseInt(s, 0, 64)`, then `ParseUint`: `Ok` for an int64,
/// `Err` for a uint64 beyond it, `None` when neither parses.
fn go_parse_int(s: &str) -> Option<Result<i64, u64>> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, lower.get(1..).unwrap_or(""))
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let mag = u128::from_str_radix(digits, radix).ok()?;
    if neg {
        let v = -i128::try_from(mag).ok()?;
        i64::try_from(v).ok().map(Ok)
    } else if let Ok(i) = i64::try_from(mag) {
        Some(Ok(i))
    } else {
        u64::try_from(mag).ok().map(Err)
    }
}

/// go-yaml v2's timestamp forms: `2006-1-2`, optionally followed by a time.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits != 4 || b.get(4) != Some(&b'-') {
        return false;
    }
    let rest = s.get(5..).unwrap_or("");
    let (date, time) = match rest.find(['T', 't', ' ', '\t']) {
        Some(i) => (
            rest.get(..i).unwrap_or(""),
            Some(rest.get(i..).unwrap_or("")),
        ),
        None => (rest, None),
    };
    let mut parts = date.split('-');
    let ok_num = |p: Option<&str>, max: u32| {
        p.is_some_and(|p| {
            (1..=2).contains(&p.len())
                && p.chars().all(|c| c.is_ascii_digit())
                && p.parse::<u32>().is_ok_and(|v| (1..=max).contains(&v))
        })
    };
    if !ok_num(parts.next(), 12) || !ok_num(parts.next(), 31) || parts.next().is_some() {
        return false;
    }
    let Some(time) = time else { return true };
    let time = time.trim_start_matches([' ', '\t', 'T', 't']);
    let clock: String = time
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ':' || *c == '.')
        .collect();
    let mut hms = clock.split('.').next().unwrap_or("").split(':');
    let ok_clock = |p: Option<&str>, max: u32| {
        p.is_some_and(|p| {
            (1..=2).contains(&p.len())
                && p.chars().all(|c| c.is_ascii_digit())
                && p.parse::<u32>().is_ok_and(|v| v <= max)
        })
    };
    ok_clock(hms.next(), 23) && ok_clock(hms.next(), 59) && ok_clock(hms.next(), 59)
}

/// Comments: `(line, text after '#')`, for every `#` that starts a comment
/// (at a line start or after a blank, outside every scalar).
fn find_comments(lines: &[Vec<char>], masks: &mut [(usize, usize)]) -> Vec<(usize, String)> {
    masks.sort_unstable();
    let mut out = Vec::new();
    let mut index = 0usize;
    let mut m = 0usize;
    for (ln, chars) in lines.iter().enumerate() {
        let line_start = index;
        let mut col = 0usize;
        while let Some(&c) = chars.get(col) {
            let at = line_start + col;
            while masks.get(m).is_some_and(|(_, end)| *end <= at) {
                m += 1;
            }
            let masked = masks.get(m).is_some_and(|(s, e)| *s <= at && at < *e);
            if c == '#'
                && !masked
                && (col == 0 || chars.get(col - 1).is_some_and(|p| *p == ' ' || *p == '\t'))
            {
                let text: String = chars.get(col + 1..).unwrap_or_default().iter().collect();
                out.push((ln + 1, text.trim_end_matches('\r').to_string()));
                break;
            }
            col += 1;
        }
        // Characters of the line plus its '\n' (a '\r' before it was
        // stripped from the line and counts too).
        index = line_start + chars.len() + 1;
    }
    out
}

/// One node of the tree, for comment assignment: its line and where its
/// annotations go.
enum Slot {
    Doc(usize),
    Item(Vec<usize>, usize),
}

fn assign_comments(file: &mut SrcFile, comments: Vec<(usize, String)>) -> Result<(), YttError> {
    // Nodes by line, in pre-order; a first document without `---` has no
    // line.
    let mut at_line: BTreeMap<usize, Vec<(usize, Vec<usize>)>> = BTreeMap::new();
    for (d, doc) in file.docs.iter().enumerate() {
        if doc.line > 0 {
            at_line.entry(doc.line).or_default().push((d, Vec::new()));
        }
        let mut stack: Vec<(Vec<usize>, &SrcValue)> = vec![(Vec::new(), &doc.value)];
        // Pre-order: children pushed in reverse.
        while let Some((path, v)) = stack.pop() {
            if let SrcValue::Map(items) | SrcValue::Array(items) = v {
                for (i, item) in items.iter().enumerate().rev() {
                    let mut p = path.clone();
                    p.push(i);
                    stack.push((p, &item.value));
                }
                // Record this level's items in order (pre-order across
                // levels is kept by the line, then by insertion).
                for (i, item) in items.iter().enumerate() {
                    let mut p = path.clone();
                    p.push(i);
                    at_line.entry(item.line).or_default().push((d, p));
                }
            }
        }
    }
    // Within a line, outer nodes come first.
    for nodes in at_line.values_mut() {
        nodes.sort_by_key(|(_, p)| p.len());
    }
    for (line, text) in comments {
        let Some(rest) = text.strip_prefix('@') else {
            continue; // `#!` and plain comments
        };
        let (ann_name, args_text) = match rest.find([' ', '\t']) {
            Some(i) => (rest.get(..i).unwrap_or(""), rest.get(i..).unwrap_or("")),
            None => (rest, ""),
        };
        if ann_name.is_empty() {
            return Err(YttError::Unsupported {
                file: file.name.clone(),
                line,
                message:
                    "Starlark code (#@ ...) is not supported in a schema; only annotations are"
                        .to_string(),
            });
        }
        let Some((owner_line, nodes)) = at_line.range(line..).next() else {
            continue;
        };
        let owner = if *owner_line == line {
            nodes.last()
        } else {
            nodes.first()
        };
        let Some((d, path)) = owner.cloned() else {
            continue;
        };
        let args = parse_args(args_text).map_err(|m| YttError::Annotation {
            file: file.name.clone(),
            line,
            name: ann_name.to_string(),
            message: m,
        })?;
        let ann = Ann {
            name: ann_name.to_string(),
            args,
            line,
        };
        let slot = if path.is_empty() {
            Slot::Doc(d)
        } else {
            Slot::Item(path, d)
        };
        match slot {
            Slot::Doc(d) => {
                if let Some(doc) = file.docs.get_mut(d) {
                    push_ann(&mut doc.anns, ann);
                }
            }
            Slot::Item(path, d) => {
                if let Some(item) = file
                    .docs
                    .get_mut(d)
                    .and_then(|doc| item_at(&mut doc.value, &path))
                {
                    push_ann(&mut item.anns, ann);
                }
            }
        }
    }
    Ok(())
}

/// A later annotation of the same name replaces an earlier one.
fn push_ann(anns: &mut Vec<Ann>, ann: Ann) {
    anns.retain(|a| a.name != ann.name);
    anns.push(ann);
}

fn item_at<'a>(v: &'a mut SrcValue, path: &[usize]) -> Option<&'a mut SrcItem> {
    let (first, rest) = path.split_first()?;
    let item = match v {
        SrcValue::Map(items) | SrcValue::Array(items) => items.get_mut(*first)?,
        SrcValue::Scalar(_) => return None,
    };
    if rest.is_empty() {
        Some(item)
    } else {
        item_at(&mut item.value, rest)
    }
}

/// The excerpt frame of a node.
pub(crate) fn frame(file: &SrcFile, ann_lines: &[usize], line: usize) -> Frame {
    Frame {
        file: file.name.clone(),
        ann_lines: ann_lines.iter().map(|l| (*l, file.line(*l))).collect(),
        line: (line, file.line(line)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;

    #[test]
    fn resolves_like_go_yaml_v2() {
        assert_eq!(resolve_plain("yes").unwrap(), Value::Bool(true));
        assert_eq!(resolve_plain("1_000").unwrap(), serde_json::json!(1000));
        assert_eq!(resolve_plain("0x1f").unwrap(), serde_json::json!(31));
        assert_eq!(resolve_plain("0.0").unwrap(), serde_json::json!(0.0));
        assert_eq!(resolve_plain(".5").unwrap(), serde_json::json!(0.5));
        assert_eq!(
            resolve_plain("2001-12-14").unwrap(),
            serde_json::json!("2001-12-14")
        );
        assert_eq!(resolve_plain("1.2.3").unwrap(), serde_json::json!("1.2.3"));
        assert!(resolve_plain(".inf").is_err());
    }

    #[test]
    fn assigns_comments_like_ytt() {
        let src = "#@data/values-schema\n---\ndb:\n#@schema/title \"entry\"\n-\n  #@schema/title \"host\"\n  host: \"#x\" #@schema/desc \"d\"\n  p: |\n    #@schema/nullable\n";
        let f = read("s.yml", src.as_bytes()).unwrap();
        let doc = f.docs.first().unwrap();
        assert_eq!(doc.line, 2);
        assert_eq!(doc.anns.len(), 1);
        let SrcValue::Map(items) = &doc.value else {
            panic!()
        };
        let SrcValue::Array(arr) = &items[0].value else {
            panic!()
        };
        assert_eq!(arr[0].line, 5);
        assert_eq!(arr[0].anns[0].name, "schema/title");
        let SrcValue::Map(inner) = &arr[0].value else {
            panic!()
        };
        assert_eq!(inner[0].anns.len(), 2);
        assert!(inner[1].anns.is_empty());
    }
}
