//! `explain -o json`: the explanation kubectl's template would print, as
//! data: the same field, description and field list (the same traversal,
//! [`Explained`]), with each field's facts.

use serde_json::{Map, Value, json};

use super::template::{Entry, Explained};
use crate::docs::facts::{Fact, FactStyle, facts};

/// The facts of a node as JSON: `{label, value}` (flags have `true`), a
/// rule's details nested under it as `details`.
fn facts_json(node: &Value) -> Value {
    let mut out: Vec<Value> = Vec::new();
    for Fact {
        label,
        value,
        style,
        detail,
    } in facts(node)
    {
        let value = if style == FactStyle::Flag {
            Value::Bool(true)
        } else {
            Value::String(value)
        };
        if detail {
            if let Some(Value::Object(last)) = out.last_mut() {
                let details = last.entry("details").or_insert_with(|| json!({}));
                if let Value::Object(d) = details {
                    d.insert(label.to_string(), value);
                }
                continue;
            }
        }
        out.push(json!({ "label": label, "value": value }));
    }
    Value::Array(out)
}

fn entry_json(e: &Entry<'_>) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), Value::String(e.name.clone()));
    m.insert("type".into(), Value::String(e.type_name.clone()));
    m.insert("required".into(), Value::Bool(e.required));
    let description = e
        .schema
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    m.insert("description".into(), Value::String(description.to_string()));
    m.insert("facts".into(), facts_json(e.schema));
    if !e.fields.is_empty() {
        m.insert(
            "fields".into(),
            Value::Array(e.fields.iter().map(entry_json).collect()),
        );
    }
    Value::Object(m)
}

/// An explanation as JSON: `group`, `version`, `kind`, the `field` the
/// path ends at (its `name`, `path` and `type`), the `description` (each
/// description met, joined by newlines), the node's `facts`, and its
/// `fields` (each with `name`, `type`, `required`, `description`, `facts`
/// and, when recursive, `fields`).
pub(super) fn to_json(gvk: &Value, path: &[String], e: &Explained<'_>) -> Value {
    let mut m = Map::new();
    for k in ["group", "version", "kind"] {
        m.insert(
            k.into(),
            gvk.get(k).cloned().unwrap_or(Value::String(String::new())),
        );
    }
    if let Some(h) = &e.field {
        m.insert(
            "field".into(),
            json!({ "name": h.name, "path": path.join("."), "type": h.type_name }),
        );
    }
    m.insert(
        "description".into(),
        Value::String(e.description.trim_end_matches('\n').to_string()),
    );
    m.insert("facts".into(), facts_json(e.node));
    m.insert(
        "fields".into(),
        Value::Array(e.fields.iter().map(entry_json).collect()),
    );
    Value::Object(m)
}
