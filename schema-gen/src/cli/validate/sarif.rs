//! `validate --output sarif`: a SARIF 2.1.0 log, as GitHub code scanning
//! and other static-analysis viewers read it: one result per finding
//! (field errors, unknown fields, objects that cannot be validated, files
//! that cannot be read), each with its rule, level, message and place
//! (file, line, column; the field as a logical location). The rules are
//! the kinds of finding met.

use serde_json::{Value, json};

use super::record::{FileRecord, Finding, Severity};
use crate::cli::sarif;

/// What each rule (kind of finding) means.
const RULES: &[(&str, &str)] = &[
    ("FieldValueRequired", "A required field is missing."),
    ("FieldValueInvalid", "A value does not satisfy the schema."),
    (
        "FieldValueTypeInvalid",
        "A value does not have the type the schema gives.",
    ),
    (
        "FieldValueNotSupported",
        "A value is not one of the values the schema allows.",
    ),
    ("FieldValueDuplicate", "A list repeats an item or a key."),
    (
        "FieldValueTooLong",
        "A value is longer than the schema allows.",
    ),
    (
        "FieldValueTooMany",
        "A value has more items or properties than the schema allows.",
    ),
    (
        "FieldValueForbidden",
        "A field is set where it must not be.",
    ),
    (
        "FieldValueNotFound",
        "A value refers to something that does not exist.",
    ),
    (
        "InternalError",
        "The API server could not validate a value.",
    ),
    (
        "UnknownField",
        "A field the schema does not define (pruned by the API server; an error under --strict).",
    ),
    (
        "Rejected",
        "The API server rejects the request before validating it.",
    ),
    (
        "Ratcheted",
        "An error in a value an update leaves unchanged, which the API server lets pass.",
    ),
    (
        "Warning",
        "A warning the API server returns with the response.",
    ),
    (
        "NoSchema",
        "No CRD or built-in kind has the object's apiVersion and kind.",
    ),
    ("NotAnObject", "A document without apiVersion or kind."),
    (
        "SchemaUnavailable",
        "The schema of the object's kind cannot be used.",
    ),
    (
        "Unreadable",
        "A file that cannot be read or parsed as YAML or JSON.",
    ),
];

/// The log of `files`.
pub(super) fn render(files: &[FileRecord]) -> String {
    let mut rules: Vec<&'static str> = Vec::new();
    let mut results = Vec::new();
    for file in files {
        let findings = file
            .unreadable
            .iter()
            .chain(file.objects.iter().flat_map(|o| o.findings.iter()));
        for f in findings {
            let index = match rules.iter().position(|r| *r == f.rule) {
                Some(i) => i,
                None => {
                    rules.push(f.rule);
                    rules.len() - 1
                }
            };
            results.push(result(&file.name, f, index));
        }
    }
    let rules: Vec<Value> = rules.iter().map(|id| rule(id)).collect();
    sarif::log(rules, results)
}

/// The `reportingDescriptor` of rule `id`.
fn rule(id: &str) -> Value {
    let text = RULES
        .iter()
        .find(|(r, _)| *r == id)
        .map_or("A problem the API server reports.", |(_, t)| *t);
    json!({"id": id, "shortDescription": {"text": text}})
}

/// The `result` of one finding of the file `file`.
fn result(file: &str, f: &Finding, rule_index: usize) -> Value {
    let mut location = json!({"physicalLocation": sarif::physical_location(file, f.location)});
    // The field, a place in the object rather than in the text.
    if let Some(field) = &f.field {
        location["logicalLocations"] = json!([{"fullyQualifiedName": field, "kind": "member"}]);
    }
    json!({
        "ruleId": f.rule,
        "ruleIndex": rule_index,
        "level": match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        "message": {"text": f.message},
        "locations": [location],
    })
}
