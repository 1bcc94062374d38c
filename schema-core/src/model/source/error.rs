//! Why an input could not be read: [`SourceError`], naming file, line and
//! column, and its class, [`SourceErrorKind`].

use super::source_map::Location;

/// What kind of problem a [`SourceError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceErrorKind {
    /// The input is not UTF-8.
    Encoding,
    /// YAML or JSON syntax, or an alias that cannot be resolved.
    Syntax,
    /// A key repeated within one mapping.
    DuplicateKey,
    /// A scalar or key that cannot be represented: `.inf`/`.nan`, an
    /// out-of-range float, a value that does not match its tag, an unknown
    /// tag, a complex or null key, a bad merge value.
    Value,
    /// A [`Limits`](super::Limits) limit was hit.
    Limit,
}

/// Why an input could not be read. Displays as `file:line:column: message`
/// (just `file: message` when the problem has no position, `line == 0`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", position(.file, *.line, *.column))]
pub struct SourceError {
    /// The display name given to [`parse_documents`](super::parse_documents).
    pub file: String,
    /// Line, from 1; 0 when the error concerns the whole input.
    pub line: usize,
    /// Column in characters, from 1; 0 when the error concerns the whole
    /// input.
    pub column: usize,
    /// What went wrong, e.g. `mapping key "foo" already defined at line 3`.
    pub message: String,
    /// The class of the problem.
    pub kind: SourceErrorKind,
    /// A second position the error refers to: for a duplicate key, where
    /// the key was first written (the error's own position is the repeat).
    pub earlier: Option<Location>,
}

fn position(file: &str, line: usize, column: usize) -> String {
    if line == 0 {
        file.to_string()
    } else {
        format!("{file}:{line}:{column}")
    }
}

impl SourceError {
    /// The error's location, if it has one.
    #[must_use]
    pub fn location(&self) -> Option<Location> {
        (self.line > 0).then_some(Location {
            line: self.line,
            column: self.column,
        })
    }
}
