//! The objects a source's program sends to the API server: created, or
//! updated from an object as the server stored it.

use serde::Serialize;
use serde_json::Value;

/// One object a source's program sends, and as what it is admitted.
#[derive(Clone, Debug)]
pub struct Example {
    /// What the program does, for reports (unique within its source).
    pub name: &'static str,
    /// The name of the CRD in the source's `crds()` it is admitted with.
    pub crd: &'static str,
    /// The version of that CRD.
    pub version: &'static str,
    /// The object sent.
    pub object: Value,
    /// For an update, the object as the server stored it before.
    pub old: Option<Value>,
}

impl Example {
    /// A create of `object` (a typed object is serialized as a client
    /// serializes it; one that cannot be is sent as `null`).
    pub fn create(
        name: &'static str,
        crd: &'static str,
        version: &'static str,
        object: &impl Serialize,
    ) -> Self {
        Example {
            name,
            crd,
            version,
            object: serde_json::to_value(object).unwrap_or_default(),
            old: None,
        }
    }

    /// An update of the stored object `old` by the JSON merge patch
    /// `patch` (what a merge patch or an apply of only those fields sends
    /// the server to store).
    pub fn update(
        name: &'static str,
        crd: &'static str,
        version: &'static str,
        old: &Value,
        patch: &Value,
    ) -> Self {
        let mut object = old.clone();
        merge_patch(&mut object, patch);
        Example {
            name,
            crd,
            version,
            object,
            old: Some(old.clone()),
        }
    }
}

/// Applies the JSON merge patch `patch` (RFC 7386) to `target`: objects
/// merge member by member, a `null` member removes the member, anything
/// else replaces the value.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(members) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(t) = target {
        for (key, value) in members {
            if value.is_null() {
                t.shift_remove(key);
            } else {
                merge_patch(t.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::merge_patch;

    #[test]
    fn a_merge_patch_merges_objects_removes_nulls_and_replaces_the_rest() {
        let mut doc = json!({"a": {"b": 1, "c": [1, 2]}, "d": "x"});
        merge_patch(
            &mut doc,
            &json!({"a": {"b": null, "c": [3], "e": {"f": true}}, "g": 2}),
        );
        assert_eq!(
            doc,
            json!({"a": {"c": [3], "e": {"f": true}}, "d": "x", "g": 2})
        );
    }
}
