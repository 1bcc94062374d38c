//! The JSON reader: a strict, iterative reader of a stream of JSON values
//! (RFC 8259 syntax, values separated by whitespace) with positions, as the
//! JSON branch of apimachinery's `YAMLOrJSONDecoder` reads it, feeding a
//! [`Builder`].

use super::builder::Builder;
use super::error::{SourceError, SourceErrorKind};
use super::source_map::{Document, Kind, Pos};
use std::borrow::Cow;

use serde_json::{Number, Value};

/// A strict, iterative JSON stream reader with positions.
pub(super) struct JsonReader<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    line: usize,
    /// Characters consumed on the current line.
    col: usize,
}

/// What the reader expects next.
#[derive(Clone, Copy)]
enum JsonState {
    Value,
    Key,
    AfterValue,
}

impl<'t> JsonReader<'t> {
    /// A reader at the start of `text`.
    pub(super) fn new(text: &'t str) -> Self {
        JsonReader {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            line: 1,
            col: 0,
        }
    }

    fn here(&self) -> Pos {
        Pos::new(self.line, self.col + 1)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Steps over one ASCII byte that is not a line break.
    fn bump(&mut self) {
        self.pos += 1;
        self.col += 1;
    }

    /// Steps over `s`, which holds no line break.
    fn advance_over(&mut self, s: &str) {
        self.pos += s.len();
        self.col += s.chars().count();
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.bump(),
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.col = 0;
                }
                _ => break,
            }
        }
    }

    fn syntax(&self, b: &Builder<'_>, context: &str) -> SourceError {
        let message = match self.text.get(self.pos..).and_then(|r| r.chars().next()) {
            None => "unexpected end of JSON input".to_string(),
            Some(c) => format!("invalid character {c:?} {context}"),
        };
        b.err(self.here(), SourceErrorKind::Syntax, message)
    }

    /// Reads every value of the stream into `b`, one document each,
    /// collecting them in `docs`.
    pub(super) fn read_stream(
        &mut self,
        b: &mut Builder<'_>,
        docs: &mut Vec<Document>,
    ) -> Result<(), SourceError> {
        loop {
            self.skip_ws();
            if self.peek().is_none() {
                return Ok(());
            }
            let start = self.here();
            b.begin_document();
            self.read_value(b)?;
            if let Some(doc) = b.finish_document(start)? {
                docs.push(doc);
            }
        }
    }

    fn read_value(&mut self, b: &mut Builder<'_>) -> Result<(), SourceError> {
        let mut state = JsonState::Value;
        loop {
            match state {
                JsonState::Value => {
                    self.skip_ws();
                    let at = self.here();
                    match self.peek() {
                        Some(b'{') => {
                            self.bump();
                            b.open(Kind::Map, at, 0)?;
                            self.skip_ws();
                            if self.peek() == Some(b'}') {
                                self.bump();
                                b.close();
                                state = JsonState::AfterValue;
                            } else {
                                state = JsonState::Key;
                            }
                        }
                        Some(b'[') => {
                            self.bump();
                            b.open(Kind::Seq, at, 0)?;
                            self.skip_ws();
                            if self.peek() == Some(b']') {
                                self.bump();
                                b.close();
                                state = JsonState::AfterValue;
                            }
                        }
                        Some(b'"') => {
                            let s = self.string(b)?;
                            b.push_scalar(Value::String(s.into_owned()), at)?;
                            state = JsonState::AfterValue;
                        }
                        Some(b'-' | b'0'..=b'9') => {
                            let v = self.number(b)?;
                            b.push_scalar(v, at)?;
                            state = JsonState::AfterValue;
                        }
                        Some(b't') => {
                            self.literal(b, "true")?;
                            b.push_scalar(Value::Bool(true), at)?;
                            state = JsonState::AfterValue;
                        }
                        Some(b'f') => {
                            self.literal(b, "false")?;
                            b.push_scalar(Value::Bool(false), at)?;
                            state = JsonState::AfterValue;
                        }
                        Some(b'n') => {
                            self.literal(b, "null")?;
                            b.push_scalar(Value::Null, at)?;
                            state = JsonState::AfterValue;
                        }
                        _ => return Err(self.syntax(b, "looking for beginning of value")),
                    }
                }
                JsonState::Key => {
                    self.skip_ws();
                    let at = self.here();
                    if self.peek() != Some(b'"') {
                        return Err(self.syntax(b, "looking for beginning of object key string"));
                    }
                    let k = self.string(b)?;
                    b.set_key(&k, at, false);
                    self.skip_ws();
                    if self.peek() != Some(b':') {
                        return Err(self.syntax(b, "after object key"));
                    }
                    self.bump();
                    state = JsonState::Value;
                }
                JsonState::AfterValue => {
                    let Some(kind) = b.top_kind() else {
                        return Ok(());
                    };
                    self.skip_ws();
                    match (kind, self.peek()) {
                        (Kind::Map, Some(b',')) => {
                            self.bump();
                            state = JsonState::Key;
                        }
                        (Kind::Seq, Some(b',')) => {
                            self.bump();
                            state = JsonState::Value;
                        }
                        (Kind::Map, Some(b'}')) | (Kind::Seq, Some(b']')) => {
                            self.bump();
                            b.close();
                        }
                        (Kind::Map, _) => {
                            return Err(self.syntax(b, "after object key:value pair"));
                        }
                        _ => return Err(self.syntax(b, "after array element")),
                    }
                }
            }
        }
    }

    fn literal(&mut self, b: &Builder<'_>, word: &str) -> Result<(), SourceError> {
        for expected in word.bytes() {
            if self.peek() != Some(expected) {
                let context = format!("in literal {word} (expecting {:?})", char::from(expected));
                return Err(self.syntax(b, &context));
            }
            self.bump();
        }
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        self.pos - start
    }

    fn number(&mut self, b: &Builder<'_>) -> Result<Value, SourceError> {
        let start = self.pos;
        let at = self.here();
        if self.peek() == Some(b'-') {
            self.bump();
        }
        match self.peek() {
            Some(b'0') => self.bump(),
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.syntax(b, "in numeric literal")),
        }
        let mut float = false;
        if self.peek() == Some(b'.') {
            self.bump();
            float = true;
            if self.digits() == 0 {
                return Err(self.syntax(b, "after decimal point in numeric literal"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.bump();
            float = true;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.bump();
            }
            if self.digits() == 0 {
                return Err(self.syntax(b, "in exponent of numeric literal"));
            }
        }
        let text = self.text.get(start..self.pos).unwrap_or_default();
        if !float {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Value::Number(i.into()));
            }
        }
        text.parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| {
                b.err(
                    at,
                    SourceErrorKind::Value,
                    format!("number {text} is out of the range of a float64"),
                )
            })
    }

    /// Reads a string literal (at its opening quote).
    fn string(&mut self, b: &Builder<'_>) -> Result<Cow<'t, str>, SourceError> {
        self.bump();
        let start = self.pos;
        let rest = self.bytes.get(start..).unwrap_or_default();
        let stop = rest
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20);
        let Some(stop) = stop else {
            let run = self.text.get(start..).unwrap_or_default();
            self.advance_over(run);
            return Err(self.syntax(b, ""));
        };
        let run = self.text.get(start..start + stop).unwrap_or_default();
        self.advance_over(run);
        if self.peek() == Some(b'"') {
            self.bump();
            return Ok(Cow::Borrowed(run));
        }
        let mut out = String::from(run);
        loop {
            let from = self.pos;
            let rest = self.bytes.get(from..).unwrap_or_default();
            let stop = rest
                .iter()
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
                .unwrap_or(rest.len());
            let run = self.text.get(from..from + stop).unwrap_or_default();
            out.push_str(run);
            self.advance_over(run);
            match self.peek() {
                None => return Err(self.syntax(b, "")),
                Some(b'"') => {
                    self.bump();
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.bump();
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.bump();
                            let hi = self.hex4(b)?;
                            out.push(self.surrogate_pair(hi));
                            continue;
                        }
                        _ => return Err(self.syntax(b, "in string escape code")),
                    };
                    self.bump();
                    out.push(c);
                }
                Some(_) => return Err(self.syntax(b, "in string literal")),
            }
        }
    }

    fn hex4(&mut self, b: &Builder<'_>) -> Result<u32, SourceError> {
        let mut v = 0;
        for _ in 0..4 {
            let d = self.peek().and_then(|c| char::from(c).to_digit(16));
            let Some(d) = d else {
                return Err(self.syntax(b, "in \\u hexadecimal character escape"));
            };
            v = v * 16 + d;
            self.bump();
        }
        Ok(v)
    }

    /// The character for `\uXXXX` = `hi` (already read), combining a
    /// following low surrogate; an unpaired surrogate becomes U+FFFD.
    fn surrogate_pair(&mut self, hi: u32) -> char {
        if (0xD800..0xDC00).contains(&hi) {
            let next = self.bytes.get(self.pos..self.pos + 6);
            if let Some([b'\\', b'u', h @ ..]) = next {
                let lo = h.iter().try_fold(0u32, |acc, c| {
                    char::from(*c).to_digit(16).map(|d| acc * 16 + d)
                });
                if let Some(lo) = lo.filter(|lo| (0xDC00..0xE000).contains(lo)) {
                    for _ in 0..6 {
                        self.bump();
                    }
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return char::from_u32(c).unwrap_or('\u{FFFD}');
                }
            }
        }
        char::from_u32(hi).unwrap_or('\u{FFFD}')
    }
}
