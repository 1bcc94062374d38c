//! The markers that are not value constraints: Kubernetes' extensions
//! (`x-kubernetes-*`: list, map and struct types, preserved unknown fields,
//! embedded resources, int-or-string, immutability), `nullable`, titles and
//! defaults, applied to a node as controller-gen applies them.

use serde_json::{Map, Value};

use super::arguments::{go_json, parse_any, parse_string};
use super::node::{Node, rule};
use super::registry::Def;

/// Applies the marker `def` with the argument `value`. `Err` is
/// controller-gen's error (the node unchanged), or one starting with
/// `xtask: ` for a marker this translation does not apply.
pub(super) fn apply(node: &mut Node, def: Def, value: &str) -> Result<(), String> {
    if let Some(key) = flag_key(def) {
        node.set(key, Value::Bool(true));
        return Ok(());
    }
    match def {
        Def::Title => node.set("title", Value::String(parse_string(value)?)),
        Def::Default => {
            let mut v = parse_any(value)?;
            if node.ty == "array" && v == Value::Object(Map::new()) {
                v = Value::Array(Vec::new());
            }
            node.set("default", v);
        }
        Def::KubernetesDefault => {
            if value.trim_start().starts_with("ref(") {
                // controller-gen skips `ref(...)` defaults.
                return Ok(());
            }
            let v: Value =
                serde_json::from_str(value).map_err(|e| format!("+default is not JSON: {e}"))?;
            if !v.is_null() {
                node.set("default", go_json(&v));
            }
        }
        Def::Immutable => append(
            node,
            "x-kubernetes-validations",
            rule("self == oldSelf", "field is immutable"),
        ),
        Def::ListType => {
            let t = parse_string(value)?;
            require_array(node, "listType")?;
            if !["map", "set", "atomic"].contains(&t.as_str()) {
                return Err(r#"ListType must be either "map", "set" or "atomic""#.to_string());
            }
            node.set("x-kubernetes-list-type", Value::String(t));
        }
        Def::ListMapKey => {
            let k = parse_string(value)?;
            require_array(node, "listMapKey")?;
            if node.keys.get("x-kubernetes-list-type") != Some(&Value::String("map".to_string())) {
                return Err("must apply listMapKey to an associative-list".to_string());
            }
            append(node, "x-kubernetes-list-map-keys", Value::String(k));
        }
        Def::MapType | Def::StructType => {
            let t = parse_string(value)?;
            if def == Def::MapType && node.ty != "object" {
                return Err("must apply mapType to an object".to_string());
            }
            if def == Def::StructType && !node.ty.is_empty() && node.ty != "object" {
                return Err("must apply structType to an object".to_string());
            }
            if t != "atomic" && t != "granular" {
                return Err(r#"must be either "granular" or "atomic""#.to_string());
            }
            node.set("x-kubernetes-map-type", Value::String(t));
        }
        Def::K8sEnumOnField => {
            return Err("k8s:enum must be set on a type, not a field".to_string());
        }
        Def::XValidation | Def::Example | Def::ExternalDocs | Def::OneOf | Def::Schemaless => {
            return Err(format!("xtask: {def:?} markers are not translated yet"));
        }
        // Requiredness decides the parent's `required`; the value
        // constraints and `+k8s:enum` are applied elsewhere.
        _ => {}
    }
    Ok(())
}

/// The key a flag marker sets to `true`.
fn flag_key(def: Def) -> Option<&'static str> {
    Some(match def {
        Def::PreserveUnknownFields => "x-kubernetes-preserve-unknown-fields",
        Def::EmbeddedResource => "x-kubernetes-embedded-resource",
        Def::IntOrString => "x-kubernetes-int-or-string",
        Def::Nullable => "nullable",
        _ => return None,
    })
}

/// controller-gen's error for a list marker on a node that is not an array.
fn require_array(node: &Node, marker: &str) -> Result<(), String> {
    if node.ty == "array" {
        Ok(())
    } else {
        Err(format!(
            "must apply {marker} to an array, found {}",
            node.ty
        ))
    }
}

/// Appends `item` to the array at `key` (created if missing).
fn append(node: &mut Node, key: &str, item: Value) {
    let mut items = match node.keys.remove(key) {
        Some(Value::Array(a)) => a,
        _ => Vec::new(),
    };
    items.push(item);
    node.set(key, Value::Array(items));
}
