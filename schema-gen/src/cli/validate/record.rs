//! What `validate` found, file by file and object by object, before any
//! of it is printed: every output format renders these records.

use schema_core::model::source::Location;

use crate::cli::reports::{Summary, Unprocessed, ValidatedObject};

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::cli) enum Severity {
    /// The object is invalid, or could not be validated.
    Error,
    /// A note: the object stays valid.
    Warning,
}

/// One problem or note, where it was found.
pub(in crate::cli) struct Finding {
    /// How serious it is.
    pub(in crate::cli) severity: Severity,
    /// What kind of problem, as a stable id: the field error types of the
    /// API server (`FieldValueRequired`, …), `UnknownField`, `Rejected`,
    /// `Ratcheted`, `Warning`, `NoSchema`, `NotAnObject`,
    /// `SchemaUnavailable`, `Unreadable`.
    pub(in crate::cli) rule: &'static str,
    /// The field, for field errors (`spec.replicas`).
    pub(in crate::cli) field: Option<String>,
    /// Where, in the object's file.
    pub(in crate::cli) location: Location,
    /// The message, as text output prints it after `error:` or
    /// `warning:`.
    pub(in crate::cli) message: String,
}

/// What became of one object.
pub(in crate::cli) enum Verdict {
    /// Admitted without errors.
    Valid,
    /// Admitted with errors.
    Invalid,
    /// Rejected before validation (the request itself is wrong).
    Rejected,
    /// Left out on request; the reason, for text output (`skipped` alone
    /// for `--skip`).
    Skipped(String),
    /// Not validated: no schema for it, or its schema cannot be used; the
    /// one finding says why.
    Unprocessable,
}

/// One object of a file: the document itself, or an item of a `List`.
pub(in crate::cli) struct ObjectRecord {
    /// Where it starts.
    pub(in crate::cli) start: Location,
    /// `Kind "name"`, as the API server names objects in messages.
    pub(in crate::cli) label: String,
    /// `apiVersion/kind` (`apps/v1/Deployment`), or empty.
    pub(in crate::cli) type_name: String,
    /// What became of it.
    pub(in crate::cli) verdict: Verdict,
    /// What was found, in the order text output prints it.
    pub(in crate::cli) findings: Vec<Finding>,
    /// What `--output json` reports of it (kept for that output only).
    pub(in crate::cli) json: Option<ObjectJson>,
}

impl ObjectRecord {
    /// How many of its findings are errors.
    pub(in crate::cli) fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count()
    }
}

/// An object as `--output json` reports it.
pub(in crate::cli) enum ObjectJson {
    /// Admitted.
    Validated(Box<ValidatedObject>),
    /// Skipped or not validated.
    Unprocessed(Unprocessed),
}

/// One input file.
pub(in crate::cli) struct FileRecord {
    /// Its name in messages (`<stdin>` for `-`).
    pub(in crate::cli) name: String,
    /// Why it could not be read or parsed: the text output line, and where.
    pub(in crate::cli) unreadable: Option<Finding>,
    /// Its objects, in order.
    pub(in crate::cli) objects: Vec<ObjectRecord>,
}

/// The counts of a run.
#[derive(Default, Clone, Copy)]
pub(in crate::cli) struct Tally {
    /// Admitted without errors.
    pub(in crate::cli) valid: usize,
    /// Admitted with errors, or rejected.
    pub(in crate::cli) invalid: usize,
    /// Left out on request.
    pub(in crate::cli) skipped: usize,
    /// Not validated: no schema for them, or theirs cannot be used.
    pub(in crate::cli) errors: usize,
    /// Files that cannot be read or parsed.
    pub(in crate::cli) unreadable: usize,
}

impl Tally {
    /// The counts of `files`.
    pub(in crate::cli) fn of(files: &[FileRecord]) -> Self {
        let mut t = Tally::default();
        for f in files {
            if f.unreadable.is_some() {
                t.unreadable += 1;
            }
            for o in &f.objects {
                match o.verdict {
                    Verdict::Valid => t.valid += 1,
                    Verdict::Invalid | Verdict::Rejected => t.invalid += 1,
                    Verdict::Skipped(_) => t.skipped += 1,
                    Verdict::Unprocessable => t.errors += 1,
                }
            }
        }
        t
    }

    /// Every object met.
    pub(in crate::cli) fn objects(&self) -> usize {
        self.valid + self.invalid + self.skipped + self.errors
    }

    /// The summary of these counts, reached in `seconds`.
    pub(in crate::cli) fn summary(&self, seconds: f64) -> Summary {
        Summary {
            objects: self.objects(),
            valid: self.valid,
            invalid: self.invalid,
            skipped: self.skipped,
            errors: self.errors,
            unreadable_files: self.unreadable,
            seconds,
        }
    }
}
