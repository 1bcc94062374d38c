//! The errors of [`compile`](crate::compile): Go's `regexp/syntax` error codes, with
//! Go's texts, and the crate's error type.

use std::fmt;

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
    /// `invalid UTF-8` (only reachable through [`compile_bytes`](crate::compile_bytes)).
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

/// Why [`compile`](crate::compile) failed.
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
    /// implementation's limits ([`RUST_SIZE_LIMIT`](crate::RUST_SIZE_LIMIT), the
    /// translated pattern length, a helper thread that could not be started, ...).
    /// Only huge patterns, such as thousands of repeated Unicode classes, get here.
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

    /// A [`GoRegexError::Unsupported`] for `reason`.
    pub(crate) fn unsupported(reason: impl Into<String>) -> Self {
        GoRegexError::Unsupported {
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile;

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
}
