//! `saphyr-parser`'s input with a bound on its look-ahead: [`GuardedInput`]
//! counts the indicator characters the scanner consumes ahead of the last
//! event it delivered and ends the input early past
//! [`Limits::max_yaml_lookahead`](super::Limits::max_yaml_lookahead), so a
//! large flow collection is not buffered whole.

use std::cell::Cell;

use saphyr_parser::input::{SkipTabs, is_alpha, is_blank, is_breakz};
use saphyr_parser::{Input, StrInput};

/// What `saphyr-parser` has scanned since the last event it delivered,
/// shared between [`GuardedInput`] and the event loop.
pub(super) struct Lookahead {
    /// Most indicator characters scanned ahead of the last event.
    pub(super) limit: usize,
    /// Indicator characters consumed since the last event.
    pub(super) ahead: Cell<usize>,
    /// Where the input was cut off, once the limit was hit.
    pub(super) cut_at: Cell<Option<usize>>,
}

impl Lookahead {
    /// Nothing scanned yet, at most `limit` indicators ahead.
    pub(super) fn new(limit: usize) -> Self {
        Lookahead {
            limit,
            ahead: Cell::new(0),
            cut_at: Cell::new(None),
        }
    }
}

/// `saphyr-parser`'s input over a `&str`, as its `StrInput` (which answers
/// every look-up here), that counts the indicator characters the scanner
/// consumes and ends the input early when [`Lookahead::limit`] is exceeded.
///
/// The consuming methods are implemented here (so the position is known);
/// they behave as `StrInput`'s.
pub(super) struct GuardedInput<'a> {
    text: &'a str,
    rest: &'a str,
    lookahead: usize,
    watch: &'a Lookahead,
}

/// Characters that start (or separate) tokens in flow context; the tokens
/// the scanner can buffer are bounded by a small multiple of their number.
fn is_indicator(b: u8) -> bool {
    matches!(
        b,
        b'[' | b']' | b'{' | b'}' | b',' | b':' | b'?' | b'&' | b'*' | b'!' | b'\'' | b'"'
    )
}

fn is_yaml_non_break(c: char) -> bool {
    !is_breakz(c) && c != '\u{FEFF}'
}

impl<'a> GuardedInput<'a> {
    /// The input `text`, counted in `watch`.
    pub(super) fn new(text: &'a str, watch: &'a Lookahead) -> Self {
        GuardedInput {
            text,
            rest: text,
            lookahead: 0,
            watch,
        }
    }

    fn view(&self) -> StrInput<'a> {
        StrInput::new(self.rest)
    }

    /// Consumes `bytes` bytes (a char boundary), counting indicators unless
    /// they are comment text.
    fn advance(&mut self, bytes: usize, count: bool) {
        let Some((done, rest)) = self.rest.split_at_checked(bytes) else {
            return;
        };
        self.rest = rest;
        if count {
            self.count(done.bytes().filter(|b| is_indicator(*b)).count());
        }
    }

    /// Consumes the next character.
    #[inline]
    fn advance_char(&mut self) {
        match self.rest.as_bytes().first() {
            None => {}
            Some(&b) if b.is_ascii() => {
                self.rest = self.rest.get(1..).unwrap_or_default();
                if is_indicator(b) {
                    self.count(1);
                }
            }
            Some(_) => {
                let n = self.rest.chars().next().map_or(0, char::len_utf8);
                self.advance(n, true);
            }
        }
    }

    /// Adds `n` indicators to the count; past the limit, ends the input.
    #[inline]
    fn count(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        let ahead = self.watch.ahead.get().saturating_add(n);
        self.watch.ahead.set(ahead);
        if ahead > self.watch.limit {
            self.watch
                .cut_at
                .set(Some(self.text.len() - self.rest.len()));
            self.rest = "";
        }
    }

    /// The byte length of the longest prefix whose chars satisfy `f`, and
    /// its length in chars.
    fn run_while(&self, f: impl Fn(char) -> bool) -> (usize, usize) {
        let mut bytes = 0;
        let mut chars = 0;
        for c in self.rest.chars() {
            if !f(c) {
                break;
            }
            bytes += c.len_utf8();
            chars += 1;
        }
        (bytes, chars)
    }
}

impl Input for GuardedInput<'_> {
    fn lookahead(&mut self, count: usize) {
        self.lookahead = self.lookahead.max(count);
    }

    fn buflen(&self) -> usize {
        self.lookahead
    }

    fn bufmaxlen(&self) -> usize {
        self.view().bufmaxlen()
    }

    fn buf_is_empty(&self) -> bool {
        self.lookahead == 0
    }

    fn raw_read_ch(&mut self) -> char {
        let c = self.rest.chars().next();
        self.advance_char();
        c.unwrap_or('\0')
    }

    fn raw_read_non_breakz_ch(&mut self) -> Option<char> {
        let c = self.rest.chars().next().filter(|c| is_yaml_non_break(*c))?;
        self.advance_char();
        Some(c)
    }

    fn skip(&mut self) {
        self.advance_char();
    }

    fn skip_n(&mut self, count: usize) {
        let n = self
            .rest
            .char_indices()
            .nth(count)
            .map_or(self.rest.len(), |(i, _)| i);
        self.advance(n, true);
    }

    fn peek(&self) -> char {
        self.view().peek()
    }

    fn peek_nth(&self, n: usize) -> char {
        self.view().peek_nth(n)
    }

    fn peek_opt(&self) -> Option<char> {
        self.view().peek_opt()
    }

    fn look_ch(&mut self) -> char {
        self.lookahead(1);
        self.peek()
    }

    fn next_char_is(&self, c: char) -> bool {
        self.view().next_char_is(c)
    }

    fn nth_char_is(&self, n: usize, c: char) -> bool {
        self.view().nth_char_is(n, c)
    }

    fn next_2_are(&self, c1: char, c2: char) -> bool {
        self.view().next_2_are(c1, c2)
    }

    fn next_3_are(&self, c1: char, c2: char, c3: char) -> bool {
        self.view().next_3_are(c1, c2, c3)
    }

    fn next_is_document_indicator(&self) -> bool {
        self.view().next_is_document_indicator()
    }

    fn next_is_document_start(&self) -> bool {
        self.view().next_is_document_start()
    }

    fn next_is_document_end(&self) -> bool {
        self.view().next_is_document_end()
    }

    fn skip_ws_to_eol(&mut self, skip_tabs: SkipTabs) -> (usize, Result<SkipTabs, &'static str>) {
        let tabs = skip_tabs == SkipTabs::Yes;
        let mut has_ws = false;
        let mut has_tab = false;
        let mut len = 0;
        for b in self.rest.bytes() {
            match b {
                b' ' => has_ws = true,
                b'\t' if tabs => has_tab = true,
                _ => break,
            }
            len += 1;
        }
        self.advance(len, true);
        let mut consumed = len;
        if self.rest.starts_with('#') {
            if !has_ws && !has_tab {
                return (
                    consumed,
                    Err("comments must be separated from other tokens by whitespace"),
                );
            }
            let (bytes, chars) = self.run_while(is_yaml_non_break);
            self.advance(bytes, false);
            consumed += chars;
        }
        (consumed, Ok(SkipTabs::Result(has_tab, has_ws)))
    }

    fn next_can_be_plain_scalar(&self, in_flow: bool) -> bool {
        self.view().next_can_be_plain_scalar(in_flow)
    }

    fn next_is_blank_or_break(&self) -> bool {
        self.view().next_is_blank_or_break()
    }

    fn next_is_blank_or_breakz(&self) -> bool {
        self.view().next_is_blank_or_breakz()
    }

    fn next_is_blank(&self) -> bool {
        self.view().next_is_blank()
    }

    fn next_is_break(&self) -> bool {
        self.view().next_is_break()
    }

    fn next_is_breakz(&self) -> bool {
        self.view().next_is_breakz()
    }

    fn next_is_z(&self) -> bool {
        self.view().next_is_z()
    }

    fn next_is_flow(&self) -> bool {
        self.view().next_is_flow()
    }

    fn next_is_digit(&self) -> bool {
        self.view().next_is_digit()
    }

    fn next_is_alpha(&self) -> bool {
        self.view().next_is_alpha()
    }

    /// Used for comments: not counted.
    fn skip_while_non_breakz(&mut self) -> usize {
        let (bytes, chars) = self.run_while(is_yaml_non_break);
        self.advance(bytes, false);
        chars
    }

    fn skip_while_blank(&mut self) -> usize {
        let (bytes, _) = self.run_while(is_blank);
        self.advance(bytes, true);
        bytes
    }

    fn fetch_while_is_alpha(&mut self, out: &mut String) -> usize {
        let (bytes, _) = self.run_while(is_alpha);
        out.push_str(self.rest.get(..bytes).unwrap_or_default());
        self.advance(bytes, true);
        bytes
    }

    fn fetch_while_is_yaml_non_space(&mut self, out: &mut String) -> usize {
        let (bytes, _) = self.run_while(|c| is_yaml_non_break(c) && !is_blank(c));
        out.push_str(self.rest.get(..bytes).unwrap_or_default());
        self.advance(bytes, true);
        bytes
    }
}
