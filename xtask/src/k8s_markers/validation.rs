//! The `kubebuilder:validation:` markers that constrain values (bounds,
//! lengths, counts, patterns, enums, formats and types), applied to a node
//! as controller-gen applies them.

use serde_json::Value;

use super::arguments::{
    go_float, parse_any_slice, parse_bool, parse_int, parse_number, parse_string,
};
use super::node::Node;
use super::registry::Def;

/// Applies a value-constraining marker with the argument `value`: `Err` is
/// controller-gen's error (the node unchanged); `None` for another marker.
pub(super) fn apply(node: &mut Node, def: Def, value: &str) -> Option<Result<(), String>> {
    let key = key(def)?;
    Some(apply_keyword(node, def, key, value))
}

/// The schema keyword a value-constraining marker sets.
fn key(def: Def) -> Option<&'static str> {
    Some(match def {
        Def::Maximum => "maximum",
        Def::Minimum => "minimum",
        Def::MultipleOf => "multipleOf",
        Def::ExclusiveMaximum => "exclusiveMaximum",
        Def::ExclusiveMinimum => "exclusiveMinimum",
        Def::MaxLength => "maxLength",
        Def::MinLength => "minLength",
        Def::Pattern => "pattern",
        Def::MaxItems => "maxItems",
        Def::MinItems => "minItems",
        Def::UniqueItems => "uniqueItems",
        Def::MaxProperties => "maxProperties",
        Def::MinProperties => "minProperties",
        Def::Enum => "enum",
        Def::Format => "format",
        Def::Type => "type",
        _ => return None,
    })
}

/// The argument parsed first (its error wins), then the node checked: a
/// keyword set, or removed for a boolean `false` (Go's zero value, which
/// controller-gen does not write).
fn apply_keyword(node: &mut Node, def: Def, key: &str, value: &str) -> Result<(), String> {
    let v = argument(def, value)?;
    let (fits, error) = requirement(node, def, key);
    if !fits {
        return Err(error);
    }
    let bound = matches!(def, Def::Maximum | Def::Minimum | Def::MultipleOf);
    if let Some(n) = v
        .as_f64()
        .filter(|n| bound && node.ty == "integer" && n.fract() != 0.0)
    {
        return Err(format!(
            "cannot apply non-integral value ({n}) to integer value"
        ));
    }
    if let (Def::Type, Value::String(t)) = (def, &v) {
        node.ty.clone_from(t);
    }
    if v == Value::Bool(false) {
        node.keys.remove(key);
    } else {
        node.set(key, v);
    }
    Ok(())
}

/// A marker's argument as its keyword's value.
fn argument(def: Def, value: &str) -> Result<Value, String> {
    Ok(match def {
        Def::Maximum | Def::Minimum | Def::MultipleOf => go_float(parse_number(value)?),
        Def::ExclusiveMaximum | Def::ExclusiveMinimum | Def::UniqueItems => {
            Value::Bool(parse_bool(value)?)
        }
        Def::Enum => Value::Array(parse_any_slice(value)?),
        Def::Pattern | Def::Format | Def::Type => Value::String(parse_string(value)?),
        // The lengths and counts.
        _ => Value::from(parse_int(value)?),
    })
}

/// Whether the node is of a type the marker applies to, and
/// controller-gen's error when it is not.
fn requirement(node: &Node, def: Def, key: &str) -> (bool, String) {
    let name = key.to_lowercase();
    match def {
        Def::Maximum | Def::Minimum | Def::MultipleOf => (
            node.numeric(),
            format!("must apply {name} to a numeric value, found {}", node.ty),
        ),
        Def::ExclusiveMaximum | Def::ExclusiveMinimum => (
            node.numeric(),
            format!(
                "must apply exclusive bounds to a numeric value, found {}",
                node.ty
            ),
        ),
        Def::MaxLength | Def::MinLength | Def::Pattern => (
            node.textual(),
            format!(
                "must apply {name} to a textual value, found type {:?}",
                node.ty
            ),
        ),
        Def::MaxItems | Def::MinItems => (
            node.ty == "array",
            "must apply maxitem/minitems to an array".to_string(),
        ),
        Def::UniqueItems => (
            node.ty == "array",
            "must apply uniqueitems to an array".to_string(),
        ),
        Def::MaxProperties | Def::MinProperties => (
            node.ty == "object",
            "must apply minproperties/maxproperties to an object".to_string(),
        ),
        _ => (true, String::new()),
    }
}
