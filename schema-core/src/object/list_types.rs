//! Runtime checks of `x-kubernetes-list-type` (apiextensions
//! `pkg/apiserver/schema/listtype/validation.go`): items of a `set` are
//! unique, items of a `map` are objects with unique key tuples.
//!
//! Uniqueness is checked with hashing, in time linear in the list size.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::model::field::{ErrorList, FieldError, Path};
use crate::model::structural::Structural;
use crate::model::wire::codec::Loc;
use crate::object::schema_view::View;

/// `ValidateListSetsAndMaps(fldPath, s, obj)`.
pub fn validate_list_sets_and_maps(path: &Path, s: Option<&Structural>, obj: &Value) -> ErrorList {
    validate_list_sets_and_maps_view(path, s.map(View::plain), obj)
}

/// [`validate_list_sets_and_maps`] on a schema view; prepared views skip
/// the subtrees without list sets or maps.
pub fn validate_list_sets_and_maps_view(
    path: &Path,
    s: Option<View<'_>>,
    obj: &Value,
) -> ErrorList {
    let mut errs = ErrorList::new();
    if let (Some(s), Value::Object(_)) = (s, obj) {
        walk(&Loc::base(path), s, obj, &mut errs);
    }
    errs
}

fn walk(p: &Loc<'_>, s: View<'_>, x: &Value, errs: &mut ErrorList) {
    if !s.may_list() {
        return;
    }
    match x {
        Value::Array(items) => {
            match s.schema().extensions.list_type.as_deref() {
                Some("set") => {
                    for i in duplicate_set_items(items) {
                        let v = items.get(i).cloned().unwrap_or(Value::Null);
                        errs.push(FieldError::duplicate(&p.path().index(i), v));
                    }
                }
                Some("map") => list_map(&p.path(), s.schema(), items, errs),
                _ => {}
            }
            if let Some(is) = s.items() {
                for (i, v) in items.iter().enumerate() {
                    walk(&p.index(i), is, v, errs);
                }
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                if let Some(prop) = s.prop(k) {
                    walk(&p.child(k.as_str()), prop, v, errs);
                } else if let Some(Some(ap)) = s.additional() {
                    walk(&p.key(k.as_str()), ap, v, errs);
                }
            }
        }
        _ => {}
    }
}

/// The identity of a list item as the server compares it: scalars as Go
/// map keys (so the int 1 and the float 1.0 differ), objects and arrays by
/// their JSON encoding.
fn identity(v: &Value) -> String {
    match v {
        Value::Number(n) if n.is_f64() => format!("f:{n}"),
        Value::Number(n) => format!("i:{n}"),
        other => crate::go::json::go_json(other, true),
    }
}

/// Indexes of the second occurrence of every value that occurs more than
/// once.
fn duplicate_set_items(items: &[Value]) -> Vec<usize> {
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(items.len());
    let mut out = Vec::new();
    for (i, v) in items.iter().enumerate() {
        let count = seen.entry(identity(v)).or_insert(0);
        *count += 1;
        if *count == 2 {
            out.push(i);
        }
    }
    out
}

fn list_map(p: &Path, s: &Structural, items: &[Value], errs: &mut ErrorList) {
    // Only objects (and nulls) are allowed; the first offender is reported.
    for (i, x) in items.iter().enumerate() {
        if !x.is_null() && !x.is_object() {
            errs.push(FieldError::invalid(
                &p.index(i),
                x.clone(),
                "must be an object for an array of list-type map",
            ));
            return;
        }
    }
    if items.len() <= 1 {
        return;
    }
    let keys = &s.extensions.list_map_keys;
    let key_of = |obj: &Map<String, Value>| -> Vec<(String, Option<Value>)> {
        keys.iter()
            .map(|k| {
                let v = obj.get(k).cloned().or_else(|| {
                    s.items
                        .as_deref()
                        .and_then(|is| is.properties.get(k))
                        .and_then(|ks| ks.generic.default.clone())
                });
                (k.clone(), v)
            })
            .collect()
    };
    // A null item counts as an object without keys; every key value is
    // reported once, at its second occurrence.
    let empty = Map::new();
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(items.len());
    for (i, x) in items.iter().enumerate() {
        let obj = x.as_object().unwrap_or(&empty);
        let key = key_of(obj);
        let id: String = key
            .iter()
            .map(|(_, v)| {
                v.as_ref()
                    .map_or_else(|| "<unspecified>".to_string(), identity)
            })
            .collect::<Vec<_>>()
            .join("\u{0}");
        let count = seen.entry(id).or_insert(0);
        *count += 1;
        if *count == 2 {
            let shown: Map<String, Value> = key
                .into_iter()
                .filter_map(|(k, v)| v.map(|v| (k, v)))
                .collect();
            errs.push(FieldError::duplicate(&p.index(i), Value::Object(shown)));
        }
    }
}
