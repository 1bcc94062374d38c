//! The builder's models of one CRD version (apiextensions-apiserver's
//! `pkg/controller/openapi/builder/builder.go`: `generateBuilder`,
//! `buildKubeNative`, `buildListSchema`): the kind's model with
//! `apiVersion`, `kind` and `metadata`, embedded-resource properties,
//! `x-kubernetes-group-version-kind` and `x-kubernetes-selectable-fields`,
//! and its list's model.

use serde_json::{Map, Value};

use super::kube_openapi::kube_structural;
use super::publishable::publishable;
use super::schema_json::{canonicalize, wrap_refs};
use super::v2_conversion::to_v2_in_place;
use super::{
    BuildOptions, GVK_EXTENSION, LIST_META_MODEL, OBJECT_META_MODEL, OpenApiVersion, PublishError,
    SELECTABLE_FIELDS_EXTENSION,
};
use crate::model::structural::Structural;
use crate::model::wire::CustomResourceDefinition;

/// The `metadata` description of `PartialObjectMetadata` (the metadata
/// property of a custom resource and of an embedded resource).
pub(super) const OBJECT_META_DESCRIPTION: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
/// The `metadata` description of `PartialObjectMetadataList`.
pub(super) const LIST_META_DESCRIPTION: &str = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
/// `TypeMeta.apiVersion`.
pub(super) const TYPE_META_API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
/// `TypeMeta.kind`.
pub(super) const TYPE_META_KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
/// `apiVersion` of an embedded resource.
pub(super) const EMBEDDED_API_VERSION_DESCRIPTION: &str = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
/// `kind` of an embedded resource.
pub(super) const EMBEDDED_KIND_DESCRIPTION: &str = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The model name the API server gives `group/version.kind`: the group's
/// dot-separated parts reversed, then version and kind
/// (`bar.k8s.io`, `v1`, `Foo` → `io.k8s.bar.v1.Foo`).
pub fn model_name(group: &str, version: &str, kind: &str) -> String {
    let mut parts: Vec<&str> = group.split('.').collect();
    parts.reverse();
    format!("{}.{version}.{kind}", parts.join("."))
}

/// `common.EscapeJsonPointer`.
fn escape_json_pointer(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

fn reference(target: OpenApiVersion, model: &str) -> String {
    format!("{}{}", target.prefix(), escape_json_pointer(model))
}

/// The two models the builder produces for one CRD version.
#[derive(Clone, Debug, PartialEq)]
pub struct VersionModels {
    /// The model name of the kind, e.g. `io.k8s.bar.v1.Foo`.
    pub name: String,
    /// The model of the kind.
    pub schema: Value,
    /// The model name of the list kind, e.g. `io.k8s.bar.v1.FooList`.
    pub list_name: String,
    /// The model of the list kind.
    pub list_schema: Value,
}

/// The names and flags of a CRD the builder needs.
pub(super) struct CrdNames<'a> {
    pub(super) group: &'a str,
    pub(super) kind: &'a str,
    pub(super) list_kind: String,
    pub(super) plural: &'a str,
    pub(super) preserve_unknown_fields: bool,
}

/// The names and flags the builder needs, with `listKind` defaulted.
pub(super) fn crd_names(crd: &CustomResourceDefinition) -> CrdNames<'_> {
    let spec = crd.spec.as_ref();
    let names = spec.and_then(|s| s.names.as_ref());
    let kind = names.and_then(|n| n.kind.as_deref()).unwrap_or("");
    // The API server defaults `listKind` to `<kind>List`.
    let list_kind = match names.and_then(|n| n.list_kind.as_deref()) {
        Some(l) if !l.is_empty() => l.to_string(),
        _ if !kind.is_empty() => format!("{kind}List"),
        _ => String::new(),
    };
    CrdNames {
        group: spec.and_then(|s| s.group.as_deref()).unwrap_or(""),
        kind,
        list_kind,
        plural: names.and_then(|n| n.plural.as_deref()).unwrap_or(""),
        preserve_unknown_fields: spec.and_then(|s| s.preserve_unknown_fields) == Some(true),
    }
}

/// The model definitions of one CRD version, exactly as the API server's
/// builder produces them (`generateBuilder`, `buildKubeNative`,
/// `buildListSchema`).
///
/// The kind's model is `{type: object}` when the version has no schema,
/// when the schema has an invalid type, fails `NewStructural` or is not
/// structural (unless [`BuildOptions::allow_non_structural`]), and, for v2,
/// when the root preserves unknown fields or `spec.preserveUnknownFields`
/// is true. Otherwise it is the unfolded schema (v2: through
/// [`to_structural_openapi_v2`]) with `metadata` (a ref to `ObjectMeta`),
/// `apiVersion` and `kind`, and every embedded resource given the same
/// properties and `required: [..., kind, apiVersion]` (in v2 not where
/// unknown fields are preserved). Both models carry
/// `x-kubernetes-group-version-kind`, and `x-kubernetes-selectable-fields`
/// when enabled and declared. For v3, refs with siblings are wrapped in
/// `allOf` (as they appear in `components.schemas`); for v2 the models are
/// as `BuildOpenAPIV2` returns them, before the v2 controller prunes
/// defaults.
///
/// # Errors
///
/// [`PublishError::VersionNotFound`] when the CRD has no such version.
///
/// [`to_structural_openapi_v2`]: super::to_structural_openapi_v2
pub fn build_models(
    crd: &CustomResourceDefinition,
    version: &str,
    target: OpenApiVersion,
    opts: &BuildOptions,
) -> Result<VersionModels, PublishError> {
    let versions = crd
        .spec
        .as_ref()
        .and_then(|s| s.versions.as_deref())
        .unwrap_or(&[]);
    let Some(v) = versions.iter().find(|v| v.name.as_deref() == Some(version)) else {
        return Err(PublishError::VersionNotFound {
            crd: crd.name().unwrap_or("").to_string(),
            version: version.to_string(),
        });
    };
    let names = crd_names(crd);
    let schema = v
        .schema
        .as_ref()
        .and_then(|s| s.open_api_v3_schema.as_ref())
        .and_then(|s| {
            publishable(
                s,
                opts.allow_non_structural,
                opts.keep_external_docs_and_example,
            )
            .ok()
        });

    let selectable_fields = if opts.include_selectable_fields {
        let fields: Vec<Value> = v
            .selectable_fields
            .iter()
            .flatten()
            .map(|f| {
                let path = f.json_path.as_deref().unwrap_or("");
                let mut o = Map::new();
                o.insert(
                    "fieldPath".into(),
                    Value::String(path.strip_prefix('.').unwrap_or(path).to_string()),
                );
                Value::Object(o)
            })
            .collect();
        (!fields.is_empty() || opts.empty_selectable_fields).then_some(Value::Array(fields))
    } else {
        None
    };

    let mut model = build_kube_native(schema, target, names.preserve_unknown_fields);
    model.insert(GVK_EXTENSION.into(), gvk(names.group, version, names.kind));
    if let Some(sf) = &selectable_fields {
        model.insert(SELECTABLE_FIELDS_EXTENSION.into(), sf.clone());
    }

    let name = model_name(names.group, version, names.kind);
    let list_name = model_name(names.group, version, &names.list_kind);
    let mut list = build_list_schema(&names, version, &name, target);
    if let Some(sf) = selectable_fields {
        list.insert(SELECTABLE_FIELDS_EXTENSION.into(), sf);
    }

    let finish = |mut m: Map<String, Value>| {
        if target == OpenApiVersion::V3 {
            wrap_refs(&mut m);
        }
        let mut v = Value::Object(m);
        canonicalize(&mut v);
        v
    };
    Ok(VersionModels {
        name,
        schema: finish(model),
        list_name,
        list_schema: finish(list),
    })
}

/// `[{group, kind, version}]` (a Go map, so in sorted key order).
fn gvk(group: &str, version: &str, kind: &str) -> Value {
    let mut o = Map::new();
    o.insert("group".into(), Value::String(group.to_string()));
    o.insert("kind".into(), Value::String(kind.to_string()));
    o.insert("version".into(), Value::String(version.to_string()));
    Value::Array(vec![Value::Object(o)])
}

fn string_property(description: &str) -> Value {
    let mut o = Map::new();
    o.insert("description".into(), Value::String(description.to_string()));
    o.insert("type".into(), Value::String("string".into()));
    Value::Object(o)
}

fn ref_property(target: OpenApiVersion, model: &str, description: &str) -> Value {
    let mut o = Map::new();
    o.insert("description".into(), Value::String(description.to_string()));
    o.insert("$ref".into(), Value::String(reference(target, model)));
    Value::Object(o)
}

/// `SetProperty`: creates `properties` when missing.
fn set_property(m: &mut Map<String, Value>, name: &str, schema: Value) {
    let props = m
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if !props.is_object() {
        *props = Value::Object(Map::new());
    }
    if let Value::Object(props) = props {
        props.insert(name.to_string(), schema);
    }
}

/// `addTypeMetaProperties`.
fn add_type_meta_properties(m: &mut Map<String, Value>) {
    set_property(
        m,
        "apiVersion",
        string_property(TYPE_META_API_VERSION_DESCRIPTION),
    );
    set_property(m, "kind", string_property(TYPE_META_KIND_DESCRIPTION));
}

/// `buildKubeNative`, without the extensions.
fn build_kube_native(
    schema: Option<Structural>,
    target: OpenApiVersion,
    crd_preserve_unknown_fields: bool,
) -> Map<String, Value> {
    let v2 = target == OpenApiVersion::V2;
    let schema = match schema {
        Some(s)
            if !(v2 && (s.extensions.preserve_unknown_fields || crd_preserve_unknown_fields)) =>
        {
            s
        }
        _ => {
            let mut m = Map::new();
            m.insert("type".into(), Value::String("object".into()));
            return m;
        }
    };
    let mut schema = schema;
    if v2 {
        to_v2_in_place(&mut schema);
    }
    let mut m = kube_structural(&schema);
    set_property(
        &mut m,
        "metadata",
        ref_property(target, OBJECT_META_MODEL, OBJECT_META_DESCRIPTION),
    );
    add_type_meta_properties(&mut m);
    add_embedded_properties(&mut m, target);
    m
}

/// `addEmbeddedProperties`: every `x-kubernetes-embedded-resource` node
/// (children first) gets `apiVersion`, `kind` and `metadata`, and `kind`
/// then `apiVersion` appended to `required` if missing; in v2 not where
/// unknown fields are preserved.
fn add_embedded_properties(m: &mut Map<String, Value>, target: OpenApiVersion) {
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for p in props.values_mut() {
            if let Value::Object(p) = p {
                add_embedded_properties(p, target);
            }
        }
    }
    if let Some(Value::Object(items)) = m.get_mut("items") {
        add_embedded_properties(items, target);
    }
    if let Some(Value::Object(ap)) = m.get_mut("additionalProperties") {
        add_embedded_properties(ap, target);
    }
    let flag = |m: &Map<String, Value>, key: &str| m.get(key) == Some(&Value::Bool(true));
    if target == OpenApiVersion::V2 && flag(m, "x-kubernetes-preserve-unknown-fields") {
        return;
    }
    if !flag(m, "x-kubernetes-embedded-resource") {
        return;
    }
    set_property(
        m,
        "apiVersion",
        string_property(EMBEDDED_API_VERSION_DESCRIPTION),
    );
    set_property(m, "kind", string_property(EMBEDDED_KIND_DESCRIPTION));
    set_property(
        m,
        "metadata",
        ref_property(target, OBJECT_META_MODEL, OBJECT_META_DESCRIPTION),
    );
    let required = m
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !required.is_array() {
        *required = Value::Array(Vec::new());
    }
    if let Value::Array(required) = required {
        let has = |name: &str| required.iter().any(|r| r.as_str() == Some(name));
        let (has_kind, has_api_version) = (has("kind"), has("apiVersion"));
        if !has_kind {
            required.push(Value::String("kind".into()));
        }
        if !has_api_version {
            required.push(Value::String("apiVersion".into()));
        }
    }
}

/// `buildListSchema`.
fn build_list_schema(
    names: &CrdNames<'_>,
    version: &str,
    item_model: &str,
    target: OpenApiVersion,
) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(
        "description".into(),
        Value::String(format!("{} is a list of {}", names.list_kind, names.kind)),
    );
    m.insert("type".into(), Value::String("object".into()));
    m.insert(
        "required".into(),
        Value::Array(vec![Value::String("items".into())]),
    );
    let mut item = Map::new();
    item.insert("$ref".into(), Value::String(reference(target, item_model)));
    let mut items = Map::new();
    items.insert(
        "description".into(),
        Value::String(format!(
            "List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
            names.plural
        )),
    );
    items.insert("type".into(), Value::String("array".into()));
    items.insert("items".into(), Value::Object(item));
    set_property(&mut m, "items", Value::Object(items));
    set_property(
        &mut m,
        "metadata",
        ref_property(target, LIST_META_MODEL, LIST_META_DESCRIPTION),
    );
    add_type_meta_properties(&mut m);
    m.insert(
        GVK_EXTENSION.into(),
        gvk(names.group, version, &names.list_kind),
    );
    m
}
