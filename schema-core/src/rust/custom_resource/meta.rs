//! `ObjectMeta` without k8s-openapi: the fields a controller reads and
//! writes, and every other key kept as it came.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The `metadata` of a resource (`meta/v1` `ObjectMeta`), as a small serde
/// struct of the commonly used fields. Every other key (`ownerReferences`,
/// `managedFields`, ...) is kept in [`ObjectMeta::other`], so reading then
/// writing an object loses nothing.
///
/// With the `k8s-openapi` feature, `schema_core::rust::ObjectMeta` is
/// k8s-openapi's type instead; the field names and types used by
/// `Foo::new` (`name: Option<String>`, `Default`) are the same.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    /// `name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `generateName`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate_name: Option<String>,
    /// `namespace`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `uid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    /// `resourceVersion`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
    /// `generation`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// `creationTimestamp` (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<String>,
    /// `deletionTimestamp` (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<String>,
    /// `deletionGracePeriodSeconds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_grace_period_seconds: Option<i64>,
    /// `labels`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
    /// `annotations`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<BTreeMap<String, String>>,
    /// `finalizers`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finalizers: Option<Vec<String>>,
    /// Every other key, as it came.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn round_trip_keeps_unknown_keys() {
        let v = serde_json::json!({
            "name": "a",
            "namespace": "ns",
            "labels": {"app": "x"},
            "generation": 3,
            "ownerReferences": [{"kind": "X", "name": "y"}],
            "managedFields": []
        });
        let m: ObjectMeta = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(m.name.as_deref(), Some("a"));
        assert_eq!(m.generation, Some(3));
        assert!(m.other.contains_key("ownerReferences"));
        assert_eq!(serde_json::to_value(&m).unwrap(), v);
        assert_eq!(
            serde_json::to_value(ObjectMeta::default()).unwrap(),
            serde_json::json!({})
        );
    }
}
