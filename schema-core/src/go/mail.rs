//! Go's `net/mail.ParseAddress` (the `email` format: the address parses
//! and its address part is non-empty), reduced to its verdict.

use super::net::parse_ip_strict;

struct Parser<'a> {
    s: &'a str,
}

type R<T> = Result<T, ()>;

fn is_vchar(r: char) -> bool {
    ('!'..='~').contains(&r) || (r as u32) >= 0x80
}

fn is_atext(r: char, dot: bool) -> bool {
    match r {
        '.' => dot,
        '(' | ')' | '<' | '>' | '[' | ']' | ':' | ';' | '@' | '\\' | ',' | '"' => false,
        _ => is_vchar(r),
    }
}

fn is_qtext(r: char) -> bool {
    r != '\\' && r != '"' && is_vchar(r)
}

fn is_wsp(r: char) -> bool {
    r == ' ' || r == '\t'
}

fn is_dtext(r: char) -> bool {
    r != '[' && r != ']' && r != '\\' && is_vchar(r)
}

/// `mime.WordDecoder.Decode` as `decodeRFC2047Word` uses it:
/// `Ok(is_encoded)`, or `Err` when the word decodes but its charset is
/// unknown (which fails the whole address).
fn decode_rfc2047_word(word: &str) -> R<bool> {
    if word.len() < 8
        || !word.starts_with("=?")
        || !word.ends_with("?=")
        || word.matches('?').count() != 4
    {
        return Ok(false);
    }
    let inner = word.get(2..word.len() - 2).unwrap_or_default();
    let (charset, text) = inner.split_once('?').unwrap_or((inner, ""));
    if charset.is_empty() {
        return Ok(false);
    }
    let (encoding, text) = text.split_once('?').unwrap_or((text, ""));
    let decoded_ok = match encoding {
        "b" | "B" => super::base64::std_decode(text).is_some(),
        "q" | "Q" => q_decode_ok(text),
        _ => false,
    };
    if !decoded_ok {
        // Invalid encoded-words are kept as plain text.
        return Ok(false);
    }
    let known = ["utf-8", "iso-8859-1", "us-ascii"]
        .iter()
        .any(|c| c.eq_ignore_ascii_case(charset));
    if known { Ok(true) } else { Err(()) }
}

fn q_decode_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'_' => {}
            b'=' => {
                let (Some(&h1), Some(&h2)) = (b.get(i + 1), b.get(i + 2)) else {
                    return false;
                };
                if !h1.is_ascii_hexdigit() || !h2.is_ascii_hexdigit() {
                    return false;
                }
                i += 2;
            }
            b' '..=b'~' | b'\n' | b'\r' | b'\t' => {}
            _ => return false,
        }
        i += 1;
    }
    true
}

impl<'a> Parser<'a> {
    fn empty(&self) -> bool {
        self.s.is_empty()
    }

    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().first().copied()
    }

    fn consume(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.s = self.s.get(1..).unwrap_or_default();
            true
        } else {
            false
        }
    }

    fn skip_space(&mut self) {
        self.s = self.s.trim_start_matches([' ', '\t']);
    }

    fn skip_cfws(&mut self) -> bool {
        self.skip_space();
        while self.consume(b'(') {
            if self.consume_comment().is_none() {
                return false;
            }
            self.skip_space();
        }
        true
    }

    /// After `(`: the comment text, or `None` if unbalanced.
    fn consume_comment(&mut self) -> Option<String> {
        let mut depth = 1;
        let mut comment: Vec<u8> = Vec::new();
        let b = self.s.as_bytes();
        let mut i = 0;
        while i < b.len() && depth > 0 {
            let mut c = b.get(i).copied().unwrap_or_default();
            if c == b'\\' && b.len() - i > 1 {
                i += 1;
                c = b.get(i).copied().unwrap_or_default();
            } else if c == b'(' {
                depth += 1;
            } else if c == b')' {
                depth -= 1;
            }
            if depth > 0 {
                comment.push(c);
            }
            i += 1;
        }
        self.s = self.s.get(i..).unwrap_or_default();
        (depth == 0).then(|| String::from_utf8_lossy(&comment).into_owned())
    }

    fn consume_quoted_string(&mut self) -> R<String> {
        let mut out = String::new();
        let mut escaped = false;
        let mut chars = self.s.char_indices().skip(1);
        loop {
            let Some((i, r)) = chars.next() else {
                return Err(());
            };
            if escaped {
                if !is_vchar(r) && !is_wsp(r) {
                    return Err(());
                }
                out.push(r);
                escaped = false;
            } else if is_qtext(r) || is_wsp(r) {
                out.push(r);
            } else if r == '"' {
                self.s = self.s.get(i + 1..).unwrap_or_default();
                return Ok(out);
            } else if r == '\\' {
                escaped = true;
            } else {
                return Err(());
            }
        }
    }

    fn consume_atom(&mut self, dot: bool, permissive: bool) -> R<&'a str> {
        let end = self
            .s
            .char_indices()
            .find(|&(_, r)| !is_atext(r, dot))
            .map_or(self.s.len(), |(i, _)| i);
        if end == 0 {
            return Err(());
        }
        let atom = self.s.get(..end).unwrap_or_default();
        self.s = self.s.get(end..).unwrap_or_default();
        if !permissive && (atom.starts_with('.') || atom.contains("..") || atom.ends_with('.')) {
            return Err(());
        }
        Ok(atom)
    }

    fn consume_domain_literal(&mut self) -> R<()> {
        if !self.consume(b'[') {
            return Err(());
        }
        let end = self.s.find(']').ok_or(())?;
        let dtext = self.s.get(..end).unwrap_or_default();
        if !dtext.chars().all(is_dtext) {
            return Err(());
        }
        self.s = self.s.get(end + 1..).unwrap_or_default();
        if parse_ip_strict(dtext) {
            Ok(())
        } else {
            Err(())
        }
    }

    /// `consumeAddrSpec`; restores the input on failure.
    fn consume_addr_spec(&mut self) -> R<()> {
        let orig = self.s;
        let r = self.addr_spec_inner();
        if r.is_err() {
            self.s = orig;
        }
        r
    }

    fn addr_spec_inner(&mut self) -> R<()> {
        self.skip_space();
        if self.empty() {
            return Err(());
        }
        if self.peek() == Some(b'"') {
            let local = self.consume_quoted_string()?;
            if local.is_empty() {
                return Err(());
            }
        } else {
            self.consume_atom(true, false)?;
        }
        if !self.consume(b'@') {
            return Err(());
        }
        self.skip_space();
        if self.empty() {
            return Err(());
        }
        if self.peek() == Some(b'[') {
            self.consume_domain_literal()
        } else {
            self.consume_atom(true, false).map(|_| ())
        }
    }

    fn consume_phrase(&mut self) -> R<String> {
        let mut words: Vec<String> = Vec::new();
        loop {
            if !words.is_empty() && !self.skip_cfws() {
                return Err(());
            }
            self.skip_space();
            if self.empty() {
                break;
            }
            let word = if self.peek() == Some(b'"') {
                self.consume_quoted_string()
            } else {
                match self.consume_atom(true, true) {
                    Ok(atom) => decode_rfc2047_word(atom).map(|_| atom.to_string()),
                    Err(e) => Err(e),
                }
            };
            match word {
                Ok(w) => words.push(w),
                Err(()) => break,
            }
        }
        if words.is_empty() {
            return Err(());
        }
        Ok(words.join(" "))
    }

    fn consume_display_name_comment(&mut self) -> R<()> {
        if !self.consume(b'(') {
            return Err(());
        }
        let comment = self.consume_comment().ok_or(())?;
        for word in comment.split([' ', '\t']).filter(|w| !w.is_empty()) {
            decode_rfc2047_word(word)?;
        }
        Ok(())
    }

    /// `parseAddress`: the number of addresses and whether the first has a
    /// non-empty address part (always true when parsing succeeds).
    fn parse_address(&mut self, handle_group: bool) -> R<usize> {
        self.skip_space();
        if self.empty() {
            return Err(());
        }
        if self.consume_addr_spec().is_ok() {
            self.skip_space();
            if self.peek() == Some(b'(') {
                self.consume_display_name_comment()?;
            }
            return Ok(1);
        }
        if self.peek() != Some(b'<') {
            self.consume_phrase()?;
        }
        self.skip_space();
        if handle_group && self.consume(b':') {
            return self.consume_group_list();
        }
        if !self.consume(b'<') {
            return Err(());
        }
        self.consume_addr_spec()?;
        if !self.consume(b'>') {
            return Err(());
        }
        Ok(1)
    }

    fn consume_group_list(&mut self) -> R<usize> {
        let mut n = 0;
        self.skip_space();
        if self.consume(b';') {
            if !self.skip_cfws() {
                return Err(());
            }
            return Ok(0);
        }
        loop {
            self.skip_space();
            n += self.parse_address(false)?;
            if !self.skip_cfws() {
                return Err(());
            }
            if self.consume(b';') {
                if !self.skip_cfws() {
                    return Err(());
                }
                break;
            }
            if !self.consume(b',') {
                return Err(());
            }
        }
        Ok(n)
    }
}

/// `mail.ParseAddress(s)` succeeds with a non-empty address.
pub(crate) fn is_email(s: &str) -> bool {
    let mut p = Parser { s };
    let Ok(n) = p.parse_address(true) else {
        return false;
    };
    if !p.skip_cfws() || !p.empty() {
        return false;
    }
    n == 1
}
