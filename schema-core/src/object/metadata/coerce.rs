//! The metadata part of `objectmeta.Coerce`: `metadata` rewritten as the
//! server stores it (`GetObjectMeta` then `SetObjectMeta`), and the
//! `apiVersion` and `kind` of an embedded resource checked to be strings.

use serde_json::{Map, Value};

use super::decode::decode_object_meta;
use super::go_values::invalid;
use crate::model::field::{FieldError, Path};

/// The metadata step of `objectmeta.Coerce`: decodes `metadata` (see
/// [`decode_object_meta`]) and returns what `SetObjectMeta` writes back, with
/// a zero `creationTimestamp` removed. Unknown fields are gone, `omitempty`
/// fields dropped, timestamps normalised.
///
/// On `Err` the caller reports `Invalid(<path>.metadata, metadata, err)`
/// when not dropping invalid fields; when dropping, Go leaves the metadata
/// untouched (this only happens for a non-object `metadata`).
pub(crate) fn coerce_metadata(metadata: &Value, drop_malformed: bool) -> Result<Value, String> {
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
/// `coerce_metadata`. The keys are handled in sorted order (`apiVersion`,
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn coercion_rewrites_metadata_as_stored() {
        let obj = |v: Value| v.as_object().cloned().unwrap_or_default();
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
}
