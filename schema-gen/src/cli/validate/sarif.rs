//! `validate --output sarif`: a SARIF 2.1.0 log, as GitHub code scanning
//! and other static-analysis viewers read it: one result per finding
//! (field errors, unknown fields, objects that cannot be validated, files
//! that cannot be read), each with its rule, level, message and place
//! (file, line, column; the field as a logical location). The rules are
//! the kinds of finding met.

use serde_json::{Value, json};

use super::record::{FileRecord, Finding, Severity};

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
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "schema-gen",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&log).unwrap_or_default()
    )
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
    let mut location = json!({"physicalLocation": {"artifactLocation": {"uri": uri(file)}}});
    // A finding about the whole file (line 0) has no region.
    if f.location.line > 0 {
        location["physicalLocation"]["region"] = json!({
            "startLine": f.location.line,
            "startColumn": f.location.column.max(1),
        });
    }
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

/// `file` as a URI reference: a relative path stays relative (to the
/// directory the command ran in, as code scanning expects), an absolute
/// one becomes a `file:` URI; characters outside a path segment's set are
/// percent-encoded.
pub(in crate::cli) fn uri(file: &str) -> String {
    let path = file.replace('\\', "/");
    let mut out = String::new();
    let absolute = path.starts_with('/');
    if absolute {
        out.push_str("file://");
    }
    for b in path.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
            | b'@' => out.push(b as char),
            b':' if absolute => out.push(':'),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("deploy/web app.yaml"), "deploy/web%20app.yaml");
        assert_eq!(uri("/repo/a:b.yaml"), "file:///repo/a:b.yaml");
        assert_eq!(uri("<stdin>"), "%3Cstdin%3E");
        assert_eq!(uri("dir\\x.yaml"), "dir/x.yaml");
        // A relative path whose first segment holds a colon would read as
        // a scheme.
        assert_eq!(uri("c:x.yaml"), "c%3Ax.yaml");
    }
}
