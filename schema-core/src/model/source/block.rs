//! A fast reader for the block-style YAML that CRDs are written in.
//!
//! Generated CRDs use a small part of YAML: block mappings and sequences,
//! single-line plain and quoted scalars, literal block scalars, empty flow
//! collections and comments. This reader handles exactly that part, line by
//! line, and produces the events `saphyr-parser` would, with the same
//! positions, to an [`Events`] consumer: the [`Sink`](super::sink::Sink)
//! that builds documents with their source maps, or the
//! [`Values`](super::values::Values) builder that builds the values alone.
//! It never reports an error: on anything outside its part of YAML
//! (anchors, tags, flow collections with content, multi-line plain or quoted
//! scalars, folded scalars, tabs, carriage returns, odd indentation,
//! explicit keys, directives), and on any error the consumer reports, it
//! gives up, and the input is read again from the start by
//! `saphyr-parser`, which then decides. So its result, when it has one, is
//! the one `saphyr-parser` gives; the differential tests hold it to that.

use super::error::SourceError;
use super::limits::Limits;
use super::source_map::Pos;
use saphyr_parser::{Event, ScalarStyle};
use std::borrow::Cow;

/// What consumes the reader's events.
pub(super) trait Events<'t> {
    /// One event, starting at `at`.
    fn event(&mut self, event: Event<'t>, at: Pos) -> Result<(), SourceError>;
    /// The input's limits.
    fn limits(&self) -> &Limits;
}

/// Deepest nesting followed before handing the input over.
const MAX_NESTING: usize = 256;

/// Longest implicit key, in bytes (YAML allows 1024 characters).
const MAX_KEY: usize = 1000;

/// Reads `text` into `sink`. `Err` with the line it stopped at when the
/// text is outside the reader's part of YAML or the sink reported an error;
/// the sink's state is then unspecified.
pub(super) fn read<'t>(text: &'t str, sink: &mut impl Events<'t>) -> Result<(), usize> {
    // Tabs, carriage returns, NUL (saphyr's end of input) and other control
    // characters, and byte order marks inside the text: left to saphyr.
    let control = |c: &[u8]| {
        c.iter().fold(false, |any, &b| {
            any | ((b < 0x20) & (b != b'\n')) | (b == 0x7f)
        })
    };
    if text.as_bytes().chunks(256).any(control) || text.contains('\u{feff}') {
        return Err(1);
    }
    // Inputs are at most `Limits::max_bytes` long; past u32, saphyr reads it.
    if u32::try_from(text.len()).is_err() {
        return Err(1);
    }
    let breaks = memchr::memchr_iter(b'\n', text.as_bytes())
        .map(|i| i as u32)
        .collect();
    let mut r = Reader {
        text,
        breaks,
        next: 0,
        line_no: 1,
        depth: 0,
        last_emit: 0,
        sink,
    };
    r.stream().ok_or(r.line_no)
}

/// One line, without its line feed.
#[derive(Clone, Copy)]
struct Line<'t> {
    s: &'t str,
    /// Leading spaces.
    indent: usize,
    /// Line number, from 1.
    no: usize,
    /// Offset of the next line in the text.
    end: usize,
}

impl<'t> Line<'t> {
    /// The line after its indentation.
    fn rest(&self) -> &'t str {
        self.s.get(self.indent..).unwrap_or_default()
    }

    /// Only spaces.
    fn is_blank(&self) -> bool {
        self.indent == self.s.len()
    }

    /// A `---` or `...` document marker.
    fn is_marker(&self) -> bool {
        self.indent == 0 && (marker(self.s, "---") || marker(self.s, "..."))
    }

    /// The column (from 1, in characters) of byte offset `off`.
    fn pos(&self, off: usize) -> Pos {
        if off <= self.indent {
            return Pos::new(self.no, off + 1);
        }
        let before = self.s.get(..off).unwrap_or(self.s);
        let col = if before.is_ascii() {
            before.len()
        } else {
            before.chars().count()
        };
        Pos::new(self.no, col + 1)
    }
}

fn marker(s: &str, m: &str) -> bool {
    s.starts_with(m) && matches!(s.as_bytes().get(3), None | Some(b' '))
}

/// A block sequence entry: `-` then a space or the end of the line.
fn is_dash(s: &str) -> bool {
    let b = s.as_bytes();
    b.first() == Some(&b'-') && matches!(b.get(1), None | Some(b' '))
}

/// The offset of the first non-space at or after `from`.
fn skip_spaces(s: &str, from: usize) -> usize {
    let b = s.as_bytes();
    let mut i = from;
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    i.min(s.len())
}

/// Whether `s` (after a node) holds nothing but spaces and an optional
/// comment, which must follow a space.
fn only_comment(s: &str) -> bool {
    let t = s.trim_start_matches(' ');
    t.is_empty() || (t.starts_with('#') && t.len() < s.len())
}

/// Whether a plain scalar may start with `s` in block context.
fn plain_start(s: &str) -> bool {
    let b = s.as_bytes();
    match b.first() {
        None => false,
        Some(b'-' | b'?' | b':') => !matches!(b.get(1), None | Some(b' ')),
        Some(
            b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
            | b'"' | b'%' | b'@' | b'`',
        ) => false,
        Some(_) => true,
    }
}

/// A quoted scalar at the start of `s`, closed on the same line: its value,
/// style and the offset after the closing quote.
fn quoted(s: &str) -> Option<(Cow<'_, str>, ScalarStyle, usize)> {
    let b = s.as_bytes();
    let double = match b.first()? {
        b'\'' => false,
        b'"' => true,
        _ => return None,
    };
    let mut out: Option<String> = None;
    let (mut seg, mut i) = (1, 1);
    loop {
        let rest = s.get(i..)?;
        let q = if double {
            rest.find(['"', '\\'])
        } else {
            rest.find('\'')
        }? + i;
        // An escape, or `''` in single quotes.
        let escaped = match b.get(q) {
            Some(b'\\') => Some(escape(s.get(q + 1..)?)?),
            Some(b'\'') if b.get(q + 1) == Some(&b'\'') => Some(('\'', 1)),
            _ => None,
        };
        let Some((c, len)) = escaped else {
            let text = match out {
                None => Cow::Borrowed(s.get(1..q)?),
                Some(mut o) => {
                    o.push_str(s.get(seg..q)?);
                    Cow::Owned(o)
                }
            };
            let style = if double {
                ScalarStyle::DoubleQuoted
            } else {
                ScalarStyle::SingleQuoted
            };
            return Some((text, style, q + 1));
        };
        let o = out.get_or_insert_with(String::new);
        o.push_str(s.get(seg..q)?);
        o.push(c);
        i = q + 1 + len;
        seg = i;
    }
}

/// The escape after a backslash: the character and the length of its code.
fn escape(s: &str) -> Option<(char, usize)> {
    let c = match *s.as_bytes().first()? {
        b'0' => '\0',
        b'a' => '\x07',
        b'b' => '\x08',
        b't' => '\t',
        b'n' => '\n',
        b'v' => '\x0b',
        b'f' => '\x0c',
        b'r' => '\r',
        b'e' => '\x1b',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        b'x' => return hex(s, 2),
        b'u' => return hex(s, 4),
        b'U' => return hex(s, 8),
        _ => return None,
    };
    Some((c, 1))
}

fn hex(s: &str, digits: usize) -> Option<(char, usize)> {
    let code = s.get(1..=digits)?;
    if !code.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let c = char::from_u32(u32::from_str_radix(code, 16).ok()?)?;
    Some((c, 1 + digits))
}

/// A mapping key and where its `:` is.
struct Key<'t> {
    text: Cow<'t, str>,
    style: ScalarStyle,
    at: Pos,
    colon: usize,
}

/// Block scalar chomping.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chomp {
    Clip,
    Strip,
    Keep,
}

struct Reader<'t, 's, E> {
    text: &'t str,
    /// The offset of every line feed, so line `n` (from 1) ends at
    /// `breaks[n - 1]` (or at the end of the text).
    breaks: Vec<u32>,
    /// Offset of the next unread line.
    next: usize,
    /// Its number, from 1.
    line_no: usize,
    depth: usize,
    /// `next` at the last event.
    last_emit: usize,
    sink: &'s mut E,
}

impl<'t, E: Events<'t>> Reader<'t, '_, E> {
    fn emit(&mut self, event: Event<'t>, at: Pos) -> Option<()> {
        // saphyr-parser's look-ahead limit counts the indicators scanned
        // between two events; far fewer bytes than the limit cannot reach it.
        if self.next - self.last_emit > self.sink.limits().max_yaml_lookahead / 2 {
            return None;
        }
        self.last_emit = self.next;
        self.sink.event(event, at).ok()
    }

    fn empty_scalar(&mut self, at: Pos) -> Option<()> {
        self.emit(
            Event::Scalar(Cow::Borrowed(""), ScalarStyle::Plain, 0, None),
            at,
        )
    }

    /// The next unread line.
    fn peek_raw(&self) -> Option<Line<'t>> {
        self.line_from(self.next, self.line_no)
    }

    /// The line at offset `at`, numbered `no`.
    fn line_from(&self, at: usize, no: usize) -> Option<Line<'t>> {
        if at >= self.text.len() {
            return None;
        }
        let (nl, end) = match self.breaks.get(no - 1) {
            Some(&b) => (b as usize, b as usize + 1),
            None => (self.text.len(), self.text.len()),
        };
        let s = self.text.get(at..nl)?;
        let indent = s.bytes().take_while(|b| *b == b' ').count();
        Some(Line { s, indent, no, end })
    }

    fn advance(&mut self, l: &Line<'t>) {
        self.next = l.end;
        self.line_no = l.no + 1;
    }

    /// The next line with content, passing blank and comment lines.
    fn peek_content(&mut self) -> Option<Line<'t>> {
        loop {
            let l = self.peek_raw()?;
            if !l.is_blank() && !l.rest().starts_with('#') {
                return Some(l);
            }
            self.advance(&l);
        }
    }

    /// The next content line if it continues a collection indented by
    /// `indent` or less (not a document marker).
    fn peek_within(&mut self, indent: usize) -> Option<Line<'t>> {
        self.peek_content()
            .filter(|l| !l.is_marker() && l.indent <= indent)
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_NESTING).then_some(())
    }

    fn stream(&mut self) -> Option<()> {
        while let Some(l) = self.peek_content() {
            let explicit = l.indent == 0 && marker(l.s, "---");
            if l.indent == 0 && marker(l.s, "...") {
                return None;
            }
            let at = if explicit {
                if !only_comment(l.s.get(3..)?) {
                    return None;
                }
                self.advance(&l);
                Pos::new(l.no, 1)
            } else {
                l.pos(l.indent)
            };
            self.emit(Event::DocumentStart(explicit), at)?;
            match self.peek_content() {
                Some(n) if !n.is_marker() => {
                    if n.indent != 0 {
                        return None;
                    }
                    self.node(n, 0, -1)?;
                    if self.peek_content().is_some_and(|a| !a.is_marker()) {
                        return None;
                    }
                }
                // An explicit document without content.
                _ => self.empty_scalar(at)?,
            }
            self.emit(Event::DocumentEnd, at)?;
        }
        Some(())
    }

    /// The node at byte `off` of `l`, inside a collection indented by
    /// `parent` (-1 at the root).
    fn node(&mut self, l: Line<'t>, off: usize, parent: isize) -> Option<()> {
        let s = l.s.get(off..)?;
        if is_dash(s) {
            return self.sequence(l, off, false);
        }
        if let Some(key) = self.key_at(&l, off)? {
            return self.mapping(l, off, key);
        }
        self.scalar(l, off, parent)
    }

    /// The key at byte `off` of `l`: `Some(None)` when there is none.
    fn key_at(&self, l: &Line<'t>, off: usize) -> Option<Option<Key<'t>>> {
        let s = l.s.get(off..)?;
        let b = s.as_bytes();
        let key = |text, style, colon: usize| {
            if colon > MAX_KEY {
                return None;
            }
            Some(Some(Key {
                text,
                style,
                at: l.pos(off),
                colon: off + colon,
            }))
        };
        if matches!(b.first(), Some(b'\'' | b'"')) {
            let (text, style, end) = quoted(s)?;
            let after = skip_spaces(s, end);
            if b.get(after) == Some(&b':') && matches!(b.get(after + 1), None | Some(b' ')) {
                return key(text, style, after);
            }
            return Some(None);
        }
        if !plain_start(s) {
            return Some(None);
        }
        for (i, &c) in b.iter().enumerate() {
            match c {
                b':' if matches!(b.get(i + 1), None | Some(b' ')) => {
                    let text = s.get(..i)?.trim_end_matches(' ');
                    return key(Cow::Borrowed(text), ScalarStyle::Plain, i);
                }
                b'#' if i > 0 && b.get(i - 1) == Some(&b' ') => return Some(None),
                _ => {}
            }
        }
        Some(None)
    }

    /// A block mapping whose first key, `key`, is at byte `indent` of `l`.
    fn mapping(&mut self, first: Line<'t>, indent: usize, key: Key<'t>) -> Option<()> {
        self.enter()?;
        self.emit(Event::MappingStart(0, None), first.pos(indent))?;
        let (mut l, mut key) = (first, key);
        loop {
            let colon = key.colon;
            self.emit(Event::Scalar(key.text, key.style, 0, None), key.at)?;
            self.value(l, colon, indent)?;
            let Some(n) = self.peek_within(indent) else {
                if self.peek_content().is_some_and(|n| !n.is_marker()) {
                    // More indented than the mapping, after a value.
                    return None;
                }
                break;
            };
            if n.indent < indent {
                break;
            }
            key = self.key_at(&n, indent)??;
            l = n;
        }
        self.emit(Event::MappingEnd, l.pos(indent))?;
        self.depth -= 1;
        Some(())
    }

    /// The value after the `:` at byte `colon` of `l`, in a mapping
    /// indented by `indent`.
    fn value(&mut self, l: Line<'t>, colon: usize, indent: usize) -> Option<()> {
        let v = skip_spaces(l.s, colon + 1);
        if !only_comment(l.s.get(colon + 1..)?) {
            // A value on the key's line can only be a scalar.
            if l.s.as_bytes().get(v) == Some(&b'[') {
                return self.flow_sequence(l, v, indent as isize);
            }
            return self.scalar(l, v, indent as isize);
        }
        self.advance(&l);
        match self.peek_content() {
            Some(n) if !n.is_marker() && n.indent > indent => {
                self.node(n, n.indent, indent as isize)
            }
            Some(n) if !n.is_marker() && n.indent == indent && is_dash(n.rest()) => {
                self.sequence(n, indent, true)
            }
            _ => self.empty_scalar(l.pos(colon)),
        }
    }

    /// A block sequence whose first `-` is at byte `indent` of `first`;
    /// `indentless` when it is a mapping value at the mapping's own
    /// indentation.
    fn sequence(&mut self, first: Line<'t>, indent: usize, indentless: bool) -> Option<()> {
        self.enter()?;
        let mut l = first;
        let mut started = false;
        loop {
            let after = l.s.get(indent + 1..)?;
            let c = skip_spaces(l.s, indent + 1);
            let empty = only_comment(after);
            if !started {
                // saphyr places an indentless sequence at its first entry's
                // content.
                let at = match (indentless, empty) {
                    (false, _) => l.pos(indent),
                    (true, false) => l.pos(c),
                    (true, true) => return None,
                };
                self.emit(Event::SequenceStart(0, None), at)?;
                started = true;
            }
            if empty {
                self.advance(&l);
                match self.peek_content() {
                    Some(n) if !n.is_marker() && n.indent > indent => {
                        self.node(n, n.indent, indent as isize)?
                    }
                    // saphyr places it at the end of the entry's line.
                    _ => self.empty_scalar(l.pos(l.s.len()))?,
                }
            } else {
                self.node(l, c, indent as isize)?;
            }
            let Some(n) = self.peek_within(indent) else {
                if self.peek_content().is_some_and(|n| !n.is_marker()) {
                    return None;
                }
                break;
            };
            if n.indent < indent || (indentless && !is_dash(n.rest())) {
                break;
            }
            if !is_dash(n.rest()) {
                return None;
            }
            l = n;
        }
        self.emit(Event::SequenceEnd, l.pos(indent))?;
        self.depth -= 1;
        Some(())
    }

    /// A scalar at byte `off` of `l`, the last node of its line, inside a
    /// collection indented by `parent`.
    fn scalar(&mut self, l: Line<'t>, off: usize, parent: isize) -> Option<()> {
        let s = l.s.get(off..)?;
        let at = l.pos(off);
        match s.as_bytes().first()? {
            b'|' => return self.literal(l, off, parent),
            b'\'' | b'"' => {
                let (text, style, last, end) = self.quoted_value(l, off, parent)?;
                if !only_comment(last.s.get(end..)?) {
                    return None;
                }
                self.emit(Event::Scalar(text, style, 0, None), at)?;
                self.advance(&last);
                return self.no_continuation(parent);
            }
            b'[' | b'{' => {
                let (open, close, end) = if s.starts_with("[]") {
                    (Event::SequenceStart(0, None), Event::SequenceEnd, "]")
                } else if s.starts_with("{}") {
                    (Event::MappingStart(0, None), Event::MappingEnd, "}")
                } else {
                    return None;
                };
                if !only_comment(s.get(2..)?) {
                    return None;
                }
                self.emit(open, at)?;
                self.emit(close, l.pos(off + s.find(end)?))?;
            }
            _ => {
                if !plain_start(s) {
                    return None;
                }
                let b = s.as_bytes();
                let end = (1..b.len())
                    .find(|&i| b[i] == b'#' && b[i - 1] == b' ')
                    .unwrap_or(b.len());
                let text = s.get(..end)?.trim_end_matches(' ');
                if text.ends_with(':') || text.contains(": ") {
                    return None;
                }
                self.advance(&l);
                let text = if end < b.len() {
                    // A comment ends the scalar.
                    Cow::Borrowed(text)
                } else {
                    self.plain_continuation(text, parent)?
                };
                self.emit(Event::Scalar(text, ScalarStyle::Plain, 0, None), at)?;
                return self.no_continuation(parent);
            }
        }
        self.advance(&l);
        self.no_continuation(parent)
    }

    /// A flow sequence of scalars on one line, `[a, 'b', "c"]`, at byte `off`
    /// of `l`, as a mapping value (which saphyr does not buffer).
    fn flow_sequence(&mut self, l: Line<'t>, off: usize, parent: isize) -> Option<()> {
        let s = l.s;
        let b = s.as_bytes();
        self.emit(Event::SequenceStart(0, None), l.pos(off))?;
        let mut i = skip_spaces(s, off + 1);
        if b.get(i) != Some(&b']') {
            loop {
                let at = l.pos(i);
                let rest = s.get(i..)?;
                let (text, style, len) = if matches!(b.get(i), Some(b'\'' | b'"')) {
                    quoted(rest)?
                } else {
                    let len = rest
                        .find([',', ']', '[', '{', '}', '#', ':', '\'', '"'])
                        .unwrap_or(rest.len());
                    let text = rest.get(..len)?.trim_end_matches(' ');
                    if !plain_start(text) {
                        return None;
                    }
                    (Cow::Borrowed(text), ScalarStyle::Plain, len)
                };
                self.emit(Event::Scalar(text, style, 0, None), at)?;
                i = skip_spaces(s, i + len);
                match b.get(i) {
                    Some(b',') => i = skip_spaces(s, i + 1),
                    Some(b']') => break,
                    _ => return None,
                }
                if b.get(i) == Some(&b']') {
                    // A trailing comma.
                    return None;
                }
            }
        }
        if !only_comment(s.get(i + 1..)?) {
            return None;
        }
        self.emit(Event::SequenceEnd, l.pos(i))?;
        self.advance(&l);
        self.no_continuation(parent)
    }

    /// The lines that continue a plain scalar whose first line is `first`,
    /// inside a collection indented by `parent`: each line break folds to a
    /// space, or to one line feed per blank line it spans.
    fn plain_continuation(&mut self, first: &'t str, parent: isize) -> Option<Cow<'t, str>> {
        let mut out: Option<String> = None;
        loop {
            let mut blank = 0;
            let mut probe = self.next;
            let mut no = self.line_no;
            let n = loop {
                let Some(x) = self.line_from(probe, no) else {
                    return Some(out.map_or(Cow::Borrowed(first), Cow::Owned));
                };
                if !x.is_blank() {
                    break x;
                }
                blank += 1;
                probe = x.end;
                no += 1;
            };
            if n.is_marker() || n.indent as isize <= parent {
                return Some(out.map_or(Cow::Borrowed(first), Cow::Owned));
            }
            let text = n.rest().trim_end_matches(' ');
            if parent < 0
                || text.starts_with('#')
                || text.contains(" #")
                || text.contains(": ")
                || text.ends_with(':')
            {
                return None;
            }
            let o = out.get_or_insert_with(|| first.to_string());
            if blank == 0 {
                o.push(' ');
            } else {
                o.extend(std::iter::repeat_n('\n', blank));
            }
            o.push_str(text);
            self.advance(&n);
        }
    }

    /// A quoted scalar starting at byte `off` of `l`, possibly over several
    /// lines: its value, style, last line and the offset after its closing
    /// quote there.
    fn quoted_value(
        &mut self,
        l: Line<'t>,
        off: usize,
        parent: isize,
    ) -> Option<(Cow<'t, str>, ScalarStyle, Line<'t>, usize)> {
        let s = l.s.get(off..)?;
        if let Some((text, style, end)) = quoted(s) {
            return Some((text, style, l, off + end));
        }
        let double = s.starts_with('"');
        let style = if double {
            ScalarStyle::DoubleQuoted
        } else {
            ScalarStyle::SingleQuoted
        };
        let mut out = String::new();
        let mut line = l;
        let mut i = off + 1;
        loop {
            let s = line.s;
            let b = s.as_bytes();
            // The rest of this line, up to the closing quote.
            loop {
                let found = if double {
                    s.get(i..)?.find(['"', '\\'])
                } else {
                    s.get(i..)?.find('\'')
                };
                let Some(q) = found.map(|q| q + i) else {
                    out.push_str(s.get(i..)?.trim_end_matches(' '));
                    break;
                };
                out.push_str(s.get(i..q)?);
                match b.get(q) {
                    Some(b'\\') => {
                        // An escaped line break is left to saphyr.
                        let (c, len) = escape(s.get(q + 1..)?)?;
                        out.push(c);
                        i = q + 1 + len;
                    }
                    Some(b'\'') if b.get(q + 1) == Some(&b'\'') => {
                        out.push('\'');
                        i = q + 2;
                    }
                    _ => return Some((Cow::Owned(out), style, line, q + 1)),
                }
            }
            // Fold the line break: a space, or a line feed per blank line.
            self.advance(&line);
            let mut blank = 0;
            let n = loop {
                let x = self.peek_raw()?;
                if !x.is_blank() {
                    break x;
                }
                blank += 1;
                self.advance(&x);
            };
            if n.is_marker() || n.indent as isize <= parent {
                return None;
            }
            if blank == 0 {
                out.push(' ');
            } else {
                out.extend(std::iter::repeat_n('\n', blank));
            }
            line = n;
            i = n.indent;
        }
    }

    /// After a scalar: a following line indented deeper than `parent` would
    /// continue it (or be an error), so it is left to saphyr.
    fn no_continuation(&self, parent: isize) -> Option<()> {
        let mut probe = self.next;
        let mut no = self.line_no;
        while let Some(x) = self.line_from(probe, no) {
            if !x.is_blank() {
                return (x.is_marker() || x.indent as isize <= parent).then_some(());
            }
            probe = x.end;
            no += 1;
        }
        Some(())
    }
    /// A literal block scalar whose `|` is at byte `off` of `l`.
    fn literal(&mut self, l: Line<'t>, off: usize, parent: isize) -> Option<()> {
        let mut header = l.s.get(off + 1..)?;
        let mut chomp = Chomp::Clip;
        let mut explicit = None;
        // The chomping and indentation indicators, in either order.
        for _ in 0..2 {
            match header.as_bytes().first() {
                Some(b'-') if chomp == Chomp::Clip => chomp = Chomp::Strip,
                Some(b'+') if chomp == Chomp::Clip => chomp = Chomp::Keep,
                Some(d @ b'1'..=b'9') if explicit.is_none() => {
                    explicit = Some(usize::from(d - b'0'))
                }
                _ => break,
            }
            header = header.get(1..)?;
        }
        // At the root, saphyr starts the document at the content: left to it.
        if !only_comment(header) || parent < 0 {
            return None;
        }
        self.advance(&l);
        let m = match explicit {
            // Relative to the enclosing collection's indentation.
            Some(k) => usize::try_from(parent).map_or(k, |p| p + k),
            None => {
                let first = self.peek_raw()?;
                if first.is_blank() {
                    return None;
                }
                first.indent
            }
        };
        if m == 0 || m as isize <= parent {
            return None;
        }
        let mut out = String::new();
        let mut trailing = 0;
        let mut at = None;
        while let Some(x) = self.peek_raw() {
            if x.is_blank() {
                // Spaces as content, or an unterminated last line: left to
                // saphyr.
                if x.s.len() > m || !self.text.get(..x.end)?.ends_with('\n') {
                    return None;
                }
                trailing += 1;
            } else if x.indent >= m && !x.is_marker() {
                at.get_or_insert(x.pos(m));
                for _ in 0..trailing {
                    out.push('\n');
                }
                trailing = 0;
                out.push_str(x.s.get(m..)?);
                out.push('\n');
            } else {
                break;
            }
            self.advance(&x);
        }
        // No content line: left to saphyr.
        let at = at?;
        match chomp {
            Chomp::Clip => {}
            Chomp::Strip => {
                out.pop();
            }
            Chomp::Keep => {
                for _ in 0..trailing {
                    out.push('\n');
                }
            }
        }
        self.emit(
            Event::Scalar(Cow::Owned(out), ScalarStyle::Literal, 0, None),
            at,
        )
    }
}
