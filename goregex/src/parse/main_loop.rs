//! Go's `parse`: the main loop over the pattern, with the operators it handles
//! itself (anchors, `.`, repetitions, `\A \b \B \Q…\E \z`) and the opening of
//! groups and flag changes (`parsePerlFlags`).

use super::parser::{MAX_REPEAT, PErr, Parser, find};
use super::tree::{DOT_NL, FOLD_CASE, NON_GREEDY, NodeId, ONE_LINE, Op, PERL_X, Tree, WAS_DOLLAR};
use crate::error::{ErrorCode, GoRegexError};

/// Parses `whole` like Go's `syntax.Parse(whole, syntax.Perl)`.
pub(crate) fn parse_pattern(whole: &[u8]) -> Result<Tree, GoRegexError> {
    let mut p = Parser::new(whole);
    match p.parse() {
        Ok(root) => Ok(Tree {
            nodes: p.nodes,
            root,
        }),
        Err(e) => Err(GoRegexError::Syntax {
            code: e.code,
            expr: String::from_utf8_lossy(whole.get(e.start..e.end).unwrap_or(&[])).into_owned(),
        }),
    }
}

impl Parser<'_> {
    // ----- the main loop (`parse`) -----

    fn parse(&mut self) -> Result<NodeId, PErr> {
        let n = self.whole.len();
        let mut t = 0usize;
        let mut last_repeat: Option<usize> = None;
        while t < n {
            let mut repeat: Option<usize> = None;
            match self.byte(t).unwrap_or(0) {
                b'(' => {
                    if self.flags & PERL_X != 0 && self.byte(t + 1) == Some(b'?') {
                        // Flag changes and non-capturing groups.
                        t = self.parse_perl_flags(t)?;
                    } else {
                        self.num_cap += 1;
                        let cap = self.num_cap;
                        if let Some(id) = self.op(Op::LeftParen)? {
                            self.nd_mut(id).cap = cap;
                        }
                        t += 1;
                    }
                }
                b'|' => {
                    self.parse_vertical_bar()?;
                    t += 1;
                }
                b')' => {
                    self.parse_right_paren()?;
                    t += 1;
                }
                b'^' => {
                    if self.flags & ONE_LINE != 0 {
                        self.op(Op::BeginText)?;
                    } else {
                        self.op(Op::BeginLine)?;
                    }
                    t += 1;
                }
                b'$' => {
                    if self.flags & ONE_LINE != 0 {
                        if let Some(id) = self.op(Op::EndText)? {
                            self.nd_mut(id).flags |= WAS_DOLLAR;
                        }
                    } else {
                        self.op(Op::EndLine)?;
                    }
                    t += 1;
                }
                b'.' => {
                    if self.flags & DOT_NL != 0 {
                        self.op(Op::AnyChar)?;
                    } else {
                        self.op(Op::AnyCharNotNl)?;
                    }
                    t += 1;
                }
                b'[' => t = self.parse_class(t)?,
                c @ (b'*' | b'+' | b'?') => {
                    let op = match c {
                        b'*' => Op::Star,
                        b'+' => Op::Plus,
                        _ => Op::Quest,
                    };
                    let before = t;
                    t = self.repeat(op, 0, 0, before, t + 1, last_repeat)?;
                    repeat = Some(before);
                }
                b'{' => {
                    let before = t;
                    match self.parse_repeat(t) {
                        None => {
                            // Not a repeat: a literal `{`.
                            self.literal(i32::from(b'{'))?;
                            t += 1;
                        }
                        Some((min, max, after)) => {
                            if !(0..=MAX_REPEAT).contains(&min)
                                || max > MAX_REPEAT
                                || (max >= 0 && min > max)
                            {
                                return Err(self.err(ErrorCode::InvalidRepeatSize, before, after));
                            }
                            t = self.repeat(Op::Repeat, min, max, before, after, last_repeat)?;
                            repeat = Some(before);
                        }
                    }
                }
                b'\\' => t = self.parse_backslash(t)?,
                _ => {
                    let (c, next) = self.next_rune(t, n)?;
                    self.literal(c)?;
                    t = next;
                }
            }
            last_repeat = repeat;
        }
        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()?;
        match self.stack.as_slice() {
            [root] => Ok(*root),
            _ => Err(self.err_whole(ErrorCode::MissingParen)),
        }
    }

    fn parse_backslash(&mut self, t: usize) -> Result<usize, PErr> {
        let n = self.whole.len();
        if self.flags & PERL_X != 0 {
            if let Some(c) = self.byte(t + 1) {
                match c {
                    b'A' => {
                        self.op(Op::BeginText)?;
                        return Ok(t + 2);
                    }
                    b'b' => {
                        self.op(Op::WordBoundary)?;
                        return Ok(t + 2);
                    }
                    b'B' => {
                        self.op(Op::NoWordBoundary)?;
                        return Ok(t + 2);
                    }
                    // Any byte: not supported.
                    b'C' => return Err(self.err(ErrorCode::InvalidEscape, t, t + 2)),
                    b'Q' => {
                        // \Q ... \E: everything up to \E (or the end) is literal.
                        let body = t + 2;
                        let (lit_end, next) = match find(self.whole.get(body..), b"\\E") {
                            Some(k) => (body + k, body + k + 2),
                            None => (n, n),
                        };
                        let mut i = body;
                        while i < lit_end {
                            let (c, next_i) = self.next_rune(i, lit_end)?;
                            self.literal(c)?;
                            i = next_i;
                        }
                        return Ok(next);
                    }
                    b'z' => {
                        self.op(Op::EndText)?;
                        return Ok(t + 2);
                    }
                    _ => {}
                }
            }
        }

        let re = self.new_regexp(Op::CharClass);
        let flags = self.flags;
        self.nd_mut(re).flags = flags;

        // A Unicode class like \p{Han}.
        if matches!(self.byte(t + 1), Some(b'p' | b'P')) {
            let mut class = Vec::new();
            if let Some(rest) = self.parse_unicode_class(t, &mut class)? {
                self.nd_mut(re).runes = class;
                self.push(re)?;
                return Ok(rest);
            }
        }

        // A Perl class like \d.
        let mut class = Vec::new();
        if let Some(rest) = self.parse_perl_class_escape(t, &mut class) {
            self.nd_mut(re).runes = class;
            self.push(re)?;
            return Ok(rest);
        }
        self.reuse(re);

        // An ordinary single-character escape.
        let (c, rest) = self.parse_escape(t)?;
        self.literal(c)?;
        Ok(rest)
    }

    /// `parseRepeat`: `{min}`, `{min,}` or `{min,max}` at `s`. `None` if `s` does
    /// not have that form; a count too big for `parseInt` gives `min == -1`.
    fn parse_repeat(&self, s: usize) -> Option<(i32, i32, usize)> {
        if self.byte(s) != Some(b'{') {
            return None;
        }
        let (mut min, mut p) = self.parse_int(s + 1)?;
        let max;
        match self.byte(p)? {
            b',' => {
                p += 1;
                if self.byte(p)? == b'}' {
                    max = -1;
                } else {
                    let (m, np) = self.parse_int(p)?;
                    p = np;
                    max = m;
                    if max < 0 {
                        min = -1;
                    }
                }
            }
            _ => max = min,
        }
        if self.byte(p)? != b'}' {
            return None;
        }
        Some((min, max, p + 1))
    }

    /// `parseInt`: a decimal number without leading zeros; -1 if it is 1e8 or more.
    fn parse_int(&self, s: usize) -> Option<(i32, usize)> {
        if !self.byte(s)?.is_ascii_digit() {
            return None;
        }
        if self.byte(s) == Some(b'0') && self.byte(s + 1).is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut end = s;
        while self.byte(end).is_some_and(|b| b.is_ascii_digit()) {
            end += 1;
        }
        let mut n: i32 = 0;
        for &d in self.whole.get(s..end).unwrap_or(&[]) {
            if n >= 100_000_000 {
                n = -1;
                break;
            }
            n = n * 10 + i32::from(d - b'0');
        }
        Some((n, end))
    }

    /// `repeat`: applies a repetition to the top of the stack. `before` is where
    /// the operator starts, `after` where it ends; returns the new position.
    fn repeat(
        &mut self,
        op: Op,
        min: i32,
        max: i32,
        before: usize,
        after: usize,
        last_repeat: Option<usize>,
    ) -> Result<usize, PErr> {
        let mut after = after;
        let mut flags = self.flags;
        if self.flags & PERL_X != 0 {
            if self.byte(after) == Some(b'?') {
                after += 1;
                flags ^= NON_GREEDY;
            }
            if let Some(last) = last_repeat {
                // Perl does not allow stacked repetition operators (a**, a++).
                return Err(self.err(ErrorCode::InvalidRepeatOp, last, after));
            }
        }
        let Some(&sub) = self.stack.last() else {
            return Err(self.err(ErrorCode::MissingRepeatArgument, before, after));
        };
        if self.op_of(sub).is_pseudo() {
            return Err(self.err(ErrorCode::MissingRepeatArgument, before, after));
        }
        let re = self.new_regexp(op);
        {
            let n = self.nd_mut(re);
            n.min = min;
            n.max = max;
            n.flags = flags;
            n.sub = vec![sub];
        }
        if let Some(top) = self.stack.last_mut() {
            *top = re;
        }
        self.check_limits(re)?;
        if op == Op::Repeat && (min >= 2 || max >= 2) && !self.repeat_is_valid(re, MAX_REPEAT) {
            return Err(self.err(ErrorCode::InvalidRepeatSize, before, after));
        }
        Ok(after)
    }

    /// `repeatIsValid`: the nested repetition counts multiply to at most `n`.
    fn repeat_is_valid(&self, re: NodeId, n: i32) -> bool {
        let node = self.nd(re);
        let mut n = n;
        if node.op == Op::Repeat {
            let mut m = node.max;
            if m == 0 {
                return true;
            }
            if m < 0 {
                m = node.min;
            }
            if m > n {
                return false;
            }
            if m > 0 {
                n /= m;
            }
        }
        node.sub.iter().all(|&s| self.repeat_is_valid(s, n))
    }

    // ----- groups and flags -----

    /// `parsePerlFlags`: `(?i)`, `(?:`, `(?i-s:`, `(?P<name>`, `(?<name>` at `s`.
    fn parse_perl_flags(&mut self, s: usize) -> Result<usize, PErr> {
        let n = self.whole.len();
        let rem = n.saturating_sub(s);
        let starts_with_p =
            rem > 4 && self.byte(s + 2) == Some(b'P') && self.byte(s + 3) == Some(b'<');
        let starts_with_name = rem > 3 && self.byte(s + 2) == Some(b'<');
        if starts_with_p || starts_with_name {
            let expr_start = if starts_with_name { s + 3 } else { s + 4 };
            let Some(k) = find(self.whole.get(s..), b">") else {
                self.check_utf8(s, n)?;
                return Err(self.err(ErrorCode::InvalidNamedCapture, s, n));
            };
            let end = s + k;
            self.check_utf8(expr_start.min(end), end)?;
            let name = self.whole.get(expr_start..end).unwrap_or(&[]);
            if name.is_empty() || !name.iter().all(|&b| b == b'_' || b.is_ascii_alphanumeric()) {
                return Err(self.err(ErrorCode::InvalidNamedCapture, s, end + 1));
            }
            self.num_cap += 1;
            let cap = self.num_cap;
            if let Some(id) = self.op(Op::LeftParen)? {
                self.nd_mut(id).cap = cap;
            }
            return Ok(end + 1);
        }

        // Non-capturing group, flags, or both.
        let mut t = s + 2;
        let mut flags = self.flags;
        let mut negated = false;
        let mut saw_flag = false;
        while t < n {
            let (c, next) = self.next_rune(t, n)?;
            t = next;
            match u8::try_from(c).unwrap_or(0) {
                b'i' => {
                    flags |= FOLD_CASE;
                    saw_flag = true;
                }
                b'm' => {
                    flags &= !ONE_LINE;
                    saw_flag = true;
                }
                b's' => {
                    flags |= DOT_NL;
                    saw_flag = true;
                }
                b'U' => {
                    flags |= NON_GREEDY;
                    saw_flag = true;
                }
                b'-' => {
                    if negated {
                        break;
                    }
                    negated = true;
                    // Invert, so that the settings above clear flags; inverted back
                    // at the end.
                    flags = !flags;
                    saw_flag = false;
                }
                c @ (b':' | b')') => {
                    if negated {
                        if !saw_flag {
                            break;
                        }
                        flags = !flags;
                    }
                    if c == b':' {
                        // Open a new group.
                        self.op(Op::LeftParen)?;
                    }
                    self.flags = flags;
                    return Ok(t);
                }
                _ => break,
            }
        }
        Err(self.err(ErrorCode::InvalidPerlOp, s, t))
    }
}
