//! Equality of schema trees without recursion (the derived `PartialEq`
//! recurses, once per level of the schema and of every JSON value in it).

use indexmap::IndexMap;
use serde_json::Value;

use crate::go::json::deep_equal;
use crate::model::wire::{
    JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray, ValidationRule,
};

/// Whether two lists of schemas are equal, node by node (explicit `null`s
/// aside, which mean the same as an absent key).
pub(super) fn schemas_equal(a: &[JsonSchemaProps], b: &[JsonSchemaProps]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let empty = IndexMap::new();
    let mut stack: Vec<(&JsonSchemaProps, &JsonSchemaProps)> = a.iter().zip(b).collect();
    while let Some((x, y)) = stack.pop() {
        if !shallow_equal(x, y) {
            return false;
        }
        match (&x.items, &y.items) {
            (None, None) => {}
            (Some(SchemaOrArray::Schema(p)), Some(SchemaOrArray::Schema(q))) => stack.push((p, q)),
            (Some(SchemaOrArray::Array(p)), Some(SchemaOrArray::Array(q)))
                if p.len() == q.len() =>
            {
                stack.extend(p.iter().zip(q));
            }
            _ => return false,
        }
        for (p, q) in [
            (&x.all_of, &y.all_of),
            (&x.one_of, &y.one_of),
            (&x.any_of, &y.any_of),
        ] {
            let (p, q) = (p.as_deref().unwrap_or(&[]), q.as_deref().unwrap_or(&[]));
            if p.len() != q.len() {
                return false;
            }
            stack.extend(p.iter().zip(q));
        }
        match (&x.not, &y.not) {
            (None, None) => {}
            (Some(p), Some(q)) => stack.push((p, q)),
            _ => return false,
        }
        for (p, q) in [
            (&x.properties, &y.properties),
            (&x.pattern_properties, &y.pattern_properties),
            (&x.definitions, &y.definitions),
        ] {
            if !push_map(p.as_ref(), q.as_ref(), &mut stack) {
                return false;
            }
        }
        for (p, q) in [
            (&x.additional_properties, &y.additional_properties),
            (&x.additional_items, &y.additional_items),
        ] {
            match (p, q) {
                (None, None) => {}
                (Some(SchemaOrBool::Bool(p)), Some(SchemaOrBool::Bool(q))) if p == q => {}
                (Some(SchemaOrBool::Schema(p)), Some(SchemaOrBool::Schema(q))) => {
                    stack.push((p, q));
                }
                _ => return false,
            }
        }
        let (p, q) = (
            x.dependencies.as_ref().unwrap_or(&empty),
            y.dependencies.as_ref().unwrap_or(&empty),
        );
        if p.len() != q.len() {
            return false;
        }
        for (k, pv) in p {
            match (pv, q.get(k)) {
                (SchemaOrStringArray::Property(a), Some(SchemaOrStringArray::Property(b)))
                    if a == b => {}
                (SchemaOrStringArray::Schema(a), Some(SchemaOrStringArray::Schema(b))) => {
                    stack.push((a, b));
                }
                _ => return false,
            }
        }
    }
    true
}

fn push_map<'a>(
    p: Option<&'a IndexMap<String, JsonSchemaProps>>,
    q: Option<&'a IndexMap<String, JsonSchemaProps>>,
    stack: &mut Vec<(&'a JsonSchemaProps, &'a JsonSchemaProps)>,
) -> bool {
    let (p_len, q_len) = (p.map_or(0, IndexMap::len), q.map_or(0, IndexMap::len));
    if p_len != q_len {
        return false;
    }
    let (Some(p), Some(q)) = (p, q) else {
        return true;
    };
    for (k, a) in p {
        match q.get(k) {
            Some(b) => stack.push((a, b)),
            None => return false,
        }
    }
    true
}

fn value_eq(a: &Option<Value>, b: &Option<Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => deep_equal(a, b),
        _ => false,
    }
}

fn values_eq(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| deep_equal(a, b))
}

fn extra_eq(a: &IndexMap<String, Value>, b: &IndexMap<String, Value>) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|(k, v)| b.get(k).is_some_and(|w| deep_equal(v, w)))
}

fn rule_eq(a: &ValidationRule, b: &ValidationRule) -> bool {
    a.rule == b.rule
        && a.message == b.message
        && a.message_expression == b.message_expression
        && a.reason == b.reason
        && a.field_path == b.field_path
        && a.optional_old_self == b.optional_old_self
        && extra_eq(&a.extra, &b.extra)
}

/// Everything of a node but its subschemas.
fn shallow_equal(x: &JsonSchemaProps, y: &JsonSchemaProps) -> bool {
    x.id == y.id
        && x.schema == y.schema
        && x.reference == y.reference
        && x.description == y.description
        && x.type_ == y.type_
        && x.format == y.format
        && x.title == y.title
        && value_eq(&x.default, &y.default)
        && x.maximum == y.maximum
        && x.exclusive_maximum == y.exclusive_maximum
        && x.minimum == y.minimum
        && x.exclusive_minimum == y.exclusive_minimum
        && x.max_length == y.max_length
        && x.min_length == y.min_length
        && x.pattern == y.pattern
        && x.max_items == y.max_items
        && x.min_items == y.min_items
        && x.unique_items == y.unique_items
        && x.multiple_of == y.multiple_of
        && values_eq(
            x.enum_.as_deref().unwrap_or(&[]),
            y.enum_.as_deref().unwrap_or(&[]),
        )
        && x.enum_.is_some() == y.enum_.is_some()
        && x.max_properties == y.max_properties
        && x.min_properties == y.min_properties
        && x.required == y.required
        && x.external_docs.as_ref().map(|d| (&d.description, &d.url))
            == y.external_docs.as_ref().map(|d| (&d.description, &d.url))
        && value_eq(&x.example, &y.example)
        && x.nullable == y.nullable
        && x.x_preserve_unknown_fields == y.x_preserve_unknown_fields
        && x.x_embedded_resource == y.x_embedded_resource
        && x.x_int_or_string == y.x_int_or_string
        && x.x_list_map_keys == y.x_list_map_keys
        && x.x_list_type == y.x_list_type
        && x.x_map_type == y.x_map_type
        && x.x_validations.as_ref().map(Vec::len) == y.x_validations.as_ref().map(Vec::len)
        && x.x_validations
            .iter()
            .flatten()
            .zip(y.x_validations.iter().flatten())
            .all(|(a, b)| rule_eq(a, b))
        && extra_eq(&x.extra, &y.extra)
}
