//! Validating the objects of one file: each document (or `List` item)
//! routed to its admission and admitted, every finding located in the
//! file. Files are independent, so several are validated at once.

use serde_json::Value;

use schema_core::crd::catalog::{RouteError, Wait};
use schema_core::model::field::Path as FieldPath;
use schema_core::model::locate::locate_field;
use schema_core::model::source::{self, Document, Limits, Location, PathSegment};
use schema_core::object::admission::Admitted;
use schema_core::object::resource_version::update_as_applied;

use super::record::{FileRecord, Finding, ObjectJson, ObjectRecord, Severity, Verdict};
use super::{Admissions, Options};
use crate::cli::reports::{FieldErrorReport, Unprocessed, ValidatedObject};

/// Validates objects with the admissions and options of one run.
pub(super) struct Admitter<'a> {
    /// Where objects get their admission.
    pub(super) admissions: &'a Admissions,
    /// How objects are validated.
    pub(super) options: Options<'a>,
    /// Whether records keep what `--output json` reports.
    pub(super) keep_json: bool,
}

impl Admitter<'_> {
    /// The record of the file `name` with the contents `bytes`; `None`
    /// when, with [`Wait::No`], an admission it needs is being prepared by
    /// another thread (the file is to be done again later).
    pub(super) fn file(&self, name: String, bytes: &[u8], wait: Wait) -> Option<FileRecord> {
        Some(match parse(&name, bytes) {
            Ok(mut docs) => {
                let objects = self.documents(&name, &mut docs, None, wait)?;
                FileRecord {
                    name,
                    unreadable: None,
                    objects,
                }
            }
            Err(finding) => unreadable(name, finding),
        })
    }

    /// The records of the objects of `docs`, of the file `name`; each
    /// admitted as an update of the next of `olds` when given.
    pub(super) fn documents(
        &self,
        name: &str,
        docs: &mut [Document],
        mut olds: Option<&mut dyn Iterator<Item = Value>>,
        wait: Wait,
    ) -> Option<Vec<ObjectRecord>> {
        let mut out = Vec::new();
        for doc in docs {
            for unit in objects_of(doc) {
                let old = olds.as_mut().and_then(|o| o.next());
                out.push(self.object(name, doc, unit, old, wait)?);
            }
        }
        Some(out)
    }

    /// The record of one object of `doc` (`None`: see [`Admitter::file`]).
    fn object(
        &self,
        name: &str,
        doc: &Document,
        unit: ObjectUnit,
        old: Option<Value>,
        wait: Wait,
    ) -> Option<ObjectRecord> {
        let label = object_label(&unit.value);
        let type_name = type_name(&unit.value);
        let not_admitted = |verdict: Verdict, rule: &'static str, message: String| {
            let skipped = matches!(verdict, Verdict::Skipped(_));
            let json = self.keep_json.then(|| {
                ObjectJson::Unprocessed(Unprocessed {
                    file: name.to_string(),
                    line: unit.start.line,
                    column: unit.start.column,
                    message: message.clone(),
                    skipped,
                })
            });
            let findings = if skipped {
                Vec::new()
            } else {
                vec![Finding {
                    severity: Severity::Error,
                    rule,
                    field: None,
                    location: unit.start,
                    message,
                }]
            };
            ObjectRecord {
                start: unit.start,
                label: label.clone(),
                type_name: type_name.clone(),
                verdict,
                findings,
                json,
            }
        };
        if self.options.skips(&unit.value) {
            return Some(not_admitted(
                Verdict::Skipped("skipped (--skip)".to_string()),
                "Skipped",
                format!("{label}: skipped (--skip)"),
            ));
        }
        let admission = match self.admissions {
            Admissions::Bare(a) => a.as_ref(),
            Admissions::Catalog(catalog) => {
                match catalog.admission(&unit.value, self.options.version, wait) {
                    Ok(a) => a,
                    Err(RouteError::Busy) => return None,
                    Err(RouteError::Admission(e)) => {
                        return Some(not_admitted(Verdict::Unprocessable, "SchemaUnavailable", e));
                    }
                    Err(RouteError::Select { message, missing }) => {
                        let typed = has_type_meta(&unit.value);
                        let message = select_message(&unit.value, message);
                        if missing && typed && self.options.ignore_missing {
                            return Some(not_admitted(
                                Verdict::Skipped(format!("skipped: {message}")),
                                "Skipped",
                                message,
                            ));
                        }
                        let rule = if typed { "NoSchema" } else { "NotAnObject" };
                        return Some(not_admitted(Verdict::Unprocessable, rule, message));
                    }
                }
            }
        };
        let undecodable = match self.admissions {
            Admissions::Catalog(catalog) => catalog.decode_error(&unit.value, self.options.version),
            Admissions::Bare(_) => None,
        };
        let rejected_at = undecodable
            .as_ref()
            .map(|e| locate_field(doc, &unit.base, &e.field));
        let admitted = match (undecodable, old) {
            // The request does not decode: nothing else is checked.
            (Some(e), _) => Admitted {
                object: unit.value,
                pruned: Vec::new(),
                errors: Vec::new(),
                ratcheted: Vec::new(),
                warnings: Vec::new(),
                rejected: Some(e.message),
            },
            (None, Some(o)) => update_as_applied(admission, unit.value, o),
            (None, None) => admission.create(unit.value),
        };
        let at = Placed {
            doc,
            base: &unit.base,
            start: unit.start,
            rejected_at: rejected_at.unwrap_or(unit.start),
        };
        Some(self.admitted(name, &at, label, type_name, admitted))
    }

    /// The record of an admitted object.
    fn admitted(
        &self,
        name: &str,
        at: &Placed<'_>,
        label: String,
        type_name: String,
        admitted: Admitted,
    ) -> ObjectRecord {
        let (doc, base, start) = (at.doc, at.base, at.start);
        let strict = self.options.strict;
        let mut findings = Vec::new();
        let mut errors = Vec::new();
        for p in &admitted.pruned {
            let location = locate_field(doc, base, &FieldPath::parse(p));
            // The server's strict field validation rejects what its
            // default (warn) mode reports and prunes.
            findings.push(Finding {
                severity: if strict {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                rule: "UnknownField",
                field: Some(p.clone()),
                location,
                message: format!("unknown field \"{p}\""),
            });
            if strict {
                errors.push(FieldErrorReport::unknown_field(p, location));
            }
        }
        for w in &admitted.warnings {
            findings.push(Finding {
                severity: Severity::Warning,
                rule: "Warning",
                field: None,
                location: start,
                message: w.clone(),
            });
        }
        let mut ratcheted = Vec::new();
        for e in &admitted.ratcheted {
            let location = locate_field(doc, base, &e.field);
            findings.push(Finding {
                severity: Severity::Warning,
                rule: "Ratcheted",
                field: Some(e.field.to_string()),
                location,
                message: format!("{e} (unchanged by the update: ratcheted)"),
            });
            ratcheted.push(FieldErrorReport::new(e, location, None));
        }
        for e in &admitted.errors {
            let location = locate_field(doc, base, &e.field);
            findings.push(Finding {
                severity: Severity::Error,
                rule: e.error_type.name(),
                field: Some(e.field.to_string()),
                location,
                message: e.to_string(),
            });
            errors.push(FieldErrorReport::new(e, location, None));
        }
        if let Some(r) = &admitted.rejected {
            findings.push(Finding {
                severity: Severity::Error,
                rule: "Rejected",
                field: None,
                location: at.rejected_at,
                message: r.clone(),
            });
        }
        let verdict = match (errors.is_empty(), &admitted.rejected) {
            (_, Some(_)) => Verdict::Rejected,
            (true, None) => Verdict::Valid,
            (false, None) => Verdict::Invalid,
        };
        let json = self.keep_json.then(|| {
            ObjectJson::Validated(Box::new(ValidatedObject {
                file: name.to_string(),
                line: start.line,
                object: admitted.object,
                pruned: admitted.pruned,
                errors,
                ratcheted,
                warnings: admitted.warnings,
                rejected: admitted.rejected,
            }))
        });
        ObjectRecord {
            start,
            label,
            type_name,
            verdict,
            findings,
            json,
        }
    }
}

/// Where an admitted object is in its file.
struct Placed<'d> {
    /// Its document.
    doc: &'d Document,
    /// Where it is in the document.
    base: &'d [PathSegment],
    /// Where it starts.
    start: Location,
    /// Where the reason for a rejection is: the value that does not
    /// decode, else the start.
    rejected_at: Location,
}

/// The documents of the file `name`, or the finding saying why it cannot
/// be parsed.
pub(super) fn parse(name: &str, bytes: &[u8]) -> Result<Vec<Document>, Finding> {
    match source::parse_documents(name, bytes, &Limits::default()) {
        Ok(docs) if docs.is_empty() => Err(Finding {
            severity: Severity::Error,
            rule: "Unreadable",
            field: None,
            location: WHOLE_FILE,
            message: "no YAML or JSON document found".to_string(),
        }),
        Ok(docs) => Ok(docs),
        Err(e) => Err(Finding {
            severity: Severity::Error,
            rule: "Unreadable",
            field: None,
            location: Location {
                line: e.line,
                column: e.column,
            },
            message: e.message,
        }),
    }
}

/// The location of a finding about a whole file (line 0).
pub(super) const WHOLE_FILE: Location = Location { line: 0, column: 0 };

/// The record of the file `name`, which `finding` says cannot be read.
pub(super) fn unreadable(name: String, finding: Finding) -> FileRecord {
    FileRecord {
        name,
        unreadable: Some(finding),
        objects: Vec::new(),
    }
}

/// Whether the object names its `apiVersion` and `kind`.
fn has_type_meta(object: &Value) -> bool {
    ["apiVersion", "kind"].iter().all(|k| {
        object
            .get(k)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
    })
}

/// Why an object has no schema, for a person: a document without
/// `apiVersion` and `kind` is not a Kubernetes object at all.
fn select_message(object: &Value, message: String) -> String {
    if has_type_meta(object) {
        return message;
    }
    let missing: Vec<&str> = ["apiVersion", "kind"]
        .into_iter()
        .filter(|k| {
            object
                .get(*k)
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
        })
        .collect();
    format!(
        "not a Kubernetes object: it has no {}",
        missing.join(" and no ")
    )
}

/// One object of a document: the document itself, or an item of a `List`
/// (`kind: List`, or any `…List` kind with `items`).
struct ObjectUnit {
    /// The object.
    value: Value,
    /// Where it is in the document (empty for the document itself).
    base: Vec<PathSegment>,
    /// Where it starts.
    start: Location,
}

/// The objects of `doc`, its value moved out: a `List`'s items, nothing
/// for an empty document (a stray `---`), else the document.
fn objects_of(doc: &mut Document) -> Vec<ObjectUnit> {
    let value = std::mem::take(&mut doc.value);
    match value {
        Value::Null => Vec::new(),
        Value::Object(mut map) if is_list(&map) => {
            let Some(Value::Array(items)) = map.remove("items") else {
                return Vec::new();
            };
            items
                .into_iter()
                .enumerate()
                .map(|(i, value)| {
                    let base = vec![PathSegment::Key("items".into()), PathSegment::Index(i)];
                    let start = doc.locate(&base).unwrap_or(doc.start);
                    ObjectUnit { value, base, start }
                })
                .collect()
        }
        value => vec![ObjectUnit {
            value,
            base: Vec::new(),
            start: doc.start,
        }],
    }
}

/// The objects of `docs` (values moved out), for `--old`.
pub(super) fn values_of(docs: &mut [Document]) -> Vec<Value> {
    docs.iter_mut()
        .flat_map(objects_of)
        .map(|u| u.value)
        .collect()
}

/// How many objects `docs` hold.
pub(super) fn count_objects(docs: &[Document]) -> usize {
    docs.iter()
        .map(|d| match &d.value {
            Value::Null => 0,
            Value::Object(m) if is_list(m) => m["items"].as_array().map_or(0, Vec::len),
            _ => 1,
        })
        .sum()
}

/// Whether an object is a list of objects to validate one by one.
fn is_list(map: &serde_json::Map<String, Value>) -> bool {
    map.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"))
        && matches!(map.get("items"), Some(Value::Array(_)))
}

/// `Kind "name"` of an object, as the API server names it in messages.
fn object_label(obj: &Value) -> String {
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("object");
    match obj.pointer("/metadata/name").and_then(Value::as_str) {
        Some(name) => format!("{kind} {name:?}"),
        None => kind.to_string(),
    }
}

/// `apiVersion/kind` of an object, or what it has of them.
fn type_name(obj: &Value) -> String {
    let field = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or("");
    match (field("apiVersion"), field("kind")) {
        ("", kind) => kind.to_string(),
        (api_version, "") => api_version.to_string(),
        (api_version, kind) => format!("{api_version}/{kind}"),
    }
}
