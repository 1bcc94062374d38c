//! The arguments of a ytt annotation: the part of `#@name <args>` after
//! the name, which ytt evaluates as the arguments of a Starlark call.
//!
//! Only the literal subset schemas use is evaluated: `None`, `True`,
//! `False`, integers (decimal, `0x`, `0o`, `0b`), floats, strings (single,
//! double and triple quoted, raw strings, Starlark's escapes), lists,
//! tuples, dicts, a leading `+`/`-` on numbers, and keyword arguments
//! (`name=value`). A `lambda` (for `@schema/validation` rules and `when=`)
//! and the names of Starlark's built-in functions are kept as opaque
//! function values. Anything else (operators, calls, undefined names) is an
//! error naming the construct, never a guess.

use serde_json::{Map, Number, Value};

/// Deepest nesting of brackets accepted in one annotation.
const MAX_BRACKET_NESTING: usize = 64;

/// A Starlark value as the literal subset produces it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SValue {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<SValue>),
    Tuple(Vec<SValue>),
    Dict(Vec<(SValue, SValue)>),
    /// A `lambda` (its source text).
    Lambda(String),
    /// A built-in function, by name.
    Builtin(String),
}

impl SValue {
    /// Starlark's `type(v)`.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            SValue::None => "NoneType",
            SValue::Bool(_) => "bool",
            SValue::Int(_) => "int",
            SValue::Float(_) => "float",
            SValue::Str(_) => "string",
            SValue::List(_) => "list",
            SValue::Tuple(_) => "tuple",
            SValue::Dict(_) => "dict",
            SValue::Lambda(_) => "function",
            SValue::Builtin(_) => "builtin_function_or_method",
        }
    }

    /// The Go type of the value in starlark-go, as `%T` prints it.
    pub(crate) fn go_type(&self) -> &'static str {
        match self {
            SValue::None => "starlark.NoneType",
            SValue::Bool(_) => "starlark.Bool",
            SValue::Int(_) => "starlark.Int",
            SValue::Float(_) => "starlark.Float",
            SValue::Str(_) => "starlark.String",
            SValue::List(_) => "*starlark.List",
            SValue::Tuple(_) => "starlark.Tuple",
            SValue::Dict(_) => "*starlark.Dict",
            SValue::Lambda(_) => "*starlark.Function",
            SValue::Builtin(_) => "*starlark.Builtin",
        }
    }

    /// The value as data (ytt's `AsGoValue`): lists and tuples become
    /// arrays, dicts objects (keys in insertion order; non-string keys in
    /// their YAML form).
    pub(crate) fn to_json(&self) -> Result<Value, String> {
        Ok(match self {
            SValue::None => Value::Null,
            SValue::Bool(b) => Value::Bool(*b),
            SValue::Int(i) => Value::Number((*i).into()),
            SValue::Float(f) => Value::Number(
                Number::from_f64(*f)
                    .ok_or_else(|| format!("the float {f} cannot be represented"))?,
            ),
            SValue::Str(s) => Value::String(s.clone()),
            SValue::List(items) | SValue::Tuple(items) => Value::Array(
                items
                    .iter()
                    .map(SValue::to_json)
                    .collect::<Result<_, _>>()?,
            ),
            SValue::Dict(entries) => {
                let mut m = Map::new();
                for (k, v) in entries {
                    let key = match k {
                        SValue::Str(s) => s.clone(),
                        SValue::Int(i) => i.to_string(),
                        SValue::Bool(b) => b.to_string(),
                        SValue::Float(f) => schema_core::go::fmt::format_float(*f),
                        SValue::None => "null".to_string(),
                        other => {
                            return Err(format!(
                                "a {} cannot be a key of a data value",
                                other.type_name()
                            ));
                        }
                    };
                    m.insert(key, v.to_json()?);
                }
                Value::Object(m)
            }
            SValue::Lambda(_) | SValue::Builtin(_) => {
                return Err(format!("a {} is not a data value", self.type_name()));
            }
        })
    }
}

/// The evaluated arguments of one annotation.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Args {
    pub positional: Vec<SValue>,
    pub kwargs: Vec<(String, SValue)>,
}

/// Starlark's built-in functions (the universe block plus ytt's
/// additions); a bare name of one of them is a function value.
const BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "bool",
    "bytes",
    "chr",
    "dict",
    "dir",
    "enumerate",
    "fail",
    "float",
    "getattr",
    "hasattr",
    "hash",
    "int",
    "len",
    "list",
    "max",
    "min",
    "ord",
    "print",
    "range",
    "repr",
    "reversed",
    "set",
    "sorted",
    "str",
    "tuple",
    "type",
    "zip",
];

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Float(f64),
    Str(String),
    Punct(char),
}

fn tokenize(src: &str) -> Result<Vec<(Tok, usize)>, String> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c == ' ' || c == '\t' || c == '\r' {
            i += 1;
            continue;
        }
        if c == '#' {
            break;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == '_' {
            let mut j = i;
            while chars
                .get(j)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
            {
                j += 1;
            }
            let word: String = chars.get(i..j).unwrap_or_default().iter().collect();
            let next = chars.get(j).copied();
            if matches!(next, Some('\'' | '"'))
                && matches!(word.as_str(), "r" | "R" | "b" | "rb" | "br" | "B")
            {
                let raw = word.contains(['r', 'R']);
                let (s, end) = string_literal(&chars, j, raw)?;
                out.push((Tok::Str(s), start));
                i = end;
                continue;
            }
            out.push((Tok::Ident(word), start));
            i = j;
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let (tok, end) = number(&chars, i)?;
            out.push((tok, start));
            i = end;
            continue;
        }
        if c == '\'' || c == '"' {
            let (s, end) = string_literal(&chars, i, false)?;
            out.push((Tok::Str(s), start));
            i = end;
            continue;
        }
        if "()[]{},:=+-*/%<>!.|&^~@;".contains(c) {
            out.push((Tok::Punct(c), start));
            i += 1;
            continue;
        }
        return Err(format!("unexpected character {c:?}"));
    }
    Ok(out)
}

fn number(chars: &[char], start: usize) -> Result<(Tok, usize), String> {
    let mut j = start;
    while chars
        .get(j)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '_')
        || (chars.get(j).is_some_and(|c| *c == '+' || *c == '-')
            && j > start
            && chars.get(j - 1).is_some_and(|c| *c == 'e' || *c == 'E')
            && !chars
                .get(start..j)
                .unwrap_or_default()
                .iter()
                .any(|c| *c == 'x' || *c == 'X'))
    {
        j += 1;
    }
    let text: String = chars.get(start..j).unwrap_or_default().iter().collect();
    let lower = text.to_ascii_lowercase();
    let parse_radix = |digits: &str, radix: u32| {
        i64::from_str_radix(digits, radix)
            .map_err(|_| format!("invalid or out of range integer literal {text}"))
    };
    let tok = if let Some(h) = lower.strip_prefix("0x") {
        Tok::Int(parse_radix(h, 16)?)
    } else if let Some(o) = lower.strip_prefix("0o") {
        Tok::Int(parse_radix(o, 8)?)
    } else if let Some(b) = lower.strip_prefix("0b") {
        Tok::Int(parse_radix(b, 2)?)
    } else if lower.contains(['.', 'e']) {
        let f: f64 = lower
            .parse()
            .map_err(|_| format!("invalid float literal {text}"))?;
        if !f.is_finite() {
            return Err(format!("float literal {text} is out of range"));
        }
        Tok::Float(f)
    } else {
        if lower.len() > 1 && lower.starts_with('0') {
            return Err(format!(
                "obsolete form of octal literal {text}; use 0o{}",
                lower.trim_start_matches('0')
            ));
        }
        Tok::Int(parse_radix(&lower, 10)?)
    };
    Ok((tok, j))
}

fn string_literal(chars: &[char], start: usize, raw: bool) -> Result<(String, usize), String> {
    let q = chars.get(start).copied().unwrap_or('"');
    let triple = chars.get(start + 1) == Some(&q) && chars.get(start + 2) == Some(&q);
    let mut i = if triple { start + 3 } else { start + 1 };
    let mut out = String::new();
    loop {
        let Some(&c) = chars.get(i) else {
            return Err("unterminated string literal".to_string());
        };
        if c == q {
            if !triple {
                return Ok((out, i + 1));
            }
            if chars.get(i + 1) == Some(&q) && chars.get(i + 2) == Some(&q) {
                return Ok((out, i + 3));
            }
        }
        if c == '\n' && !triple {
            return Err("unterminated string literal".to_string());
        }
        if c != '\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let Some(&e) = chars.get(i + 1) else {
            return Err("unterminated string literal".to_string());
        };
        if raw {
            out.push('\\');
            out.push(e);
            i += 2;
            continue;
        }
        i += 2;
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            '\n' => {}
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                let mut n = 1;
                while n < 3 {
                    match chars.get(i).and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            i += 1;
                            n += 1;
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).ok_or("invalid escape")?);
            }
            'x' | 'u' | 'U' => {
                let n = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = chars.get(i..i + n).unwrap_or_default().iter().collect();
                let v = u32::from_str_radix(&hex, 16)
                    .ok()
                    .filter(|_| hex.len() == n)
                    .ok_or_else(|| format!("invalid escape sequence \\{e}{hex}"))?;
                out.push(
                    char::from_u32(v)
                        .ok_or_else(|| format!("invalid Unicode code point {v:#x}"))?,
                );
                i += n;
            }
            other => return Err(format!("invalid escape sequence \\{other}")),
        }
    }
}

struct Parser<'a> {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    src: &'a str,
}

/// Parses and evaluates annotation arguments (the text after the name).
pub(crate) fn parse_args(src: &str) -> Result<Args, String> {
    let toks = tokenize(src)?;
    let mut p = Parser { toks, pos: 0, src };
    let mut args = Args::default();
    while p.peek().is_some() {
        if let (Some(Tok::Ident(name)), Some(Tok::Punct('='))) = (p.peek(), p.peek_at(1)) {
            if p.peek_at(2) != Some(&Tok::Punct('=')) {
                let name = name.clone();
                p.pos += 2;
                let v = p.expr(0)?;
                if args.kwargs.iter().any(|(k, _)| *k == name) {
                    return Err(format!("keyword argument {name} repeated"));
                }
                args.kwargs.push((name, v));
                if !p.comma_or_end()? {
                    break;
                }
                continue;
            }
        }
        if !args.kwargs.is_empty() {
            return Err("positional argument may not follow named".to_string());
        }
        let v = p.expr(0)?;
        args.positional.push(v);
        if !p.comma_or_end()? {
            break;
        }
    }
    Ok(args)
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(t, _)| t)
    }

    fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.toks.get(self.pos + n).map(|(t, _)| t)
    }

    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|(t, _)| t.clone());
        self.pos += 1;
        t
    }

    /// After an argument: `,` (true, more may follow) or the end (false).
    fn comma_or_end(&mut self) -> Result<bool, String> {
        match self.next() {
            None => Ok(false),
            Some(Tok::Punct(',')) => Ok(true),
            Some(t) => Err(unsupported(&t)),
        }
    }

    fn expr(&mut self, depth: usize) -> Result<SValue, String> {
        if depth > MAX_BRACKET_NESTING {
            return Err(format!("nesting deeper than {MAX_BRACKET_NESTING} levels"));
        }
        let v = self.primary(depth)?;
        match self.peek() {
            None | Some(Tok::Punct(',' | ')' | ']' | '}' | ':')) => Ok(v),
            Some(t) => Err(unsupported(t)),
        }
    }

    fn primary(&mut self, depth: usize) -> Result<SValue, String> {
        let Some(tok) = self.next() else {
            return Err("unexpected end of annotation arguments".to_string());
        };
        match tok {
            Tok::Int(i) => Ok(SValue::Int(i)),
            Tok::Float(f) => Ok(SValue::Float(f)),
            Tok::Str(mut s) => {
                // Adjacent string literals are not concatenated in Starlark.
                if let Some(Tok::Str(_)) = self.peek() {
                    return Err("adjacent string literals are not allowed".to_string());
                }
                s.shrink_to_fit();
                Ok(SValue::Str(s))
            }
            Tok::Punct(sign @ ('-' | '+')) => match self.primary(depth + 1)? {
                SValue::Int(i) if sign == '-' => i
                    .checked_neg()
                    .map(SValue::Int)
                    .ok_or_else(|| "integer out of range".to_string()),
                SValue::Float(f) if sign == '-' => Ok(SValue::Float(-f)),
                v @ (SValue::Int(_) | SValue::Float(_)) => Ok(v),
                other => Err(format!(
                    "unary {sign} is not defined for a {}",
                    other.type_name()
                )),
            },
            Tok::Punct('[') => Ok(SValue::List(self.sequence(']', depth)?.0)),
            Tok::Punct('(') => {
                let (items, trailing_comma) = self.sequence(')', depth)?;
                if items.len() == 1 && !trailing_comma {
                    Ok(items.into_iter().next().unwrap_or(SValue::None))
                } else {
                    Ok(SValue::Tuple(items))
                }
            }
            Tok::Punct('{') => self.dict(depth),
            Tok::Ident(name) => match name.as_str() {
                "None" => Ok(SValue::None),
                "True" => Ok(SValue::Bool(true)),
                "False" => Ok(SValue::Bool(false)),
                "lambda" => self.lambda(),
                _ if self.peek() == Some(&Tok::Punct('('))
                    || self.peek() == Some(&Tok::Punct('.')) =>
                {
                    Err(format!(
                        "only literal values are supported in schema annotations, found a call or attribute of {name}"
                    ))
                }
                _ if BUILTINS.contains(&name.as_str()) => Ok(SValue::Builtin(name)),
                _ => Err(format!("undefined: {name}")),
            },
            other => Err(unsupported(&other)),
        }
    }

    /// Items up to `close`; whether the last one was followed by a comma.
    fn sequence(&mut self, close: char, depth: usize) -> Result<(Vec<SValue>, bool), String> {
        let mut items = Vec::new();
        let mut trailing = false;
        loop {
            if self.peek() == Some(&Tok::Punct(close)) {
                self.pos += 1;
                return Ok((items, trailing));
            }
            items.push(self.expr(depth + 1)?);
            match self.next() {
                Some(Tok::Punct(',')) => trailing = true,
                Some(Tok::Punct(c)) if c == close => return Ok((items, false)),
                Some(t) => return Err(unsupported(&t)),
                None => return Err(format!("missing closing {close:?}")),
            }
        }
    }

    fn dict(&mut self, depth: usize) -> Result<SValue, String> {
        let mut entries: Vec<(SValue, SValue)> = Vec::new();
        loop {
            if self.peek() == Some(&Tok::Punct('}')) {
                self.pos += 1;
                return Ok(SValue::Dict(entries));
            }
            let k = self.expr(depth + 1)?;
            if matches!(k, SValue::List(_) | SValue::Dict(_)) {
                return Err(format!("unhashable type: {}", k.type_name()));
            }
            match self.next() {
                Some(Tok::Punct(':')) => {}
                Some(t) => return Err(unsupported(&t)),
                None => return Err("missing closing '}'".to_string()),
            }
            let v = self.expr(depth + 1)?;
            if entries.iter().any(|(e, _)| *e == k) {
                return Err("duplicate key in dict literal".to_string());
            }
            entries.push((k, v));
            match self.next() {
                Some(Tok::Punct(',')) => {}
                Some(Tok::Punct('}')) => return Ok(SValue::Dict(entries)),
                Some(t) => return Err(unsupported(&t)),
                None => return Err("missing closing '}'".to_string()),
            }
        }
    }

    /// A `lambda`: kept as text, up to the `,` or closing bracket that ends
    /// it.
    fn lambda(&mut self) -> Result<SValue, String> {
        let start = self
            .toks
            .get(self.pos.saturating_sub(1))
            .map_or(0, |(_, at)| *at);
        let mut depth = 0usize;
        let mut seen_colon = false;
        while let Some(t) = self.peek() {
            match t {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') if depth == 0 => break,
                Tok::Punct(')' | ']' | '}') => depth -= 1,
                Tok::Punct(',') if depth == 0 && seen_colon => break,
                Tok::Punct(':') if depth == 0 => seen_colon = true,
                _ => {}
            }
            self.pos += 1;
        }
        if !seen_colon {
            return Err("lambda without a body".to_string());
        }
        let end = self
            .toks
            .get(self.pos)
            .map_or(self.src.chars().count(), |(_, at)| *at);
        let text: String = self
            .src
            .chars()
            .skip(start)
            .take(end.saturating_sub(start))
            .collect();
        Ok(SValue::Lambda(text.trim().to_string()))
    }
}

fn unsupported(t: &Tok) -> String {
    match t {
        Tok::Punct(c) => {
            format!("only literal values are supported in schema annotations, found {c:?}")
        }
        Tok::Ident(n) => format!("unexpected name {n}"),
        _ => "unexpected value; separate arguments with ','".to_string(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn one(src: &str) -> SValue {
        let a = parse_args(src).unwrap();
        assert!(a.kwargs.is_empty());
        assert_eq!(a.positional.len(), 1, "{src}");
        a.positional.into_iter().next().unwrap()
    }

    #[test]
    fn literals() {
        assert_eq!(one("10"), SValue::Int(10));
        assert_eq!(one("-0x10"), SValue::Int(-16));
        assert_eq!(one("9.1"), SValue::Float(9.1));
        assert_eq!(one("1e3"), SValue::Float(1000.0));
        assert_eq!(one("True"), SValue::Bool(true));
        assert_eq!(one("None"), SValue::None);
        assert_eq!(one(r#""a\nb""#), SValue::Str("a\nb".into()));
        assert_eq!(one(r"r'\d'"), SValue::Str("\\d".into()));
        assert_eq!(one("'''x'''"), SValue::Str("x".into()));
        assert_eq!(
            one("[1,2,3]"),
            SValue::List(vec![SValue::Int(1), SValue::Int(2), SValue::Int(3)])
        );
        assert_eq!(one("(1)"), SValue::Int(1));
        assert_eq!(one("(1,)"), SValue::Tuple(vec![SValue::Int(1)]));
        assert_eq!(
            one(r#"{"a": [1], 'b': {}}"#).to_json().unwrap(),
            serde_json::json!({"a": [1], "b": {}})
        );
        assert_eq!(one("any"), SValue::Builtin("any".into()));
    }

    #[test]
    fn arguments() {
        let a = parse_args("1, 2").unwrap();
        assert_eq!(a.positional.len(), 2);
        let a = parse_args("any=True").unwrap();
        assert_eq!(a.kwargs, vec![("any".to_string(), SValue::Bool(true))]);
        let a = parse_args("(\"d\", 1.5), (\"\", [1])").unwrap();
        assert_eq!(a.positional.len(), 2);
        let a =
            parse_args("(\"positive\", lambda v: v > 0), when=lambda v, ctx: ctx.root.x, min=1")
                .unwrap();
        assert_eq!(a.positional.len(), 1);
        assert_eq!(a.kwargs.len(), 2);
        assert_eq!(
            a.kwargs[0].1,
            SValue::Lambda("lambda v, ctx: ctx.root.x".into())
        );
        assert!(parse_args("").unwrap().positional.is_empty());
    }

    #[test]
    fn errors() {
        for bad in [
            "1 + 2",
            "foo",
            "[1,",
            "\"abc",
            "{'a' 1}",
            "x=1, 2",
            "f(1)",
            "07",
            "99999999999999999999",
            "'\\q'",
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
            "$",
        ] {
            assert!(parse_args(bad).is_err(), "{bad}");
        }
    }
}
