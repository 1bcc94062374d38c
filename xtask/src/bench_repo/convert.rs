//! A CRD version's schema as JSON Schema for kubeconform, converted the way
//! kubeconform's documentation converts CRDs, and written where its
//! `-schema-location` template [`SCHEMA_TEMPLATE`] looks it up.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::{Value, json};

/// Where kubeconform finds the converted schemas (relative to the bench
/// directory, where both tools run). kubeconform lowercases the kind.
pub(crate) const SCHEMA_TEMPLATE: &str =
    "schemas/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json";

/// Writes the JSON Schema of one group, kind and version's
/// `openAPIV3Schema` (see [`to_json_schema`]) under `dir`, where
/// [`SCHEMA_TEMPLATE`] (with `schemas/` for `dir`) looks it up. The core
/// group (`""`) is `v1` there: kubeconform's `{{ .Group }}` is the part
/// of `apiVersion` before its `/`, or all of it.
pub(crate) fn write_schema(
    dir: &Path,
    group: &str,
    kind: &str,
    version: &str,
    schema: &Value,
) -> Result<()> {
    let dir = dir.join(if group.is_empty() { version } else { group });
    fs::create_dir_all(&dir)?;
    let name = format!("{kind}_{version}.json").to_lowercase();
    let text = serde_json::to_string_pretty(&to_json_schema(schema))? + "\n";
    fs::write(dir.join(&name), text).with_context(|| format!("writing {name}"))
}

/// A CRD version's `openAPIV3Schema` as kubeconform's documentation
/// converts it to JSON Schema:
///
/// - every JSON object below the root that has a `properties` key and no
///   `additionalProperties` key gets `additionalProperties: false` (what
///   makes unknown fields errors). The walk descends through object values
///   only, not through arrays, so the branches of `allOf`, `anyOf`, `oneOf`
///   are left as they are; the root keeps accepting other properties.
/// - then every object-valued member with `format: int-or-string` becomes
///   `oneOf: [{type: string}, {type: integer}]`; here the walk goes into
///   array elements too (their members, not the elements themselves).
///
/// Nothing else changes: the `x-kubernetes-*` extensions, `nullable` and
/// the other OpenAPI keywords stay, for the JSON Schema validator to ignore.
pub(crate) fn to_json_schema(schema: &Value) -> Value {
    let mut out = schema.clone();
    if let Value::Object(root) = &mut out {
        for child in root.values_mut() {
            deny_additional_properties(child);
        }
    }
    replace_int_or_string(&mut out);
    out
}

/// Whether some `properties` map of the schema has a member named
/// `properties`.
pub(crate) fn property_named_properties(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            m.get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key("properties"))
                || m.values().any(property_named_properties)
        }
        Value::Array(a) => a.iter().any(property_named_properties),
        _ => false,
    }
}

fn deny_additional_properties(v: &mut Value) {
    if let Value::Object(m) = v {
        if m.contains_key("properties") && !m.contains_key("additionalProperties") {
            m.insert("additionalProperties".into(), Value::Bool(false));
        }
        for child in m.values_mut() {
            deny_additional_properties(child);
        }
    }
}

fn replace_int_or_string(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for child in m.values_mut() {
                if child["format"] == "int-or-string" {
                    *child = json!({"oneOf": [{"type": "string"}, {"type": "integer"}]});
                } else {
                    replace_int_or_string(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(replace_int_or_string),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversion_denies_additional_properties_below_the_root_only() {
        let schema = json!({
            "type": "object",
            "properties": {
                "spec": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "anyOf": [{"properties": {"a": {"type": "string"}}}]
                },
                "data": {"type": "object", "additionalProperties": {"type": "string"}}
            }
        });
        let out = to_json_schema(&schema);
        assert!(out.get("additionalProperties").is_none());
        assert_eq!(out["properties"]["spec"]["additionalProperties"], false);
        assert!(
            out["properties"]["spec"]["anyOf"][0]
                .get("additionalProperties")
                .is_none()
        );
        assert_eq!(
            out["properties"]["data"]["additionalProperties"],
            json!({"type": "string"})
        );
    }

    #[test]
    fn conversion_replaces_int_or_string_formats() {
        let schema = json!({"properties": {"port": {"format": "int-or-string"}}});
        let out = to_json_schema(&schema);
        assert_eq!(
            out["properties"]["port"],
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}]})
        );
    }
}
