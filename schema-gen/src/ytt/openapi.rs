//! The schema as `ytt --data-values-schema-inspect -o openapi-v3` exports
//! it, and as a Kubernetes structural schema.

use serde_json::{Map, Value, json};

use super::schema::{Docs, DocumentType, ScalarKind, Type, Validation, object};

/// ytt's key order within a schema object (`propOrder`), with the
/// validation keywords after `default`.
const RANK: &[&str] = &[
    "title",
    "type",
    "additionalProperties",
    "format",
    "nullable",
    "deprecated",
    "description",
    "x-example-description",
    "example",
    "items",
    "properties",
    "default",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "enum",
];

fn rank(k: &str) -> usize {
    RANK.iter().position(|r| *r == k).unwrap_or(RANK.len())
}

fn sorted(mut props: Vec<(&'static str, Value)>) -> Value {
    props.sort_by_key(|(k, _)| rank(k));
    let mut m = Map::new();
    for (k, v) in props {
        m.insert(k.to_string(), v);
    }
    Value::Object(m)
}

fn documentation(d: &Docs, out: &mut Vec<(&'static str, Value)>) {
    if !d.title.is_empty() {
        out.push(("title", Value::String(d.title.clone())));
    }
    if !d.description.is_empty() {
        out.push(("description", Value::String(d.description.clone())));
    }
    if d.deprecated.is_some() {
        out.push(("deprecated", Value::Bool(true)));
    }
    if let Some((desc, ex)) = d.examples.first() {
        out.push(("x-example-description", Value::String(desc.clone())));
        out.push(("example", ex.clone()));
    }
}

/// The validation keywords of the named rules (none when `when=` makes
/// the validation conditional).
fn validation_keys(t: &Type, v: Option<&Validation>, out: &mut Vec<(&'static str, Value)>) {
    let Some(v) = v else { return };
    if v.when.is_some() {
        return;
    }
    let mut base = t;
    while let Type::Null { inner, .. } = base {
        base = inner;
    }
    if let Some(m) = v.min.as_ref().filter(|m| m.is_number()) {
        out.push(("minimum", m.clone()));
    }
    if let Some(m) = v.max.as_ref().filter(|m| m.is_number()) {
        out.push(("maximum", m.clone()));
    }
    let (min_key, max_key) = match base {
        Type::Scalar {
            kind: ScalarKind::String,
            ..
        } => ("minLength", "maxLength"),
        Type::Array { .. } => ("minItems", "maxItems"),
        Type::Map { .. } => ("minProperties", "maxProperties"),
        _ => ("", ""),
    };
    if !min_key.is_empty() {
        if let Some(n) = v.min_len {
            out.push((min_key, json!(n)));
        }
        if let Some(n) = v.max_len {
            out.push((max_key, json!(n)));
        }
    }
    if let Some(values) = &v.one_of {
        out.push(("enum", Value::Array(values.clone())));
    }
}

fn props_of(t: &Type, v: Option<&Validation>) -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    match t {
        Type::Map { items, docs, .. } => {
            documentation(docs, &mut out);
            out.push(("type", Value::String("object".into())));
            out.push(("additionalProperties", Value::Bool(false)));
            let mut props = Map::new();
            for i in items {
                props.insert(
                    i.key.clone(),
                    openapi_schema(&i.value, i.validation.as_ref()),
                );
            }
            out.push(("properties", Value::Object(props)));
        }
        Type::Array {
            item,
            default,
            docs,
            ..
        } => {
            documentation(docs, &mut out);
            out.push(("type", Value::String("array".into())));
            out.push((
                "items",
                openapi_schema(&item.value, item.validation.as_ref()),
            ));
            out.push(("default", default.clone()));
        }
        Type::Scalar {
            kind,
            default,
            docs,
            ..
        } => {
            documentation(docs, &mut out);
            let ty = match kind {
                ScalarKind::String => "string",
                ScalarKind::Integer => "integer",
                ScalarKind::Float => "number",
                ScalarKind::Boolean => "boolean",
            };
            out.push(("type", Value::String(ty.into())));
            out.push(("default", default.clone()));
            if *kind == ScalarKind::Float {
                out.push(("format", Value::String("float".into())));
            }
        }
        Type::Null { inner, docs, .. } => {
            out = props_of(inner, None);
            documentation(docs, &mut out);
            out.push(("nullable", Value::Bool(true)));
        }
        Type::Any { default, docs, .. } => {
            documentation(docs, &mut out);
            out.push(("nullable", Value::Bool(true)));
            out.push(("default", default.clone()));
        }
    }
    validation_keys(t, v, &mut out);
    out
}

/// The OpenAPI schema ytt exports for a type.
pub(crate) fn openapi_schema(t: &Type, v: Option<&Validation>) -> Value {
    sorted(props_of(t, v))
}

/// The whole document of `ytt --data-values-schema-inspect -o openapi-v3`.
pub(crate) fn openapi_document(doc: &DocumentType) -> Value {
    object(vec![
        ("openapi", json!("3.0.0")),
        (
            "info",
            object(vec![
                ("version", json!("0.1.0")),
                ("title", json!("Schema for data values, generated by ytt")),
            ]),
        ),
        ("paths", json!({})),
        (
            "components",
            object(vec![(
                "schemas",
                object(vec![(
                    "dataValues",
                    openapi_schema(&doc.value, doc.validation.as_ref()),
                )]),
            )]),
        ),
    ])
}

/// The Kubernetes structural schema of a type whose value defaults to
/// `default`: maps without `additionalProperties`, "any" as
/// `x-kubernetes-preserve-unknown-fields`, `null` defaults left out.
pub(crate) fn structural_schema(t: &Type, v: Option<&Validation>, default: &Value) -> Value {
    let mut m = Map::new();
    let d = t.docs();
    if !d.title.is_empty() {
        m.insert("title".into(), json!(d.title));
    }
    if !d.description.is_empty() {
        m.insert("description".into(), json!(d.description));
    }
    let mut base = t;
    while let Type::Null { inner, .. } = base {
        m.insert("nullable".into(), json!(true));
        let inner_docs = inner.docs();
        if !inner_docs.description.is_empty() && !m.contains_key("description") {
            m.insert("description".into(), json!(inner_docs.description));
        }
        base = inner;
    }
    match base {
        Type::Map { items, .. } => {
            m.insert("type".into(), json!("object"));
            let mut props = Map::new();
            for i in items {
                props.insert(
                    i.key.clone(),
                    structural_schema(&i.value, i.validation.as_ref(), &i.default),
                );
            }
            m.insert("properties".into(), Value::Object(props));
        }
        Type::Array { item, .. } => {
            m.insert("type".into(), json!("array"));
            m.insert(
                "items".into(),
                structural_schema(&item.value, item.validation.as_ref(), &item.default),
            );
        }
        Type::Scalar { kind, .. } => {
            let ty = match kind {
                ScalarKind::String => "string",
                ScalarKind::Integer => "integer",
                ScalarKind::Float => "number",
                ScalarKind::Boolean => "boolean",
            };
            m.insert("type".into(), json!(ty));
        }
        Type::Any { .. } => {
            m.insert("nullable".into(), json!(true));
            m.insert("x-kubernetes-preserve-unknown-fields".into(), json!(true));
        }
        Type::Null { .. } => {}
    }
    if let Some((_, ex)) = t.docs().examples.first() {
        if !ex.is_null() {
            m.insert("example".into(), ex.clone());
        }
    }
    if !default.is_null() {
        m.insert("default".into(), default.clone());
    }
    if !matches!(base, Type::Any { .. }) {
        let mut keys = Vec::new();
        validation_keys(t, v, &mut keys);
        for (k, val) in keys {
            m.insert(k.to_string(), val);
        }
    }
    Value::Object(m)
}
