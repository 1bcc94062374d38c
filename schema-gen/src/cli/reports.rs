//! What the command prints on stdout besides generated code: YAML streams
//! of documents, and JSON documents and reports (`--output json`) as
//! serializable types, whose fields are the reports' keys, in order.

use serde::Serialize;
use serde_json::Value;

use schema_core::model::field::FieldError;
use schema_core::model::source::Location;
use schema_core::model::wire::input::{ReadError, Warning};
use schema_core::model::yaml_writer::to_yaml;

use crate::lint::Finding;

/// `value` as pretty-printed JSON and a newline.
pub(super) fn json_text<T: Serialize>(value: &T) -> String {
    format!(
        "{}\n",
        serde_json::to_string_pretty(value).unwrap_or_default()
    )
}

/// `values` as a YAML stream: one document as is, several each after a
/// `---`.
pub(super) fn yaml_documents<'v>(values: impl ExactSizeIterator<Item = &'v Value>) -> String {
    let several = values.len() > 1;
    let mut text = String::new();
    for value in values {
        if several {
            text.push_str("---\n");
        }
        text.push_str(&to_yaml(value));
    }
    text
}

/// Several documents as one: a `v1` `List` of them.
#[derive(Serialize)]
pub(super) struct List {
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    kind: &'static str,
    items: Vec<Value>,
}

impl List {
    /// The list of `items`.
    pub(super) fn new(items: Vec<Value>) -> Self {
        List {
            api_version: "v1",
            kind: "List",
            items,
        }
    }
}

/// A field error where it was found.
#[derive(Serialize)]
pub(super) struct FieldErrorReport {
    field: String,
    #[serde(rename = "type")]
    error_type: &'static str,
    detail: String,
    message: String,
    line: usize,
    column: usize,
    /// The error's document in its file, when the file has several.
    #[serde(skip_serializing_if = "Option::is_none")]
    document: Option<usize>,
}

impl FieldErrorReport {
    /// An unknown field, an error under `--strict` (the server's strict
    /// field validation: `unknown field "spec.foo"`).
    pub(super) fn unknown_field(path: &str, location: Location) -> Self {
        FieldErrorReport {
            field: path.to_string(),
            error_type: "UnknownField",
            detail: String::new(),
            message: format!("unknown field {path:?}"),
            line: location.line,
            column: location.column,
            document: None,
        }
    }

    /// `error`, found at `location` of document `document` (`None` when
    /// the file has one).
    pub(super) fn new(error: &FieldError, location: Location, document: Option<usize>) -> Self {
        FieldErrorReport {
            field: error.field.to_string(),
            error_type: error.error_type.name(),
            detail: error.detail.clone(),
            message: error.to_string(),
            line: location.line,
            column: location.column,
            document,
        }
    }
}

/// `check`: every file's errors and warnings.
#[derive(Serialize)]
pub(super) struct CheckReport {
    /// The files, in the order given.
    pub(super) files: Vec<CheckedFile>,
}

/// `check`: one file.
#[derive(Serialize)]
pub(super) struct CheckedFile {
    file: String,
    /// Why the file could not be read or parsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    errors: Vec<CheckError>,
    warnings: Vec<CheckWarning>,
}

impl CheckedFile {
    /// The file `name` that could not be read or parsed, for `error`.
    pub(super) fn unreadable(name: String, error: String) -> Self {
        CheckedFile {
            file: name,
            error: Some(error),
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The file `name`, checked.
    pub(super) fn checked(
        name: String,
        errors: Vec<CheckError>,
        warnings: Vec<CheckWarning>,
    ) -> Self {
        CheckedFile {
            file: name,
            error: None,
            errors,
            warnings,
        }
    }
}

/// `check`: one error of a file.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum CheckError {
    /// A document that is not a CRD or schema.
    Unreadable(UnreadableDocument),
    /// An error the API server would reject a document with.
    Field(FieldErrorReport),
}

/// `check`: a document that is not a CRD or schema.
#[derive(Serialize)]
pub(super) struct UnreadableDocument {
    document: usize,
    field: &'static str,
    #[serde(rename = "type")]
    error_type: &'static str,
    detail: String,
    message: String,
}

impl UnreadableDocument {
    /// Document `document` of its file, which `error` kept from being read.
    pub(super) fn new(document: usize, error: &ReadError) -> Self {
        UnreadableDocument {
            document,
            field: "",
            error_type: "DecodeError",
            detail: error.to_string(),
            message: error.to_string(),
        }
    }
}

/// `check`: one warning of a file.
#[derive(Serialize)]
pub(super) struct CheckWarning {
    field: String,
    message: String,
    line: usize,
    column: usize,
    /// The warning's document in its file, when the file has several.
    #[serde(skip_serializing_if = "Option::is_none")]
    document: Option<usize>,
}

impl CheckWarning {
    /// `warning`, worded `message`, found at `location` of document
    /// `document` (`None` when the file has one).
    pub(super) fn new(
        warning: &Warning,
        message: String,
        location: Location,
        document: Option<usize>,
    ) -> Self {
        CheckWarning {
            field: warning.field.to_string(),
            message,
            line: location.line,
            column: location.column,
            document,
        }
    }
}

/// `prune` and `default`: the objects as processed.
#[derive(Serialize)]
pub(super) struct ObjectsReport {
    /// The objects, in input order.
    pub(super) objects: Vec<ProcessedObject>,
}

/// `prune` and `default`: one object.
#[derive(Serialize)]
pub(super) struct ProcessedObject {
    /// The object as processed.
    pub(super) object: Value,
    /// The paths of the pruned unknown fields (`prune` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) pruned: Option<Vec<String>>,
}

/// `validate`: the objects as admitted.
#[derive(Serialize)]
pub(super) struct ValidateReport {
    /// The objects, in input order.
    pub(super) objects: Vec<ValidatedObject>,
    /// The documents not validated: skipped, or without a CRD version.
    pub(super) unprocessed: Vec<Unprocessed>,
    /// The counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) summary: Option<Summary>,
}

/// `validate`: an object that was not validated, and why.
#[derive(Serialize)]
pub(super) struct Unprocessed {
    /// Its file.
    pub(super) file: String,
    /// Where it starts.
    pub(super) line: usize,
    /// Where it starts.
    pub(super) column: usize,
    /// Why.
    pub(super) message: String,
    /// Skipped on request (`--skip`, `--ignore-missing`), not an error.
    pub(super) skipped: bool,
}

/// `validate`: how many objects came out how, and how long it took.
#[derive(Serialize)]
pub(super) struct Summary {
    /// Every object met (a `List`'s items each).
    pub(super) objects: usize,
    /// Admitted without errors.
    pub(super) valid: usize,
    /// Admitted with errors, or rejected.
    pub(super) invalid: usize,
    /// Left out on request.
    pub(super) skipped: usize,
    /// Not validated: no schema for it, or its schema cannot be used.
    pub(super) errors: usize,
    /// Files that cannot be read or parsed.
    pub(super) unreadable_files: usize,
    /// Wall time.
    pub(super) seconds: f64,
}

impl Summary {
    /// The closing line of text output.
    pub(super) fn line(&self) -> String {
        let unreadable = match self.unreadable_files {
            0 => String::new(),
            1 => "; 1 file could not be read".to_string(),
            n => format!("; {n} files could not be read"),
        };
        format!(
            "{} object{}: {} valid, {} invalid, {} skipped, {} error{}{unreadable} ({:.2} s)",
            self.objects,
            if self.objects == 1 { "" } else { "s" },
            self.valid,
            self.invalid,
            self.skipped,
            self.errors,
            if self.errors == 1 { "" } else { "s" },
            self.seconds
        )
    }
}

/// `validate`: one object.
#[derive(Serialize)]
pub(super) struct ValidatedObject {
    /// Its file.
    pub(super) file: String,
    /// The line its document starts on.
    pub(super) line: usize,
    /// The object as the API server would store it.
    pub(super) object: Value,
    /// The paths of the pruned unknown fields.
    pub(super) pruned: Vec<String>,
    /// The errors admission reported.
    pub(super) errors: Vec<FieldErrorReport>,
    /// On update, the errors of values left unchanged, which ratcheting
    /// turns into warnings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) ratcheted: Vec<FieldErrorReport>,
    /// Admission's notes.
    pub(super) warnings: Vec<String>,
    /// Why the server rejects the request before validating it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) rejected: Option<String>,
}

/// `lint`: the findings of a schema.
#[derive(Serialize)]
pub(super) struct LintReport<'a> {
    file: &'a str,
    rule_set: &'static str,
    errors: usize,
    recommendations: usize,
    findings: Vec<LintFinding<'a>>,
}

impl<'a> LintReport<'a> {
    /// The `findings` of `file` with the rule set `rule_set`: `errors`
    /// errors and `recommendations` recommendations.
    pub(super) fn new(
        file: &'a str,
        rule_set: &'static str,
        (errors, recommendations): (usize, usize),
        findings: &'a [Finding],
    ) -> Self {
        LintReport {
            file,
            rule_set,
            errors,
            recommendations,
            findings: findings.iter().map(LintFinding::new).collect(),
        }
    }
}

/// `lint`: one finding.
#[derive(Serialize)]
struct LintFinding<'a> {
    rule: &'static str,
    severity: &'static str,
    location: &'a str,
    message: &'a str,
}

impl<'a> LintFinding<'a> {
    fn new(finding: &'a Finding) -> Self {
        LintFinding {
            rule: finding.rule.id(),
            severity: finding.severity.name(),
            location: &finding.location,
            message: &finding.message,
        }
    }
}

/// `lint`: a schema that could not be linted.
#[derive(Serialize)]
pub(super) struct LintFailure<'a> {
    /// The schema file.
    pub(super) file: &'a str,
    /// The rule set's name.
    pub(super) rule_set: &'static str,
    /// Why it could not be linted.
    pub(super) error: String,
}
