//! The new value of an update correlated with its old value through the
//! schema, as the API server's ratcheting sees them (apiserver's
//! `common.CorrelatedObject`): object members correlate by name (when the
//! schema describes the member), items of `x-kubernetes-list-type: map`
//! lists by their map keys (`common.MapList`), and nothing else. A node is
//! unchanged when [`Correlated::unchanged`] says so (`CachedDeepEqual`),
//! which is stricter than the two values being equal: an object member the
//! schema does not describe, or a map-list item whose keys do not
//! correlate, makes its parent changed.
//!
//! Value validation and the CEL validator both ratchet with it.

use serde_json::{Map, Value};

use crate::go::json::{GoNum, deep_equal};
use crate::model::structural::Structural;

/// A new value, its old value and the schema of both.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Correlated<'v> {
    /// The value of the update.
    pub(crate) new: &'v Value,
    /// The value it replaces.
    pub(crate) old: &'v Value,
    /// The schema at this node.
    pub(crate) schema: &'v Structural,
}

impl<'v> Correlated<'v> {
    /// The root of an update: the whole new and old objects.
    pub(crate) fn root(new: &'v Value, old: &'v Value, schema: &'v Structural) -> Self {
        Correlated { new, old, schema }
    }

    /// `CorrelatedObject.Key`: the member `field` when both values are
    /// objects that have it and the schema describes it (as a property, or
    /// through an `additionalProperties` schema).
    pub(crate) fn key(&self, field: &str) -> Option<Correlated<'v>> {
        let (Value::Object(new), Value::Object(old)) = (self.new, self.old) else {
            return None;
        };
        let (new, old) = (new.get(field)?, old.get(field)?);
        let schema = self.schema.properties.get(field).or_else(|| {
            self.schema
                .generic
                .additional_properties
                .as_ref()
                .and_then(|a| a.structural.as_deref())
        })?;
        Some(Correlated { new, old, schema })
    }

    /// `CorrelatedObject.Index`: item `i` of a map list, with the first
    /// old item that has its keys.
    pub(crate) fn index(&self, i: usize) -> Option<Correlated<'v>> {
        let (Value::Array(new), Value::Array(old)) = (self.new, self.old) else {
            return None;
        };
        let new = new.get(i)?;
        if self.schema.extensions.list_type.as_deref() != Some("map") {
            return None;
        }
        let old = map_list_item(self.schema, old, new)?;
        let schema = self.schema.items.as_deref()?;
        Some(Correlated { new, old, schema })
    }

    /// `CorrelatedObject.CachedDeepEqual`: whether the node is unchanged.
    /// Objects are unchanged when they have the same members and each
    /// correlates and is unchanged; map lists when they have the same
    /// length and each item correlates and is unchanged; other lists and
    /// scalars when they are `reflect.DeepEqual`. Iterative: a value's
    /// depth costs no stack.
    pub(crate) fn unchanged(&self) -> bool {
        let mut stack = vec![*self];
        while let Some(c) = stack.pop() {
            if !c.push_children(&mut stack) {
                return false;
            }
        }
        true
    }

    /// One node of [`Self::unchanged`]: false when it is changed on its
    /// own; else pushes the children that decide it.
    fn push_children(&self, stack: &mut Vec<Correlated<'v>>) -> bool {
        match (self.new, self.old) {
            (Value::Null, Value::Null) => true,
            (Value::Null, _) | (_, Value::Null) => false,
            (Value::Array(new), Value::Array(old)) => {
                if new.len() != old.len() {
                    return false;
                }
                if self.schema.extensions.list_type.as_deref() != Some("map") {
                    // Not correlatable by item: compared as a unit.
                    return deep_equal(self.new, self.old);
                }
                for i in 0..new.len() {
                    match self.index(i) {
                        Some(child) => stack.push(child),
                        None => return false,
                    }
                }
                true
            }
            (Value::Object(new), Value::Object(old)) => {
                if new.len() != old.len() {
                    return false;
                }
                for k in new.keys() {
                    match self.key(k) {
                        Some(child) => stack.push(child),
                        None => return false,
                    }
                }
                true
            }
            (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_)) => {
                false
            }
            (new, old) => deep_equal(new, old),
        }
    }
}

/// `MapList.Get`: the first item of `old` whose map keys equal those of
/// `new`, under `makeKeyStrategy`'s rules. An item correlates only when
/// every key is present with a scalar (boolean, number or string) value.
/// With one key, key values compare as Go interface values (an `int64`
/// never equals a `float64`); with several, as their composite string,
/// where a `float64` is printed with `%f` (six decimals).
pub(crate) fn map_list_item<'v>(
    schema: &Structural,
    old: &'v [Value],
    new: &Value,
) -> Option<&'v Value> {
    let keys = &schema.extensions.list_map_keys;
    if schema.generic.type_ != "array" || keys.is_empty() {
        return None;
    }
    let Value::Object(new) = new else { return None };
    let wanted = composite_key(keys, new)?;
    old.iter().find(
        |item| matches!(item, Value::Object(o) if composite_key(keys, o).as_ref() == Some(&wanted)),
    )
}

/// One key value of a map-list item, as its key strategy compares it.
#[derive(Debug, PartialEq)]
enum KeyPart<'v> {
    Bool(bool),
    Int(i64),
    /// A `float64` compared by `==` (one key).
    Float(f64),
    /// A `float64` compared by its `%f` rendering (several keys).
    FloatText(String),
    String(&'v str),
}

/// The key of a map-list item, or `None` when it has none.
fn composite_key<'v>(keys: &[String], item: &'v Map<String, Value>) -> Option<Vec<KeyPart<'v>>> {
    let single = keys.len() == 1;
    keys.iter()
        .map(|k| match item.get(k)? {
            Value::Bool(b) => Some(KeyPart::Bool(*b)),
            Value::String(s) => Some(KeyPart::String(s)),
            Value::Number(n) => Some(match GoNum::of(n) {
                GoNum::Int(i) => KeyPart::Int(i),
                GoNum::Float(f) if single => KeyPart::Float(f),
                GoNum::Float(f) => KeyPart::FloatText(format!("{f:.6}")),
            }),
            Value::Null | Value::Array(_) | Value::Object(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::field::Path;
    use crate::model::wire::JsonSchemaProps;
    use crate::model::wire::codec::{DecodeCx, Wire};
    use serde_json::json;

    fn schema(v: Value) -> Structural {
        let props = JsonSchemaProps::decode(&v, &Path::root(), &mut DecodeCx::default()).unwrap();
        Structural::from_props(&props).unwrap()
    }

    fn map_list(keys: &[&str]) -> Structural {
        schema(json!({
            "type": "object",
            "properties": {"l": {
                "type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": keys,
                "items": {"type": "object", "properties": {
                    "a": {"x-kubernetes-int-or-string": true},
                    "b": {"type": "number"},
                    "o": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                    "v": {"type": "integer"}
                }}
            }}
        }))
    }

    fn unchanged(s: &Structural, new: Value, old: Value) -> bool {
        Correlated::root(&new, &old, s).unchanged()
    }

    #[test]
    fn equal_values_are_unchanged_only_where_they_correlate() {
        let s = map_list(&["a"]);
        let v = json!({"l": [{"a": "x", "v": 1}, {"a": "y"}]});
        assert!(unchanged(&s, v.clone(), v));
        // A key that is an object correlates with nothing.
        let v = json!({"l": [{"a": {"z": 1}}]});
        assert!(!unchanged(&s, v.clone(), v));
        // A member the schema does not describe.
        let v = json!({"l": [], "extra": 1});
        assert!(!unchanged(&s, v.clone(), v));
        // int64 1 and float64 1 differ.
        assert!(!unchanged(
            &s,
            json!({"l": [{"a": "x", "v": 1}]}),
            json!({"l": [{"a": "x", "v": 1.0}]})
        ));
    }

    #[test]
    fn map_list_items_correlate_with_the_first_old_item_with_their_keys() {
        let s = map_list(&["a"]);
        // Both new items correlate with the first old one: unchanged.
        let new = json!({"l": [{"a": "x", "v": 1}, {"a": "x", "v": 1}]});
        let old = json!({"l": [{"a": "x", "v": 1}, {"a": "x", "v": 2}]});
        assert!(unchanged(&s, new, old));
        // Reordered items of a map list are unchanged; of an atomic list not.
        assert!(unchanged(
            &s,
            json!({"l": [{"a": "x"}, {"a": "y"}]}),
            json!({"l": [{"a": "y"}, {"a": "x"}]})
        ));
    }

    #[test]
    fn several_keys_compare_floats_by_six_decimals() {
        let s = map_list(&["a", "b"]);
        let new = json!({"l": [{"a": "x", "b": 1.0000001}]});
        let old = json!({"l": [{"a": "x", "b": 1.0000002}]});
        let (n, o) = (&new, &old);
        let c = Correlated::root(n, o, &s).key("l").unwrap();
        assert!(c.index(0).is_some());
        // One key compares floats exactly.
        let s = map_list(&["b"]);
        let c = Correlated::root(n, o, &s).key("l").unwrap();
        assert!(c.index(0).is_none());
    }
}
