//! Validation of metadata: `validateEmbeddedResource` (`apiVersion`,
//! `kind` and `metadata` of an embedded resource) and apimachinery's
//! `ValidateObjectMeta` with its parts (labels, annotations, owner
//! references, finalizers, managed fields), plus what `BeforeCreate` does
//! to the metadata before it is validated.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::decode::decode_object_meta;
use super::go_values::{invalid, invalid_typed};
use super::types::{ManagedFieldsEntry, ObjectMeta, OwnerReference};
use crate::go;
use crate::go::names::{
    generated_name, is_dns1035_label, is_dns1123_label, is_qualified_name, is_valid_label_value,
    parse_group_version, validate_path_segment_name,
};
use crate::model::field::{ErrorList, FieldError, Path};

/// `validateEmbeddedResource(pth, x, s)`: `apiVersion` and `kind` must be
/// present, strings, non-empty and well formed; `metadata`, when present,
/// must decode (else `Invalid` with the decoder's message) and pass
/// `validate_object_meta` (with `fakename` standing in for an empty name,
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
pub(crate) fn validate_object_meta(
    meta: &ObjectMeta,
    requires_namespace: bool,
    path: &Path,
) -> ErrorList {
    validate_object_meta_with(meta, requires_namespace, &validate_path_segment_name, path)
}

/// apimachinery's `ValidateObjectMeta` (`ValidateObjectMetaAccessor`) with a
/// `ValidateNameFunc` (`name_fn(name, prefix)`): `generateName` (as a
/// prefix), `name`, `namespace`, `generation`, labels, annotations (key
/// format and the 256 KiB total), owner references, finalizers and managed
/// fields, in the server's order. Labels and annotations are visited in
/// sorted key order.
pub(crate) fn validate_object_meta_with(
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
    validate_labels_annotations_and_owners(meta, path, &mut errs);
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

/// apimachinery's `ValidateObjectMetaAccessorUpdate`: no new finalizers
/// while the old object is being deleted, a resource version, a
/// non-negative generation that does not go down, the fields that cannot
/// change (`name`, `namespace`, `uid`, `creationTimestamp`,
/// `deletionTimestamp`, `deletionGracePeriodSeconds`), then labels,
/// annotations, owner references and managed fields of the new metadata.
pub(crate) fn validate_object_meta_update(
    new: &ObjectMeta,
    old: &ObjectMeta,
    path: &Path,
) -> ErrorList {
    let mut errs = ErrorList::new();
    if old.deletion_timestamp.is_some() {
        let added: Vec<&String> = new
            .finalizers
            .iter()
            .filter(|f| !old.finalizers.contains(f))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        if !added.is_empty() {
            let list: Vec<String> = added.iter().map(|f| crate::go::fmt::go_quote(f)).collect();
            errs.push(FieldError::forbidden(
                &path.child("finalizers"),
                format!(
                    "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                    list.join(", ")
                ),
            ));
        }
    }
    if new.resource_version.is_empty() {
        errs.push(FieldError::invalid(
            &path.child("resourceVersion"),
            "",
            "must be specified for an update",
        ));
    }
    if new.generation < 0 {
        errs.push(FieldError::invalid(
            &path.child("generation"),
            new.generation,
            "must be greater than or equal to 0",
        ));
    }
    if new.generation < old.generation {
        errs.push(FieldError::invalid(
            &path.child("generation"),
            new.generation,
            "must not be decremented",
        ));
    }
    let immutable = |errs: &mut ErrorList, name: &str, changed: bool, value: Value| {
        if changed {
            errs.push(FieldError::invalid(
                &path.child(name),
                value,
                "field is immutable",
            ));
        }
    };
    immutable(
        &mut errs,
        "name",
        new.name != old.name,
        Value::from(new.name.as_str()),
    );
    immutable(
        &mut errs,
        "namespace",
        new.namespace != old.namespace,
        Value::from(new.namespace.as_str()),
    );
    immutable(
        &mut errs,
        "uid",
        new.uid != old.uid,
        Value::from(new.uid.as_str()),
    );
    immutable(
        &mut errs,
        "creationTimestamp",
        new.creation_timestamp != old.creation_timestamp,
        Value::from(new.creation_timestamp.to_string()),
    );
    immutable(
        &mut errs,
        "deletionTimestamp",
        new.deletion_timestamp != old.deletion_timestamp,
        new.deletion_timestamp
            .as_ref()
            .map_or(Value::Null, |t| Value::from(t.to_string())),
    );
    immutable(
        &mut errs,
        "deletionGracePeriodSeconds",
        new.deletion_grace_period_seconds != old.deletion_grace_period_seconds,
        new.deletion_grace_period_seconds
            .map_or(Value::Null, Value::from),
    );
    validate_labels_annotations_and_owners(new, path, &mut errs);
    errs.extend(validate_managed_fields(
        &new.managed_fields,
        &path.child("managedFields"),
    ));
    errs
}

/// The labels, annotations and owner references of `meta`, in that order,
/// as create and update both check them.
fn validate_labels_annotations_and_owners(meta: &ObjectMeta, path: &Path, errs: &mut ErrorList) {
    errs.extend(validate_labels(&meta.labels, &path.child("labels")));
    errs.extend(validate_annotations(
        &meta.annotations,
        &path.child("annotations"),
    ));
    errs.extend(validate_owner_references(
        &meta.owner_references,
        &path.child("ownerReferences"),
    ));
}

/// `v1validation.ValidateLabels`: every error is reported at `path` itself,
/// the key or the value being the bad value.
fn validate_labels(labels: &BTreeMap<String, String>, path: &Path) -> ErrorList {
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
pub(crate) const TOTAL_ANNOTATION_SIZE_LIMIT_B: usize = 256 * (1 << 10);

/// `ValidateAnnotations`: keys are qualified names once lowercased; keys
/// plus values may total at most [`TOTAL_ANNOTATION_SIZE_LIMIT_B`] bytes.
fn validate_annotations(annotations: &BTreeMap<String, String>, path: &Path) -> ErrorList {
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
fn validate_owner_references(refs: &[OwnerReference], path: &Path) -> ErrorList {
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
fn validate_finalizers(finalizers: &[String], path: &Path) -> ErrorList {
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
fn validate_managed_fields(entries: &[ManagedFieldsEntry], path: &Path) -> ErrorList {
    let mut errs = ErrorList::new();
    for (i, e) in entries.iter().enumerate() {
        let p = path.index(i);
        match e.operation.as_str() {
            "" => errs.push(FieldError::required(
                &p.child("operation"),
                "must not be empty",
            )),
            "Apply" | "Update" => {}
            other => errs.push(FieldError::not_supported(
                &p.child("operation"),
                other,
                &["Apply", "Update"],
            )),
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
fn validate_field_manager(manager: &str, path: &Path) -> ErrorList {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::field::BadValue;

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
                {"manager": long, "operation": "Update"},
                {"manager": "m", "operation": "Merge"}
            ]})),
            [
                "spec.template.metadata.managedFields[1].operation: Required value: must not be empty",
                r#"spec.template.metadata.managedFields[1].fieldsType: Invalid value: "x": must be `FieldsV1`"#,
                r#"spec.template.metadata.managedFields[1].manager: Invalid value: "a\a": invalid character U+0007 (at position 1)"#,
                "spec.template.metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes",
                "spec.template.metadata.managedFields[2].manager: Too long: may not be more than 128 bytes",
                r#"spec.template.metadata.managedFields[3].operation: Unsupported value: "Merge": supported values: "Apply", "Update""#,
            ]
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
}
