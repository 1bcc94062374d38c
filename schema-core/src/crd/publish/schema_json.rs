//! Walks over schemas already written as JSON: kube-openapi's key order
//! (`canonicalize`), `WrapRefs` and its inverse, `PruneDefaults`, and the
//! rewriting and collecting of `$ref`s.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

/// The order in which kube-openapi marshals the fields of a `spec.Schema`:
/// `SchemaProps`, then `SwaggerSchemaProps`, then `$schema` and `$ref`.
/// Everything else (the extensions) follows, sorted.
///
/// This is kube-openapi's struct, not apiextensions' `JSONSchemaProps`
/// (whose order is [`JsonSchemaProps::KEYS`], the wire model's): `nullable`
/// follows `type`, `$schema` and `$ref` come last, and the Swagger-only
/// `discriminator`, `readOnly` and `xml` sit before `externalDocs`.
///
/// [`JsonSchemaProps::KEYS`]: crate::model::wire::JsonSchemaProps::KEYS
pub(super) const SCHEMA_KEY_ORDER: &[&str] = &[
    "id",
    "description",
    "type",
    "nullable",
    "format",
    "title",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "enum",
    "maxProperties",
    "minProperties",
    "required",
    "items",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "properties",
    "additionalProperties",
    "patternProperties",
    "dependencies",
    "additionalItems",
    "definitions",
    "discriminator",
    "readOnly",
    "xml",
    "externalDocs",
    "example",
    "$schema",
    "$ref",
];

/// Calls `f` on every schema object below `m` (not on `m` itself): items,
/// junctors, `not`, properties, additionalProperties, patternProperties,
/// dependencies, additionalItems, definitions.
pub(super) fn for_each_child_schema(
    m: &mut Map<String, Value>,
    f: &mut dyn FnMut(&mut Map<String, Value>),
) {
    for (key, child) in m.iter_mut() {
        match (key.as_str(), child) {
            ("items" | "not" | "additionalProperties" | "additionalItems", Value::Object(c)) => {
                f(c)
            }
            ("items" | "allOf" | "anyOf" | "oneOf", Value::Array(list)) => {
                for c in list.iter_mut() {
                    if let Value::Object(c) = c {
                        f(c);
                    }
                }
            }
            (
                "properties" | "patternProperties" | "definitions" | "dependencies",
                Value::Object(map),
            ) => {
                for c in map.values_mut() {
                    if let Value::Object(c) = c {
                        f(c);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Reorders the keys of every schema object as kube-openapi marshals a
/// `spec.Schema`, and sorts `properties` (and the other schema maps) by
/// name, as Go marshals maps.
pub(super) fn canonicalize(v: &mut Value) {
    if let Value::Object(m) = v {
        canonicalize_map(m);
    }
}

/// [`canonicalize`] on a schema object.
pub(super) fn canonicalize_map(m: &mut Map<String, Value>) {
    for_each_child_schema(m, &mut canonicalize_map);
    for key in [
        "properties",
        "patternProperties",
        "definitions",
        "dependencies",
    ] {
        if let Some(Value::Object(map)) = m.get_mut(key) {
            if !m_is_sorted(map) {
                sort_map(map);
            }
        }
    }
    let in_order = m
        .keys()
        .zip(m.keys().skip(1))
        .all(|(a, b)| key_order(a, b) != std::cmp::Ordering::Greater);
    if !in_order {
        let mut entries: Vec<(String, Value)> = std::mem::take(m).into_iter().collect();
        entries.sort_by(|a, b| key_order(&a.0, &b.0));
        m.extend(entries);
    }
}

/// kube-openapi's marshalling order of schema keys: the fields of
/// `spec.Schema` in [`SCHEMA_KEY_ORDER`], then the rest (extensions) by name.
fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    let rank = |k: &str| {
        SCHEMA_KEY_ORDER
            .iter()
            .position(|o| *o == k)
            .unwrap_or(SCHEMA_KEY_ORDER.len())
    };
    rank(a).cmp(&rank(b)).then_with(|| a.cmp(b))
}

fn m_is_sorted(map: &Map<String, Value>) -> bool {
    map.keys().zip(map.keys().skip(1)).all(|(a, b)| a <= b)
}

fn sort_map(map: &mut Map<String, Value>) {
    let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    map.extend(entries);
}

/// `WrapRefs`: a schema with a non-empty `$ref` and any other field becomes
/// `allOf: [{$ref}]` plus the other fields (a previous `allOf` is
/// replaced), everywhere below.
pub(super) fn wrap_refs(m: &mut Map<String, Value>) {
    let has_ref = matches!(m.get("$ref"), Some(Value::String(r)) if !r.is_empty());
    if has_ref && m.len() > 1 {
        if let Some(r) = m.remove("$ref") {
            let mut only_ref = Map::new();
            only_ref.insert("$ref".into(), r);
            m.insert("allOf".into(), Value::Array(vec![Value::Object(only_ref)]));
        }
    }
    for_each_child_schema(m, &mut wrap_refs);
}

/// The inverse of [`wrap_refs`] on the generated apimachinery
/// definitions (whose every `allOf` is a wrapped ref): the v2 form.
pub(super) fn unwrap_refs(m: &mut Map<String, Value>) {
    let wrapped = match m.get("allOf") {
        Some(Value::Array(list)) => match list.as_slice() {
            [Value::Object(only)] if only.len() == 1 => only.get("$ref").cloned(),
            _ => None,
        },
        _ => None,
    };
    if let Some(r) = wrapped {
        m.remove("allOf");
        m.insert("$ref".into(), r);
    }
    for_each_child_schema(m, &mut unwrap_refs);
}

/// `PruneDefaults`: removes `default` from every schema.
pub(super) fn prune_defaults(m: &mut Map<String, Value>) {
    m.remove("default");
    for_each_child_schema(m, &mut prune_defaults);
}

/// Rewrites `$ref`s from one definition prefix to another.
pub(super) fn rewrite_ref_prefix(m: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(Value::String(r)) = m.get_mut("$ref")
        && let Some(rest) = r.strip_prefix(from)
    {
        *r = format!("{to}{rest}");
    }
    for_each_child_schema(m, &mut |c| rewrite_ref_prefix(c, from, to));
}

/// The `$ref`s below (and at) `m`.
pub(super) fn collect_refs(m: &mut Map<String, Value>, out: &mut BTreeSet<String>) {
    if let Some(Value::String(r)) = m.get("$ref") {
        out.insert(r.clone());
    }
    for_each_child_schema(m, &mut |c| collect_refs(c, out));
}
