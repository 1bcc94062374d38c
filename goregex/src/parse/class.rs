//! Escapes and character classes: `\n \x{…} \123`, bracketed classes `[…]`,
//! POSIX classes `[:alpha:]`, Perl classes `\d \s \w` and Unicode classes `\p{…}`.

use super::parser::{PErr, Parser, decode_first, find};
use super::tree::{CLASS_NL, FOLD_CASE, Op, PERL_X, UNICODE_GROUPS};
use crate::case_fold::{append_folded_class, append_folded_range, fold_closure};
use crate::char_class::{
    MAX_RUNE, append_class, append_negated_class, append_range, clean_class, negate_class,
    perl_group, posix_group,
};
use crate::error::ErrorCode;
use crate::unicode_tables::{canonical_name, lookup_unicode_table};

impl Parser<'_> {
    /// `parseEscape`: a single-character escape at `s` (which holds `\`).
    pub(super) fn parse_escape(&self, s: usize) -> Result<(i32, usize), PErr> {
        let n = self.whole.len();
        let mut t = s + 1;
        if t >= n {
            return Err(self.err(ErrorCode::TrailingBackslash, 0, 0));
        }
        let (c, next) = self.next_rune(t, n)?;
        t = next;
        'switch: {
            match c {
                // Octal escapes; a single non-zero digit would be a backreference.
                0x30..=0x37 => {
                    if c != 0x30 && !self.byte(t).is_some_and(is_octal) {
                        break 'switch;
                    }
                    let mut r = c - 0x30;
                    for _ in 1..3 {
                        match self.byte(t) {
                            Some(d) if is_octal(d) => {
                                r = r * 8 + i32::from(d - b'0');
                                t += 1;
                            }
                            _ => break,
                        }
                    }
                    return Ok((r, t));
                }
                // Hexadecimal escapes.
                0x78 => {
                    if t >= n {
                        break 'switch;
                    }
                    let (c, next) = self.next_rune(t, n)?;
                    t = next;
                    if c == i32::from(b'{') {
                        // Any number of hex digits in braces, at least one.
                        let mut nhex = 0;
                        let mut r: i32 = 0;
                        loop {
                            if t >= n {
                                break 'switch;
                            }
                            let (c, next) = self.next_rune(t, n)?;
                            t = next;
                            if c == i32::from(b'}') {
                                break;
                            }
                            let v = unhex(c);
                            if v < 0 {
                                break 'switch;
                            }
                            r = r * 16 + v;
                            if r > MAX_RUNE {
                                break 'switch;
                            }
                            nhex += 1;
                        }
                        if nhex == 0 {
                            break 'switch;
                        }
                        return Ok((r, t));
                    }
                    // Two hex digits.
                    let x = unhex(c);
                    let (c, next) = self.next_rune(t, n)?;
                    t = next;
                    let y = unhex(c);
                    if x < 0 || y < 0 {
                        break 'switch;
                    }
                    return Ok((x * 16 + y, t));
                }
                // C escapes (no \b: that is a word boundary).
                0x61 => return Ok((7, t)),
                0x66 => return Ok((12, t)),
                0x6e => return Ok((10, t)),
                0x72 => return Ok((13, t)),
                0x74 => return Ok((9, t)),
                0x76 => return Ok((11, t)),
                _ => {
                    // Escaped punctuation is always itself.
                    if c < 0x80 && !is_alnum(c) {
                        return Ok((c, t));
                    }
                }
            }
        }
        Err(self.err(ErrorCode::InvalidEscape, s, t))
    }

    /// `parseClassChar`: one class character (possibly escaped) at `s`.
    fn parse_class_char(&self, s: usize, whole_class: usize) -> Result<(i32, usize), PErr> {
        let n = self.whole.len();
        if s >= n {
            return Err(self.err(ErrorCode::MissingBracket, whole_class, n));
        }
        if self.byte(s) == Some(b'\\') {
            return self.parse_escape(s);
        }
        self.next_rune(s, n)
    }

    /// `parsePerlClassEscape`: `\d \D \s \S \w \W` at `s`, appended to `r`.
    pub(super) fn parse_perl_class_escape(&self, s: usize, r: &mut Vec<i32>) -> Option<usize> {
        if self.flags & PERL_X == 0 || self.byte(s) != Some(b'\\') {
            return None;
        }
        let (sign, class) = perl_group(self.byte(s + 1)?)?;
        self.append_group(r, sign, class);
        Some(s + 2)
    }

    /// `parseNamedClass`: a POSIX class like `[:alnum:]` at `s`, appended to `r`.
    fn parse_named_class(&self, s: usize, r: &mut Vec<i32>) -> Result<Option<usize>, PErr> {
        if self.byte(s) != Some(b'[') || self.byte(s + 1) != Some(b':') {
            return Ok(None);
        }
        let Some(k) = find(self.whole.get(s + 2..), b":]") else {
            return Ok(None);
        };
        let end = s + 2 + k + 2;
        let name = self.whole.get(s..end).unwrap_or(&[]);
        match posix_group(name) {
            Some((sign, class)) => {
                self.append_group(r, sign, class);
                Ok(Some(end))
            }
            None => Err(self.err(ErrorCode::InvalidCharRange, s, end)),
        }
    }

    /// `appendGroup`.
    fn append_group(&self, r: &mut Vec<i32>, sign: i32, class: &[i32]) {
        if self.flags & FOLD_CASE == 0 {
            if sign < 0 {
                append_negated_class(r, class);
            } else {
                append_class(r, class);
            }
        } else {
            let mut tmp = Vec::new();
            append_folded_class(&mut tmp, class);
            let tmp = clean_class(&tmp);
            if sign < 0 {
                append_negated_class(r, &tmp);
            } else {
                append_class(r, &tmp);
            }
        }
    }

    /// `parseUnicodeClass`: `\pN`, `\p{Name}`, `\P{…}` at `s`, appended to `r`.
    pub(super) fn parse_unicode_class(
        &mut self,
        s: usize,
        r: &mut Vec<i32>,
    ) -> Result<Option<usize>, PErr> {
        if self.flags & UNICODE_GROUPS == 0
            || self.byte(s) != Some(b'\\')
            || !matches!(self.byte(s + 1), Some(b'p' | b'P'))
        {
            return Ok(None);
        }
        let n = self.whole.len();
        // Committed to parse or return an error.
        let mut sign = if self.byte(s + 1) == Some(b'P') {
            -1
        } else {
            1
        };
        let (c, t) = self.next_rune(s + 2, n)?;
        let (seq_end, name_start, name_end) = if c != i32::from(b'{') {
            // Single-letter name.
            (t, s + 2, t)
        } else {
            // Name in braces.
            let Some(k) = find(self.whole.get(s..), b"}") else {
                self.check_utf8(s, n)?;
                return Err(self.err(ErrorCode::InvalidCharRange, s, n));
            };
            let end = s + k;
            self.check_utf8(s + 3, end)?;
            (end + 1, s + 3, end)
        };
        let mut name = self.whole.get(name_start..name_end).unwrap_or(&[]);
        // \p{^Han} == \P{Han}.
        if let Some((b'^', rest)) = name.split_first() {
            sign = -sign;
            name = rest;
        }
        let Some((table, table_sign)) = self.unicode_table(name) else {
            return Err(self.err(ErrorCode::InvalidCharRange, s, seq_end));
        };
        if table_sign < 0 {
            sign = -sign;
        }
        let table = if self.flags & FOLD_CASE != 0 {
            fold_closure(&table)
        } else {
            table
        };
        if sign > 0 {
            append_class(r, &table);
        } else {
            append_negated_class(r, &table);
        }
        Ok(Some(seq_end))
    }

    /// `unicodeTable`: the code points named by a `\p` name, and whether the
    /// class is to be inverted (`Assigned` is "not `Cn`").
    fn unicode_table(&mut self, name: &[u8]) -> Option<(Vec<i32>, i32)> {
        let canon = canonical_name(name);
        if let Some(hit) = self.tables.get(&canon) {
            return hit.clone();
        }
        let found = lookup_unicode_table(&canon);
        self.tables.insert(canon, found.clone());
        found
    }

    /// `parseClass`: a bracketed class at `s`.
    pub(super) fn parse_class(&mut self, s: usize) -> Result<usize, PErr> {
        let n = self.whole.len();
        let mut t = s + 1;
        let re = self.new_regexp(Op::CharClass);
        let flags = self.flags;
        self.nd_mut(re).flags = flags;
        let mut class: Vec<i32> = Vec::new();
        let mut negated = false;
        if self.byte(t) == Some(b'^') {
            negated = true;
            t += 1;
            // If the class does not match \n, add it here so the negation drops it.
            if flags & CLASS_NL == 0 {
                class.extend([10, 10]);
            }
        }
        let mut first = true; // ] and - are okay as the first character
        while t >= n || self.byte(t) != Some(b']') || first {
            // POSIX: - is only okay unescaped as first or last in class.
            if self.byte(t) == Some(b'-')
                && flags & PERL_X == 0
                && !first
                && self.byte(t + 1) != Some(b']')
            {
                let size = self.whole.get(t + 1..).map_or(0, |rest| {
                    decode_first(rest).map_or(usize::from(!rest.is_empty()), |(_, k)| k)
                });
                return Err(self.err(ErrorCode::InvalidCharRange, t, t + 1 + size));
            }
            first = false;

            // A POSIX class like [:alnum:].
            if n.saturating_sub(t) > 2
                && self.byte(t) == Some(b'[')
                && self.byte(t + 1) == Some(b':')
            {
                if let Some(next) = self.parse_named_class(t, &mut class)? {
                    t = next;
                    continue;
                }
            }

            // A Unicode class like \p{Han}.
            if let Some(next) = self.parse_unicode_class(t, &mut class)? {
                t = next;
                continue;
            }

            // A Perl class like \d.
            if let Some(next) = self.parse_perl_class_escape(t, &mut class) {
                t = next;
                continue;
            }

            // A single character or a simple range.
            let range_start = t;
            let (lo, next) = self.parse_class_char(t, s)?;
            t = next;
            let mut hi = lo;
            // [a-] means (a|-), so check for a final ].
            if n.saturating_sub(t) >= 2
                && self.byte(t) == Some(b'-')
                && self.byte(t + 1) != Some(b']')
            {
                t += 1;
                let (h, next) = self.parse_class_char(t, s)?;
                t = next;
                hi = h;
                if hi < lo {
                    return Err(self.err(ErrorCode::InvalidCharRange, range_start, t));
                }
            }
            if flags & FOLD_CASE == 0 {
                append_range(&mut class, lo, hi);
            } else {
                append_folded_range(&mut class, lo, hi);
            }
        }
        t += 1; // the ]

        let mut class = clean_class(&class);
        if negated {
            class = negate_class(&class);
        }
        self.nd_mut(re).runes = class;
        self.push(re)?;
        Ok(t)
    }
}

fn is_octal(b: u8) -> bool {
    (b'0'..=b'7').contains(&b)
}

fn is_alnum(c: i32) -> bool {
    u8::try_from(c).is_ok_and(|b| b.is_ascii_alphanumeric())
}

fn unhex(c: i32) -> i32 {
    match u8::try_from(c) {
        Ok(b @ b'0'..=b'9') => i32::from(b - b'0'),
        Ok(b @ b'a'..=b'f') => i32::from(b - b'a') + 10,
        Ok(b @ b'A'..=b'F') => i32::from(b - b'A') + 10,
        _ => -1,
    }
}
