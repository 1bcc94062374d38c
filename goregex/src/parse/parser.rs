//! The parser's state and its primitives: errors, reading the pattern, node
//! allocation (`newRegexp`, `reuse`), Go's limits (`checkLimits`, `calcSize`,
//! `calcHeight`) and the parse stack (`push`, `maybeConcat`, `literal`, `op`).

use std::collections::HashMap;

use super::tree::{EMPTY_NODE, FOLD_CASE, Node, NodeId, Op, PERL};
use crate::case_fold::{min_fold_rune, simple_fold};
use crate::error::ErrorCode;

// Go's limits (`maxHeight`, `maxSize`, `maxRunes`, `maxRepeat`).
const MAX_HEIGHT: i32 = 1000;
const MAX_SIZE: i64 = (128 << 20) / 40;
const MAX_RUNES: usize = (128 << 20) / 4;
pub(super) const MAX_REPEAT: i32 = 1000;
/// `utf8.RuneError`.
const RUNE_ERROR: i32 = 0xFFFD;

/// A parse error: Go's code and the byte range of the pattern it quotes.
#[derive(Debug)]
pub(super) struct PErr {
    pub(super) code: ErrorCode,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// Go's `parser`: the parse stack, the node arena and the limit bookkeeping.
pub(super) struct Parser<'a> {
    pub(super) whole: &'a [u8],
    pub(super) flags: u16,
    pub(super) stack: Vec<NodeId>,
    pub(super) nodes: Vec<Node>,
    /// Go's free list (`p.free`), last in first out.
    free: Vec<NodeId>,
    scratch: Node,
    pub(super) num_cap: usize,
    num_regexp: usize,
    num_runes: usize,
    repeats: i64,
    size: Option<Vec<Option<i64>>>,
    height: Option<Vec<Option<i32>>>,
    pub(super) factor_depth: usize,
    pub(super) tables: HashMap<Vec<u8>, Option<(Vec<i32>, i32)>>,
}

impl<'a> Parser<'a> {
    /// A parser for `whole` with Go's `Perl` flags.
    pub(super) fn new(whole: &'a [u8]) -> Self {
        Parser {
            whole,
            flags: PERL,
            stack: Vec::new(),
            nodes: Vec::new(),
            free: Vec::new(),
            scratch: Node::default(),
            num_cap: 0,
            num_regexp: 0,
            num_runes: 0,
            repeats: 0,
            size: None,
            height: None,
            factor_depth: 0,
            tables: HashMap::new(),
        }
    }

    // ----- small helpers -----

    pub(super) fn err(&self, code: ErrorCode, start: usize, end: usize) -> PErr {
        PErr { code, start, end }
    }

    pub(super) fn err_whole(&self, code: ErrorCode) -> PErr {
        PErr {
            code,
            start: 0,
            end: self.whole.len(),
        }
    }

    pub(super) fn byte(&self, i: usize) -> Option<u8> {
        self.whole.get(i).copied()
    }

    pub(super) fn nd(&self, id: NodeId) -> &Node {
        self.nodes.get(id).unwrap_or(&EMPTY_NODE)
    }

    pub(super) fn nd_mut(&mut self, id: NodeId) -> &mut Node {
        match self.nodes.get_mut(id) {
            Some(n) => n,
            None => &mut self.scratch,
        }
    }

    pub(super) fn op_of(&self, id: NodeId) -> Op {
        self.nd(id).op
    }

    /// Go's `nextRune` on `whole[i..end]`: an empty input yields `RuneError`
    /// without error (like `utf8.DecodeRuneInString("")`).
    pub(super) fn next_rune(&self, i: usize, end: usize) -> Result<(i32, usize), PErr> {
        let Some(bytes) = self.whole.get(i..end) else {
            return Ok((RUNE_ERROR, i));
        };
        if bytes.is_empty() {
            return Ok((RUNE_ERROR, i));
        }
        match decode_first(bytes) {
            Some((c, n)) => Ok((c as i32, i + n)),
            None => Err(self.err(ErrorCode::InvalidUtf8, i, end)),
        }
    }

    /// Go's `checkUTF8` on `whole[start..end]`.
    pub(super) fn check_utf8(&self, start: usize, end: usize) -> Result<(), PErr> {
        let bytes = self.whole.get(start..end).unwrap_or(&[]);
        match std::str::from_utf8(bytes) {
            Ok(_) => Ok(()),
            Err(e) => Err(self.err(ErrorCode::InvalidUtf8, start + e.valid_up_to(), end)),
        }
    }

    // ----- node allocation (`newRegexp`, `reuse`) -----

    pub(super) fn new_regexp(&mut self, op: Op) -> NodeId {
        if let Some(id) = self.free.pop() {
            *self.nd_mut(id) = Node {
                op,
                ..Node::default()
            };
            id
        } else {
            self.nodes.push(Node {
                op,
                ..Node::default()
            });
            self.num_regexp += 1;
            self.nodes.len() - 1
        }
    }

    pub(super) fn reuse(&mut self, id: NodeId) {
        if let Some(h) = self.height.as_mut() {
            if let Some(slot) = h.get_mut(id) {
                *slot = None;
            }
        }
        self.free.push(id);
    }

    // ----- limits (`checkLimits`, `checkSize`, `calcSize`, `checkHeight`) -----

    pub(super) fn check_limits(&mut self, re: NodeId) -> Result<(), PErr> {
        if self.num_runes > MAX_RUNES {
            return Err(self.err_whole(ErrorCode::Large));
        }
        self.check_size(re)?;
        self.check_height(re)
    }

    fn check_size(&mut self, re: NodeId) -> Result<(), PErr> {
        if self.size.is_none() {
            // Go only starts tracking sizes once the product of the repeat counts
            // seen times the number of allocated nodes could exceed the budget.
            if self.repeats == 0 {
                self.repeats = 1;
            }
            let node = self.nd(re);
            if node.op == Op::Repeat {
                let mut n = node.max;
                if n == -1 {
                    n = node.min;
                }
                if n <= 0 {
                    n = 1;
                }
                if i64::from(n) > MAX_SIZE / self.repeats {
                    self.repeats = MAX_SIZE;
                } else {
                    self.repeats *= i64::from(n);
                }
            }
            if (self.num_regexp as i64) < MAX_SIZE / self.repeats {
                return Ok(());
            }
            self.size = Some(Vec::new());
            for id in self.stack.clone() {
                self.check_size(id)?;
            }
        }
        if self.calc_size(re, true) > MAX_SIZE {
            return Err(self.err_whole(ErrorCode::Large));
        }
        Ok(())
    }

    fn calc_size(&mut self, re: NodeId, force: bool) -> i64 {
        if !force {
            if let Some(Some(s)) = self.size.as_ref().and_then(|v| v.get(re)) {
                return *s;
            }
        }
        let node = self.nd(re);
        let op = node.op;
        let (min, max) = (i64::from(node.min), i64::from(node.max));
        let runes = node.runes.len() as i64;
        let subs = node.sub.clone();
        let first = subs.first().copied();
        let mut size: i64 = match op {
            Op::Literal => runes,
            Op::Capture | Op::Star => {
                2i64.saturating_add(first.map_or(0, |s| self.calc_size(s, false)))
            }
            Op::Plus | Op::Quest => {
                1i64.saturating_add(first.map_or(0, |s| self.calc_size(s, false)))
            }
            Op::Concat | Op::Alternate => {
                let mut total: i64 = 0;
                for s in &subs {
                    total = total.saturating_add(self.calc_size(*s, false));
                }
                if op == Op::Alternate && subs.len() > 1 {
                    total = total.saturating_add(subs.len() as i64).saturating_sub(1);
                }
                total
            }
            Op::Repeat => {
                let sub = first.map_or(0, |s| self.calc_size(s, false));
                if max == -1 {
                    if min == 0 {
                        2i64.saturating_add(sub)
                    } else {
                        min.saturating_mul(sub).saturating_add(1)
                    }
                } else {
                    max.saturating_mul(sub)
                        .saturating_add(max.saturating_sub(min))
                }
            }
            _ => 0,
        };
        size = size.max(1);
        if let Some(v) = self.size.as_mut() {
            set_slot(v, re, size);
        }
        size
    }

    fn check_height(&mut self, re: NodeId) -> Result<(), PErr> {
        if self.num_regexp < MAX_HEIGHT as usize {
            return Ok(());
        }
        if self.height.is_none() {
            self.height = Some(Vec::new());
            for id in self.stack.clone() {
                self.check_height(id)?;
            }
        }
        if self.calc_height(re, true) > MAX_HEIGHT {
            return Err(self.err_whole(ErrorCode::NestingDepth));
        }
        Ok(())
    }

    fn calc_height(&mut self, re: NodeId, force: bool) -> i32 {
        if !force {
            if let Some(Some(h)) = self.height.as_ref().and_then(|v| v.get(re)) {
                return *h;
            }
        }
        let mut h = 1;
        for s in self.nd(re).sub.clone() {
            h = h.max(self.calc_height(s, false).saturating_add(1));
        }
        if let Some(v) = self.height.as_mut() {
            set_slot(v, re, h);
        }
        h
    }

    // ----- parse stack (`push`, `maybeConcat`, `literal`, `op`) -----

    pub(super) fn push(&mut self, re: NodeId) -> Result<Option<NodeId>, PErr> {
        let node = self.nd(re);
        let op = node.op;
        let len = node.runes.len();
        let r = |i: usize| node.runes.get(i).copied().unwrap_or(-1);
        let (r0, r1, r2, r3) = (r(0), r(1), r(2), r(3));
        self.num_runes = self.num_runes.saturating_add(len);
        if op == Op::CharClass && len == 2 && r0 == r1 {
            // A single rune.
            let flags = self.flags & !FOLD_CASE;
            if self.maybe_concat(r0, flags) {
                return Ok(None);
            }
            let n = self.nd_mut(re);
            n.op = Op::Literal;
            n.runes.truncate(1);
            n.flags = flags;
        } else if op == Op::CharClass
            && ((len == 4
                && r0 == r1
                && r2 == r3
                && simple_fold(r0) == r2
                && simple_fold(r2) == r0)
                || (len == 2 && r0 + 1 == r1 && simple_fold(r0) == r1 && simple_fold(r1) == r0))
        {
            // A case-insensitive rune like [Aa] or [Δδ].
            let flags = self.flags | FOLD_CASE;
            if self.maybe_concat(r0, flags) {
                return Ok(None);
            }
            let n = self.nd_mut(re);
            n.op = Op::Literal;
            n.runes = vec![r0];
            n.flags = flags;
        } else {
            self.maybe_concat(-1, 0);
        }
        self.stack.push(re);
        self.check_limits(re)?;
        Ok(Some(re))
    }

    pub(super) fn maybe_concat(&mut self, r: i32, flags: u16) -> bool {
        let n = self.stack.len();
        if n < 2 {
            return false;
        }
        let (Some(&re1), Some(&re2)) = (self.stack.get(n - 1), self.stack.get(n - 2)) else {
            return false;
        };
        let (a, b) = (self.nd(re1), self.nd(re2));
        if a.op != Op::Literal || b.op != Op::Literal || a.flags & FOLD_CASE != b.flags & FOLD_CASE
        {
            return false;
        }
        let moved = a.runes.clone();
        self.nd_mut(re2).runes.extend(moved);
        if r >= 0 {
            let n1 = self.nd_mut(re1);
            n1.runes = vec![r];
            n1.flags = flags;
            return true;
        }
        self.stack.pop();
        self.reuse(re1);
        false
    }

    pub(super) fn literal(&mut self, r: i32) -> Result<(), PErr> {
        let re = self.new_regexp(Op::Literal);
        let flags = self.flags;
        let r = if flags & FOLD_CASE != 0 {
            min_fold_rune(r)
        } else {
            r
        };
        let n = self.nd_mut(re);
        n.flags = flags;
        n.runes = vec![r];
        self.push(re).map(|_| ())
    }

    pub(super) fn op(&mut self, op: Op) -> Result<Option<NodeId>, PErr> {
        let re = self.new_regexp(op);
        let flags = self.flags;
        self.nd_mut(re).flags = flags;
        self.push(re)
    }
}

fn set_slot<T>(v: &mut Vec<Option<T>>, i: usize, value: T) {
    if v.len() <= i {
        v.resize_with(i + 1, || None);
    }
    if let Some(slot) = v.get_mut(i) {
        *slot = Some(value);
    }
}

/// Byte offset of `needle` in `hay`.
pub(super) fn find(hay: Option<&[u8]>, needle: &[u8]) -> Option<usize> {
    hay?.windows(needle.len()).position(|w| w == needle)
}

/// Decodes the first UTF-8 character of `b` with Go's validity rules; `None` for
/// an invalid or truncated sequence.
pub(super) fn decode_first(b: &[u8]) -> Option<(char, usize)> {
    let chunk = b.get(..b.len().min(4))?;
    let valid = match std::str::from_utf8(chunk) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(chunk.get(..e.valid_up_to())?).ok()?,
    };
    let c = valid.chars().next()?;
    Some((c, c.len_utf8()))
}
