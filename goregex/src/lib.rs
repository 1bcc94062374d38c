//! Go `regexp` compatible regular expressions, for CRD `pattern` validation.
//!
//! Kubernetes' API server compiles the `pattern` of every CRD schema node with Go's
//! `regexp.Compile` (RE2 syntax: `regexp/syntax` with the `Perl` flag set) and rejects
//! the CRD with Go's own error text when that fails. At validation time it matches
//! values unanchored, with Go's semantics. This module reproduces both.
//!
//! # Parsing: a mirror of `regexp/syntax/parse.go`
//!
//! [`compile`] re-implements Go's parser rather than translating error messages of
//! another engine. It keeps Go's parse stack and its rewrites — incremental literal
//! concatenation, merging of single characters and classes in alternations, the
//! prefix factoring of alternations, case-folded literals — over an arena of nodes with
//! Go's free list, because Go's limits are computed on exactly that tree:
//!
//! * `maxHeight` (1000): a tree higher than that fails with
//!   `expression nests too deeply`; heights are only tracked once 1000 nodes were
//!   allocated, like Go does.
//! * `maxRepeat` (1000): `x{n,m}` counts above 1000, and nested repetitions whose
//!   product exceeds 1000 (`(a{1000}){1000}`), fail with `invalid repeat count`.
//! * `maxSize` (128 MiB of 40-byte instructions) with Go's `calcSize` estimate and its
//!   lazy start (`repeats` product times allocated nodes), and `maxRunes`: both fail
//!   with `expression too large`. Nothing is expanded, so such patterns fail at once.
//!
//! Every error carries the same code and quotes the same substring as Go's
//! `*syntax.Error`, so `GoRegexError`'s `Display` equals Go's `err.Error()`, e.g.
//! ``error parsing regexp: missing closing ): `(abc` ``. The parser follows Go 1.25:
//! `(?P<name>…)` and `(?<name>…)` (Go 1.22+), flags `imsU` with `-` negation, `\Q…\E`,
//! `\A`, `\z`, `\b`, `\B`, octal `\123`, `\x7F`, `\x{10FFFF}`, `\pN`, `\p{Greek}`,
//! `\P{…}`, `\p{^…}`, POSIX classes `[[:alpha:]]`, and the Perl classes `\d \s \w`.
//! Unicode class names are looked up the Go 1.25 way: case, spaces, `_` and `-` are
//! ignored, and `Any`, `ASCII`, `Assigned`, `LC`, `Cn` and long category names such
//! as `Letter` are known.
//!
//! # Matching: translation to the `regex` crate
//!
//! The accepted tree is printed as a `regex` crate pattern with Go's semantics made
//! explicit: every class is a list of code point ranges computed the way Go computes
//! it (so `\d`, `\w`, `\s`, POSIX classes and `\b`/`\B` are ASCII-only, `(?i)` classes
//! are folded with simple case folding), `.` excludes `\n` unless `(?s)`, `$` without
//! `(?m)` is `\z`. The `regex` crate then searches unanchored, like Go's
//! `MatchString`. The matcher is built with explicit limits ([`RUST_SIZE_LIMIT`],
//! [`RUST_DFA_SIZE_LIMIT`]); a pattern Go accepts that does not fit them yields
//! [`GoRegexError::Unsupported`].
//!
//! Nothing here recurses without bound on the caller's stack: patterns longer than
//! 256 bytes are parsed, and parse trees higher than 16 are translated and compiled,
//! on a helper thread with a [`COMPILE_STACK_SIZE`] stack (the `regex` crate's
//! compiler recurses once per nesting level). No input panics.
//!
//! # Known differences from Go
//!
//! * Unicode data comes from `regex-syntax` (Unicode 16); Go 1.21–1.25 ship
//!   Unicode 15.0, so `\p{…}` classes and `(?i)` folding differ for code points
//!   assigned since. `\p{C}` is `Cc|Cf|Co|Cs`, as in Go's tables.
//! * Older Go versions accept less: before 1.25 only exact category and script names
//!   and `Any` (no `\p{Letter}`, `\p{greek}`, `\p{ASCII}`), before 1.22 no
//!   `(?<name>…)`; before 1.20 over-large patterns were reported as
//!   `regexp/syntax: internal error` rather than `expression too large`.
//! * Invalid UTF-8 can only be passed through [`compile_bytes`]; the quoted
//!   expression then shows replacement characters where Go prints the raw bytes.
//! * Alternation prefix factoring deeper than 2000 levels (which only patterns Go
//!   rejects reach) stops with `expression nests too deeply`; Go finishes the tree
//!   first and may then, in rare cases, report `expression too large` instead.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

/// Size limit, in bytes, for each compiled `regex` crate program backing a
/// [`GoRegex`] (`regex::RegexBuilder::size_limit`).
pub const RUST_SIZE_LIMIT: usize = 32 << 20;

/// Cache limit, in bytes, of the lazy DFA of each [`GoRegex`]
/// (`regex::RegexBuilder::dfa_size_limit`).
pub const RUST_DFA_SIZE_LIMIT: usize = 8 << 20;

/// Stack size of the helper thread that parses long patterns and compiles deeply
/// nested ones.
pub const COMPILE_STACK_SIZE: usize = 64 << 20;

/// Patterns longer than this (in bytes) are parsed on the helper thread (the
/// parser's recursion is bounded by the pattern length).
const INLINE_PARSE_MAX_LEN: usize = 256;

/// Parse trees higher than this are translated and compiled on the helper thread
/// (the `regex` crate's compiler recursion is bounded by the nesting).
const INLINE_BUILD_MAX_HEIGHT: usize = 16;

/// Longest `regex` crate pattern the translation may produce.
const MAX_TRANSLATED_LEN: usize = 8 << 20;

/// Nesting limit handed to the `regex` crate (Go allows a tree height of 1000; the
/// translation stays within twice that).
const RUST_NEST_LIMIT: u32 = 4000;

/// Bound on the recursion of the alternation prefix factoring (see the module docs).
const MAX_FACTOR_DEPTH: usize = 2000;

/// Bound on the recursion of the translation (Go's trees are at most 1000 high).
const MAX_EMIT_DEPTH: usize = 4000;

/// The kind of error Go's `regexp/syntax` reports, as its `ErrorCode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `regexp/syntax: internal error` (Go before 1.20 used it for over-large
    /// expressions; this parser never reports it).
    InternalError,
    /// `invalid character class` (defined by Go, not reported by its parser).
    InvalidCharClass,
    /// `invalid character class range`: `[z-a]`, `[[:foo:]]`, `\p{Foo}`.
    InvalidCharRange,
    /// `invalid escape sequence`: `\Z`, `\C`, `\8`, `\x{110000}`.
    InvalidEscape,
    /// `invalid named capture`: `(?P<>a)`, `(?<x y>a)`, `(?P<name`.
    InvalidNamedCapture,
    /// `invalid or unsupported Perl syntax`: `(?=a)`, `(?<`, `(?x)`.
    InvalidPerlOp,
    /// `invalid nested repetition operator`: `a**`, `a+?*`.
    InvalidRepeatOp,
    /// `invalid repeat count`: `a{1001}`, `a{2,1}`, `(a{1000}){1000}`.
    InvalidRepeatSize,
    /// `invalid UTF-8` (only reachable through [`compile_bytes`]).
    InvalidUtf8,
    /// `missing closing ]`.
    MissingBracket,
    /// `missing closing )`.
    MissingParen,
    /// `missing argument to repetition operator`: `*a`, `(+)`.
    MissingRepeatArgument,
    /// `trailing backslash at end of expression`.
    TrailingBackslash,
    /// `unexpected )`.
    UnexpectedParen,
    /// `expression nests too deeply` (tree height above 1000).
    NestingDepth,
    /// `expression too large` (size estimate or rune budget exceeded).
    Large,
}

impl ErrorCode {
    /// The message Go uses for this code (`ErrorCode.String()`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InternalError => "regexp/syntax: internal error",
            ErrorCode::InvalidCharClass => "invalid character class",
            ErrorCode::InvalidCharRange => "invalid character class range",
            ErrorCode::InvalidEscape => "invalid escape sequence",
            ErrorCode::InvalidNamedCapture => "invalid named capture",
            ErrorCode::InvalidPerlOp => "invalid or unsupported Perl syntax",
            ErrorCode::InvalidRepeatOp => "invalid nested repetition operator",
            ErrorCode::InvalidRepeatSize => "invalid repeat count",
            ErrorCode::InvalidUtf8 => "invalid UTF-8",
            ErrorCode::MissingBracket => "missing closing ]",
            ErrorCode::MissingParen => "missing closing )",
            ErrorCode::MissingRepeatArgument => "missing argument to repetition operator",
            ErrorCode::TrailingBackslash => "trailing backslash at end of expression",
            ErrorCode::UnexpectedParen => "unexpected )",
            ErrorCode::NestingDepth => "expression nests too deeply",
            ErrorCode::Large => "expression too large",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why [`compile`] failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GoRegexError {
    /// Go's `regexp.Compile` rejects the pattern. `Display` is exactly Go's
    /// `err.Error()`: ``error parsing regexp: <code>: `<expr>` ``.
    #[error("error parsing regexp: {code}: `{expr}`")]
    Syntax {
        /// The error kind.
        code: ErrorCode,
        /// The part of the pattern Go quotes (the whole pattern for some codes).
        expr: String,
    },
    /// Go accepts the pattern, but no matcher could be built for it within this
    /// implementation's limits ([`RUST_SIZE_LIMIT`], the translated pattern length, a
    /// helper thread that could not be started, ...). Only huge patterns, such as
    /// thousands of repeated Unicode classes, get here.
    #[error("regexp accepted by Go exceeds the limits of this implementation: {reason}")]
    Unsupported {
        /// What limit was hit.
        reason: String,
    },
}

impl GoRegexError {
    /// The Go error code, for [`GoRegexError::Syntax`].
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            GoRegexError::Syntax { code, .. } => Some(*code),
            GoRegexError::Unsupported { .. } => None,
        }
    }

    /// The expression Go quotes, for [`GoRegexError::Syntax`].
    pub fn expr(&self) -> Option<&str> {
        match self {
            GoRegexError::Syntax { expr, .. } => Some(expr),
            GoRegexError::Unsupported { .. } => None,
        }
    }

    fn unsupported(reason: impl Into<String>) -> Self {
        GoRegexError::Unsupported {
            reason: reason.into(),
        }
    }
}

/// A pattern accepted by Go's `regexp.Compile`, with a matcher of Go's semantics.
#[derive(Debug)]
pub struct GoRegex {
    pattern: String,
    regex: regex::Regex,
    /// How many times [`GoRegex::is_match`] ran, up to [`DFA_AFTER`].
    uses: AtomicU32,
    /// A fully built DFA for [`GoRegex::is_match`], once the pattern is
    /// used often (`None` inside: too big to build).
    dfa: OnceLock<Option<DenseDfa>>,
}

type DenseDfa = regex_automata::dfa::dense::DFA<Vec<u32>>;

/// [`GoRegex::is_match`] builds a DFA after this many calls: a DFA is
/// costly to build, and matches in a few nanoseconds, without the lazy
/// DFA's cache.
const DFA_AFTER: u32 = 64;

/// The largest DFA built, in bytes (larger patterns stay on the lazy DFA).
const DFA_SIZE_LIMIT: usize = 256 << 10;

impl Clone for GoRegex {
    fn clone(&self) -> Self {
        GoRegex {
            pattern: self.pattern.clone(),
            regex: self.regex.clone(),
            uses: AtomicU32::new(self.uses.load(Ordering::Relaxed)),
            dfa: self.dfa.clone(),
        }
    }
}

impl GoRegex {
    fn new(pattern: String, regex: regex::Regex) -> Self {
        GoRegex {
            pattern,
            regex,
            uses: AtomicU32::new(0),
            dfa: OnceLock::new(),
        }
    }

    /// Whether `text` contains a match (unanchored, like Go's `MatchString`).
    pub fn is_match(&self, text: &str) -> bool {
        if let Some(dfa) = self.dense() {
            let input = regex_automata::Input::new(text).earliest(true);
            if let Ok(m) = regex_automata::dfa::Automaton::try_search_fwd(dfa, &input) {
                return m.is_some();
            }
        }
        self.regex.is_match(text)
    }

    /// The DFA's answer, building it now (`None`: it cannot be built).
    #[cfg(test)]
    fn is_match_dense(&self, text: &str) -> Option<bool> {
        self.uses.store(DFA_AFTER, Ordering::Relaxed);
        let dfa = self.dense()?;
        let input = regex_automata::Input::new(text).earliest(true);
        regex_automata::dfa::Automaton::try_search_fwd(dfa, &input)
            .ok()
            .map(|m| m.is_some())
    }

    /// The DFA, once built.
    fn dense(&self) -> Option<&DenseDfa> {
        if let Some(d) = self.dfa.get() {
            return d.as_ref();
        }
        if self.uses.fetch_add(1, Ordering::Relaxed) < DFA_AFTER {
            return None;
        }
        self.dfa
            .get_or_init(|| {
                use regex_automata::dfa::{StartKind, dense};
                dense::Builder::new()
                    .configure(
                        dense::DFA::config()
                            .start_kind(StartKind::Unanchored)
                            .dfa_size_limit(Some(DFA_SIZE_LIMIT))
                            .determinize_size_limit(Some(4 * DFA_SIZE_LIMIT)),
                    )
                    .build(self.regex.as_str())
                    .ok()
            })
            .as_ref()
    }

    /// The leftmost non-overlapping matches, at most `max` (Go's
    /// `FindAllString`; empty matches abutting a preceding match are skipped).
    pub fn find_all(&self, text: &str, max: usize) -> Vec<String> {
        self.regex
            .find_iter(text)
            .take(max)
            .map(|m| m.as_str().to_string())
            .collect()
    }

    /// The original Go pattern.
    pub fn as_str(&self) -> &str {
        &self.pattern
    }

    /// The equivalent `regex` crate pattern the matcher was built from.
    pub fn translated(&self) -> &str {
        self.regex.as_str()
    }
}

impl fmt::Display for GoRegex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pattern)
    }
}

/// Compiles `pattern` like Go's `regexp.Compile`: the same acceptance and error
/// text, and a matcher with Go's (unanchored) semantics.
pub fn compile(pattern: &str) -> Result<GoRegex, GoRegexError> {
    compile_bytes(pattern.as_bytes())
}

/// Like [`compile`], for a pattern that may not be valid UTF-8 (Go strings are
/// bytes): invalid UTF-8 is reported as Go reports it.
pub fn compile_bytes(pattern: &[u8]) -> Result<GoRegex, GoRegexError> {
    if pattern.len() > INLINE_PARSE_MAX_LEN {
        return on_big_stack(|| compile_here(pattern, true));
    }
    compile_here(pattern, false)
}

fn compile_here(pattern: &[u8], on_helper: bool) -> Result<GoRegex, GoRegexError> {
    let tree = Parser::parse_pattern(pattern)?;
    if !on_helper && tree.height_exceeds(INLINE_BUILD_MAX_HEIGHT) {
        return on_big_stack(|| finish(pattern, &tree));
    }
    finish(pattern, &tree)
}

/// Translates a parsed pattern and builds its matcher.
fn finish(pattern: &[u8], tree: &Tree) -> Result<GoRegex, GoRegexError> {
    let text = match std::str::from_utf8(pattern) {
        Ok(s) => s.to_owned(),
        // Unreachable: Go's parser rejects every invalid byte.
        Err(e) => {
            return Err(GoRegexError::Syntax {
                code: ErrorCode::InvalidUtf8,
                expr: String::from_utf8_lossy(pattern.get(e.valid_up_to()..).unwrap_or(&[]))
                    .into_owned(),
            });
        }
    };
    let translated = tree.translate()?;
    build_regex(text, &translated)
}

fn build_regex(pattern: String, translated: &str) -> Result<GoRegex, GoRegexError> {
    regex::RegexBuilder::new(translated)
        .size_limit(RUST_SIZE_LIMIT)
        .dfa_size_limit(RUST_DFA_SIZE_LIMIT)
        .nest_limit(RUST_NEST_LIMIT)
        .build()
        .map(|regex| GoRegex::new(pattern, regex))
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(n) => GoRegexError::unsupported(format!(
                "the compiled matcher would exceed the size limit of {n} bytes"
            )),
            other => GoRegexError::unsupported(format!(
                "the regex crate rejected the translated pattern: {other}"
            )),
        })
}

/// Runs `f` on a helper thread with a [`COMPILE_STACK_SIZE`] stack.
fn on_big_stack<T, F>(f: F) -> Result<T, GoRegexError>
where
    T: Send,
    F: FnOnce() -> Result<T, GoRegexError> + Send,
{
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("goregex-compile".to_owned())
            .stack_size(COMPILE_STACK_SIZE)
            .spawn_scoped(scope, f)
        {
            Ok(handle) => handle.join().unwrap_or_else(|_| {
                Err(GoRegexError::unsupported("the compilation thread failed"))
            }),
            Err(e) => Err(GoRegexError::unsupported(format!(
                "could not start the compilation thread: {e}"
            ))),
        }
    })
}

// ---------------------------------------------------------------------------
// Go's parse tree
// ---------------------------------------------------------------------------

// Parse flags (`syntax.Flags`).
const FOLD_CASE: u16 = 1;
const CLASS_NL: u16 = 1 << 2;
const DOT_NL: u16 = 1 << 3;
const ONE_LINE: u16 = 1 << 4;
const NON_GREEDY: u16 = 1 << 5;
const PERL_X: u16 = 1 << 6;
const UNICODE_GROUPS: u16 = 1 << 7;
const WAS_DOLLAR: u16 = 1 << 8;
/// `syntax.Perl`, the flags `regexp.Compile` parses with.
const PERL: u16 = CLASS_NL | ONE_LINE | PERL_X | UNICODE_GROUPS;

const MAX_HEIGHT: i32 = 1000;
const MAX_SIZE: i64 = (128 << 20) / 40;
const MAX_RUNES: usize = (128 << 20) / 4;
const MAX_REPEAT: i32 = 1000;
const MAX_RUNE: i32 = 0x10_FFFF;
const MIN_FOLD: i32 = 0x0041;
const MAX_FOLD: i32 = 0x1_e943;
const RUNE_ERROR: i32 = 0xFFFD;

/// `syntax.Op`, in Go's order (the order matters to the class merging).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
enum Op {
    #[default]
    NoMatch = 1,
    EmptyMatch,
    Literal,
    CharClass,
    AnyCharNotNl,
    AnyChar,
    BeginLine,
    EndLine,
    BeginText,
    EndText,
    WordBoundary,
    NoWordBoundary,
    Capture,
    Star,
    Plus,
    Quest,
    Repeat,
    Concat,
    Alternate,
    /// Pseudo-op `(` on the parse stack.
    LeftParen = 128,
    /// Pseudo-op `|` on the parse stack.
    VerticalBar,
}

impl Op {
    fn is_pseudo(self) -> bool {
        self >= Op::LeftParen
    }
}

type NodeId = usize;

/// `syntax.Regexp`: one node of the tree (an arena slot).
#[derive(Debug, Clone, Default)]
struct Node {
    op: Op,
    flags: u16,
    sub: Vec<NodeId>,
    runes: Vec<i32>,
    min: i32,
    max: i32,
    cap: usize,
}

static EMPTY_NODE: Node = Node {
    op: Op::NoMatch,
    flags: 0,
    sub: Vec::new(),
    runes: Vec::new(),
    min: 0,
    max: 0,
    cap: 0,
};

/// A parse error: Go's code and the byte range of the pattern it quotes.
#[derive(Debug)]
struct PErr {
    code: ErrorCode,
    start: usize,
    end: usize,
}

struct Parser<'a> {
    whole: &'a [u8],
    flags: u16,
    stack: Vec<NodeId>,
    nodes: Vec<Node>,
    /// Go's free list (`p.free`), last in first out.
    free: Vec<NodeId>,
    scratch: Node,
    num_cap: usize,
    num_regexp: usize,
    num_runes: usize,
    repeats: i64,
    size: Option<Vec<Option<i64>>>,
    height: Option<Vec<Option<i32>>>,
    factor_depth: usize,
    tables: HashMap<Vec<u8>, Option<(Vec<i32>, i32)>>,
}

/// The result of a successful parse.
struct Tree {
    nodes: Vec<Node>,
    root: NodeId,
}

impl<'a> Parser<'a> {
    fn parse_pattern(whole: &'a [u8]) -> Result<Tree, GoRegexError> {
        let mut p = Parser {
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
        };
        match p.parse() {
            Ok(root) => Ok(Tree {
                nodes: p.nodes,
                root,
            }),
            Err(e) => Err(GoRegexError::Syntax {
                code: e.code,
                expr: String::from_utf8_lossy(whole.get(e.start..e.end).unwrap_or(&[]))
                    .into_owned(),
            }),
        }
    }

    // ----- small helpers -----

    fn err(&self, code: ErrorCode, start: usize, end: usize) -> PErr {
        PErr { code, start, end }
    }

    fn err_whole(&self, code: ErrorCode) -> PErr {
        PErr {
            code,
            start: 0,
            end: self.whole.len(),
        }
    }

    fn byte(&self, i: usize) -> Option<u8> {
        self.whole.get(i).copied()
    }

    fn nd(&self, id: NodeId) -> &Node {
        self.nodes.get(id).unwrap_or(&EMPTY_NODE)
    }

    fn nd_mut(&mut self, id: NodeId) -> &mut Node {
        match self.nodes.get_mut(id) {
            Some(n) => n,
            None => &mut self.scratch,
        }
    }

    fn op_of(&self, id: NodeId) -> Op {
        self.nd(id).op
    }

    /// Go's `nextRune` on `whole[i..end]`: an empty input yields `RuneError`
    /// without error (like `utf8.DecodeRuneInString("")`).
    fn next_rune(&self, i: usize, end: usize) -> Result<(i32, usize), PErr> {
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
    fn check_utf8(&self, start: usize, end: usize) -> Result<(), PErr> {
        let bytes = self.whole.get(start..end).unwrap_or(&[]);
        match std::str::from_utf8(bytes) {
            Ok(_) => Ok(()),
            Err(e) => Err(self.err(ErrorCode::InvalidUtf8, start + e.valid_up_to(), end)),
        }
    }

    // ----- node allocation (`newRegexp`, `reuse`) -----

    fn new_regexp(&mut self, op: Op) -> NodeId {
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

    fn reuse(&mut self, id: NodeId) {
        if let Some(h) = self.height.as_mut() {
            if let Some(slot) = h.get_mut(id) {
                *slot = None;
            }
        }
        self.free.push(id);
    }

    // ----- limits (`checkLimits`, `checkSize`, `calcSize`, `checkHeight`) -----

    fn check_limits(&mut self, re: NodeId) -> Result<(), PErr> {
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

    fn push(&mut self, re: NodeId) -> Result<Option<NodeId>, PErr> {
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

    fn maybe_concat(&mut self, r: i32, flags: u16) -> bool {
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

    fn literal(&mut self, r: i32) -> Result<(), PErr> {
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

    fn op(&mut self, op: Op) -> Result<Option<NodeId>, PErr> {
        let re = self.new_regexp(op);
        let flags = self.flags;
        self.nd_mut(re).flags = flags;
        self.push(re)
    }

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

    // ----- groups and alternation -----

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

    fn parse_vertical_bar(&mut self) -> Result<(), PErr> {
        self.concat()?;
        // The concatenation just parsed is on top of the stack. If it sits above a
        // `|`, swap it below; otherwise push a new `|`.
        if !self.swap_vertical_bar() {
            self.op(Op::VerticalBar)?;
        }
        Ok(())
    }

    fn swap_vertical_bar(&mut self) -> bool {
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

    fn parse_right_paren(&mut self) -> Result<(), PErr> {
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
    fn concat(&mut self) -> Result<(), PErr> {
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
    fn alternate(&mut self) -> Result<(), PErr> {
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
                for j in start..i {
                    if let Some(&sj) = sub.get(j) {
                        let nj = self.remove_leading_string(sj, prefix_str.len());
                        if let Some(slot) = sub.get_mut(j) {
                            *slot = nj;
                        }
                        self.check_limits(nj)?;
                    }
                }
                let run = sub.get(start..i).unwrap_or(&[]).to_vec();
                let suffix = self.collapse(run, Op::Alternate)?;
                let re = self.new_regexp(Op::Concat);
                self.nd_mut(re).sub = vec![prefix, suffix];
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
                for j in start..i {
                    if let Some(&sj) = sub.get(j) {
                        let nj = self.remove_leading_regexp(sj, j != start);
                        if let Some(slot) = sub.get_mut(j) {
                            *slot = nj;
                        }
                        self.check_limits(nj)?;
                    }
                }
                let run = sub.get(start..i).unwrap_or(&[]).to_vec();
                let suffix = self.collapse(run, Op::Alternate)?;
                let re = self.new_regexp(Op::Concat);
                self.nd_mut(re).sub = vec![prefix, suffix];
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

    // ----- escapes and classes -----

    /// `parseEscape`: a single-character escape at `s` (which holds `\`).
    fn parse_escape(&self, s: usize) -> Result<(i32, usize), PErr> {
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
    fn parse_perl_class_escape(&self, s: usize, r: &mut Vec<i32>) -> Option<usize> {
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
    fn parse_unicode_class(&mut self, s: usize, r: &mut Vec<i32>) -> Result<Option<usize>, PErr> {
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
    fn parse_class(&mut self, s: usize) -> Result<usize, PErr> {
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

fn drop_first(v: &mut Vec<NodeId>) {
    if !v.is_empty() {
        v.remove(0);
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

/// Byte offset of `needle` in `hay`.
fn find(hay: Option<&[u8]>, needle: &[u8]) -> Option<usize> {
    hay?.windows(needle.len()).position(|w| w == needle)
}

/// Decodes the first UTF-8 character of `b` with Go's validity rules; `None` for
/// an invalid or truncated sequence.
fn decode_first(b: &[u8]) -> Option<(char, usize)> {
    let chunk = b.get(..b.len().min(4))?;
    let valid = match std::str::from_utf8(chunk) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(chunk.get(..e.valid_up_to())?).ok()?,
    };
    let c = valid.chars().next()?;
    Some((c, c.len_utf8()))
}

// ---------------------------------------------------------------------------
// Character classes: flat lists of inclusive (lo, hi) pairs, as in Go
// ---------------------------------------------------------------------------

const PERL_DIGIT: &[i32] = &[0x30, 0x39];
const PERL_SPACE: &[i32] = &[0x9, 0xa, 0xc, 0xd, 0x20, 0x20];
const PERL_WORD: &[i32] = &[0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];

fn perl_group(b: u8) -> Option<(i32, &'static [i32])> {
    Some(match b {
        b'd' => (1, PERL_DIGIT),
        b'D' => (-1, PERL_DIGIT),
        b's' => (1, PERL_SPACE),
        b'S' => (-1, PERL_SPACE),
        b'w' => (1, PERL_WORD),
        b'W' => (-1, PERL_WORD),
        _ => return None,
    })
}

/// The POSIX classes of `perl_groups.go`, by their full bracketed name.
fn posix_group(name: &[u8]) -> Option<(i32, &'static [i32])> {
    let inner = name.strip_prefix(b"[:")?.strip_suffix(b":]")?;
    let (sign, inner) = match inner.strip_prefix(b"^") {
        Some(rest) => (-1, rest),
        None => (1, inner),
    };
    let class: &'static [i32] = match inner {
        b"alnum" => &[0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
        b"alpha" => &[0x41, 0x5a, 0x61, 0x7a],
        b"ascii" => &[0x0, 0x7f],
        b"blank" => &[0x9, 0x9, 0x20, 0x20],
        b"cntrl" => &[0x0, 0x1f, 0x7f, 0x7f],
        b"digit" => &[0x30, 0x39],
        b"graph" => &[0x21, 0x7e],
        b"lower" => &[0x61, 0x7a],
        b"print" => &[0x20, 0x7e],
        b"punct" => &[0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
        b"space" => &[0x9, 0xd, 0x20, 0x20],
        b"upper" => &[0x41, 0x5a],
        b"word" => PERL_WORD,
        b"xdigit" => &[0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
        _ => return None,
    };
    Some((sign, class))
}

fn pairs(r: &[i32]) -> impl Iterator<Item = (i32, i32)> + '_ {
    r.chunks_exact(2).filter_map(|p| match *p {
        [lo, hi] => Some((lo, hi)),
        _ => None,
    })
}

/// `appendRange`: appends lo-hi, merging with one of the last two ranges when they
/// overlap or abut.
fn append_range(r: &mut Vec<i32>, lo: i32, hi: i32) {
    let n = r.len();
    for i in [2, 4] {
        if n >= i {
            let (Some(&rlo), Some(&rhi)) = (r.get(n - i), r.get(n - i + 1)) else {
                continue;
            };
            if lo <= rhi + 1 && rlo <= hi + 1 {
                if lo < rlo {
                    if let Some(x) = r.get_mut(n - i) {
                        *x = lo;
                    }
                }
                if hi > rhi {
                    if let Some(x) = r.get_mut(n - i + 1) {
                        *x = hi;
                    }
                }
                return;
            }
        }
    }
    r.push(lo);
    r.push(hi);
}

/// `appendFoldedRange`: lo-hi and everything case-folding equivalent to it.
fn append_folded_range(r: &mut Vec<i32>, lo: i32, hi: i32) {
    if (lo <= MIN_FOLD && hi >= MAX_FOLD) || hi < MIN_FOLD || lo > MAX_FOLD {
        // Full, or outside the folding range: folding adds nothing.
        append_range(r, lo, hi);
        return;
    }
    let (mut lo, mut hi) = (lo, hi);
    if lo < MIN_FOLD {
        append_range(r, lo, MIN_FOLD - 1);
        lo = MIN_FOLD;
    }
    if hi > MAX_FOLD {
        append_range(r, MAX_FOLD + 1, hi);
        hi = MAX_FOLD;
    }
    append_class(r, &fold_closure(&[lo, hi]));
}

fn append_literal(r: &mut Vec<i32>, x: i32, flags: u16) {
    if flags & FOLD_CASE != 0 {
        append_folded_range(r, x, x);
    } else {
        append_range(r, x, x);
    }
}

fn append_class(r: &mut Vec<i32>, x: &[i32]) {
    for (lo, hi) in pairs(x) {
        append_range(r, lo, hi);
    }
}

fn append_folded_class(r: &mut Vec<i32>, x: &[i32]) {
    for (lo, hi) in pairs(x) {
        append_folded_range(r, lo, hi);
    }
}

/// `appendNegatedClass`: appends the complement of the clean class `x`.
fn append_negated_class(r: &mut Vec<i32>, x: &[i32]) {
    let mut next_lo = 0;
    for (lo, hi) in pairs(x) {
        if next_lo < lo {
            append_range(r, next_lo, lo - 1);
        }
        next_lo = hi + 1;
    }
    if next_lo <= MAX_RUNE {
        append_range(r, next_lo, MAX_RUNE);
    }
}

/// `cleanClass`: sorts the ranges and merges overlapping and abutting ones.
fn clean_class(r: &[i32]) -> Vec<i32> {
    let mut ranges: Vec<(i32, i32)> = pairs(r).collect();
    ranges.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut out: Vec<i32> = Vec::with_capacity(r.len());
    for (lo, hi) in ranges {
        if let Some(last_hi) = out.last_mut() {
            if lo <= *last_hi + 1 {
                if hi > *last_hi {
                    *last_hi = hi;
                }
                continue;
            }
        }
        out.push(lo);
        out.push(hi);
    }
    out
}

/// `negateClass`: the complement of the clean class `r`.
fn negate_class(r: &[i32]) -> Vec<i32> {
    let mut out = Vec::with_capacity(r.len() + 2);
    let mut next_lo = 0;
    for (lo, hi) in pairs(r) {
        if next_lo < lo {
            out.push(next_lo);
            out.push(lo - 1);
        }
        next_lo = hi + 1;
    }
    if next_lo <= MAX_RUNE {
        out.push(next_lo);
        out.push(MAX_RUNE);
    }
    out
}

// ---------------------------------------------------------------------------
// Unicode data (case folding and `\p` tables), taken from `regex-syntax`
// ---------------------------------------------------------------------------

const SURROGATE_LO: i32 = 0xD800;
const SURROGATE_HI: i32 = 0xDFFF;

/// The parts of lo-hi that are Unicode scalar values (surrogates excluded).
fn scalar_parts(lo: i32, hi: i32) -> impl Iterator<Item = (char, char)> {
    let below = (lo, hi.min(SURROGATE_LO - 1));
    let above = (lo.max(SURROGATE_HI + 1), hi);
    [below, above].into_iter().filter_map(|(a, b)| {
        if a > b {
            return None;
        }
        let a = char::from_u32(u32::try_from(a).ok()?)?;
        let b = char::from_u32(u32::try_from(b).ok()?)?;
        Some((a, b))
    })
}

/// The clean class of `x` closed under simple case folding (surrogates kept as
/// they are: they never fold).
fn fold_closure(x: &[i32]) -> Vec<i32> {
    let mut ranges = Vec::new();
    let mut surrogates = Vec::new();
    for (lo, hi) in pairs(x) {
        ranges.extend(scalar_parts(lo, hi).map(|(a, b)| ClassUnicodeRange::new(a, b)));
        let (slo, shi) = (lo.max(SURROGATE_LO), hi.min(SURROGATE_HI));
        if slo <= shi {
            surrogates.extend([slo, shi]);
        }
    }
    let mut class = ClassUnicode::new(ranges);
    // Without the case tables (never, with regex-syntax's default features) the
    // class stays unfolded.
    let _ = class.try_case_fold_simple();
    let mut out: Vec<i32> = class
        .iter()
        .flat_map(|r| [r.start() as i32, r.end() as i32])
        .collect();
    out.extend(surrogates);
    clean_class(&out)
}

/// The case-folding orbit of `r`, sorted (just `r` when it does not fold).
fn orbit(r: i32) -> Vec<i32> {
    if !(MIN_FOLD..=MAX_FOLD).contains(&r) {
        return vec![r];
    }
    let folded = fold_closure(&[r, r]);
    let all: Vec<i32> = pairs(&folded).flat_map(|(lo, hi)| lo..=hi).collect();
    if all.is_empty() { vec![r] } else { all }
}

/// `unicode.SimpleFold`: the next rune of `r`'s orbit, wrapping around.
fn simple_fold(r: i32) -> i32 {
    let o = orbit(r);
    o.iter()
        .copied()
        .find(|&x| x > r)
        .or_else(|| o.first().copied())
        .unwrap_or(r)
}

/// `minFoldRune`: the smallest rune fold-equivalent to `r`.
fn min_fold_rune(r: i32) -> i32 {
    orbit(r).first().copied().unwrap_or(r).min(r)
}

/// `canonicalName`: a leading uppercase letter then lowercase letters, with `_`,
/// `-` and spaces removed (so `upper case-let ter` is `Uppercaseletter`).
fn canonical_name(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len());
    let mut first = true;
    for &c in name {
        match c {
            b'_' | b'-' | b' ' => {}
            _ if first => {
                out.push(c.to_ascii_uppercase());
                first = false;
            }
            _ => out.push(c.to_ascii_lowercase()),
        }
    }
    out
}

/// The keys of Go's `unicode.Categories` (Go 1.25).
const GO_CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn",
    "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm",
    "So", "Z", "Zl", "Zp", "Zs",
];

/// Go's `unicode.CategoryAliases` (Go 1.25, from `PropertyValueAliases.txt`).
const GO_CATEGORY_ALIASES: &[(&str, &str)] = &[
    ("Other", "C"),
    ("Control", "Cc"),
    ("cntrl", "Cc"),
    ("Format", "Cf"),
    ("Unassigned", "Cn"),
    ("Private_Use", "Co"),
    ("Surrogate", "Cs"),
    ("Letter", "L"),
    ("Cased_Letter", "LC"),
    ("Lowercase_Letter", "Ll"),
    ("Modifier_Letter", "Lm"),
    ("Other_Letter", "Lo"),
    ("Titlecase_Letter", "Lt"),
    ("Uppercase_Letter", "Lu"),
    ("Mark", "M"),
    ("Combining_Mark", "M"),
    ("Spacing_Mark", "Mc"),
    ("Enclosing_Mark", "Me"),
    ("Nonspacing_Mark", "Mn"),
    ("Number", "N"),
    ("Decimal_Number", "Nd"),
    ("digit", "Nd"),
    ("Letter_Number", "Nl"),
    ("Other_Number", "No"),
    ("Punctuation", "P"),
    ("punct", "P"),
    ("Connector_Punctuation", "Pc"),
    ("Dash_Punctuation", "Pd"),
    ("Close_Punctuation", "Pe"),
    ("Final_Punctuation", "Pf"),
    ("Initial_Punctuation", "Pi"),
    ("Other_Punctuation", "Po"),
    ("Open_Punctuation", "Ps"),
    ("Symbol", "S"),
    ("Currency_Symbol", "Sc"),
    ("Modifier_Symbol", "Sk"),
    ("Math_Symbol", "Sm"),
    ("Other_Symbol", "So"),
    ("Separator", "Z"),
    ("Line_Separator", "Zl"),
    ("Paragraph_Separator", "Zp"),
    ("Space_Separator", "Zs"),
];

/// The keys of Go's `unicode.Scripts` (Unicode 15.0, Go 1.21–1.25).
const GO_SCRIPTS: &[&str] = &[
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kawi",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nag_Mundari",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takri",
    "Tamil",
    "Tangsa",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Toto",
    "Ugaritic",
    "Vai",
    "Vithkuqi",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
];

/// Resolves a canonical `\p` name the way Go 1.25's `unicodeTable` does.
fn lookup_unicode_table(canon: &[u8]) -> Option<(Vec<i32>, i32)> {
    match canon {
        b"Any" => return Some((vec![0, MAX_RUNE], 1)),
        b"Assigned" => return Some((category("Cn")?, -1)),
        b"Ascii" => return Some((vec![0, 0x7f], 1)),
        b"Lc" => return Some((category("LC")?, 1)),
        _ => {}
    }
    if let Some(gc) = GO_CATEGORIES.iter().find(|k| k.as_bytes() == canon) {
        return Some((category(gc)?, 1));
    }
    if let Some(sc) = GO_SCRIPTS
        .iter()
        .find(|k| canonical_name(k.as_bytes()) == canon)
    {
        return Some((unicode_query(&format!(r"\p{{Script={sc}}}"))?, 1));
    }
    if let Some((_, gc)) = GO_CATEGORY_ALIASES
        .iter()
        .find(|(alias, _)| canonical_name(alias.as_bytes()) == canon)
    {
        return Some((category(gc)?, 1));
    }
    None
}

/// A general category as Go's tables define it.
fn category(gc: &str) -> Option<Vec<i32>> {
    match gc {
        // Surrogate code points cannot be put in a regex-syntax class.
        "Cs" => Some(vec![SURROGATE_LO, SURROGATE_HI]),
        // Go's C is Cc|Cf|Co|Cs.
        "C" => {
            let mut all = Vec::new();
            for part in ["Cc", "Cf", "Co", "Cs"] {
                all.extend(category(part)?);
            }
            Some(clean_class(&all))
        }
        _ => unicode_query(&format!(r"\p{{gc={gc}}}")),
    }
}

/// The code points of a `regex-syntax` Unicode class expression.
fn unicode_query(query: &str) -> Option<Vec<i32>> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(query)
        .ok()?;
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => Some(
            class
                .iter()
                .flat_map(|r| [r.start() as i32, r.end() as i32])
                .collect(),
        ),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// Translation to a `regex` crate pattern
// ---------------------------------------------------------------------------

/// Matches nothing.
const NEVER: &str = r"[^\x{0}-\x{10FFFF}]";

/// Where a node is printed: what it must bind tighter than.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// An alternation branch (or the whole pattern).
    Alt,
    /// An element of a concatenation.
    Concat,
    /// The operand of a repetition.
    Atom,
}

impl Tree {
    /// The `regex` crate pattern.
    fn translate(&self) -> Result<String, GoRegexError> {
        let mut out = String::new();
        self.emit(self.root, Ctx::Alt, &mut out, 0)?;
        Ok(out)
    }

    /// Whether the tree is higher than `limit` (without recursion; a malformed
    /// tree that shares nodes also counts as high).
    fn height_exceeds(&self, limit: usize) -> bool {
        let mut todo = vec![(self.root, 1usize)];
        let mut visits = 0usize;
        while let Some((id, depth)) = todo.pop() {
            visits += 1;
            if depth > limit || visits > self.nodes.len() {
                return true;
            }
            todo.extend(self.nd(id).sub.iter().map(|&s| (s, depth + 1)));
        }
        false
    }

    fn nd(&self, id: NodeId) -> &Node {
        self.nodes.get(id).unwrap_or(&EMPTY_NODE)
    }

    fn emit(
        &self,
        id: NodeId,
        ctx: Ctx,
        out: &mut String,
        depth: usize,
    ) -> Result<(), GoRegexError> {
        if depth > MAX_EMIT_DEPTH {
            return Err(GoRegexError::unsupported("the pattern nests too deeply"));
        }
        if out.len() > MAX_TRANSLATED_LEN {
            return Err(GoRegexError::unsupported(format!(
                "the translated pattern would exceed {MAX_TRANSLATED_LEN} bytes"
            )));
        }
        let node = self.nd(id);
        let first = node.sub.first().copied();
        match node.op {
            Op::NoMatch => out.push_str(NEVER),
            Op::EmptyMatch => out.push_str("(?:)"),
            Op::Literal => {
                let fold = node.flags & FOLD_CASE != 0;
                let group = !fold && ctx == Ctx::Atom && node.runes.len() != 1;
                if fold {
                    out.push_str("(?i:");
                } else if group {
                    out.push_str("(?:");
                }
                for &r in &node.runes {
                    push_literal(out, r);
                }
                if fold || group {
                    out.push(')');
                }
            }
            Op::CharClass => push_class(out, &node.runes),
            Op::AnyCharNotNl => out.push_str(r"[^\n]"),
            Op::AnyChar => out.push_str("(?s:.)"),
            Op::BeginLine => out.push_str("(?m:^)"),
            Op::EndLine => out.push_str("(?m:$)"),
            Op::BeginText => out.push_str(r"(?:\A)"),
            Op::EndText => out.push_str(r"(?:\z)"),
            Op::WordBoundary => out.push_str(r"(?-u:\b)"),
            Op::NoWordBoundary => out.push_str(r"(?-u:\B)"),
            Op::Capture => {
                let sub = first.ok_or_else(internal)?;
                self.emit(sub, ctx, out, depth + 1)?;
            }
            Op::Star | Op::Plus | Op::Quest | Op::Repeat => {
                let sub = first.ok_or_else(internal)?;
                let wrap = ctx == Ctx::Atom;
                if wrap {
                    out.push_str("(?:");
                }
                self.emit(sub, Ctx::Atom, out, depth + 1)?;
                match node.op {
                    Op::Star => out.push('*'),
                    Op::Plus => out.push('+'),
                    Op::Quest => out.push('?'),
                    _ if node.max == -1 => out.push_str(&format!("{{{},}}", node.min)),
                    _ if node.max == node.min => out.push_str(&format!("{{{}}}", node.min)),
                    _ => out.push_str(&format!("{{{},{}}}", node.min, node.max)),
                }
                if wrap {
                    out.push(')');
                }
            }
            Op::Concat => {
                if node.sub.is_empty() {
                    out.push_str("(?:)");
                    return Ok(());
                }
                let wrap = ctx == Ctx::Atom;
                if wrap {
                    out.push_str("(?:");
                }
                for &s in &node.sub {
                    self.emit(s, Ctx::Concat, out, depth + 1)?;
                }
                if wrap {
                    out.push(')');
                }
            }
            Op::Alternate => {
                if node.sub.is_empty() {
                    out.push_str(NEVER);
                    return Ok(());
                }
                let wrap = ctx != Ctx::Alt;
                if wrap {
                    out.push_str("(?:");
                }
                for (k, &s) in node.sub.iter().enumerate() {
                    if k > 0 {
                        out.push('|');
                    }
                    self.emit(s, Ctx::Alt, out, depth + 1)?;
                }
                if wrap {
                    out.push(')');
                }
            }
            Op::LeftParen | Op::VerticalBar => return Err(internal()),
        }
        Ok(())
    }
}

fn internal() -> GoRegexError {
    GoRegexError::unsupported("internal error: malformed parse tree")
}

/// Appends a literal code point (surrogates, which no text contains, never match).
fn push_literal(out: &mut String, r: i32) {
    match u32::try_from(r).ok().and_then(char::from_u32) {
        Some(c) => push_char(out, c),
        None => out.push_str(NEVER),
    }
}

/// Appends `c` so that it is literal both inside and outside brackets.
fn push_char(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() || (!c.is_ascii() && !c.is_whitespace() && !c.is_control()) {
        out.push(c);
    } else {
        out.push_str(&format!(r"\x{{{:X}}}", u32::from(c)));
    }
}

/// Appends a bracketed class for the (clean) ranges `runes`.
fn push_class(out: &mut String, runes: &[i32]) {
    let start = out.len();
    out.push('[');
    let mut any = false;
    for (lo, hi) in pairs(runes) {
        for (a, b) in scalar_parts(lo, hi) {
            any = true;
            push_char(out, a);
            if b > a {
                out.push('-');
                push_char(out, b);
            }
        }
    }
    if any {
        out.push(']');
    } else {
        out.truncate(start);
        out.push_str(NEVER);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's `err.Error()` for `pattern`, or "OK".
    fn go_result(pattern: &str) -> String {
        match compile(pattern) {
            Ok(_) => "OK".to_owned(),
            Err(e) => e.to_string(),
        }
    }

    /// Compares without printing megabytes on failure.
    fn assert_go(pattern: &str, want: &str) {
        let got = go_result(pattern);
        if got != want {
            let cut = |s: &str| s.chars().take(120).collect::<String>();
            panic!(
                "pattern {:?} ({} bytes): got {:?}, want {:?}",
                cut(pattern),
                pattern.len(),
                cut(&got),
                cut(want)
            );
        }
    }

    fn re(pattern: &str) -> GoRegex {
        match compile(pattern) {
            Ok(re) => re,
            Err(e) => panic!("{pattern:?} should compile: {e}"),
        }
    }

    /// Expected strings as printed by Go's `regexp.Compile(p).Error()`.
    const GO_ERRORS: &[(&str, &str)] = &[
        // Parentheses (parse_test.go's invalidRegexps and more).
        ("(abc", "missing closing ): `(abc`"),
        ("(", "missing closing ): `(`"),
        (")", "unexpected ): `)`"),
        ("a)", "unexpected ): `a)`"),
        ("(a))", "unexpected ): `(a))`"),
        ("(a|b|", "missing closing ): `(a|b|`"),
        ("a|b|)", "unexpected ): `a|b|)`"),
        ("(a)(b", "missing closing ): `(a)(b`"),
        ("a(b)c)d", "unexpected ): `a(b)c)d`"),
        ("(?P<name>a", "missing closing ): `(?P<name>a`"),
        // Brackets.
        ("[a-z", "missing closing ]: `[a-z`"),
        ("([a-z)", "missing closing ]: `[a-z)`"),
        ("([a-z]))", "unexpected ): `([a-z]))`"),
        ("[a", "missing closing ]: `[a`"),
        ("[]", "missing closing ]: `[]`"),
        ("[^]", "missing closing ]: `[^]`"),
        ("[]a", "missing closing ]: `[]a`"),
        (r"[a\\", r"missing closing ]: `[a\\`"),
        ("[[:alpha:]", "missing closing ]: `[[:alpha:]`"),
        // Class ranges and names.
        ("[a-Z]", "invalid character class range: `a-Z`"),
        ("(?i)[a-Z]", "invalid character class range: `a-Z`"),
        ("[z-a]", "invalid character class range: `z-a`"),
        ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
        (r"\pX", r"invalid character class range: `\pX`"),
        (r"\p{Foo}", r"invalid character class range: `\p{Foo}`"),
        (r"[\p{Foo}]", r"invalid character class range: `\p{Foo}`"),
        (r"\p", r"invalid character class range: `\p`"),
        (r"\p{Greek", r"invalid character class range: `\p{Greek`"),
        (r"\p{}", r"invalid character class range: `\p{}`"),
        // Repeat counts.
        ("x{1001}", "invalid repeat count: `{1001}`"),
        ("x{9876543210}", "invalid repeat count: `{9876543210}`"),
        ("x{2,1}", "invalid repeat count: `{2,1}`"),
        ("x{1,9876543210}", "invalid repeat count: `{1,9876543210}`"),
        ("a{100000}", "invalid repeat count: `{100000}`"),
        ("a{100000,}", "invalid repeat count: `{100000,}`"),
        (
            "((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})",
            "invalid repeat count: `{2}`",
        ),
        ("(?:[a-z]{4}){0,251}", "invalid repeat count: `{0,251}`"),
        ("(a{1000}){1000}", "invalid repeat count: `{1000}`"),
        ("(?:a{1000}){1000}", "invalid repeat count: `{1000}`"),
        // Nested repetition operators.
        (
            "x{1000}{1000}",
            "invalid nested repetition operator: `{1000}{1000}`",
        ),
        ("a**", "invalid nested repetition operator: `**`"),
        ("a*+", "invalid nested repetition operator: `*+`"),
        ("a+?*", "invalid nested repetition operator: `+?*`"),
        ("a??+", "invalid nested repetition operator: `??+`"),
        ("a{1}*", "invalid nested repetition operator: `{1}*`"),
        ("a{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
        // Missing repetition argument.
        ("**", "missing argument to repetition operator: `*`"),
        ("*", "missing argument to repetition operator: `*`"),
        ("+a", "missing argument to repetition operator: `+`"),
        ("(*)", "missing argument to repetition operator: `*`"),
        ("a|*", "missing argument to repetition operator: `*`"),
        ("(?:?)", "missing argument to repetition operator: `?`"),
        ("{1}", "missing argument to repetition operator: `{1}`"),
        (
            "a|{2,3}",
            "missing argument to repetition operator: `{2,3}`",
        ),
        (r"\Q\E*", "missing argument to repetition operator: `*`"),
        // Escapes.
        (r"\Z", r"invalid escape sequence: `\Z`"),
        (r"\C", r"invalid escape sequence: `\C`"),
        (r"\8", r"invalid escape sequence: `\8`"),
        (r"\1", r"invalid escape sequence: `\1`"),
        (r"\x", r"invalid escape sequence: `\x`"),
        (r"\xG1", r"invalid escape sequence: `\xG1`"),
        (r"\x{}", r"invalid escape sequence: `\x{}`"),
        (r"\x{110000}", r"invalid escape sequence: `\x{110000`"),
        (r"\x{41", r"invalid escape sequence: `\x{41`"),
        (r"\e", r"invalid escape sequence: `\e`"),
        (r"\é", r"invalid escape sequence: `\é`"),
        (r"\E", r"invalid escape sequence: `\E`"),
        ("\\", "trailing backslash at end of expression: ``"),
        ("a\\", "trailing backslash at end of expression: ``"),
        // Named captures (Go 1.22+ also accepts `(?<name>`).
        ("(?P<name", "invalid named capture: `(?P<name`"),
        ("(?P<x y>a)", "invalid named capture: `(?P<x y>`"),
        ("(?P<>a)", "invalid named capture: `(?P<>`"),
        ("(?<name", "invalid named capture: `(?<name`"),
        ("(?<x y>a)", "invalid named capture: `(?<x y>`"),
        ("(?<>a)", "invalid named capture: `(?<>`"),
        ("(?<=a)b", "invalid named capture: `(?<=a)b`"),
        ("(?<name>", "missing closing ): `(?<name>`"),
        // Perl syntax.
        ("(?<", "invalid or unsupported Perl syntax: `(?<`"),
        ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
        ("(?!a)", "invalid or unsupported Perl syntax: `(?!`"),
        ("(?", "invalid or unsupported Perl syntax: `(?`"),
        ("(?i", "invalid or unsupported Perl syntax: `(?i`"),
        ("(?-)", "invalid or unsupported Perl syntax: `(?-)`"),
        ("(?i-)", "invalid or unsupported Perl syntax: `(?i-)`"),
        ("(?--i)", "invalid or unsupported Perl syntax: `(?--`"),
        ("(?x)", "invalid or unsupported Perl syntax: `(?x`"),
        ("(?P", "invalid or unsupported Perl syntax: `(?P`"),
        ("(?P=name)", "invalid or unsupported Perl syntax: `(?P`"),
        ("(?#c)", "invalid or unsupported Perl syntax: `(?#`"),
        (
            "(?i)(?P<n>x)(?Z)",
            "invalid or unsupported Perl syntax: `(?Z`",
        ),
    ];

    #[test]
    fn go_error_strings() {
        for (pattern, want) in GO_ERRORS {
            let want = format!("error parsing regexp: {want}");
            assert_eq!(go_result(pattern), want, "pattern {pattern:?}");
        }
        assert!(GO_ERRORS.len() >= 40);
    }

    #[test]
    fn error_accessors() {
        let Err(e) = compile("(abc") else {
            panic!("must fail")
        };
        assert_eq!(e.code(), Some(ErrorCode::MissingParen));
        assert_eq!(e.expr(), Some("(abc"));
        assert_eq!(ErrorCode::Large.to_string(), "expression too large");
        let unsupported = GoRegexError::unsupported("x");
        assert_eq!(unsupported.code(), None);
        assert_eq!(unsupported.expr(), None);
    }

    #[test]
    fn accepted_like_go() {
        for pattern in [
            "",
            "|",
            "(|)",
            "a||b",
            "()",
            "[]a]",
            "[^]a]",
            "[a-]",
            "[-a]",
            "[a-b-c]",
            r"[a-\x{100}-a]",
            "x{2}{,3}",
            "x{,5}",
            "x{01}",
            "x{ 1}",
            "a{",
            "a{1,",
            "{",
            "}",
            "a{1,2}}",
            "x{0}",
            "x{1000}",
            "x{1000,}",
            "x{0,1000}",
            "(?:[a-z]{4}){0,250}",
            "((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}))",
            r"\Qabc\E",
            r"\Q*+?{[\E",
            r"\Q\\E",
            r"\Q",
            r"\Qab",
            "(?)",
            "(?i)(?-i)a",
            "(?i-i)",
            "(?imsU-imsU:a)",
            "(?P<name>a)",
            "(?<name>a)",
            "(?P<a>x)(?P<a>y)",
            "(?P<0abc>x)",
            r"\0",
            r"\08",
            r"\12",
            r"\123",
            r"\777",
            r"\x7f",
            r"\x{10FFFF}",
            r"\x{D800}",
            r"\_",
            r"\-",
            r"[\d\D]",
            r"[^\d\D]",
            "[:alpha:]",
            "[[:alpha:]]",
            "[[:^alpha:]]",
            "[[:word:]]",
            r"\pN",
            r"\p{Greek}",
            r"\P{^Greek}",
            r"\p{^Lu}",
            r"\p{Any}",
            r"\p{Han}{1000}",
            "^*",
            "$+",
            r"\b*",
            r"\z\A",
            "(?U)a*",
        ] {
            assert_eq!(go_result(pattern), "OK", "pattern {pattern:?}");
        }
    }

    #[test]
    fn go_1_25_unicode_class_names() {
        for pattern in [
            r"\p{Letter}",
            r"\p{greek}",
            r"\p{ascii}",
            r"\p{ASCII}",
            r"\p{Assigned}",
            r"\p{^Assigned}",
            r"\p{LC}",
            r"\p{Cn}",
            r"\p{Uppercase_Letter}",
            r"\p{upper case-let ter}",
            r"\p{__upper case-let ter}",
            r"\p{Canadian_Aboriginal}",
            r"\pl",
        ] {
            assert_eq!(go_result(pattern), "OK", "pattern {pattern:?}");
        }
        assert!(re(r"^\p{Letter}+$").is_match("héllo"));
        assert!(re(r"^\p{ascii}+$").is_match("abc\u{7f}"));
        assert!(!re(r"^\p{ascii}+$").is_match("é"));
        assert!(re(r"^(?i)\p{ascii}$").is_match("\u{212A}"));
        assert!(re(r"^\p{Uppercase_Letter}$").is_match("É"));
        assert!(!re(r"^\p{Uppercase_Letter}$").is_match("é"));
        assert!(re(r"^\p{Any}$").is_match("\n"));
        assert!(!re(r"\p{^Any}").is_match("abc"));
    }

    #[test]
    fn ascii_perl_classes_and_boundaries() {
        // \d, \w, \s, \b are ASCII-only in Go.
        assert!(re(r"^\d$").is_match("7"));
        assert!(!re(r"\d").is_match("٣"));
        assert!(!re(r"\w").is_match("é"));
        assert!(re(r"^\W$").is_match("é"));
        assert!(!re(r"\s").is_match("\u{a0}"));
        assert!(!re(r"\s").is_match("\u{b}"));
        assert!(re(r"^[[:space:]]$").is_match("\u{b}"));
        assert!(re(r"\bx\b").is_match("éxé"));
        assert!(!re(r"\Bx").is_match("éx"));
        assert!(!re(r"\B").is_match("aéb"));
        assert!(re(r"\B").is_match("é"));
        assert!(re(r"^[[:alpha:]]+$").is_match("abcXYZ"));
        assert!(!re(r"[[:alpha:]]").is_match("é"));
        assert!(re(r"^[[:^alpha:]]$").is_match("é"));
        // Unicode classes are Unicode.
        assert!(re(r"^\pL$").is_match("é"));
        assert!(re(r"^\p{Greek}+$").is_match("αβγ"));
        assert!(re(r"^\PL$").is_match("1"));
        assert!(re(r"^\pN$").is_match("٣"));
        assert!(re(r"^[\p{Lu}\d]+$").is_match("É9"));
    }

    #[test]
    fn case_folding() {
        assert!(re("(?i)k").is_match("\u{212A}"));
        assert!(re("(?i)[a-z]").is_match("\u{17F}"));
        assert!(re(r"(?i)\w").is_match("\u{212A}"));
        assert!(!re(r"\w").is_match("\u{212A}"));
        assert!(re("(?i)straße").is_match("STRAẞE") || !re("(?i)ß").is_match("ẞ"));
        assert!(re("(?i:a)b").is_match("Ab"));
        assert!(!re("(?i:a)b").is_match("AB"));
        assert!(re("[Aa]bc").is_match("abc"));
        assert!(!re("(?i)İ").is_match("i"));
        assert!(re("(?i)[^k]").is_match("x"));
        assert!(!re("^(?i)[^k]$").is_match("K"));
    }

    #[test]
    fn dot_anchors_and_flags() {
        assert!(!re("a.b").is_match("a\nb"));
        assert!(re("(?s)a.b").is_match("a\nb"));
        assert!(re("a[^x]b").is_match("a\nb"));
        assert!(re(r"a[\s\S]b").is_match("a\nb"));
        // $ without (?m) is end of text only, unlike Perl.
        assert!(!re("a$").is_match("a\n"));
        assert!(re("(?m)a$").is_match("a\nb"));
        assert!(!re("^b").is_match("a\nb"));
        assert!(re("(?m)^b").is_match("a\nb"));
        assert!(!re(r"\Ab").is_match("a\nb"));
        assert!(re(r"a\z").is_match("ba"));
        assert!(!re(r"a\z").is_match("a\n"));
        // Flags end with their group.
        assert!(!re("(?:(?i)a)A").is_match("aa"));
        assert!(re("(?:(?i)a)A").is_match("AA"));
        assert!(re("(?U)a+b").is_match("aab"));
    }

    #[test]
    fn unanchored_matching() {
        assert!(re("b").is_match("abc"));
        assert!(re("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").is_match("my-name"));
        assert!(!re("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").is_match("-bad"));
        assert!(re("[0-9]+").is_match("v1.2"));
        assert!(re("").is_match(""));
        assert!(re("x*").is_match("abc"));
        assert!(!re("^$").is_match("a"));
        assert!(re("a|").is_match("zzz"));
    }

    #[test]
    fn escapes_and_literals() {
        assert!(re(r"^\Q.*+\E$").is_match(".*+"));
        assert!(!re(r"^\Q.*\E$").is_match("ab"));
        assert!(re(r"\Q\\E").is_match("\\"));
        assert!(re(r"^\101\x42\x{43}$").is_match("ABC"));
        assert!(re(r"^\0$").is_match("\0"));
        assert!(re(r"^\08$").is_match("\u{0}8"));
        assert!(re(r"^[\x{41}-\x{43}]+$").is_match("ABC"));
        assert!(re(r"^\a\f\t\n\r\v$").is_match("\u{7}\u{c}\t\n\r\u{b}"));
        assert!(re(r"^\.\*\$\^\{\}$").is_match(".*$^{}"));
        assert!(re("^a{,2}$").is_match("a{,2}"));
        assert!(re("^x{ 1}$").is_match("x{ 1}"));
        assert!(re("^☺+$").is_match("☺☺"));
        assert!(re(r"^[\-a]+$").is_match("-a"));
        assert!(re("^[]a]+$").is_match("]a"));
        // Surrogates can be written but never match.
        assert!(!re(r"\x{D800}").is_match("\u{FFFD}"));
        assert!(re(r"^[\x{D000}-\x{E000}]$").is_match("\u{D7FF}"));
        assert!(!re(r"[^\x00-\x{10FFFF}]").is_match("abc"));
    }

    #[test]
    fn repetitions_and_alternations() {
        assert!(re("^a{2,3}$").is_match("aaa"));
        assert!(!re("^a{2,3}$").is_match("aaaa"));
        assert!(re("^(?:ab){2,}$").is_match("ababab"));
        assert!(re("^x{0}$").is_match(""));
        assert!(re("^(abc|abd|aef|bcx|bcy)$").is_match("bcy"));
        assert!(!re("^(abc|abd|aef|bcx|bcy)$").is_match("bcz"));
        assert!(re(r"^(?:\d\d\dx|\d\d\dy)$").is_match("123y"));
        assert!(re("^(?:a|b|c)+$").is_match("abcba"));
        assert!(re("^(?:[ab]c|[ab]d)$").is_match("bd"));
        assert!(re("^(?i)abc|ABD$").is_match("aBd"));
        assert!(re("^(?:x|(?:xa))$").is_match("xa"));
        assert!(re("^(?:(?:^)*a)$").is_match("a"));
        assert!(re(r"^(?:\b)+a").is_match("a"));
    }

    #[test]
    fn nested_repeat_limits_fail_fast() {
        assert_eq!(
            go_result("(a{1000}){1000}"),
            "error parsing regexp: invalid repeat count: `{1000}`"
        );
        assert_eq!(
            go_result("((a{1000}){1000}){1000}"),
            "error parsing regexp: invalid repeat count: `{1000}`"
        );
    }

    #[test]
    fn deep_nesting_fails_without_overflow() {
        for pattern in [
            format!("{}{}", "(".repeat(10_000), ")".repeat(10_000)),
            format!("{}{}", "(?:".repeat(10_000), ")*".repeat(10_000)),
            format!("{}{}", "(".repeat(1000), ")".repeat(1000)),
            format!("{}{}", "(?:".repeat(1000), ")*".repeat(1000)),
        ] {
            assert_go(
                &pattern,
                &format!("error parsing regexp: expression nests too deeply: `{pattern}`"),
            );
        }
        // Just within Go's limit.
        for pattern in [
            format!("{}{}", "(".repeat(999), ")".repeat(999)),
            format!("{}{}", "(?:".repeat(999), ")*".repeat(999)),
            format!("({})", "|".repeat(12_345)),
        ] {
            assert_go(&pattern, "OK");
        }
        let deep = re(&format!("{}a{}", "(?:".repeat(999), ")*".repeat(999)));
        assert!(deep.is_match("aaa"));
        let alternations = format!("{}c{}", "(?:a(?:b|".repeat(499), "))".repeat(499));
        assert!(re(&alternations).is_match("xab"));
        assert!(re(&alternations).is_match(&format!("{}c", "a".repeat(499))));
        assert!(!re(&alternations).is_match("c"));
        let too_deep = format!("{}c{}", "(?:a(?:b|".repeat(800), "))".repeat(800));
        assert_go(
            &too_deep,
            &format!("error parsing regexp: expression nests too deeply: `{too_deep}`"),
        );
    }

    #[test]
    fn unmatched_paren_runs_are_fast() {
        // Open parens alone add no height: Go reports the missing ).
        for opens in [
            "(".repeat(10_000),
            format!("{}a", "(".repeat(100_000)),
            "(?:".repeat(5000),
        ] {
            assert_go(
                &opens,
                &format!("error parsing regexp: missing closing ): `{opens}`"),
            );
        }
        let closes = ")".repeat(10_000);
        assert_go(
            &closes,
            &format!("error parsing regexp: unexpected ): `{closes}`"),
        );
    }

    #[test]
    fn size_limits() {
        // Go's calcSize: (xx?){1000} is 5000; 671 of them fit into maxSize.
        let too_large = "(xx?){1000}".repeat(672);
        assert_go(
            &too_large,
            &format!("error parsing regexp: expression too large: `{too_large}`"),
        );
        let fits = "(xx?){1000}".repeat(671);
        assert!(matches!(
            compile(&fits),
            Ok(_) | Err(GoRegexError::Unsupported { .. })
        ));
        let nested = format!("({}){{1000}}", "(xx?)".repeat(1000));
        assert_go(
            &nested,
            &format!("error parsing regexp: expression too large: `{nested}`"),
        );
        let long = "(xx?){1000}".repeat(1000);
        assert_go(
            &long,
            &format!("error parsing regexp: expression too large: `{long}`"),
        );
        // Too many runes in classes.
        let runes = r"\pL".repeat(27_000);
        assert_go(
            &runes,
            &format!("error parsing regexp: expression too large: `{runes}`"),
        );
        // Accepted by Go, but beyond the regex crate's size limit.
        let big = "[a-z]{1000}".repeat(3000);
        assert!(matches!(
            compile(&big),
            Err(GoRegexError::Unsupported { .. })
        ));
    }

    #[test]
    fn invalid_utf8() {
        let cases: &[(&[u8], &str)] = &[
            (b"\xff", "\u{FFFD}"),
            (b"a\xffb", "\u{FFFD}b"),
            (b"[\xff]", "\u{FFFD}]"),
            (b"\\\xff", "\u{FFFD}"),
            (b"\\Q\xff\\Eb", "\u{FFFD}"),
            (b"(?P<\xff>a)", "\u{FFFD}"),
            (b"(?P<a\xff", "\u{FFFD}"),
            (b"\\p{\xff}", "\u{FFFD}"),
            (b"\xed\xa0\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ];
        for (pattern, expr) in cases {
            match compile_bytes(pattern) {
                Err(GoRegexError::Syntax { code, expr: got }) => {
                    assert_eq!(code, ErrorCode::InvalidUtf8, "{pattern:?}");
                    assert_eq!(&got, expr, "{pattern:?}");
                }
                other => panic!("{pattern:?}: {other:?}"),
            }
        }
        // An earlier error wins, as in Go.
        assert_eq!(
            compile_bytes(b"\\Z\xff").map(|_| ()),
            Err(GoRegexError::Syntax {
                code: ErrorCode::InvalidEscape,
                expr: r"\Z".to_owned()
            })
        );
    }

    #[test]
    fn api() {
        let r = re("a+b");
        assert_eq!(r.as_str(), "a+b");
        assert_eq!(r.to_string(), "a+b");
        assert!(!r.translated().is_empty());
        let r2 = r.clone();
        assert!(r2.is_match("xaab"));
    }

    /// Compiles nasty patterns on a thread with a small stack, in a debug build.
    #[test]
    fn small_caller_stack() {
        let patterns: Vec<String> = vec![
            format!("{}{}", "(".repeat(999), ")".repeat(999)),
            format!("{}a{}", "(?:".repeat(100), ")*".repeat(100)),
            format!("{}a{}", "(".repeat(250), ")".repeat(250)),
            format!("{}{}", "(a|".repeat(120), ")".repeat(120)),
            format!("{}c{}", "(?:a(?:b|".repeat(499), "))".repeat(499)),
            "(?:".repeat(5000),
            (1..200)
                .map(|k| r"\d".repeat(k) + "x")
                .collect::<Vec<_>>()
                .join("|"),
            (0..3)
                .map(|k| format!("{}{k}", r"\d".repeat(3000)))
                .collect::<Vec<_>>()
                .join("|"),
            (0..3)
                .map(|k| format!("{}{k}", "[ab]".repeat(2000)))
                .collect::<Vec<_>>()
                .join("|"),
            // Short enough to be parsed on the caller's stack.
            format!("{}{}", "(".repeat(127), ")".repeat(127)),
            format!("{}a{{1000}}{}{{1000}}", "(".repeat(120), ")".repeat(120)),
            (1..12)
                .map(|k| r"\d".repeat(k) + "x")
                .collect::<Vec<_>>()
                .join("|"),
            format!("{}a{}", "(?:".repeat(50), ")*".repeat(50)),
        ];
        let handle = std::thread::Builder::new()
            .stack_size(512 << 10)
            .spawn(move || {
                patterns
                    .iter()
                    .map(|p| compile(p).map(|r| r.is_match("aaa")).map_err(|e| e.code()))
                    .collect::<Vec<_>>()
            });
        let results = match handle.map(|h| h.join()) {
            Ok(Ok(results)) => results,
            _ => panic!("compilation on a small stack failed"),
        };
        assert_eq!(results.len(), 13);
        assert_eq!(
            results.get(10),
            Some(&Err(Some(ErrorCode::InvalidRepeatSize)))
        );
        assert_eq!(results.first(), Some(&Ok(true)));
        assert_eq!(results.get(5), Some(&Err(Some(ErrorCode::MissingParen))));
    }

    /// Deterministic random byte patterns: compiling and matching never panic.
    #[test]
    fn random_patterns_never_panic() {
        const ALPHABET: &[&[u8]] = &[
            b"a",
            b"b",
            b"K",
            b"\xe2\x98\xba",
            b"\xff",
            b"(",
            b")",
            b"(?",
            b"(?:",
            b"(?i)",
            b"(?P<n>",
            b"(?<n>",
            b"|",
            b"*",
            b"+",
            b"?",
            b"{",
            b"}",
            b"{2}",
            b"{1,3}",
            b"{1001}",
            b",",
            b"[",
            b"]",
            b"^",
            b"-",
            b"[:alpha:]",
            b"[:^x:]",
            b"\\",
            b"\\d",
            b"\\pL",
            b"\\p{",
            b"\\Q",
            b"\\E",
            b"\\x{",
            b"\\1",
            b"\\b",
            b".",
            b"$",
            b"\\z",
            b"0",
            b"9",
            b"<",
            b">",
            b"=",
            b"!",
            b":",
            b"\n",
        ];
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..3000 {
            let len = next() % 24;
            let mut pattern = Vec::new();
            for _ in 0..len {
                let k = (next() % ALPHABET.len() as u64) as usize;
                pattern.extend_from_slice(ALPHABET.get(k).copied().unwrap_or(b""));
            }
            if let Ok(r) = compile_bytes(&pattern) {
                for text in ["", "a", "Kb\n☺", "((a))", "09{2}"] {
                    let _ = r.is_match(text);
                }
            }
        }
    }

    #[test]
    fn dense_dfa_matches_as_the_lazy_one() {
        let patterns = [
            r"^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$",
            r"^[a-zA-Z_][a-zA-Z0-9_]*$",
            r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
            r"",
            r"^",
            r"$",
            r"^$",
            r"\b",
            r"\B",
            r"x*",
            r"(?m)^",
            r"(?m)$",
            r"(?s).",
            r"(?i)straße",
            r"\pL+",
            r"[^a]",
            r"é|",
            r"\d+",
            r"\w\B",
            r"^\p{Greek}*$",
            r"a|b|",
            r"(?U)a+",
            r"^[[:alpha:]]+$",
            r"\Aab\z",
            r"[\x{80}-\x{10FFFF}]",
        ];
        let texts = [
            "",
            "a",
            "ab",
            "30s",
            "1h30m",
            "é",
            "aé",
            "éa",
            "x\ny",
            "\n",
            "Straße",
            "STRASSE",
            "αβγ",
            "__meta_kubernetes_pod_name",
            "web-1.example.com",
            "-bad",
            "123",
            "a b",
            "\u{10FFFF}",
            "日本語",
        ];
        let mut dense = 0;
        for p in patterns {
            let Ok(r) = compile(p) else { continue };
            for t in texts {
                let want = r.regex.is_match(t);
                if let Some(got) = r.is_match_dense(t) {
                    dense += 1;
                    assert_eq!(got, want, "{p:?} on {t:?}");
                }
                assert_eq!(r.is_match(t), want, "{p:?} on {t:?}");
            }
        }
        assert!(dense > 300, "{dense}");
    }
}
