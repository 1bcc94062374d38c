//! The typed `metav1.ObjectMeta` (with `metav1.Time`, `OwnerReference` and
//! `ManagedFieldsEntry`) and `ToUnstructured`, the value `SetObjectMeta`
//! writes back to `metadata`.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use super::go_values::go_roundtrip;
use crate::go;

/// A `metav1.Time`: an instant with nanosecond precision. The default value
/// is Go's zero time (`0001-01-01T00:00:00Z`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    /// Seconds since the Unix epoch.
    pub unix_seconds: i64,
    /// Nanoseconds within the second (`0..1_000_000_000`).
    pub nanos: u32,
}

/// Unix seconds of `0001-01-01T00:00:00Z`, Go's zero `time.Time`.
const ZERO_TIME_UNIX: i64 = -62_135_596_800;

impl Default for Time {
    fn default() -> Self {
        Self {
            unix_seconds: ZERO_TIME_UNIX,
            nanos: 0,
        }
    }
}

impl Time {
    /// `time.Time.IsZero()`.
    pub fn is_zero(&self) -> bool {
        self.unix_seconds == ZERO_TIME_UNIX && self.nanos == 0
    }

    /// `metav1.Time.UnmarshalJSON` of a JSON string: `time.Parse(time.RFC3339, s)`
    /// with Go's error messages.
    pub fn parse_rfc3339(s: &str) -> Result<Self, String> {
        go::time::parse_rfc3339(s).map(|(unix_seconds, nanos)| Time {
            unix_seconds,
            nanos,
        })
    }

    /// `t.UTC().Format(time.RFC3339)`, as `metav1.Time` serialises
    /// (fractional seconds are dropped).
    pub fn format_rfc3339(&self) -> String {
        go::time::format_rfc3339(self.unix_seconds)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format_rfc3339())
    }
}

/// A `metav1.OwnerReference`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnerReference {
    /// `apiVersion`.
    pub api_version: String,
    /// `kind`.
    pub kind: String,
    /// `name`.
    pub name: String,
    /// `uid`.
    pub uid: String,
    /// `controller` (a `*bool`).
    pub controller: Option<bool>,
    /// `blockOwnerDeletion` (a `*bool`).
    pub block_owner_deletion: Option<bool>,
}

/// A `metav1.ManagedFieldsEntry`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ManagedFieldsEntry {
    /// `manager`.
    pub manager: String,
    /// `operation`.
    pub operation: String,
    /// `apiVersion`.
    pub api_version: String,
    /// `time` (a `*metav1.Time`).
    pub time: Option<Time>,
    /// `fieldsType`.
    pub fields_type: String,
    /// `fieldsV1`: any JSON value (a `*FieldsV1` holding raw JSON).
    pub fields_v1: Option<Value>,
    /// `subresource`.
    pub subresource: String,
}

/// The fields of a `metav1.ObjectMeta` (all of them: the validation reads
/// most, and [`ObjectMeta::to_unstructured`] writes all back).
///
/// Maps are `BTreeMap`s, so they iterate in sorted key order; Go's nil and
/// empty maps and slices are both represented as empty (the server treats
/// them alike here).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectMeta {
    /// `name`.
    pub name: String,
    /// `generateName`.
    pub generate_name: String,
    /// `namespace`.
    pub namespace: String,
    /// `selfLink`.
    pub self_link: String,
    /// `uid`.
    pub uid: String,
    /// `resourceVersion`.
    pub resource_version: String,
    /// `generation`.
    pub generation: i64,
    /// `creationTimestamp` (zero when unset).
    pub creation_timestamp: Time,
    /// `deletionTimestamp` (a `*metav1.Time`).
    pub deletion_timestamp: Option<Time>,
    /// `deletionGracePeriodSeconds` (a `*int64`).
    pub deletion_grace_period_seconds: Option<i64>,
    /// `labels`.
    pub labels: BTreeMap<String, String>,
    /// `annotations`.
    pub annotations: BTreeMap<String, String>,
    /// `ownerReferences`.
    pub owner_references: Vec<OwnerReference>,
    /// `finalizers`.
    pub finalizers: Vec<String>,
    /// `managedFields`.
    pub managed_fields: Vec<ManagedFieldsEntry>,
}

impl ObjectMeta {
    /// `runtime.DefaultUnstructuredConverter.ToUnstructured(objectMeta)`, the
    /// value `SetObjectMeta` writes to `metadata`: `omitempty` fields are left
    /// out, `creationTimestamp` is always present (`null` when zero; `Coerce`
    /// then removes it, see `coerce_metadata`),
    /// timestamps are UTC RFC 3339 strings. Object keys are in sorted order,
    /// as the server prints them.
    pub fn to_unstructured(&self) -> Value {
        let mut m: BTreeMap<&str, Value> = BTreeMap::new();
        if !self.annotations.is_empty() {
            m.insert("annotations", string_map_value(&self.annotations));
        }
        m.insert("creationTimestamp", time_value(&self.creation_timestamp));
        if let Some(s) = self.deletion_grace_period_seconds {
            m.insert("deletionGracePeriodSeconds", Value::from(s));
        }
        if let Some(t) = &self.deletion_timestamp {
            m.insert("deletionTimestamp", time_value(t));
        }
        if !self.finalizers.is_empty() {
            m.insert(
                "finalizers",
                Value::Array(self.finalizers.iter().cloned().map(Value::String).collect()),
            );
        }
        insert_non_empty(&mut m, "generateName", &self.generate_name);
        if self.generation != 0 {
            m.insert("generation", Value::from(self.generation));
        }
        if !self.labels.is_empty() {
            m.insert("labels", string_map_value(&self.labels));
        }
        if !self.managed_fields.is_empty() {
            m.insert(
                "managedFields",
                Value::Array(
                    self.managed_fields
                        .iter()
                        .map(managed_fields_value)
                        .collect(),
                ),
            );
        }
        insert_non_empty(&mut m, "name", &self.name);
        insert_non_empty(&mut m, "namespace", &self.namespace);
        if !self.owner_references.is_empty() {
            m.insert(
                "ownerReferences",
                Value::Array(
                    self.owner_references
                        .iter()
                        .map(owner_reference_value)
                        .collect(),
                ),
            );
        }
        insert_non_empty(&mut m, "resourceVersion", &self.resource_version);
        insert_non_empty(&mut m, "selfLink", &self.self_link);
        insert_non_empty(&mut m, "uid", &self.uid);
        Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }
}

fn insert_non_empty(m: &mut BTreeMap<&str, Value>, k: &'static str, v: &str) {
    if !v.is_empty() {
        m.insert(k, Value::String(v.to_string()));
    }
}

fn string_map_value(m: &BTreeMap<String, String>) -> Value {
    Value::Object(
        m.iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect(),
    )
}

/// `metav1.Time.ToUnstructured`: `null` for the zero time.
fn time_value(t: &Time) -> Value {
    if t.is_zero() {
        Value::Null
    } else {
        Value::String(t.format_rfc3339())
    }
}

fn owner_reference_value(r: &OwnerReference) -> Value {
    // Keys sorted; apiVersion, kind, name and uid have no omitempty.
    let mut m = Map::new();
    m.insert("apiVersion".into(), Value::String(r.api_version.clone()));
    if let Some(b) = r.block_owner_deletion {
        m.insert("blockOwnerDeletion".into(), Value::Bool(b));
    }
    if let Some(c) = r.controller {
        m.insert("controller".into(), Value::Bool(c));
    }
    m.insert("kind".into(), Value::String(r.kind.clone()));
    m.insert("name".into(), Value::String(r.name.clone()));
    m.insert("uid".into(), Value::String(r.uid.clone()));
    Value::Object(m)
}

fn managed_fields_value(e: &ManagedFieldsEntry) -> Value {
    let mut m = BTreeMap::new();
    insert_non_empty(&mut m, "apiVersion", &e.api_version);
    insert_non_empty(&mut m, "fieldsType", &e.fields_type);
    if let Some(f) = &e.fields_v1 {
        // `FieldsV1` marshals its raw JSON; a raw `null` is stored as nothing.
        if !f.is_null() {
            m.insert("fieldsV1", go_roundtrip(f));
        }
    }
    insert_non_empty(&mut m, "manager", &e.manager);
    insert_non_empty(&mut m, "operation", &e.operation);
    insert_non_empty(&mut m, "subresource", &e.subresource);
    if let Some(t) = &e.time {
        m.insert("time", time_value(t));
    }
    Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_and_print_as_metav1_time() {
        let ok = |s: &str| Time::parse_rfc3339(s).map(|t| t.format_rfc3339());
        assert_eq!(
            ok("2020-02-29T23:59:59.999999999-00:30"),
            Ok("2020-03-01T00:29:59Z".into())
        );
        assert!(Time::parse_rfc3339("0001-01-01T00:00:00Z").is_ok_and(|t| t.is_zero()));
        assert!(Time::default().is_zero());
    }
}
