//! SARIF 2.1.0 logs, as GitHub code scanning and other static-analysis
//! viewers read them: the log around one run of `schema-gen` (its rules
//! and results) and the places of results. `validate` and `diff` each say
//! what their rules and results are.

use serde_json::{Value, json};

use schema_core::model::source::Location;

/// The log of one run of `schema-gen` whose rules (`reportingDescriptor`s)
/// are `rules` and whose findings are `results`, as printed.
pub(super) fn log(rules: Vec<Value>, results: Vec<Value>) -> String {
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

/// The `physicalLocation` of `at` in `file`: the file, and the line and
/// column unless the result is about the whole file (line 0).
pub(super) fn physical_location(file: &str, at: Location) -> Value {
    let mut location = json!({"artifactLocation": {"uri": uri(file)}});
    if at.line > 0 {
        location["region"] = json!({
            "startLine": at.line,
            "startColumn": at.column.max(1),
        });
    }
    location
}

/// The characters besides letters and digits a path segment holds as
/// they are (RFC 3986's unreserved characters and sub-delimiters, `@`), and
/// `/` between segments.
const PATH_PUNCTUATION: &[u8] = b"-._~/!$&'()*+,;=@";

/// `file` as a URI reference: a relative path stays relative (to the
/// directory the command ran in, as code scanning expects), an absolute
/// one becomes a `file:` URI; characters outside a path segment's set are
/// percent-encoded.
fn uri(file: &str) -> String {
    let path = file.replace('\\', "/");
    let absolute = path.starts_with('/');
    let kept = |b: u8| {
        b.is_ascii_alphanumeric() || PATH_PUNCTUATION.contains(&b) || (b == b':' && absolute)
    };
    let encoded = path.bytes().map(|b| match b {
        b if kept(b) => char::from(b).to_string(),
        b => format!("%{b:02X}"),
    });
    let scheme = if absolute { "file://" } else { "" };
    std::iter::once(scheme.to_string()).chain(encoded).collect()
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
