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

mod cache;
mod case_fold;
mod char_class;
mod compiler;
mod error;
mod parse;
#[cfg(test)]
mod test_support;
mod translate;
mod unicode_tables;

use std::fmt;

use crate::cache::DenseCache;

pub use crate::compiler::{COMPILE_STACK_SIZE, RUST_DFA_SIZE_LIMIT, RUST_SIZE_LIMIT};
pub use crate::error::{ErrorCode, GoRegexError};

/// A pattern accepted by Go's `regexp.Compile`, with a matcher of Go's semantics.
pub struct GoRegex {
    pattern: String,
    regex: regex::Regex,
    /// The DFA [`GoRegex::is_match`] switches to once the pattern is used often.
    dense: DenseCache,
}

impl Clone for GoRegex {
    fn clone(&self) -> Self {
        GoRegex {
            pattern: self.pattern.clone(),
            regex: self.regex.clone(),
            dense: self.dense.clone(),
        }
    }
}

impl GoRegex {
    fn new(pattern: String, regex: regex::Regex) -> Self {
        GoRegex {
            pattern,
            regex,
            dense: DenseCache::new(),
        }
    }

    /// Whether `text` contains a match (unanchored, like Go's `MatchString`).
    pub fn is_match(&self, text: &str) -> bool {
        match self.dense.is_match(&self.regex, text) {
            Some(found) => found,
            None => self.regex.is_match(text),
        }
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

impl fmt::Debug for GoRegex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("GoRegex");
        s.field("pattern", &self.pattern)
            .field("regex", &self.regex);
        self.dense.debug_fields(&mut s);
        s.finish()
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
    compiler::compile(pattern).map(|c| GoRegex::new(c.pattern, c.regex))
}

#[cfg(test)]
mod tests {
    use crate::compile_bytes;
    use crate::test_support::re;

    #[test]
    fn api() {
        let r = re("a+b");
        assert_eq!(r.as_str(), "a+b");
        assert_eq!(r.to_string(), "a+b");
        assert!(!r.translated().is_empty());
        let r2 = r.clone();
        assert!(r2.is_match("xaab"));
    }

    /// `Debug` shows the fields `GoRegex` had before the DFA cache moved out of it.
    #[test]
    fn debug_output() {
        let want = concat!(
            r#"GoRegex { pattern: "a+b|c", regex: Regex("a+b|c"), "#,
            "uses: 0, dfa: OnceLock(<uninit>) }",
        );
        assert_eq!(format!("{:?}", re("a+b|c")), want);
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
}
