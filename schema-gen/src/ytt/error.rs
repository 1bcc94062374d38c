//! Errors of the ytt front end, rendered as ytt renders schema errors.

use schema_core::model::source::SourceError;

/// The source excerpt of one failure: the lines of the annotations
/// involved and of the node, as `(line, text)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The file name.
    pub file: String,
    /// The annotations' lines.
    pub ann_lines: Vec<(usize, String)>,
    /// The node's line.
    pub line: (usize, String),
}

/// One failure of a [`SchemaError`]: ytt's `schemaAssertionError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// A sentence above the excerpt (may be empty).
    pub description: String,
    /// Where.
    pub frame: Frame,
    /// The `= found:` line (may be empty).
    pub found: String,
    /// The `= expected:` line (may be empty).
    pub expected: String,
    /// The `= hint:` lines.
    pub hints: Vec<String>,
}

/// A schema authoring error as ytt reports it: a summary (the headline)
/// and one or more failures with source excerpts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    /// The headline, e.g. `Invalid schema - null value not allowed here`.
    pub summary: String,
    /// The failures.
    pub failures: Vec<Failure>,
}

impl SchemaError {
    pub(crate) fn new(summary: impl Into<String>, failure: Failure) -> SchemaError {
        SchemaError {
            summary: summary.into(),
            failures: vec![failure],
        }
    }

    /// The report exactly as ytt prints it (its `schemaErrorReportTemplate`).
    #[must_use]
    pub fn render(&self) -> String {
        let width = self
            .failures
            .iter()
            .map(|f| f.frame.line.0.to_string().len())
            .max()
            .unwrap_or(0);
        let pad = |delim: &str, pos: &str| format!("  {pos:>width$} {delim}");
        let mut out = String::new();
        if !self.summary.is_empty() {
            out.push('\n');
            out.push_str(&self.summary);
            out.push('\n');
            out.push_str(&"=".repeat(self.summary.len()));
            out.push('\n');
        }
        for f in &self.failures {
            if !f.description.is_empty() {
                out.push('\n');
                out.push_str(&f.description);
            }
            out.push('\n');
            out.push_str(&f.frame.file);
            out.push(':');
            out.push('\n');
            out.push_str(&pad("|", ""));
            let mut positions = f.frame.ann_lines.clone();
            positions.sort_by_key(|(l, _)| *l);
            positions.push(f.frame.line.clone());
            let mut prev: Option<usize> = None;
            for (line, text) in &positions {
                if prev.is_some_and(|p| p.abs_diff(*line) > 1) {
                    out.push('\n');
                    out.push_str(&pad("|", ""));
                    out.push_str(" ...");
                }
                out.push('\n');
                out.push_str(&pad("|", &line.to_string()));
                out.push(' ');
                out.push_str(text);
                prev = Some(*line);
            }
            out.push('\n');
            out.push_str(&pad("|", ""));
            out.push_str("\n\n");
            if !f.found.is_empty() {
                out.push_str(&pad("=", ""));
                out.push_str(" found: ");
                out.push_str(&f.found);
            }
            out.push('\n');
            if !f.expected.is_empty() {
                out.push_str(&pad("=", ""));
                out.push_str(" expected: ");
                out.push_str(&f.expected);
            }
            for h in &f.hints {
                out.push('\n');
                out.push_str(&pad("=", ""));
                out.push_str(" hint: ");
                out.push_str(h);
            }
            out.push('\n');
        }
        out.push('\n');
        out
    }
}

/// Why a ytt schema could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum YttError {
    /// The file is not valid YAML (or exceeds a limit).
    #[error("{0}")]
    Source(SourceError),
    /// A YAML construct the schema cannot hold.
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The file name.
        file: String,
        /// The line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Annotation arguments that are not a Starlark literal.
    #[error("{file}:{line}: invalid arguments of annotation @{name}: {message}")]
    Annotation {
        /// The file name.
        file: String,
        /// The line of the annotation.
        line: usize,
        /// The annotation's name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// Something ytt allows that a schema-only tool cannot do (code,
    /// several schema documents), or no schema at all.
    #[error("{file}:{line}: {message}")]
    Unsupported {
        /// The file name.
        file: String,
        /// The line (0 for the whole file).
        line: usize,
        /// What is not supported.
        message: String,
    },
    /// A schema authoring error ytt reports.
    #[error("{}", .0.render())]
    Schema(SchemaError),
}

impl YttError {
    /// The first line of the message: ytt's summary for schema errors.
    #[must_use]
    pub fn headline(&self) -> String {
        match self {
            YttError::Schema(e) => e.summary.clone(),
            other => other.to_string(),
        }
    }

    /// The file and line the error is about (line 0 when unknown).
    #[must_use]
    pub fn location(&self) -> (String, usize) {
        match self {
            YttError::Source(e) => (e.file.clone(), e.line),
            YttError::Syntax { file, line, .. }
            | YttError::Annotation { file, line, .. }
            | YttError::Unsupported { file, line, .. } => (file.clone(), *line),
            YttError::Schema(e) => e
                .failures
                .first()
                .map(|f| (f.frame.file.clone(), f.frame.line.0))
                .unwrap_or_default(),
        }
    }
}
