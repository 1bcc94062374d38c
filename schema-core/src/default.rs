//! Defaulting (apiextensions `pkg/apiserver/schema/defaulting/algorithm.go`
//! and `prunenulls.go`): schema defaults fill gaps in an object, and nulls
//! that the schema does not allow (and cannot default) are removed.

use serde_json::Value;

use crate::structural::Structural;
use crate::walk::View;

/// `Default(x, s)`: sets every missing property that has a default (and
/// every null one that is not nullable) to a copy of the default, then
/// recurses, so nested defaults apply inside inserted defaults too.
/// Null array items and null additionalProperties values are replaced by
/// the items' or values' default when they are not nullable.
pub fn default(x: &mut Value, s: Option<&Structural>) {
    default_view(x, s.map(View::plain));
}

/// [`default`] on a schema view; prepared views skip the subtrees without
/// defaults.
pub fn default_view(x: &mut Value, s: Option<View<'_>>) {
    let Some(s) = s else { return };
    if !s.may_default_below() {
        return;
    }
    match x {
        Value::Object(map) => {
            if let Some(defaulted) = s.defaulted().filter(|d| d.len() <= 64) {
                default_object_indexed(map, s, defaulted);
                return;
            }
            for (k, prop) in &s.schema().properties {
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
                if let Some(prop) = s.prop(k) {
                    default_view(v, Some(prop));
                } else if let Some(ap) = s.additional() {
                    default_additional(v, ap);
                }
            }
        }
        Value::Array(items) => {
            let item_schema = s.items();
            for v in items.iter_mut() {
                if v.is_null() {
                    if let Some(is) = item_schema.filter(|i| !i.schema().generic.nullable) {
                        *v = is.schema().generic.default.clone().unwrap_or(Value::Null);
                    }
                }
                default_view(v, item_schema);
            }
        }
        _ => {}
    }
}

/// A value under `additionalProperties`: a null one that is not nullable
/// takes the default (or stays null), then defaulting recurses.
fn default_additional(v: &mut Value, ap: Option<View<'_>>) {
    if v.is_null() {
        if let Some(ap) = ap.filter(|a| !a.schema().generic.nullable) {
            *v = ap.schema().generic.default.clone().unwrap_or(Value::Null);
        }
    }
    default_view(v, ap);
}

/// The object step of [`default`] with prepared lookups, in one pass over
/// the object's keys: a present property with a default is defaulted in
/// place when it is a null that is not nullable (as the insertion does),
/// and the missing ones are appended afterwards in the properties' order,
/// which gives the same keys in the same order; every value is then
/// defaulted below, which is independent of its siblings.
fn default_object_indexed(
    map: &mut serde_json::Map<String, Value>,
    s: View<'_>,
    defaulted: &[usize],
) {
    let mut present: u64 = 0;
    for (k, v) in map.iter_mut() {
        if let Some((i, prop)) = s.prop_indexed(k) {
            let g = &prop.schema().generic;
            if let Some(d) = &g.default {
                if v.is_null() && !g.nullable {
                    *v = d.clone();
                }
                if let Some(slot) = defaulted.iter().position(|&j| j == i) {
                    present |= 1 << slot;
                }
            }
            default_view(v, Some(prop));
        } else if let Some(ap) = s.additional() {
            default_additional(v, ap);
        }
    }
    for (slot, &i) in defaulted.iter().enumerate() {
        if present & (1 << slot) != 0 {
            continue;
        }
        let Some((k, prop)) = s.schema().properties.get_index(i) else {
            continue;
        };
        let Some(d) = &prop.generic.default else {
            continue;
        };
        let mut v = d.clone();
        default_view(&mut v, s.prop(k));
        map.insert(k.clone(), v);
    }
}

/// `PruneNonNullableNullsWithoutDefaults(x, s)`: removes map entries whose
/// value is null when their schema (property, else additionalProperties)
/// exists, is not nullable and has no default. Null array items stay.
pub fn prune_non_nullable_nulls_without_defaults(x: &mut Value, s: Option<&Structural>) {
    crate::prune::drop_nulls(x, s.map(View::plain));
}
