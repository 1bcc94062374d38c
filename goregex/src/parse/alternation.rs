//! Reducing the parse stack at `|`, `)` and the end of the pattern: concatenation
//! and alternation (`concat`, `alternate`, `collapse`), and Go's rewrites of
//! alternations (`factor`'s prefix factoring, class merging, `cleanAlt`).

use super::parser::{PErr, Parser};
use super::tree::{FOLD_CASE, NON_GREEDY, Node, NodeId, Op, WAS_DOLLAR};
use crate::case_fold::append_folded_range;
use crate::char_class::{MAX_RUNE, append_class, append_range, clean_class};
use crate::error::ErrorCode;

/// Bound on the recursion of the alternation prefix factoring (see the crate docs).
const MAX_FACTOR_DEPTH: usize = 2000;

impl Parser<'_> {
    // ----- `|` and `)` -----

    pub(super) fn parse_vertical_bar(&mut self) -> Result<(), PErr> {
        self.concat()?;
        // The concatenation just parsed is on top of the stack. If it sits above a
        // `|`, swap it below; otherwise push a new `|`.
        if !self.swap_vertical_bar() {
            self.op(Op::VerticalBar)?;
        }
        Ok(())
    }

    pub(super) fn swap_vertical_bar(&mut self) -> bool {
        let n = self.stack.len();
        if n >= 3 {
            if let (Some(&re1), Some(&bar), Some(&re3)) = (
                self.stack.get(n - 1),
                self.stack.get(n - 2),
                self.stack.get(n - 3),
            ) {
                if self.op_of(bar) == Op::VerticalBar
                    && self.is_char_class(re1)
                    && self.is_char_class(re3)
                {
                    // Merge the two character classes; keep the more complex node.
                    let (mut re1, mut re3) = (re1, re3);
                    if self.op_of(re1) > self.op_of(re3) {
                        std::mem::swap(&mut re1, &mut re3);
                        if let Some(slot) = self.stack.get_mut(n - 3) {
                            *slot = re3;
                        }
                    }
                    self.merge_char_class(re3, re1);
                    self.reuse(re1);
                    self.stack.pop();
                    return true;
                }
            }
        }
        if n >= 2 {
            if let (Some(&re1), Some(&re2)) = (self.stack.get(n - 1), self.stack.get(n - 2)) {
                if self.op_of(re2) == Op::VerticalBar {
                    if n >= 3 {
                        // Now out of reach: clean opportunistically.
                        if let Some(&below) = self.stack.get(n - 3) {
                            self.clean_alt(below);
                        }
                    }
                    if let Some(slot) = self.stack.get_mut(n - 2) {
                        *slot = re1;
                    }
                    if let Some(slot) = self.stack.get_mut(n - 1) {
                        *slot = re2;
                    }
                    return true;
                }
            }
        }
        false
    }

    pub(super) fn parse_right_paren(&mut self) -> Result<(), PErr> {
        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()?;
        let n = self.stack.len();
        if n < 2 {
            return Err(self.err_whole(ErrorCode::UnexpectedParen));
        }
        let (Some(&re1), Some(&re2)) = (self.stack.get(n - 1), self.stack.get(n - 2)) else {
            return Err(self.err_whole(ErrorCode::UnexpectedParen));
        };
        self.stack.truncate(n - 2);
        if self.op_of(re2) != Op::LeftParen {
            return Err(self.err_whole(ErrorCode::UnexpectedParen));
        }
        // Restore the flags at the time of the paren.
        self.flags = self.nd(re2).flags;
        if self.nd(re2).cap == 0 {
            // Just for grouping.
            self.push(re1)?;
        } else {
            let n2 = self.nd_mut(re2);
            n2.op = Op::Capture;
            n2.sub = vec![re1];
            self.push(re2)?;
        }
        Ok(())
    }

    // ----- concatenation and alternation (`concat`, `alternate`, `factor`) -----

    /// Index of the first stack entry above the topmost pseudo-op.
    fn above_pseudo(&self) -> usize {
        let mut i = self.stack.len();
        while i > 0
            && self
                .stack
                .get(i - 1)
                .is_some_and(|&id| !self.op_of(id).is_pseudo())
        {
            i -= 1;
        }
        i
    }

    /// `concat`: replaces the top of the stack (above the topmost `|` or `(`) with
    /// its concatenation.
    pub(super) fn concat(&mut self) -> Result<(), PErr> {
        self.maybe_concat(-1, 0);
        let i = self.above_pseudo();
        let subs = self.stack.split_off(i);
        if subs.is_empty() {
            let re = self.new_regexp(Op::EmptyMatch);
            self.push(re)?;
            return Ok(());
        }
        let re = self.collapse(subs, Op::Concat)?;
        self.push(re)?;
        Ok(())
    }

    /// `alternate`: replaces the top of the stack (above the topmost `(`) with its
    /// alternation.
    pub(super) fn alternate(&mut self) -> Result<(), PErr> {
        let i = self.above_pseudo();
        let subs = self.stack.split_off(i);
        if let Some(&last) = subs.last() {
            self.clean_alt(last);
        }
        if subs.is_empty() {
            let re = self.new_regexp(Op::NoMatch);
            self.push(re)?;
            return Ok(());
        }
        let re = self.collapse(subs, Op::Alternate)?;
        self.push(re)?;
        Ok(())
    }

    /// `cleanAlt`: prepares a node for inclusion in an alternation.
    fn clean_alt(&mut self, re: NodeId) {
        if self.op_of(re) != Op::CharClass {
            return;
        }
        let cleaned = clean_class(&self.nd(re).runes);
        let n = self.nd_mut(re);
        if cleaned == [0, MAX_RUNE] {
            n.runes = Vec::new();
            n.op = Op::AnyChar;
        } else if cleaned == [0, 9, 11, MAX_RUNE] {
            n.runes = Vec::new();
            n.op = Op::AnyCharNotNl;
        } else {
            n.runes = cleaned;
        }
    }

    /// `collapse`: applies `op` to `subs`, hoisting nested nodes of the same op.
    fn collapse(&mut self, subs: Vec<NodeId>, op: Op) -> Result<NodeId, PErr> {
        if let [only] = subs.as_slice() {
            return Ok(*only);
        }
        let mut re = self.new_regexp(op);
        let mut list = Vec::with_capacity(subs.len());
        for sub in subs {
            if self.op_of(sub) == op {
                list.extend(self.nd(sub).sub.iter().copied());
                self.reuse(sub);
            } else {
                list.push(sub);
            }
        }
        if op == Op::Alternate {
            self.factor_depth += 1;
            if self.factor_depth > MAX_FACTOR_DEPTH {
                return Err(self.err_whole(ErrorCode::NestingDepth));
            }
            let factored = self.factor(list);
            self.factor_depth -= 1;
            let factored = factored?;
            if let [only] = factored.as_slice() {
                let old = re;
                re = *only;
                self.reuse(old);
            } else {
                self.nd_mut(re).sub = factored;
            }
        } else {
            self.nd_mut(re).sub = list;
        }
        Ok(re)
    }

    /// `factor`: factors common prefixes out of the alternation list `sub`.
    fn factor(&mut self, sub: Vec<NodeId>) -> Result<Vec<NodeId>, PErr> {
        if sub.len() < 2 {
            return Ok(sub);
        }
        let mut sub = sub;

        // Round 1: factor out common literal prefixes.
        let mut out = Vec::with_capacity(sub.len());
        let mut prefix_str: Vec<i32> = Vec::new();
        let mut str_flags: u16 = 0;
        let mut start = 0;
        let mut i = 0;
        while i <= sub.len() {
            let mut istr: Vec<i32> = Vec::new();
            let mut iflags: u16 = 0;
            if let Some(&si) = sub.get(i) {
                (istr, iflags) = self.leading_string(si);
                if iflags == str_flags {
                    let same = prefix_str
                        .iter()
                        .zip(istr.iter())
                        .take_while(|(a, b)| a == b)
                        .count();
                    if same > 0 {
                        // Matches at least one rune of the current run.
                        prefix_str.truncate(same);
                        i += 1;
                        continue;
                    }
                }
            }
            // End of a run: sub[start..i] all begin with prefix_str.
            if i == start + 1 {
                if let Some(&s0) = sub.get(start) {
                    out.push(s0);
                }
            } else if i > start + 1 {
                let prefix = self.new_regexp(Op::Literal);
                {
                    let p = self.nd_mut(prefix);
                    p.flags = str_flags;
                    p.runes = prefix_str.clone();
                }
                let n = prefix_str.len();
                let re = self.factored_run(&mut sub, start, i, prefix, |p, sj, _| {
                    p.remove_leading_string(sj, n)
                })?;
                out.push(re);
            }
            start = i;
            prefix_str = istr;
            str_flags = iflags;
            i += 1;
        }
        sub = out;

        // Round 2: factor out common simple prefixes (just the first piece of each
        // concatenation), when that piece is a character class or a fixed repeat of
        // one.
        let mut out = Vec::with_capacity(sub.len());
        let mut start = 0;
        let mut first: Option<NodeId> = None;
        let mut i = 0;
        while i <= sub.len() {
            let mut ifirst: Option<NodeId> = None;
            if let Some(&si) = sub.get(i) {
                ifirst = self.leading_regexp(si);
                if let (Some(f), Some(fi)) = (first, ifirst) {
                    if self.equal(f, fi) && self.is_factorable_prefix(f) {
                        i += 1;
                        continue;
                    }
                }
            }
            if i == start + 1 {
                if let Some(&s0) = sub.get(start) {
                    out.push(s0);
                }
            } else if i > start + 1 {
                let prefix = first.unwrap_or(0);
                let re = self.factored_run(&mut sub, start, i, prefix, |p, sj, j| {
                    p.remove_leading_regexp(sj, j != start)
                })?;
                out.push(re);
            }
            start = i;
            first = ifirst;
            i += 1;
        }
        sub = out;

        // Round 3: collapse runs of single literals into character classes.
        let mut out = Vec::with_capacity(sub.len());
        let mut start = 0;
        let mut i = 0;
        while i <= sub.len() {
            if sub.get(i).is_some_and(|&si| self.is_char_class(si)) {
                i += 1;
                continue;
            }
            if i == start + 1 {
                if let Some(&s0) = sub.get(start) {
                    out.push(s0);
                }
            } else if i > start + 1 {
                // Start with the most complex node in sub[start..i].
                let mut max = start;
                for j in start + 1..i {
                    let (Some(&sm), Some(&sj)) = (sub.get(max), sub.get(j)) else {
                        continue;
                    };
                    let (a, b) = (self.nd(sm), self.nd(sj));
                    if a.op < b.op || (a.op == b.op && a.runes.len() < b.runes.len()) {
                        max = j;
                    }
                }
                if max < sub.len() {
                    sub.swap(start, max);
                }
                if let Some(&dst) = sub.get(start) {
                    for j in start + 1..i {
                        if let Some(&src) = sub.get(j) {
                            self.merge_char_class(dst, src);
                            self.reuse(src);
                        }
                    }
                    self.clean_alt(dst);
                    out.push(dst);
                }
            }
            if let Some(&si) = sub.get(i) {
                out.push(si);
            }
            start = i + 1;
            i += 1;
        }
        sub = out;

        // Round 4: collapse runs of empty matches into a single empty match.
        let mut out = Vec::with_capacity(sub.len());
        for (k, &s) in sub.iter().enumerate() {
            let next_empty = sub
                .get(k + 1)
                .is_some_and(|&n| self.op_of(n) == Op::EmptyMatch);
            if next_empty && self.op_of(s) == Op::EmptyMatch {
                continue;
            }
            out.push(s);
        }
        Ok(out)
    }

    fn is_factorable_prefix(&self, f: NodeId) -> bool {
        let node = self.nd(f);
        self.is_char_class(f)
            || (node.op == Op::Repeat
                && node.min == node.max
                && node.sub.first().is_some_and(|&s| self.is_char_class(s)))
    }

    /// `leadingString`: the literal string `re` begins with, and its fold flag.
    fn leading_string(&self, re: NodeId) -> (Vec<i32>, u16) {
        let mut node = self.nd(re);
        if node.op == Op::Concat {
            if let Some(&s) = node.sub.first() {
                node = self.nd(s);
            }
        }
        if node.op != Op::Literal {
            return (Vec::new(), 0);
        }
        (node.runes.clone(), node.flags & FOLD_CASE)
    }

    /// A factored run of `factor`: `prefix` followed by the alternation of
    /// `sub[start..end]`, each of which `strip` (given the node and its
    /// index) first takes the common prefix off, in place.
    fn factored_run(
        &mut self,
        sub: &mut [NodeId],
        start: usize,
        end: usize,
        prefix: NodeId,
        strip: impl Fn(&mut Self, NodeId, usize) -> NodeId,
    ) -> Result<NodeId, PErr> {
        for j in start..end {
            if let Some(&sj) = sub.get(j) {
                let nj = strip(self, sj, j);
                if let Some(slot) = sub.get_mut(j) {
                    *slot = nj;
                }
                self.check_limits(nj)?;
            }
        }
        let run = sub.get(start..end).unwrap_or(&[]).to_vec();
        let suffix = self.collapse(run, Op::Alternate)?;
        let re = self.new_regexp(Op::Concat);
        self.nd_mut(re).sub = vec![prefix, suffix];
        Ok(re)
    }

    /// `removeLeadingString`: removes the first `n` runes; returns the replacement.
    fn remove_leading_string(&mut self, re: NodeId, n: usize) -> NodeId {
        if self.op_of(re) == Op::Concat && !self.nd(re).sub.is_empty() {
            // Removing a leading string may simplify the concatenation.
            let Some(&first) = self.nd(re).sub.first() else {
                return re;
            };
            let first = self.remove_leading_string(first, n);
            if let Some(slot) = self.nd_mut(re).sub.first_mut() {
                *slot = first;
            }
            if self.op_of(first) == Op::EmptyMatch {
                self.reuse(first);
                match self.nd(re).sub.len() {
                    0 | 1 => {
                        // Impossible but handle.
                        let node = self.nd_mut(re);
                        node.op = Op::EmptyMatch;
                        node.sub = Vec::new();
                    }
                    2 => {
                        let old = re;
                        let second = self.nd(re).sub.get(1).copied().unwrap_or(re);
                        self.reuse(old);
                        return second;
                    }
                    _ => drop_first(&mut self.nd_mut(re).sub),
                }
            }
            return re;
        }
        if self.op_of(re) == Op::Literal {
            let node = self.nd_mut(re);
            let cut = n.min(node.runes.len());
            node.runes.drain(..cut);
            if node.runes.is_empty() {
                node.op = Op::EmptyMatch;
            }
        }
        re
    }

    /// `leadingRegexp`: the node `re` begins with, if any.
    fn leading_regexp(&self, re: NodeId) -> Option<NodeId> {
        let node = self.nd(re);
        if node.op == Op::EmptyMatch {
            return None;
        }
        if node.op == Op::Concat {
            if let Some(&s) = node.sub.first() {
                if self.op_of(s) == Op::EmptyMatch {
                    return None;
                }
                return Some(s);
            }
        }
        Some(re)
    }

    /// `removeLeadingRegexp`: removes the leading node; returns the replacement.
    fn remove_leading_regexp(&mut self, re: NodeId, reuse: bool) -> NodeId {
        if self.op_of(re) == Op::Concat && !self.nd(re).sub.is_empty() {
            if reuse {
                if let Some(&s) = self.nd(re).sub.first() {
                    self.reuse(s);
                }
            }
            drop_first(&mut self.nd_mut(re).sub);
            match self.nd(re).sub.as_slice() {
                [] => {
                    let node = self.nd_mut(re);
                    node.op = Op::EmptyMatch;
                    node.sub = Vec::new();
                }
                [only] => {
                    let only = *only;
                    self.reuse(re);
                    return only;
                }
                _ => {}
            }
            return re;
        }
        if reuse {
            self.reuse(re);
        }
        self.new_regexp(Op::EmptyMatch)
    }

    /// `Regexp.Equal`.
    fn equal(&self, x: NodeId, y: NodeId) -> bool {
        let (a, b) = (self.nd(x), self.nd(y));
        if a.op != b.op {
            return false;
        }
        let sub_equal = |a: &Node, b: &Node| match (a.sub.first(), b.sub.first()) {
            (Some(&p), Some(&q)) => self.equal(p, q),
            (None, None) => true,
            _ => false,
        };
        match a.op {
            Op::EndText => a.flags & WAS_DOLLAR == b.flags & WAS_DOLLAR,
            Op::Literal | Op::CharClass => a.runes == b.runes,
            Op::Alternate | Op::Concat => {
                a.sub.len() == b.sub.len()
                    && a.sub
                        .iter()
                        .zip(b.sub.iter())
                        .all(|(&p, &q)| self.equal(p, q))
            }
            Op::Star | Op::Plus | Op::Quest => {
                a.flags & NON_GREEDY == b.flags & NON_GREEDY && sub_equal(a, b)
            }
            Op::Repeat => {
                a.flags & NON_GREEDY == b.flags & NON_GREEDY
                    && a.min == b.min
                    && a.max == b.max
                    && sub_equal(a, b)
            }
            // Capture indexes are unique, so distinct captures never compare equal.
            Op::Capture => a.cap == b.cap && sub_equal(a, b),
            _ => true,
        }
    }

    /// `isCharClass`: a single-rune literal, a class, `.` or `(?s).`.
    fn is_char_class(&self, re: NodeId) -> bool {
        let node = self.nd(re);
        (node.op == Op::Literal && node.runes.len() == 1)
            || matches!(node.op, Op::CharClass | Op::AnyCharNotNl | Op::AnyChar)
    }

    /// `mergeCharClass`: dst = dst|src, where `dst` is at least as complex.
    fn merge_char_class(&mut self, dst: NodeId, src: NodeId) {
        let (s_op, s_flags, s_runes) = {
            let s = self.nd(src);
            (s.op, s.flags, s.runes.clone())
        };
        let s0 = s_runes.first().copied().unwrap_or(0);
        let d = self.nd_mut(dst);
        match d.op {
            Op::AnyChar => {}
            Op::AnyCharNotNl => {
                let matches_nl = match s_op {
                    Op::Literal => s_runes.len() == 1 && s0 == 10,
                    Op::CharClass => s_runes
                        .chunks_exact(2)
                        .any(|p| matches!(*p, [lo, hi] if lo <= 10 && 10 <= hi)),
                    Op::AnyChar => true,
                    _ => false,
                };
                if matches_nl {
                    d.op = Op::AnyChar;
                }
            }
            Op::CharClass => {
                if s_op == Op::Literal {
                    append_literal(&mut d.runes, s0, s_flags);
                } else {
                    append_class(&mut d.runes, &s_runes);
                }
            }
            Op::Literal => {
                let d0 = d.runes.first().copied().unwrap_or(0);
                if s0 == d0 && s_flags == d.flags {
                    return;
                }
                d.op = Op::CharClass;
                let mut runes = Vec::new();
                append_literal(&mut runes, d0, d.flags);
                append_literal(&mut runes, s0, s_flags);
                d.runes = runes;
            }
            _ => {}
        }
    }
}

fn drop_first(v: &mut Vec<NodeId>) {
    if !v.is_empty() {
        v.remove(0);
    }
}

fn append_literal(r: &mut Vec<i32>, x: i32, flags: u16) {
    if flags & FOLD_CASE != 0 {
        append_folded_range(r, x, x);
    } else {
        append_range(r, x, x);
    }
}
