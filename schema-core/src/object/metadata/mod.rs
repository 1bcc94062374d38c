//! The metadata of custom resources and of embedded resources
//! (`x-kubernetes-embedded-resource: true`), handled to the letter as the
//! API server handles it.
//!
//! This reproduces apiextensions-apiserver's
//! `pkg/apiserver/schema/objectmeta` package and the apimachinery code it
//! calls:
//!
//! * [`get_object_meta`] / [`decode_object_meta`]: `GetObjectMeta`, the JSON
//!   round trip of `metadata` into a `metav1.ObjectMeta`. The metadata is
//!   marshalled with `encoding/json` (map keys sorted) and unmarshalled with
//!   `sigs.k8s.io/json` (case-sensitive field names), so the decode error is
//!   the one Go reports: the first type mismatch in sorted-key order, e.g.
//!   `json: cannot unmarshal number into Go struct field ObjectMeta.name of
//!   type string`, unless a timestamp fails to decode, which aborts the
//!   decode and wins (`parsing time "x" as "2006-01-02T15:04:05Z07:00":
//!   cannot parse "x" as "2006"`). With `drop_malformed`, every top-level
//!   field that fails to decode is dropped instead.
//! * [`ObjectMeta::to_unstructured`] / [`coerce_metadata`] /
//!   [`coerce_embedded_resource`]: `SetObjectMeta` and the metadata part of
//!   `Coerce`, which rewrite `metadata` as the server stores it: unknown
//!   fields gone, `omitempty` fields dropped, timestamps normalised to UTC
//!   RFC 3339, a zero `creationTimestamp` removed.
//! * [`validate_embedded_resource`] is `validateEmbeddedResource`
//!   (`apiVersion`, `kind` and `metadata` of an embedded resource or of the
//!   resource root).
//! * [`validate_object_meta`] is apimachinery's `ValidateObjectMeta` with
//!   the embedded-resource name validator `path.ValidatePathSegmentName`;
//!   [`validate_object_meta_with`] takes any name function and is what a
//!   custom resource's root metadata (`object::admission`) and a CRD's own
//!   metadata (`crd::validation`) are validated with, after
//!   [`before_create`].
//!
//! Go iterates maps in random order; wherever that decides the order of the
//! reported errors (the keys of an embedded resource, labels, annotations)
//! this module iterates in sorted key order, so the output is deterministic.
//!
//! A few texts differ between API server releases; this module uses those
//! of the release `validation/crd.rs` reproduces: `must be no more than 63
//! characters` (newer: `bytes`), `kind must not be empty` and friends for
//! owner references (newer: `must not be empty`), and an empty `apiVersion`
//! or `kind` of an embedded resource is `Invalid: "": must not be empty`
//! (some releases report `Required value` instead).

pub mod walk;

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Number, Value};

use crate::go;
#[cfg(test)]
use crate::go::json::go_json_float;
use crate::go::json::{go_json, go_json_number};
use crate::go::names::{
    generated_name, is_dns1035_label, is_dns1123_label, is_qualified_name, is_valid_label_value,
    parse_group_version, validate_path_segment_name,
};
use crate::model::field::{BadValue, ErrorList, ErrorType, FieldError, Path};

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

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
    /// then removes it, see [`coerce_metadata`]), timestamps are UTC RFC 3339
    /// strings. Object keys are in sorted order, as the server prints them.
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

// ---------------------------------------------------------------------------
// GetObjectMeta: the JSON round trip
// ---------------------------------------------------------------------------

/// `objectmeta.GetObjectMeta(obj, dropMalformedFields)`: decodes
/// `obj["metadata"]` as the server does. `Ok(None)` when there is no
/// `metadata` key; `metadata: null` decodes to an empty [`ObjectMeta`].
///
/// Without `drop_malformed`, a wrongly typed field is an error with the Go
/// decoder's text (see the module docs). With it, every top-level metadata
/// field that does not decode is dropped, and the only error left is a
/// `metadata` that is not an object (`invalid metadata: expected object,
/// got int64`).
pub fn get_object_meta(
    obj: &Map<String, Value>,
    drop_malformed: bool,
) -> Result<Option<ObjectMeta>, String> {
    match obj.get("metadata") {
        None => Ok(None),
        Some(m) => decode_object_meta(m, drop_malformed).map(Some),
    }
}

/// [`get_object_meta`] on the `metadata` value itself.
pub fn decode_object_meta(metadata: &Value, drop_malformed: bool) -> Result<ObjectMeta, String> {
    let mut dec = Decoder::default();
    let mut meta = ObjectMeta::default();
    let first = dec.object_meta(metadata, &mut meta);
    let err = match first {
        Err(abort) => abort,
        Ok(()) => match dec.saved.take() {
            None => return Ok(meta),
            Some(saved) => saved,
        },
    };
    if !drop_malformed {
        return Err(err);
    }
    let Value::Object(fields) = metadata else {
        return Err(format!(
            "invalid metadata: expected object, got {}",
            crate::go::json::go_type(metadata)
        ));
    };
    // Field by field; a field that does not decode on its own is dropped.
    let mut acc = ObjectMeta::default();
    for (k, v) in sorted_entries(fields) {
        let mut test = Decoder::default();
        let mut scratch = ObjectMeta::default();
        if test.object_meta_field(k, v, &mut scratch).is_ok() && test.saved.is_none() {
            let mut real = Decoder::default();
            // Decoding the same field again cannot fail.
            let _ = real.object_meta_field(k, v, &mut acc);
        }
    }
    Ok(acc)
}

/// The description of a JSON value in `json.UnmarshalTypeError`.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The decoder's error context: the innermost struct type and the JSON
/// field names from the root (`errorContext`).
#[derive(Clone, Copy)]
struct Ctx<'a> {
    strukt: Option<&'static str>,
    stack: &'a [&'static str],
}

impl Ctx<'_> {
    const ROOT: Ctx<'static> = Ctx {
        strukt: None,
        stack: &[],
    };
}

/// `json.UnmarshalTypeError.Error()` after `addErrorContext`.
fn type_error(value: &str, go_type: &str, ctx: Ctx<'_>) -> String {
    if ctx.strukt.is_some() || !ctx.stack.is_empty() {
        format!(
            "json: cannot unmarshal {value} into Go struct field {}.{} of type {go_type}",
            ctx.strukt.unwrap_or(""),
            ctx.stack.join(".")
        )
    } else {
        format!("json: cannot unmarshal {value} into Go value of type {go_type}")
    }
}

/// The state of one `json.Unmarshal` call: type mismatches are saved (the
/// first one is reported, decoding goes on); an error returned by an
/// `UnmarshalJSON` method (only `metav1.Time` can fail here) aborts the
/// decode and is returned as `Err`.
#[derive(Default)]
struct Decoder {
    saved: Option<String>,
}

type Abort = String;

/// `stack` with `name` pushed.
fn with(stack: &[&'static str], name: &'static str) -> Vec<&'static str> {
    stack.iter().copied().chain([name]).collect()
}

impl Decoder {
    fn save(&mut self, value: &str, go_type: &str, ctx: Ctx<'_>) {
        if self.saved.is_none() {
            self.saved = Some(type_error(value, go_type, ctx));
        }
    }

    fn mismatch(&mut self, v: &Value, go_type: &str, ctx: Ctx<'_>) {
        self.save(json_kind(v), go_type, ctx);
    }

    /// A string-kinded Go type; `null` leaves the target alone.
    fn string(&mut self, v: &Value, go_type: &str, ctx: Ctx<'_>) -> Option<String> {
        match v {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            _ => {
                self.mismatch(v, go_type, ctx);
                None
            }
        }
    }

    fn int64(&mut self, v: &Value, ctx: Ctx<'_>) -> Option<i64> {
        match v {
            Value::Null => None,
            Value::Number(n) => {
                let s = go_json_number(n);
                match s.parse::<i64>() {
                    Ok(i) => Some(i),
                    Err(_) => {
                        self.save(&format!("number {s}"), "int64", ctx);
                        None
                    }
                }
            }
            _ => {
                self.mismatch(v, "int64", ctx);
                None
            }
        }
    }

    fn bool(&mut self, v: &Value, ctx: Ctx<'_>) -> Option<bool> {
        match v {
            Value::Null => None,
            Value::Bool(b) => Some(*b),
            _ => {
                self.mismatch(v, "bool", ctx);
                None
            }
        }
    }

    /// `metav1.Time.UnmarshalJSON`: `None` for `null`.
    fn time(&mut self, v: &Value, ctx: Ctx<'_>) -> Result<Option<Time>, Abort> {
        match v {
            Value::Null => Ok(None),
            Value::String(s) => Time::parse_rfc3339(s).map(Some),
            // The inner `json.Unmarshal(b, &str)` fails; its type error gets
            // the outer decoder's context.
            _ => Err(type_error(json_kind(v), "string", ctx)),
        }
    }

    fn string_map(&mut self, v: &Value, ctx: Ctx<'_>) -> Option<BTreeMap<String, String>> {
        match v {
            Value::Null => None,
            Value::Object(m) => {
                let mut out = BTreeMap::new();
                for (k, x) in sorted_entries(m) {
                    let s = self.string(x, "string", ctx).unwrap_or_default();
                    out.insert(k.clone(), s);
                }
                Some(out)
            }
            _ => {
                self.mismatch(v, "map[string]string", ctx);
                None
            }
        }
    }

    fn string_slice(&mut self, v: &Value, ctx: Ctx<'_>) -> Option<Vec<String>> {
        match v {
            Value::Null => None,
            Value::Array(a) => Some(
                a.iter()
                    .map(|x| self.string(x, "string", ctx).unwrap_or_default())
                    .collect(),
            ),
            _ => {
                self.mismatch(v, "[]string", ctx);
                None
            }
        }
    }

    fn owner_references(&mut self, v: &Value, ctx: Ctx<'_>) -> Option<Vec<OwnerReference>> {
        match v {
            Value::Null => None,
            Value::Array(a) => {
                let mut out = Vec::with_capacity(a.len());
                for x in a {
                    let mut r = OwnerReference::default();
                    match x {
                        Value::Null => {}
                        Value::Object(m) => self.owner_reference(m, ctx, &mut r),
                        _ => self.mismatch(x, "v1.OwnerReference", ctx),
                    }
                    out.push(r);
                }
                Some(out)
            }
            _ => {
                self.mismatch(v, "[]v1.OwnerReference", ctx);
                None
            }
        }
    }

    fn owner_reference(&mut self, m: &Map<String, Value>, parent: Ctx<'_>, r: &mut OwnerReference) {
        for (k, v) in sorted_entries(m) {
            let name: &'static str = match k.as_str() {
                "apiVersion" => "apiVersion",
                "kind" => "kind",
                "name" => "name",
                "uid" => "uid",
                "controller" => "controller",
                "blockOwnerDeletion" => "blockOwnerDeletion",
                _ => continue,
            };
            let stack = with(parent.stack, name);
            let ctx = Ctx {
                strukt: Some("OwnerReference"),
                stack: &stack,
            };
            match name {
                "apiVersion" => set(&mut r.api_version, self.string(v, "string", ctx)),
                "kind" => set(&mut r.kind, self.string(v, "string", ctx)),
                "name" => set(&mut r.name, self.string(v, "string", ctx)),
                "uid" => set(&mut r.uid, self.string(v, "types.UID", ctx)),
                "controller" => r.controller = self.bool(v, ctx),
                _ => r.block_owner_deletion = self.bool(v, ctx),
            }
        }
    }

    fn managed_fields(
        &mut self,
        v: &Value,
        ctx: Ctx<'_>,
    ) -> Result<Option<Vec<ManagedFieldsEntry>>, Abort> {
        match v {
            Value::Null => Ok(None),
            Value::Array(a) => {
                let mut out = Vec::with_capacity(a.len());
                for x in a {
                    let mut e = ManagedFieldsEntry::default();
                    match x {
                        Value::Null => {}
                        Value::Object(m) => self.managed_fields_entry(m, ctx, &mut e)?,
                        _ => self.mismatch(x, "v1.ManagedFieldsEntry", ctx),
                    }
                    out.push(e);
                }
                Ok(Some(out))
            }
            _ => {
                self.mismatch(v, "[]v1.ManagedFieldsEntry", ctx);
                Ok(None)
            }
        }
    }

    fn managed_fields_entry(
        &mut self,
        m: &Map<String, Value>,
        parent: Ctx<'_>,
        e: &mut ManagedFieldsEntry,
    ) -> Result<(), Abort> {
        for (k, v) in sorted_entries(m) {
            let name: &'static str = match k.as_str() {
                "manager" => "manager",
                "operation" => "operation",
                "apiVersion" => "apiVersion",
                "time" => "time",
                "fieldsType" => "fieldsType",
                "fieldsV1" => "fieldsV1",
                "subresource" => "subresource",
                _ => continue,
            };
            let stack = with(parent.stack, name);
            let ctx = Ctx {
                strukt: Some("ManagedFieldsEntry"),
                stack: &stack,
            };
            match name {
                "manager" => set(&mut e.manager, self.string(v, "string", ctx)),
                "operation" => set(
                    &mut e.operation,
                    self.string(v, "v1.ManagedFieldsOperationType", ctx),
                ),
                "apiVersion" => set(&mut e.api_version, self.string(v, "string", ctx)),
                "time" => e.time = self.time(v, ctx)?,
                "fieldsType" => set(&mut e.fields_type, self.string(v, "string", ctx)),
                // `FieldsV1.UnmarshalJSON` takes any JSON; `null` leaves a nil pointer.
                "fieldsV1" => e.fields_v1 = (!v.is_null()).then(|| v.clone()),
                _ => set(&mut e.subresource, self.string(v, "string", ctx)),
            }
        }
        Ok(())
    }

    /// Unmarshals a whole `metadata` value into `meta`.
    fn object_meta(&mut self, v: &Value, meta: &mut ObjectMeta) -> Result<(), Abort> {
        match v {
            Value::Null => Ok(()),
            Value::Object(m) => {
                for (k, x) in sorted_entries(m) {
                    self.object_meta_field(k, x, meta)?;
                }
                Ok(())
            }
            _ => {
                self.mismatch(v, "v1.ObjectMeta", Ctx::ROOT);
                Ok(())
            }
        }
    }

    /// Unmarshals one key of `metadata` into `meta`; unknown keys are ignored.
    fn object_meta_field(
        &mut self,
        k: &str,
        v: &Value,
        meta: &mut ObjectMeta,
    ) -> Result<(), Abort> {
        let name: &'static str = match k {
            "name" => "name",
            "generateName" => "generateName",
            "namespace" => "namespace",
            "selfLink" => "selfLink",
            "uid" => "uid",
            "resourceVersion" => "resourceVersion",
            "generation" => "generation",
            "creationTimestamp" => "creationTimestamp",
            "deletionTimestamp" => "deletionTimestamp",
            "deletionGracePeriodSeconds" => "deletionGracePeriodSeconds",
            "labels" => "labels",
            "annotations" => "annotations",
            "ownerReferences" => "ownerReferences",
            "finalizers" => "finalizers",
            "managedFields" => "managedFields",
            _ => return Ok(()),
        };
        let stack = [name];
        let ctx = Ctx {
            strukt: Some("ObjectMeta"),
            stack: &stack,
        };
        match name {
            "name" => set(&mut meta.name, self.string(v, "string", ctx)),
            "generateName" => set(&mut meta.generate_name, self.string(v, "string", ctx)),
            "namespace" => set(&mut meta.namespace, self.string(v, "string", ctx)),
            "selfLink" => set(&mut meta.self_link, self.string(v, "string", ctx)),
            "uid" => set(&mut meta.uid, self.string(v, "types.UID", ctx)),
            "resourceVersion" => set(&mut meta.resource_version, self.string(v, "string", ctx)),
            "generation" => set(&mut meta.generation, self.int64(v, ctx)),
            "creationTimestamp" => {
                meta.creation_timestamp = self.time(v, ctx)?.unwrap_or_default();
            }
            "deletionTimestamp" => meta.deletion_timestamp = self.time(v, ctx)?,
            "deletionGracePeriodSeconds" => {
                meta.deletion_grace_period_seconds = match v {
                    Value::Null => None,
                    // The pointer is allocated before the number is checked.
                    _ => Some(self.int64(v, ctx).unwrap_or_default()),
                };
            }
            "labels" => meta.labels = self.string_map(v, ctx).unwrap_or_default(),
            "annotations" => meta.annotations = self.string_map(v, ctx).unwrap_or_default(),
            "ownerReferences" => {
                meta.owner_references = self.owner_references(v, ctx).unwrap_or_default();
            }
            "finalizers" => meta.finalizers = self.string_slice(v, ctx).unwrap_or_default(),
            _ => meta.managed_fields = self.managed_fields(v, ctx)?.unwrap_or_default(),
        }
        Ok(())
    }
}

fn set<T>(slot: &mut T, v: Option<T>) {
    if let Some(v) = v {
        *slot = v;
    }
}

/// The entries of a map in sorted key order (`encoding/json` marshals map
/// keys sorted, so the decoder sees them in that order).
fn sorted_entries(m: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut v: Vec<_> = m.iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

// ---------------------------------------------------------------------------
// Coerce
// ---------------------------------------------------------------------------

/// The metadata step of `objectmeta.Coerce`: decodes `metadata` (see
/// [`decode_object_meta`]) and returns what `SetObjectMeta` writes back, with
/// a zero `creationTimestamp` removed. Unknown fields are gone, `omitempty`
/// fields dropped, timestamps normalised.
///
/// On `Err` the caller reports `Invalid(<path>.metadata, metadata, err)`
/// when not dropping invalid fields; when dropping, Go leaves the metadata
/// untouched (this only happens for a non-object `metadata`).
pub fn coerce_metadata(metadata: &Value, drop_malformed: bool) -> Result<Value, String> {
    let meta = decode_object_meta(metadata, drop_malformed)?;
    let mut v = meta.to_unstructured();
    if meta.creation_timestamp.is_zero()
        && let Value::Object(m) = &mut v
    {
        m.shift_remove("creationTimestamp");
    }
    Ok(v)
}

/// The embedded-resource part of `objectmeta.Coerce` for one object whose
/// schema has `x-kubernetes-embedded-resource: true` (or the resource root):
/// a non-string `apiVersion` or `kind` is removed (`drop_invalid`) or an
/// error (`must be a string`); `metadata` is rewritten by
/// [`coerce_metadata`]. The keys are handled in sorted order (`apiVersion`,
/// `kind`, `metadata`) and the first error is returned (`Coerce`'s
/// `*field.Error`), `None` when there is none. The recursion into the
/// object's properties is the caller's.
pub fn coerce_embedded_resource(
    path: &Path,
    obj: &mut Map<String, Value>,
    drop_invalid: bool,
) -> Option<FieldError> {
    for k in ["apiVersion", "kind"] {
        if let Some(v) = obj.get(k).filter(|v| !v.is_string()) {
            if !drop_invalid {
                return Some(invalid(&path.child(k), v, "must be a string"));
            }
            crate::model::depth::drop_removed(obj.shift_remove(k));
        }
    }
    if let Some(v) = obj.get("metadata") {
        match coerce_metadata(v, drop_invalid) {
            Err(e) if !drop_invalid => return Some(invalid(&path.child("metadata"), v, e)),
            Err(_) => {}
            Ok(cleaned) => {
                obj.insert("metadata".into(), cleaned);
            }
        }
    }
    None
}

// ---------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------

/// `validateEmbeddedResource(pth, x, s)`: `apiVersion` and `kind` must be
/// present, strings, non-empty and well formed; `metadata`, when present,
/// must decode (else `Invalid` with the decoder's message) and pass
/// [`validate_object_meta`] (with `fakename` standing in for an empty name,
/// and the namespace validated only when set).
///
/// The missing-field errors come first, then the keys in sorted order.
pub fn validate_embedded_resource(path: &Path, obj: &Map<String, Value>) -> ErrorList {
    let mut errs = ErrorList::new();
    if !obj.contains_key("apiVersion") {
        errs.push(FieldError::required(&path.child("apiVersion"), ""));
    }
    if !obj.contains_key("kind") {
        errs.push(FieldError::required(&path.child("kind"), ""));
    }
    if let Some(v) = obj.get("apiVersion") {
        let p = path.child("apiVersion");
        match v.as_str() {
            None => errs.push(invalid(&p, v, "must be a string")),
            Some("") => errs.push(FieldError::invalid(&p, "", "must not be empty")),
            Some(s) => {
                if let Err(e) = parse_group_version(s) {
                    errs.push(FieldError::invalid(&p, s, e));
                }
            }
        }
    }
    if let Some(v) = obj.get("kind") {
        let p = path.child("kind");
        match v.as_str() {
            None => errs.push(invalid(&p, v, "must be a string")),
            Some("") => errs.push(FieldError::invalid(&p, "", "must not be empty")),
            Some(s) => {
                let msgs = is_dns1035_label(&go::strings::to_lower(s));
                if !msgs.is_empty() {
                    errs.push(FieldError::invalid(
                        &p,
                        s,
                        format!(
                            "may have mixed case, but should otherwise match: {}",
                            msgs.join(",")
                        ),
                    ));
                }
            }
        }
    }
    if let Some(v) = obj.get("metadata") {
        let p = path.child("metadata");
        match decode_object_meta(v, false) {
            Err(e) => errs.push(invalid(&p, v, e)),
            Ok(mut meta) => {
                if meta.name.is_empty() {
                    meta.name = "fakename".into();
                }
                let requires_namespace = !meta.namespace.is_empty();
                errs.extend(validate_object_meta(&meta, requires_namespace, &p));
            }
        }
    }
    errs
}

/// What `rest.BeforeCreate` does to the metadata that validation reads: a
/// cluster-scoped object (`namespaced` false) loses its namespace, and an
/// object without a name gets one generated from its `generateName`
/// ([`generated_name`]).
pub(crate) fn before_create(meta: &mut ObjectMeta, namespaced: bool) {
    if !namespaced {
        meta.namespace.clear();
    }
    if meta.name.is_empty() && !meta.generate_name.is_empty() {
        meta.name = generated_name(&meta.generate_name);
    }
}

/// apimachinery's `ValidateObjectMeta(meta, requiresNamespace,
/// path.ValidatePathSegmentName, fldPath)`, the validation custom resources
/// get. See [`validate_object_meta_with`].
pub fn validate_object_meta(meta: &ObjectMeta, requires_namespace: bool, path: &Path) -> ErrorList {
    validate_object_meta_with(meta, requires_namespace, &validate_path_segment_name, path)
}

/// apimachinery's `ValidateObjectMeta` (`ValidateObjectMetaAccessor`) with a
/// `ValidateNameFunc` (`name_fn(name, prefix)`): `generateName` (as a
/// prefix), `name`, `namespace`, `generation`, labels, annotations (key
/// format and the 256 KiB total), owner references, finalizers and managed
/// fields, in the server's order. Labels and annotations are visited in
/// sorted key order.
pub fn validate_object_meta_with(
    meta: &ObjectMeta,
    requires_namespace: bool,
    name_fn: &dyn Fn(&str, bool) -> Vec<String>,
    path: &Path,
) -> ErrorList {
    let mut errs = ErrorList::new();
    if !meta.generate_name.is_empty() {
        let p = path.child("generateName");
        for msg in name_fn(&meta.generate_name, true) {
            errs.push(FieldError::invalid(&p, meta.generate_name.as_str(), msg));
        }
    }
    if meta.name.is_empty() {
        errs.push(FieldError::required(
            &path.child("name"),
            "name or generateName is required",
        ));
    } else {
        let p = path.child("name");
        for msg in name_fn(&meta.name, false) {
            errs.push(FieldError::invalid(&p, meta.name.as_str(), msg));
        }
    }
    let np = path.child("namespace");
    if requires_namespace {
        if meta.namespace.is_empty() {
            errs.push(FieldError::required(&np, ""));
        } else {
            // `ValidateNamespaceName` = `NameIsDNSLabel`.
            for msg in is_dns1123_label(&meta.namespace) {
                errs.push(FieldError::invalid(&np, meta.namespace.as_str(), msg));
            }
        }
    } else if !meta.namespace.is_empty() {
        errs.push(FieldError::forbidden(&np, "not allowed on this type"));
    }
    if meta.generation < 0 {
        errs.push(FieldError::invalid(
            &path.child("generation"),
            meta.generation,
            "must be greater than or equal to 0",
        ));
    }
    errs.extend(validate_labels(&meta.labels, &path.child("labels")));
    errs.extend(validate_annotations(
        &meta.annotations,
        &path.child("annotations"),
    ));
    errs.extend(validate_owner_references(
        &meta.owner_references,
        &path.child("ownerReferences"),
    ));
    errs.extend(validate_finalizers(
        &meta.finalizers,
        &path.child("finalizers"),
    ));
    errs.extend(validate_managed_fields(
        &meta.managed_fields,
        &path.child("managedFields"),
    ));
    errs
}

/// `v1validation.ValidateLabels`: every error is reported at `path` itself,
/// the key or the value being the bad value.
pub fn validate_labels(labels: &BTreeMap<String, String>, path: &Path) -> ErrorList {
    let mut errs = ErrorList::new();
    for (k, v) in labels {
        for msg in is_qualified_name(k) {
            errs.push(FieldError::invalid(path, k.as_str(), msg));
        }
        for msg in is_valid_label_value(v) {
            errs.push(FieldError::invalid(path, v.as_str(), msg));
        }
    }
    errs
}

/// The total size limit of annotations, `TotalAnnotationSizeLimitB` (256 KiB).
pub const TOTAL_ANNOTATION_SIZE_LIMIT_B: usize = 256 * (1 << 10);

/// `ValidateAnnotations`: keys are qualified names once lowercased; keys
/// plus values may total at most [`TOTAL_ANNOTATION_SIZE_LIMIT_B`] bytes.
pub fn validate_annotations(annotations: &BTreeMap<String, String>, path: &Path) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut total: usize = 0;
    for (k, v) in annotations {
        for msg in is_qualified_name(&go::strings::to_lower(k)) {
            errs.push(FieldError::invalid(path, k.as_str(), msg));
        }
        total = total.saturating_add(k.len()).saturating_add(v.len());
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT_B {
        errs.push(FieldError::too_long(
            path,
            i64::try_from(TOTAL_ANNOTATION_SIZE_LIMIT_B).unwrap_or(i64::MAX),
        ));
    }
    errs
}

/// `ValidateOwnerReferences`: errors for each reference are reported under
/// `path` (no index), as upstream does.
pub fn validate_owner_references(refs: &[OwnerReference], path: &Path) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut first_controller = String::new();
    for r in refs {
        // `schema.FromAPIVersionAndKind`: a malformed apiVersion gives an
        // empty group and version.
        let (group, version) = parse_group_version(&r.api_version).unwrap_or_default();
        if version.is_empty() {
            errs.push(FieldError::invalid(
                &path.child("apiVersion"),
                r.api_version.as_str(),
                OWNER_REF_VERSION_EMPTY,
            ));
        }
        if r.kind.is_empty() {
            errs.push(FieldError::invalid(
                &path.child("kind"),
                "",
                OWNER_REF_KIND_EMPTY,
            ));
        }
        if r.name.is_empty() {
            errs.push(FieldError::invalid(
                &path.child("name"),
                "",
                OWNER_REF_NAME_EMPTY,
            ));
        }
        if r.uid.is_empty() {
            errs.push(FieldError::invalid(
                &path.child("uid"),
                "",
                OWNER_REF_UID_EMPTY,
            ));
        }
        if group.is_empty() && version == "v1" && r.kind == "Event" {
            errs.push(invalid_typed(
                path,
                &owner_reference_json(r),
                format!(
                    "{group}/{version}, Kind={} is disallowed from being an owner",
                    r.kind
                ),
            ));
        }
        if r.controller == Some(true) {
            let current = format!("{}/{}", r.kind, r.name);
            if first_controller.is_empty() {
                first_controller = current;
            } else {
                errs.push(invalid_typed(
                    path,
                    &Value::Array(refs.iter().map(owner_reference_json).collect()),
                    format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first_controller} and {current}"
                    ),
                ));
            }
        }
    }
    errs
}

/// The messages of an owner reference with an empty field. These are the
/// texts of the API server generation this crate targets; newer
/// apimachinery says `must not be empty` for kind, name and uid.
const OWNER_REF_VERSION_EMPTY: &str = "version must not be empty";
const OWNER_REF_KIND_EMPTY: &str = "kind must not be empty";
const OWNER_REF_NAME_EMPTY: &str = "name must not be empty";
const OWNER_REF_UID_EMPTY: &str = "uid must not be empty";

/// An owner reference as `json.Marshal` prints it (struct field order).
fn owner_reference_json(r: &OwnerReference) -> Value {
    let mut m = Map::new();
    m.insert("apiVersion".into(), Value::String(r.api_version.clone()));
    m.insert("kind".into(), Value::String(r.kind.clone()));
    m.insert("name".into(), Value::String(r.name.clone()));
    m.insert("uid".into(), Value::String(r.uid.clone()));
    if let Some(c) = r.controller {
        m.insert("controller".into(), Value::Bool(c));
    }
    if let Some(b) = r.block_owner_deletion {
        m.insert("blockOwnerDeletion".into(), Value::Bool(b));
    }
    Value::Object(m)
}

/// `ValidateFinalizers`: each finalizer is a qualified name, and `orphan`
/// and `foregroundDeletion` exclude each other.
pub fn validate_finalizers(finalizers: &[String], path: &Path) -> ErrorList {
    let mut errs = ErrorList::new();
    let (mut orphan, mut foreground) = (false, false);
    for f in finalizers {
        for msg in is_qualified_name(f) {
            errs.push(FieldError::invalid(path, f.as_str(), msg));
        }
        orphan |= f == "orphan";
        foreground |= f == "foregroundDeletion";
    }
    if orphan && foreground {
        errs.push(invalid_typed(
            path,
            &Value::Array(finalizers.iter().cloned().map(Value::String).collect()),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    errs
}

/// `v1validation.ValidateManagedFields`.
pub fn validate_managed_fields(entries: &[ManagedFieldsEntry], path: &Path) -> ErrorList {
    let mut errs = ErrorList::new();
    for (i, e) in entries.iter().enumerate() {
        let p = path.index(i);
        if e.operation != "Apply" && e.operation != "Update" {
            errs.push(FieldError::invalid(
                &p.child("operation"),
                e.operation.as_str(),
                "must be `Apply` or `Update`",
            ));
        }
        if !e.fields_type.is_empty() && e.fields_type != "FieldsV1" {
            errs.push(FieldError::invalid(
                &p.child("fieldsType"),
                e.fields_type.as_str(),
                "must be `FieldsV1`",
            ));
        }
        errs.extend(validate_field_manager(&e.manager, &p.child("manager")));
        if e.subresource.len() > 256 {
            errs.push(FieldError::too_long(&p.child("subresource"), 256));
        }
    }
    errs
}

/// `v1validation.ValidateFieldManager`: at most 128 bytes, printable
/// characters only.
pub fn validate_field_manager(manager: &str, path: &Path) -> ErrorList {
    let mut errs = ErrorList::new();
    if manager.len() > 128 {
        errs.push(FieldError::too_long(path, 128));
    }
    for (i, c) in manager.char_indices() {
        if !crate::go::fmt::is_go_print(c) {
            errs.push(FieldError::invalid(
                path,
                manager,
                format!("invalid character U+{:04X} (at position {i})", u32::from(c)),
            ));
        }
    }
    errs
}

// ---------------------------------------------------------------------------
// Bad values and Go's JSON encoding
// ---------------------------------------------------------------------------

/// `field.Invalid(p, v, detail)` where `v` is a value of Go's unstructured
/// form: maps print with sorted keys and numbers as `encoding/json` prints
/// them.
fn invalid(p: &Path, v: &Value, detail: impl Into<String>) -> FieldError {
    FieldError {
        error_type: ErrorType::Invalid,
        field: p.clone(),
        bad_value: bad_value(&go_sorted(v)),
        detail: detail.into(),
    }
}

/// `field.Invalid(p, v, detail)` where `v` stands for a Go struct (or a
/// slice of them): keys print in the order given (struct field order).
fn invalid_typed(p: &Path, v: &Value, detail: impl Into<String>) -> FieldError {
    FieldError {
        error_type: ErrorType::Invalid,
        field: p.clone(),
        bad_value: bad_value(v),
        detail: detail.into(),
    }
}

/// The bad value `field.Error` prints: scalars as `%v`/`%q` (a `uint64`
/// beyond `int64` is a `float64` in Go), arrays and objects as
/// `json.Marshal` output in the key order given. A structured
/// [`BadValue::Json`] is kept whenever it prints the same; otherwise the
/// exact text is kept as [`BadValue::Raw`].
fn bad_value(v: &Value) -> BadValue {
    match v {
        Value::Number(n) if n.as_i64().is_none() && n.as_u64().is_some() => {
            BadValue::Json(Number::from_f64(number_f64(n)).map_or(Value::Null, Value::Number))
        }
        Value::Array(_) | Value::Object(_) => {
            let go = go_json(v, false);
            if go == go_json(v, true) {
                BadValue::Json(v.clone())
            } else {
                BadValue::Raw(go)
            }
        }
        _ => BadValue::Json(v.clone()),
    }
}

/// A value as a Go `map[string]interface{}` sees it: object keys sorted
/// (recursively).
fn go_sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            sorted_entries(m)
                .into_iter()
                .map(|(k, x)| (k.clone(), go_sorted(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(go_sorted).collect()),
        other => other.clone(),
    }
}

/// A value after `json.Marshal` and a decode that keeps integers
/// (`sigs.k8s.io/json`): keys sorted, a float that `encoding/json` prints
/// without `.` or exponent and that fits an `int64` becomes an integer.
fn go_roundtrip(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.as_i64().is_none() => {
            let s = go_json_number(n);
            match s.parse::<i64>() {
                Ok(i) if !s.contains('.') => Value::from(i),
                _ => Number::from_f64(number_f64(n)).map_or(Value::Null, Value::Number),
            }
        }
        Value::Object(m) => Value::Object(
            sorted_entries(m)
                .into_iter()
                .map(|(k, x)| (k.clone(), go_roundtrip(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(go_roundtrip).collect()),
        other => other.clone(),
    }
}

fn number_f64(n: &Number) -> f64 {
    n.as_f64().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    fn strs(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    fn embedded(v: Value) -> Vec<String> {
        strs(&validate_embedded_resource(
            &Path::new(["spec", "template"]),
            &obj(v),
        ))
    }

    fn meta_errs(metadata: Value) -> Vec<String> {
        embedded(json!({"apiVersion": "v1", "kind": "Pod", "metadata": metadata}))
    }

    fn decode_err(metadata: Value) -> String {
        decode_object_meta(&metadata, false)
            .err()
            .unwrap_or_default()
    }

    const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    const NAME_PART_MSG: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

    #[test]
    fn type_meta_presence_type_and_format() {
        assert_eq!(
            embedded(json!({})),
            [
                "spec.template.apiVersion: Required value",
                "spec.template.kind: Required value"
            ]
        );
        assert_eq!(
            embedded(json!({"apiVersion": "a/b/c", "kind": "Foo"})),
            [
                r#"spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c"#
            ]
        );
        assert_eq!(
            embedded(json!({"apiVersion": 5, "kind": ["x"]})),
            [
                "spec.template.apiVersion: Invalid value: 5: must be a string",
                r#"spec.template.kind: Invalid value: ["x"]: must be a string"#
            ]
        );
        assert_eq!(
            embedded(json!({"apiVersion": "", "kind": ""})),
            [
                r#"spec.template.apiVersion: Invalid value: "": must not be empty"#,
                r#"spec.template.kind: Invalid value: "": must not be empty"#
            ]
        );
        assert_eq!(
            embedded(json!({"apiVersion": "foo/v1", "kind": "foo.bar-com"})),
            [
                r#"spec.template.kind: Invalid value: "foo.bar-com": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"#
            ]
        );
        let long_kind = "K".repeat(64);
        let errs = embedded(json!({"apiVersion": "/", "kind": long_kind}));
        assert_eq!(
            errs,
            [format!(
                "spec.template.kind: Invalid value: \"{long_kind}\": may have mixed case, but should otherwise match: must be no more than 63 characters"
            )]
        );
        // Valid: mixed-case kind, core and grouped versions, no metadata.
        assert!(embedded(json!({"apiVersion": "v1", "kind": "MyKind"})).is_empty());
        assert!(
            embedded(json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {}}))
                .is_empty()
        );
        assert!(embedded(json!({"apiVersion": "v1", "kind": "Pod", "metadata": null})).is_empty());
        // The root path prints without a prefix.
        assert_eq!(
            strs(&validate_embedded_resource(
                &Path::root(),
                &obj(json!({"kind": "X"}))
            )),
            ["apiVersion: Required value"]
        );
    }

    #[test]
    fn names_and_generate_names() {
        assert!(meta_errs(json!({"name": "Any_Name.with:chars"})).is_empty());
        assert_eq!(
            meta_errs(json!({"name": ".."})),
            [r#"spec.template.metadata.name: Invalid value: "..": may not be '..'"#]
        );
        assert_eq!(
            meta_errs(json!({"name": "."})),
            [r#"spec.template.metadata.name: Invalid value: ".": may not be '.'"#]
        );
        assert_eq!(
            meta_errs(json!({"name": "a/b%c"})),
            [
                r#"spec.template.metadata.name: Invalid value: "a/b%c": may not contain '/'"#,
                r#"spec.template.metadata.name: Invalid value: "a/b%c": may not contain '%'"#
            ]
        );
        // generateName is a prefix: "." is fine, "/" is not.
        assert!(meta_errs(json!({"generateName": "."})).is_empty());
        assert_eq!(
            meta_errs(json!({"generateName": "x/"})),
            [r#"spec.template.metadata.generateName: Invalid value: "x/": may not contain '/'"#]
        );
        // No name: "fakename" stands in, so no Required error.
        assert!(meta_errs(json!({"namespace": "kube-system"})).is_empty());
    }

    #[test]
    fn namespaces() {
        assert_eq!(
            meta_errs(json!({"name": "n", "namespace": "$$$"})),
            [format!(
                r#"spec.template.metadata.namespace: Invalid value: "$$$": {DNS1123_LABEL_MSG}"#
            )]
        );
        assert_eq!(
            meta_errs(json!({"namespace": "a.b"})),
            [r#"spec.template.metadata.namespace: Invalid value: "a.b": must not contain dots"#]
        );
        let p = Path::new(["metadata"]);
        let mut m = ObjectMeta {
            name: "x".into(),
            namespace: "ns".into(),
            ..ObjectMeta::default()
        };
        assert_eq!(
            strs(&validate_object_meta(&m, false, &p)),
            ["metadata.namespace: Forbidden: not allowed on this type"]
        );
        m.namespace.clear();
        assert_eq!(
            strs(&validate_object_meta(&m, true, &p)),
            ["metadata.namespace: Required value"]
        );
        m.name.clear();
        m.generation = -1;
        assert_eq!(
            strs(&validate_object_meta(&m, false, &p)),
            [
                "metadata.name: Required value: name or generateName is required",
                "metadata.generation: Invalid value: -1: must be greater than or equal to 0"
            ]
        );
    }

    #[test]
    fn label_keys_and_values() {
        assert_eq!(
            meta_errs(json!({"labels": {"#": "#"}})),
            [
                format!(r##"spec.template.metadata.labels: Invalid value: "#": {NAME_PART_MSG}"##),
                format!(
                    r##"spec.template.metadata.labels: Invalid value: "#": {LABEL_VALUE_MSG}"##
                ),
            ]
        );
        // Limits: 63 for the name part and the value, 253 for the prefix.
        let n63 = "a".repeat(63);
        let prefix253 = format!(
            "{}.{}.{}.{}",
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(63),
            "e".repeat(61)
        );
        assert_eq!(prefix253.len(), 253);
        let ok_key = format!("{prefix253}/{n63}");
        assert!(meta_errs(json!({"labels": {ok_key: n63, "x": ""}})).is_empty());
        let n64 = "a".repeat(64);
        assert_eq!(
            meta_errs(json!({"labels": {n64.clone(): n64.clone()}})),
            [
                format!(
                    r#"spec.template.metadata.labels: Invalid value: "{n64}": name part must be no more than 63 characters"#
                ),
                format!(
                    r#"spec.template.metadata.labels: Invalid value: "{n64}": must be no more than 63 characters"#
                ),
            ]
        );
        let prefix254 = format!("f{prefix253}");
        let key = format!("{prefix254}/x");
        assert_eq!(
            meta_errs(json!({"labels": {key.clone(): "v"}})),
            [format!(
                r#"spec.template.metadata.labels: Invalid value: "{key}": prefix part must be no more than 253 characters"#
            )]
        );
        // Sorted key order, key errors before value errors.
        let errs = meta_errs(json!({"labels": {"z!": "ok", "a!": "ok!"}}));
        assert_eq!(errs.len(), 3);
        assert!(errs[0].contains(r#"Invalid value: "a!""#));
        assert!(errs[1].contains(r#"Invalid value: "ok!""#));
        assert!(errs[2].contains(r#"Invalid value: "z!""#));
    }

    #[test]
    fn annotations() {
        // Keys are checked lowercased; the bad value is the original key.
        assert!(
            meta_errs(json!({"annotations": {"Example.com/OK": "anything at all"}})).is_empty()
        );
        assert_eq!(
            meta_errs(json!({"annotations": {"#": "#"}})),
            [format!(
                r##"spec.template.metadata.annotations: Invalid value: "#": {NAME_PART_MSG}"##
            )]
        );
        // 256 KiB of keys plus values is the limit.
        let exact = "v".repeat(TOTAL_ANNOTATION_SIZE_LIMIT_B - 1);
        assert!(meta_errs(json!({"annotations": {"k": exact}})).is_empty());
        let over = "v".repeat(TOTAL_ANNOTATION_SIZE_LIMIT_B);
        assert_eq!(
            meta_errs(json!({"annotations": {"k": over}})),
            ["spec.template.metadata.annotations: Too long: may not be more than 262144 bytes"]
        );
    }

    #[test]
    fn owner_references_and_finalizers() {
        assert_eq!(
            meta_errs(json!({"ownerReferences": [{}]})),
            [
                r#"spec.template.metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty"#,
                r#"spec.template.metadata.ownerReferences.kind: Invalid value: "": kind must not be empty"#,
                r#"spec.template.metadata.ownerReferences.name: Invalid value: "": name must not be empty"#,
                r#"spec.template.metadata.ownerReferences.uid: Invalid value: "": uid must not be empty"#,
            ]
        );
        assert_eq!(
            meta_errs(
                json!({"ownerReferences": [{"apiVersion": "v1", "kind": "Event", "name": "e", "uid": "u", "controller": true}]})
            ),
            [
                r#"spec.template.metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u","controller":true}: /v1, Kind=Event is disallowed from being an owner"#
            ]
        );
        let refs = json!([
            {"apiVersion": "a/v1", "kind": "A", "name": "x", "uid": "1", "controller": true},
            {"apiVersion": "a/v1", "kind": "B", "name": "y", "uid": "2", "controller": true, "blockOwnerDeletion": false}
        ]);
        assert_eq!(
            meta_errs(json!({"ownerReferences": refs})),
            [
                r#"spec.template.metadata.ownerReferences: Invalid value: [{"apiVersion":"a/v1","kind":"A","name":"x","uid":"1","controller":true},{"apiVersion":"a/v1","kind":"B","name":"y","uid":"2","controller":true,"blockOwnerDeletion":false}]: Only one reference can have Controller set to true. Found "true" in references for A/x and B/y"#
            ]
        );
        assert_eq!(
            meta_errs(
                json!({"ownerReferences": [{"apiVersion": "a/b/c", "kind": "K", "name": "n", "uid": "u"}]})
            ),
            [
                r#"spec.template.metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty"#
            ]
        );
        assert_eq!(
            meta_errs(json!({"finalizers": ["orphan", "foregroundDeletion", "a/b/c"]})),
            [
                r#"spec.template.metadata.finalizers: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"#,
                r#"spec.template.metadata.finalizers: Invalid value: ["orphan","foregroundDeletion","a/b/c"]: finalizer orphan and foregroundDeletion cannot be both set"#,
            ]
        );
    }

    #[test]
    fn managed_fields() {
        let long = "m".repeat(129);
        assert_eq!(
            meta_errs(json!({"managedFields": [
                {"manager": "ok", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {"f:a": {}}},
                {"manager": "a\u{7}", "operation": "", "fieldsType": "x", "subresource": "s".repeat(257)},
                {"manager": long, "operation": "Update"}
            ]})),
            [
                r#"spec.template.metadata.managedFields[1].operation: Invalid value: "": must be `Apply` or `Update`"#,
                r#"spec.template.metadata.managedFields[1].fieldsType: Invalid value: "x": must be `FieldsV1`"#,
                r#"spec.template.metadata.managedFields[1].manager: Invalid value: "a\a": invalid character U+0007 (at position 1)"#,
                "spec.template.metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes",
                "spec.template.metadata.managedFields[2].manager: Too long: may not be more than 128 bytes",
            ]
        );
    }

    #[test]
    fn wrongly_typed_metadata_fields() {
        let cases = [
            (
                json!(42),
                "json: cannot unmarshal number into Go value of type v1.ObjectMeta",
            ),
            (
                json!("x"),
                "json: cannot unmarshal string into Go value of type v1.ObjectMeta",
            ),
            (
                json!(true),
                "json: cannot unmarshal bool into Go value of type v1.ObjectMeta",
            ),
            (
                json!([1]),
                "json: cannot unmarshal array into Go value of type v1.ObjectMeta",
            ),
            (
                json!({"name": 42}),
                "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string",
            ),
            (
                json!({"name": {}}),
                "json: cannot unmarshal object into Go struct field ObjectMeta.name of type string",
            ),
            (
                json!({"uid": 1}),
                "json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID",
            ),
            (
                json!({"labels": {"foo": 42}}),
                "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string",
            ),
            (
                json!({"labels": "x"}),
                "json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string",
            ),
            (
                json!({"annotations": 11}),
                "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string",
            ),
            (
                json!({"generation": 1.5}),
                "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64",
            ),
            (
                json!({"generation": 1e21}),
                "json: cannot unmarshal number 1e+21 into Go struct field ObjectMeta.generation of type int64",
            ),
            (
                json!({"generation": 18_446_744_073_709_551_615_u64}),
                "json: cannot unmarshal number 18446744073709552000 into Go struct field ObjectMeta.generation of type int64",
            ),
            (
                json!({"generation": "1"}),
                "json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64",
            ),
            (
                json!({"deletionGracePeriodSeconds": true}),
                "json: cannot unmarshal bool into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64",
            ),
            (
                json!({"finalizers": "x"}),
                "json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string",
            ),
            (
                json!({"finalizers": [1]}),
                "json: cannot unmarshal number into Go struct field ObjectMeta.finalizers of type string",
            ),
            (
                json!({"ownerReferences": {}}),
                "json: cannot unmarshal object into Go struct field ObjectMeta.ownerReferences of type []v1.OwnerReference",
            ),
            (
                json!({"ownerReferences": [1]}),
                "json: cannot unmarshal number into Go struct field ObjectMeta.ownerReferences of type v1.OwnerReference",
            ),
            (
                json!({"ownerReferences": [{"controller": "yes"}]}),
                "json: cannot unmarshal string into Go struct field OwnerReference.ownerReferences.controller of type bool",
            ),
            (
                json!({"ownerReferences": [{"uid": 1}]}),
                "json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.uid of type types.UID",
            ),
            (
                json!({"managedFields": [{"operation": 1}]}),
                "json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.operation of type v1.ManagedFieldsOperationType",
            ),
            (
                json!({"managedFields": [{"time": 3}]}),
                "json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.time of type string",
            ),
            (
                json!({"creationTimestamp": 5}),
                "json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string",
            ),
            (
                json!({"deletionTimestamp": []}),
                "json: cannot unmarshal array into Go struct field ObjectMeta.deletionTimestamp of type string",
            ),
            (
                json!({"creationTimestamp": "a"}),
                r#"parsing time "a" as "2006-01-02T15:04:05Z07:00": cannot parse "a" as "2006""#,
            ),
            // The first mismatch in sorted key order is reported...
            (
                json!({"name": 1, "labels": 2}),
                "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type map[string]string",
            ),
            // ... unless a timestamp aborts the decode later on.
            (
                json!({"annotations": 11, "creationTimestamp": "x"}),
                r#"parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006""#,
            ),
        ];
        for (metadata, want) in cases {
            assert_eq!(decode_err(metadata.clone()), want, "{metadata}");
        }
        // Unknown, differently cased and null fields are fine.
        let m = decode_object_meta(
            &json!({"name": "good", "Name": "bad", "nAme": "bad", "unknown": 1, "generateName": null,
                    "generation": null, "labels": {"foo": null}, "generation2": "x"}),
            false,
        );
        let m = m.unwrap_or_default();
        assert_eq!(m.name, "good");
        assert_eq!(m.labels.get("foo").map(String::as_str), Some(""));
        // Integral floats are integers to Go's decoder.
        assert_eq!(
            decode_object_meta(&json!({"generation": 2.0}), false).map(|m| m.generation),
            Ok(2)
        );
    }

    #[test]
    fn metadata_decode_errors_are_invalid_values() {
        assert_eq!(
            meta_errs(json!(42)),
            [
                "spec.template.metadata: Invalid value: 42: json: cannot unmarshal number into Go value of type v1.ObjectMeta"
            ]
        );
        assert_eq!(
            meta_errs(json!({"x": "<&>", "name": 42, "a": 1.0})),
            [
                r#"spec.template.metadata: Invalid value: {"a":1,"name":42,"x":"\u003c\u0026\u003e"}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"#
            ]
        );
        assert_eq!(
            meta_errs(json!({"name": 42, "b": [1], "a": 2})),
            [
                r#"spec.template.metadata: Invalid value: {"a":2,"b":[1],"name":42}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"#
            ]
        );
        let errs = validate_embedded_resource(
            &Path::root(),
            &obj(
                json!({"apiVersion": "v1", "kind": "K", "metadata": {"name": 42, "b": [1], "a": 2}}),
            ),
        );
        // Json bad values are kept sorted, as Go prints maps.
        assert!(matches!(
            errs.first().map(|e| &e.bad_value),
            Some(BadValue::Json(_))
        ));
    }

    #[test]
    fn dropping_malformed_fields() {
        let m = json!({
            "name": "my-meta",
            "unknownField": "foo",
            "generateName": null,
            "generation": null,
            "labels": {"foo": "bar"},
            "annotations": 11,
            "finalizers": ["a", 1],
        });
        assert_eq!(
            decode_err(m.clone()),
            "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string"
        );
        let meta = decode_object_meta(&m, true).unwrap_or_default();
        let want = ObjectMeta {
            name: "my-meta".into(),
            labels: [("foo".to_string(), "bar".to_string())].into(),
            ..ObjectMeta::default()
        };
        assert_eq!(meta, want);
        assert_eq!(
            coerce_metadata(&m, true),
            Ok(json!({"labels": {"foo": "bar"}, "name": "my-meta"}))
        );
        assert_eq!(
            decode_object_meta(&json!(42), true),
            Err("invalid metadata: expected object, got int64".to_string())
        );
        assert_eq!(
            decode_object_meta(&json!([]), true),
            Err("invalid metadata: expected object, got []interface {}".to_string())
        );
        assert_eq!(
            decode_object_meta(&json!(1.5), true),
            Err("invalid metadata: expected object, got float64".to_string())
        );
        // No metadata at all.
        assert_eq!(get_object_meta(&obj(json!({"kind": "X"})), false), Ok(None));
    }

    #[test]
    fn coercion_rewrites_metadata_as_stored() {
        let m = json!({
            "uid": "u",
            "name": "n",
            "creationTimestamp": "2020-01-01T01:00:00.5+01:00",
            "deletionTimestamp": "0001-01-01T00:00:00Z",
            "deletionGracePeriodSeconds": 0,
            "generation": 0,
            "labels": {},
            "annotations": {"b": "2", "a": "1"},
            "ownerReferences": [{"name": "o", "blockOwnerDeletion": false}],
            "managedFields": [{"manager": "m", "time": "2021-06-01T00:00:00Z", "fieldsV1": {"f:b": {}, "f:a": 1.0}, "fieldsType": "FieldsV1"}, null],
            "finalizers": [],
            "bogus": true
        });
        let got = coerce_metadata(&m, false).unwrap_or_default();
        let want = json!({
            "annotations": {"a": "1", "b": "2"},
            "creationTimestamp": "2020-01-01T00:00:00Z",
            "deletionGracePeriodSeconds": 0,
            "deletionTimestamp": null,
            "managedFields": [
                {"fieldsType": "FieldsV1", "fieldsV1": {"f:a": 1, "f:b": {}}, "manager": "m", "time": "2021-06-01T00:00:00Z"},
                {}
            ],
            "name": "n",
            "ownerReferences": [{"apiVersion": "", "blockOwnerDeletion": false, "kind": "", "name": "o", "uid": ""}],
            "uid": "u"
        });
        assert_eq!(got, want);
        assert_eq!(
            serde_json::to_string(&got).unwrap_or_default(),
            serde_json::to_string(&want).unwrap_or_default(),
            "keys sorted"
        );
        // A zero creationTimestamp is removed; null metadata becomes {}.
        assert_eq!(
            coerce_metadata(
                &json!({"creationTimestamp": "0001-01-01T01:00:00+01:00"}),
                false
            ),
            Ok(json!({}))
        );
        assert_eq!(coerce_metadata(&Value::Null, false), Ok(json!({})));
        assert_eq!(
            coerce_metadata(&json!({"creationTimestamp": 1}), false),
            Err("json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string".into())
        );

        // The embedded-resource step of Coerce.
        let p = Path::new(["spec", "t"]);
        let mut o = obj(
            json!({"apiVersion": 1, "kind": "K", "metadata": {"x": 1, "name": "a"}, "spec": {}}),
        );
        let e = coerce_embedded_resource(&p, &mut o.clone(), false);
        assert_eq!(
            e.map(|e| e.to_string()),
            Some("spec.t.apiVersion: Invalid value: 1: must be a string".into())
        );
        assert!(coerce_embedded_resource(&p, &mut o, true).is_none());
        assert_eq!(
            Value::Object(o.clone()),
            json!({"kind": "K", "metadata": {"name": "a"}, "spec": {}})
        );
        assert_eq!(o.keys().collect::<Vec<_>>(), ["kind", "metadata", "spec"]);
        let mut o = obj(json!({"metadata": {"labels": 1}}));
        assert_eq!(
            coerce_embedded_resource(&p, &mut o, false).map(|e| e.to_string()),
            Some(r#"spec.t.metadata: Invalid value: {"labels":1}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type map[string]string"#.into())
        );
        assert!(coerce_embedded_resource(&p, &mut o, true).is_none());
        assert_eq!(Value::Object(o), json!({"metadata": {}}));
        // Dropping leaves a non-object metadata alone.
        let mut o = obj(json!({"metadata": 7}));
        assert!(coerce_embedded_resource(&p, &mut o, true).is_none());
        assert_eq!(Value::Object(o), json!({"metadata": 7}));
    }

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

    #[test]
    fn go_number_and_string_encoding() {
        for (f, s) in [
            (1.5, "1.5"),
            (100.0, "100"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (1e-7, "1e-7"),
            (1.25e-10, "1.25e-10"),
            (0.000_001, "0.000001"),
            (-0.0, "-0"),
        ] {
            assert_eq!(go_json_float(f), s, "{f}");
        }
        assert_eq!(
            go_json(
                &json!({"a": "<x>&\u{2028}\n\u{1}", "b": [1, 2.5, null, true]}),
                false
            ),
            r#"{"a":"\u003cx\u003e\u0026\u2028\n\u0001","b":[1,2.5,null,true]}"#
        );
    }
}
