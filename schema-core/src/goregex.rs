//! Go RE2 regular expressions (interim: backed by the `regex` crate).

/// A compile error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("error parsing regexp: {0}")]
pub struct GoRegexError(String);

/// A compiled regular expression.
#[derive(Debug, Clone)]
pub struct GoRegex(regex::Regex, String);

/// Compiles a pattern.
pub fn compile(pattern: &str) -> Result<GoRegex, GoRegexError> {
    regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .map(|r| GoRegex(r, pattern.to_string()))
        .map_err(|e| GoRegexError(e.to_string()))
}

impl GoRegex {
    /// Unanchored match.
    pub fn is_match(&self, text: &str) -> bool {
        self.0.is_match(text)
    }
    /// The pattern.
    pub fn as_str(&self) -> &str {
        &self.1
    }
}
