//! Defaulting (apiextensions `pkg/apiserver/schema/defaulting/algorithm.go`
//! and `prunenulls.go`): schema defaults fill gaps in an object, and nulls
//! that the schema does not allow (and cannot default) are removed.

use serde_json::Value;

use crate::structural::Structural;

fn additional(s: &Structural) -> Option<Option<&Structural>> {
    s.generic
        .additional_properties
        .as_ref()
        .map(|a| a.structural.as_deref())
}

/// `Default(x, s)`: sets every missing property that has a default (and
/// every null one that is not nullable) to a copy of the default, then
/// recurses, so nested defaults apply inside inserted defaults too.
/// Null array items and null additionalProperties values are replaced by
/// the items' or values' default when they are not nullable.
pub fn default(x: &mut Value, s: Option<&Structural>) {
    let Some(s) = s else { return };
    match x {
        Value::Object(map) => {
            for (k, prop) in &s.properties {
                let Some(d) = &prop.generic.default else {
                    continue;
                };
                let missing = match map.get(k) {
                    None => true,
                    Some(Value::Null) => !prop.generic.nullable,
                    Some(_) => false,
                };
                if missing {
                    map.insert(k.clone(), d.clone());
                }
            }
            for (k, v) in map.iter_mut() {
                if let Some(prop) = s.properties.get(k) {
                    default(v, Some(prop));
                } else if let Some(ap) = additional(s) {
                    if v.is_null() {
                        if let Some(ap) = ap.filter(|a| !a.generic.nullable) {
                            *v = ap.generic.default.clone().unwrap_or(Value::Null);
                        }
                    }
                    default(v, ap);
                }
            }
        }
        Value::Array(items) => {
            let item_schema = s.items.as_deref();
            for v in items.iter_mut() {
                if v.is_null() {
                    if let Some(is) = item_schema.filter(|i| !i.generic.nullable) {
                        *v = is.generic.default.clone().unwrap_or(Value::Null);
                    }
                }
                default(v, item_schema);
            }
        }
        _ => {}
    }
}

/// `PruneNonNullableNullsWithoutDefaults(x, s)`: removes map entries whose
/// value is null when their schema (property, else additionalProperties)
/// exists, is not nullable and has no default. Null array items stay.
pub fn prune_non_nullable_nulls_without_defaults(x: &mut Value, s: Option<&Structural>) {
    let Some(s) = s else { return };
    match x {
        Value::Object(map) => {
            map.retain(|k, v| {
                let schema = s.properties.get(k).or_else(|| additional(s).flatten());
                !(v.is_null()
                    && schema.is_some_and(|p| !p.generic.nullable && p.generic.default.is_none()))
            });
            for (k, v) in map.iter_mut() {
                let schema = match s.properties.get(k) {
                    Some(p) => Some(p),
                    None => additional(s).flatten(),
                };
                prune_non_nullable_nulls_without_defaults(v, schema);
            }
        }
        Value::Array(items) => {
            for v in items.iter_mut() {
                prune_non_nullable_nulls_without_defaults(v, s.items.as_deref());
            }
        }
        _ => {}
    }
}
