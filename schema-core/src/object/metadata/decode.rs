//! `GetObjectMeta`: `metadata` decoded into a typed [`ObjectMeta`] as the
//! API server decodes it, with Go's `encoding/json` errors (see the module
//! docs of [`crate::object::metadata`]).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::go_values::sorted_entries;
use super::types::{ManagedFieldsEntry, ObjectMeta, OwnerReference, Time};
use crate::go::json::go_json_number;

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
pub(crate) fn decode_object_meta(
    metadata: &Value,
    drop_malformed: bool,
) -> Result<ObjectMeta, String> {
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

/// The fields of `ObjectMeta`'s JSON form.
const OBJECT_META_FIELDS: [&str; 15] = [
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
];

/// The fields of an `OwnerReference`.
const OWNER_REFERENCE_FIELDS: [&str; 6] = [
    "apiVersion",
    "kind",
    "name",
    "uid",
    "controller",
    "blockOwnerDeletion",
];

/// The fields of a `ManagedFieldsEntry` (`fieldsV1` decodes itself, and
/// keeps whatever it holds).
const MANAGED_FIELDS_ENTRY_FIELDS: [&str; 7] = [
    "manager",
    "operation",
    "apiVersion",
    "time",
    "fieldsType",
    "fieldsV1",
    "subresource",
];

/// The fields of `metadata` that `ObjectMeta` has no place for, as the
/// API server's strict decoding of it reports them for its field
/// validation (`GetObjectMetaWithOptions` with `ReturnUnknownFieldPaths`):
/// `metadata.label`, `metadata.ownerReferences[0].ctrl`, in the order of
/// their keys. None when `metadata` does not decode (its error is
/// reported instead).
pub(crate) fn unknown_object_meta_fields(metadata: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if decode_object_meta(metadata, false).is_err() {
        return out;
    }
    let Value::Object(fields) = metadata else {
        return out;
    };
    // The metadata is marshalled (Go sorts a map's keys) and decoded
    // again, so fields come in the order of their keys.
    for (k, v) in sorted_entries(fields) {
        if !OBJECT_META_FIELDS.contains(&k.as_str()) {
            out.push(format!("metadata.{k}"));
            continue;
        }
        let known: &[&str] = match k.as_str() {
            "ownerReferences" => &OWNER_REFERENCE_FIELDS,
            "managedFields" => &MANAGED_FIELDS_ENTRY_FIELDS,
            _ => continue,
        };
        let Value::Array(items) = v else { continue };
        for (i, item) in items.iter().enumerate() {
            let Value::Object(item) = item else { continue };
            for (key, _) in sorted_entries(item) {
                if !known.contains(&key.as_str()) {
                    out.push(format!("metadata.{k}[{i}].{key}"));
                }
            }
        }
    }
    out
}

fn set<T>(slot: &mut T, v: Option<T>) {
    if let Some(v) = v {
        *slot = v;
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::object::metadata::coerce_metadata;

    fn decode_err(metadata: Value) -> String {
        decode_object_meta(&metadata, false)
            .err()
            .unwrap_or_default()
    }

    #[test]
    fn unknown_fields_of_metadata() {
        let metadata = json!({
            "name": "a",
            "label": {"x": "y"},
            "ownerReferences": [{"name": "o", "ctrl": true}],
            "managedFields": [{"manager": "m", "fieldsV1": {"f:any": {}}, "extra": 1}],
            "Namespace": "n",
        });
        assert_eq!(
            unknown_object_meta_fields(&metadata),
            [
                "metadata.Namespace",
                "metadata.label",
                "metadata.managedFields[0].extra",
                "metadata.ownerReferences[0].ctrl",
            ]
        );
        // Metadata that does not decode reports its error, not its fields.
        assert!(unknown_object_meta_fields(&json!({"name": 1, "label": {}})).is_empty());
        assert!(unknown_object_meta_fields(&json!({"name": "a"})).is_empty());
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
        let no_metadata = json!({"kind": "X"})
            .as_object()
            .cloned()
            .unwrap_or_default();
        assert_eq!(get_object_meta(&no_metadata, false), Ok(None));
    }
}
