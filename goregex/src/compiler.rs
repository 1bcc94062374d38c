//! The compilation pipeline behind [`compile`](crate::compile): parse, translate,
//! build the `regex` crate matcher within explicit limits, on a helper thread with a
//! big stack when the input could recurse deeply.

use crate::error::{ErrorCode, GoRegexError};
use crate::parse::{Tree, parse_pattern};
use crate::translate::translate;

/// Size limit, in bytes, for each compiled `regex` crate program backing a
/// [`GoRegex`](crate::GoRegex) (`regex::RegexBuilder::size_limit`).
pub const RUST_SIZE_LIMIT: usize = 32 << 20;

/// Cache limit, in bytes, of the lazy DFA of each [`GoRegex`](crate::GoRegex)
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

/// Nesting limit handed to the `regex` crate (Go allows a tree height of 1000; the
/// translation stays within twice that).
const RUST_NEST_LIMIT: u32 = 4000;

/// A compiled pattern: the Go pattern and the `regex` crate matcher built for it.
pub(crate) struct Compiled {
    /// The Go pattern (valid UTF-8: Go's parser rejects everything else).
    pub(crate) pattern: String,
    /// The matcher of the translated pattern.
    pub(crate) regex: regex::Regex,
}

/// Parses `pattern`, translates it and builds its matcher, on a helper thread with a
/// [`COMPILE_STACK_SIZE`] stack when the pattern is long or deeply nested.
pub(crate) fn compile(pattern: &[u8]) -> Result<Compiled, GoRegexError> {
    if pattern.len() > INLINE_PARSE_MAX_LEN {
        return on_big_stack(|| compile_here(pattern, true));
    }
    compile_here(pattern, false)
}

fn compile_here(pattern: &[u8], on_helper: bool) -> Result<Compiled, GoRegexError> {
    let tree = parse_pattern(pattern)?;
    if !on_helper && tree.height_exceeds(INLINE_BUILD_MAX_HEIGHT) {
        return on_big_stack(|| finish(pattern, &tree));
    }
    finish(pattern, &tree)
}

/// Translates a parsed pattern and builds its matcher.
fn finish(pattern: &[u8], tree: &Tree) -> Result<Compiled, GoRegexError> {
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
    let translated = translate(tree)?;
    build_regex(text, &translated)
}

fn build_regex(pattern: String, translated: &str) -> Result<Compiled, GoRegexError> {
    regex::RegexBuilder::new(translated)
        .size_limit(RUST_SIZE_LIMIT)
        .dfa_size_limit(RUST_DFA_SIZE_LIMIT)
        .nest_limit(RUST_NEST_LIMIT)
        .build()
        .map(|regex| Compiled { pattern, regex })
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

#[cfg(test)]
mod tests {
    use crate::{ErrorCode, compile};

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
}
