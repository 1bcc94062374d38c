//! Publishing CRD schemas as OpenAPI v2 and v3, to the letter as the API
//! server publishes them.
//!
//! This reproduces apiextensions-apiserver's
//!
//! * `pkg/apiserver/schema/unfold.go` ([`Structural::unfold`]): every
//!   `x-kubernetes-int-or-string` node gets its `anyOf: [{type: integer},
//!   {type: string}]` (or, when `anyOf` is taken, that `anyOf` as
//!   `allOf[0]`);
//! * `pkg/apiserver/schema/kubeopenapi.go` ([`to_kube_openapi`]): the JSON
//!   emission of a structural schema, quirks included (`additionalProperties`
//!   as a boolean or a schema, nested value validations that emit their
//!   forbidden generic fields and extensions but drop `additionalProperties`,
//!   extensions only when true or non-empty, no `externalDocs` and no
//!   `example` because the structural model has none);
//! * `pkg/controller/openapi/v2/conversion.go` ([`to_structural_openapi_v2`]):
//!   what OpenAPI v2 (and kubectl) cannot take is removed;
//! * `pkg/controller/openapi/builder/builder.go` ([`build_models`],
//!   [`build_openapi_v2`], [`build_openapi_v3`]): the model definition of a
//!   CRD version and its list type, with `apiVersion`, `kind` and
//!   `metadata`, embedded-resource properties,
//!   `x-kubernetes-group-version-kind` and `x-kubernetes-selectable-fields`;
//! * kube-openapi's `builder3/util.WrapRefs` (v3: a `$ref` with siblings
//!   becomes `allOf: [{$ref}]`) and `handler.PruneDefaults` (v2: no
//!   `default` anywhere);
//! * the v2 and v3 OpenAPI controllers ([`publish_v2`], [`publish_v3`]):
//!   every served version, in one Swagger 2.0 document, or one OpenAPI 3.0
//!   document per group-version.
//!
//! Documents are self-contained: besides the CRD's models they hold the
//! apimachinery definitions the models refer to (`ObjectMeta`, `ListMeta`,
//! `ManagedFieldsEntry`, `OwnerReference`, `Time`, `FieldsV1`), as the API
//! server publishes them. `paths` is left empty.
//!
//! Keys of every schema object come in the order kube-openapi's
//! `spec.Schema` marshals them (its `SchemaProps` fields, then
//! `SwaggerSchemaProps`, then `$ref`, then the extensions sorted), and
//! `properties` and definition maps are sorted by name, as Go marshals maps.
//! Numbers that Go holds as `float64` (`maximum`, `minimum`, `multipleOf`,
//! and non-integer JSON numbers in `default` and `enum`) are written as Go
//! writes them: an integral value has no fraction.

mod apimachinery;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde_json::{Map, Number, Value};

use crate::crd::validation::structural::{StructuralOptions, validate_structural};
use crate::model::field::Path;
use crate::model::structural::{
    Extensions, Generic, NestedValueValidation, NewStructuralError, Structural, ValueValidation,
};
use crate::model::wire::{
    CustomResourceDefinition, JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray,
    ValidationRule,
};

/// Where OpenAPI v2 keeps its models (`#/definitions/<name>`).
pub const DEFINITION_PREFIX_V2: &str = "#/definitions/";
/// Where OpenAPI v3 keeps its models (`#/components/schemas/<name>`).
pub const DEFINITION_PREFIX_V3: &str = "#/components/schemas/";
/// The model name of `metav1.ObjectMeta`.
pub const OBJECT_META_MODEL: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
/// The model name of `metav1.ListMeta`.
pub const LIST_META_MODEL: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
/// The extension naming the group, version and kind of a model.
pub const GVK_EXTENSION: &str = "x-kubernetes-group-version-kind";
/// The extension listing the selectable fields of a model.
pub const SELECTABLE_FIELDS_EXTENSION: &str = "x-kubernetes-selectable-fields";

/// The `metadata` description of `PartialObjectMetadata` (the metadata
/// property of a custom resource and of an embedded resource).
const OBJECT_META_DESCRIPTION: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
/// The `metadata` description of `PartialObjectMetadataList`.
const LIST_META_DESCRIPTION: &str = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
/// `TypeMeta.apiVersion`.
const TYPE_META_API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
/// `TypeMeta.kind`.
const TYPE_META_KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
/// `apiVersion` of an embedded resource.
const EMBEDDED_API_VERSION_DESCRIPTION: &str = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
/// `kind` of an embedded resource.
const EMBEDDED_KIND_DESCRIPTION: &str = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The `info` of the documents the CRD builder produces.
const INFO_TITLE: &str = "Kubernetes CRD Swagger";
const INFO_VERSION: &str = "v0.1.0";

/// The types a schema may name (`openapiV3Types`).
const OPENAPI_V3_TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// The order in which kube-openapi marshals the fields of a `spec.Schema`:
/// `SchemaProps`, then `SwaggerSchemaProps`, then `$schema` and `$ref`.
/// Everything else (the extensions) follows, sorted.
///
/// This is kube-openapi's struct, not apiextensions' `JSONSchemaProps`
/// (whose order is [`JsonSchemaProps::KEYS`], the wire model's): `nullable`
/// follows `type`, `$schema` and `$ref` come last, and the Swagger-only
/// `discriminator`, `readOnly` and `xml` sit before `externalDocs`.
const SCHEMA_KEY_ORDER: &[&str] = &[
    "id",
    "description",
    "type",
    "nullable",
    "format",
    "title",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "enum",
    "maxProperties",
    "minProperties",
    "required",
    "items",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "properties",
    "additionalProperties",
    "patternProperties",
    "dependencies",
    "additionalItems",
    "definitions",
    "discriminator",
    "readOnly",
    "xml",
    "externalDocs",
    "example",
    "$schema",
    "$ref",
];

// ---------------------------------------------------------------------------
// Errors and options
// ---------------------------------------------------------------------------

/// Why a schema or a CRD version could not be published.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PublishError {
    /// The CRD has no version of that name (`GetSchemaForVersion`).
    #[error("version {version} not found in apiextensionsv1.CustomResourceDefinition: {crd}")]
    VersionNotFound {
        /// The CRD's `metadata.name`.
        crd: String,
        /// The version asked for.
        version: String,
    },
    /// A bare schema that `NewStructural` rejects.
    #[error("{0}")]
    NewStructural(#[from] NewStructuralError),
    /// A bare schema with a `type` outside the six OpenAPI types
    /// (`SchemaHasInvalidTypes`).
    #[error("the schema has a type other than array, boolean, integer, number, object or string")]
    InvalidTypes,
    /// A bare schema that is not structural (the `ValidateStructural`
    /// errors, as strings).
    #[error("the schema is not structural: {}", .0.join("; "))]
    NonStructural(Vec<String>),
    /// The embedded apimachinery definitions could not be read (a bug).
    #[error("internal error: {0}")]
    Internal(String),
}

/// The OpenAPI version a model is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpenApiVersion {
    /// Swagger 2.0 (`/openapi/v2`): refs to `#/definitions/`, the schema
    /// passed through [`to_structural_openapi_v2`].
    V2,
    /// OpenAPI 3.0 (`/openapi/v3/apis/<group>/<version>`): refs to
    /// `#/components/schemas/`, wrapped in `allOf` when they have siblings.
    V3,
}

impl OpenApiVersion {
    fn prefix(self) -> &'static str {
        match self {
            OpenApiVersion::V2 => DEFINITION_PREFIX_V2,
            OpenApiVersion::V3 => DEFINITION_PREFIX_V3,
        }
    }
}

/// Options of the model builder (`builder.Options`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// `IncludeSelectableFields`: the `CustomResourceFieldSelectors` feature
    /// gate (on by default since Kubernetes 1.32), which adds
    /// `x-kubernetes-selectable-fields` to the model and its list.
    pub include_selectable_fields: bool,
    /// `AllowNonStructural`: publish schemas that fail `ValidateStructural`
    /// too. The API server's controllers leave it off.
    pub allow_non_structural: bool,
}

impl Default for BuildOptions {
    /// What the API server's OpenAPI controllers use.
    fn default() -> Self {
        BuildOptions {
            include_selectable_fields: true,
            allow_non_structural: false,
        }
    }
}

// ---------------------------------------------------------------------------
// Unfold
// ---------------------------------------------------------------------------

impl Structural {
    /// `Unfold`: expands `x-kubernetes-int-or-string` on every structural
    /// node (items, properties, additionalProperties; never inside value
    /// validations). A node that has neither the `anyOf: [{type: integer},
    /// {type: string}]` pattern nor that `anyOf` as `allOf[0]` gets
    /// `anyOf: [{type: integer}, {type: string}]` if its `anyOf` is empty,
    /// else `allOf[0] = {anyOf: [{type: integer}, {type: string}]}`
    /// prepended.
    #[must_use]
    pub fn unfold(&self) -> Structural {
        let mut out = self.clone();
        unfold_in_place(&mut out);
        out
    }
}

/// [`Structural::unfold`] in place.
pub fn unfold_in_place(s: &mut Structural) {
    if s.extensions.int_or_string
        && !is_int_or_string_any_of_pattern(s)
        && !is_int_or_string_all_of_pattern(s)
    {
        let vv = s.value_validation.get_or_insert_with(Box::default);
        if vv.any_of.is_empty() {
            vv.any_of = int_or_string_any_of();
        } else {
            vv.all_of.insert(
                0,
                NestedValueValidation {
                    value_validation: ValueValidation {
                        any_of: int_or_string_any_of(),
                        ..ValueValidation::default()
                    },
                    ..NestedValueValidation::default()
                },
            );
        }
    }
    if let Some(items) = s.items.as_deref_mut() {
        unfold_in_place(items);
    }
    for p in s.properties.values_mut() {
        unfold_in_place(p);
    }
    if let Some(ap) = s.generic.additional_properties.as_mut()
        && let Some(a) = ap.structural.as_deref_mut()
    {
        unfold_in_place(a);
    }
}

/// `[{type: integer}, {type: string}]` as nested value validations.
fn int_or_string_any_of() -> Vec<NestedValueValidation> {
    ["integer", "string"]
        .into_iter()
        .map(|t| NestedValueValidation {
            forbidden_generics: Generic {
                type_: t.to_string(),
                ..Generic::default()
            },
            ..NestedValueValidation::default()
        })
        .collect()
}

/// Whether a nested value validation is `{type: <t>}` and nothing else, as
/// upstream's `reflect.DeepEqual` sees it (upstream's model has no
/// `externalDocs` or `example`, so those do not count).
fn is_only_type(n: &NestedValueValidation, t: &str) -> bool {
    let g = &n.forbidden_generics;
    g.type_ == t
        && g.description.is_empty()
        && g.title.is_empty()
        && g.default.is_none()
        && !g.nullable
        && g.additional_properties.is_none()
        && n.value_validation == ValueValidation::default()
        && n.x_validations.is_empty()
        && n.items.is_none()
        && n.properties.is_empty()
        && n.additional_properties.is_none()
        && n.forbidden_extensions == Extensions::default()
}

fn is_int_or_string_any_of(any_of: &[NestedValueValidation]) -> bool {
    matches!(any_of, [a, b] if is_only_type(a, "integer") && is_only_type(b, "string"))
}

/// `isIntOrStringAnyOfPattern`.
fn is_int_or_string_any_of_pattern(s: &Structural) -> bool {
    s.value_validation
        .as_deref()
        .is_some_and(|vv| is_int_or_string_any_of(&vv.any_of))
}

/// `isIntOrStringAllOfPattern`.
fn is_int_or_string_all_of_pattern(s: &Structural) -> bool {
    s.value_validation.as_deref().is_some_and(|vv| {
        vv.all_of
            .first()
            .is_some_and(|first| is_int_or_string_any_of(&first.value_validation.any_of))
    })
}

// ---------------------------------------------------------------------------
// ToStructuralOpenAPIV2
// ---------------------------------------------------------------------------

/// `ToStructuralOpenAPIV2`: on a copy, top-down (a node before its
/// children), removes what OpenAPI v2 and kubectl cannot take:
///
/// 1. `allOf`, `oneOf`, `anyOf` and `not`;
/// 2. a nullable node loses `type`, `nullable`, `items` and `properties`;
/// 3. a node preserving unknown fields loses `items` and `properties`;
/// 4. an array without `items` loses its type;
/// 5. an object preserving unknown fields loses its type;
/// 6. nullable properties (judged before they are converted) leave
///    `required`;
/// 7. a nullable `additionalProperties` schema clears `required`.
///
/// Everything else (defaults, formats, bounds, enums, extensions) stays.
///
/// Upstream visits properties through copies and writes a converted
/// property back only if its visit reports a change, and step 6 overwrites
/// the change flag with the outcome of the last filter (in Go map order).
/// For a schema that passes `ValidateStructural` every conversion is
/// written back; this function always writes it back, which is upstream's
/// result except in that random-order corner of non-structural input (an
/// array without `items` whose nullable properties are not all required:
/// upstream may keep its `type`).
#[must_use]
pub fn to_structural_openapi_v2(s: &Structural) -> Structural {
    let mut out = s.clone();
    to_v2_in_place(&mut out);
    out
}

fn to_v2_in_place(s: &mut Structural) {
    if let Some(vv) = s.value_validation.as_deref_mut() {
        vv.all_of.clear();
        vv.one_of.clear();
        vv.any_of.clear();
        vv.not = None;
    }
    if s.generic.nullable {
        s.generic.type_.clear();
        s.generic.nullable = false;
        s.items = None;
        s.properties.clear();
    }
    if s.extensions.preserve_unknown_fields {
        s.items = None;
        s.properties.clear();
    }
    if s.items.is_none() && s.generic.type_ == "array" {
        s.generic.type_.clear();
    }
    if s.extensions.preserve_unknown_fields && s.generic.type_ == "object" {
        s.generic.type_.clear();
    }
    if let Some(vv) = s.value_validation.as_deref_mut() {
        let nullable: BTreeSet<&str> = s
            .properties
            .iter()
            .filter(|(_, p)| p.generic.nullable)
            .map(|(k, _)| k.as_str())
            .collect();
        if !nullable.is_empty() {
            vv.required.retain(|r| !nullable.contains(r.as_str()));
        }
        let nullable_additional = s
            .generic
            .additional_properties
            .as_ref()
            .and_then(|ap| ap.structural.as_deref())
            .is_some_and(|a| a.generic.nullable);
        if nullable_additional {
            vv.required.clear();
        }
    }
    if let Some(items) = s.items.as_deref_mut() {
        to_v2_in_place(items);
    }
    for p in s.properties.values_mut() {
        to_v2_in_place(p);
    }
    if let Some(ap) = s.generic.additional_properties.as_mut()
        && let Some(a) = ap.structural.as_deref_mut()
    {
        to_v2_in_place(a);
    }
}

// ---------------------------------------------------------------------------
// ToKubeOpenAPI
// ---------------------------------------------------------------------------

/// `ToKubeOpenAPI`: the structural schema as the kube-openapi `spec.Schema`
/// the API server publishes, serialized as JSON.
///
/// Generic fields are `type` (when set), `nullable`, `description`,
/// `title` and `default`; `externalDocs` and `example` are not part of the
/// structural model and are never emitted. `additionalProperties` is the
/// schema, or the boolean when there is none. Extensions are emitted when
/// true (the flags) or set (list type, map type, non-empty list-map keys).
/// A nested value validation (under `allOf`, `anyOf`, `oneOf`, `not`) emits
/// its value validations, `x-kubernetes-validations`, `items`,
/// `properties` and its forbidden generic fields and extensions, but not
/// its `additionalProperties`.
#[must_use]
pub fn to_kube_openapi(s: &Structural) -> Value {
    let mut v = Value::Object(kube_structural(s));
    canonicalize(&mut v);
    v
}

fn kube_structural(s: &Structural) -> Map<String, Value> {
    let items = s.items.as_deref().map(kube_structural);
    let props = sorted_properties(&s.properties, kube_structural);
    let ap = s
        .generic
        .additional_properties
        .as_ref()
        .map(|ap| match ap.structural.as_deref() {
            Some(a) => Value::Object(kube_structural(a)),
            None => Value::Bool(ap.allows),
        });
    emit_node(
        &s.generic,
        s.value_validation.as_deref(),
        items,
        props,
        ap,
        &s.extensions,
        &s.x_validations,
    )
}

fn kube_nested(n: &NestedValueValidation) -> Map<String, Value> {
    let items = n.items.as_deref().map(kube_nested);
    let props = sorted_properties(&n.properties, kube_nested);
    emit_node(
        &n.forbidden_generics,
        Some(&n.value_validation),
        items,
        props,
        None,
        &n.forbidden_extensions,
        &n.x_validations,
    )
}

/// `properties` converted by `f` and sorted by name (as Go marshals maps);
/// `None` when there are none.
fn sorted_properties<T>(
    props: &indexmap::IndexMap<String, T>,
    f: fn(&T) -> Map<String, Value>,
) -> Option<Map<String, Value>> {
    if props.is_empty() {
        return None;
    }
    let mut entries: Vec<(&String, &T)> = props.iter().collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    Some(
        entries
            .into_iter()
            .map(|(k, v)| (k.clone(), Value::Object(f(v))))
            .collect(),
    )
}

/// Writes one schema object with its keys already in kube-openapi's
/// marshalling order ([`SCHEMA_KEY_ORDER`], then the extensions sorted),
/// so that [`canonicalize`] finds nothing to move.
fn emit_node(
    g: &Generic,
    vv: Option<&ValueValidation>,
    items: Option<Map<String, Value>>,
    props: Option<Map<String, Value>>,
    ap: Option<Value>,
    x: &Extensions,
    rules: &[ValidationRule],
) -> Map<String, Value> {
    let mut m = Map::new();
    if !g.description.is_empty() {
        m.insert("description".into(), Value::String(g.description.clone()));
    }
    if !g.type_.is_empty() {
        m.insert("type".into(), Value::String(g.type_.clone()));
    }
    if g.nullable {
        m.insert("nullable".into(), Value::Bool(true));
    }
    if let Some(v) = vv.filter(|v| !v.format.is_empty()) {
        m.insert("format".into(), Value::String(v.format.clone()));
    }
    if !g.title.is_empty() {
        m.insert("title".into(), Value::String(g.title.clone()));
    }
    if let Some(d) = &g.default {
        m.insert("default".into(), go_json(d));
    }
    if let Some(v) = vv {
        write_value_bounds(&mut m, v);
    }
    if let Some(items) = items {
        m.insert("items".into(), Value::Object(items));
    }
    if let Some(v) = vv {
        write_junctors(&mut m, v);
    }
    if let Some(props) = props {
        m.insert("properties".into(), Value::Object(props));
    }
    if let Some(ap) = ap {
        m.insert("additionalProperties".into(), ap);
    }
    write_extensions(&mut m, x);
    write_x_validations(&mut m, rules);
    m
}

/// The extensions, in sorted key order (Go marshals the extension map
/// sorted); `x-kubernetes-validations` sorts after all of them.
fn write_extensions(m: &mut Map<String, Value>, x: &Extensions) {
    if x.embedded_resource {
        m.insert("x-kubernetes-embedded-resource".into(), Value::Bool(true));
    }
    if x.int_or_string {
        m.insert("x-kubernetes-int-or-string".into(), Value::Bool(true));
    }
    if !x.list_map_keys.is_empty() {
        let keys = x.list_map_keys.iter().cloned().map(Value::String).collect();
        m.insert("x-kubernetes-list-map-keys".into(), Value::Array(keys));
    }
    if let Some(t) = &x.list_type {
        m.insert("x-kubernetes-list-type".into(), Value::String(t.clone()));
    }
    if let Some(t) = &x.map_type {
        m.insert("x-kubernetes-map-type".into(), Value::String(t.clone()));
    }
    if x.preserve_unknown_fields {
        m.insert(
            "x-kubernetes-preserve-unknown-fields".into(),
            Value::Bool(true),
        );
    }
}

/// `x-kubernetes-validations`, each rule marshalled from the v1
/// `ValidationRule` struct (`rule` always, the rest when set).
fn write_x_validations(m: &mut Map<String, Value>, rules: &[ValidationRule]) {
    if rules.is_empty() {
        return;
    }
    let rules = rules.iter().map(validation_rule_json).collect();
    m.insert("x-kubernetes-validations".into(), Value::Array(rules));
}

fn validation_rule_json(r: &ValidationRule) -> Value {
    let mut o = Map::new();
    o.insert(
        "rule".into(),
        Value::String(r.rule.clone().unwrap_or_default()),
    );
    let non_empty = |s: &Option<String>| s.as_ref().filter(|s| !s.is_empty()).cloned();
    if let Some(msg) = non_empty(&r.message) {
        o.insert("message".into(), Value::String(msg));
    }
    if let Some(expr) = non_empty(&r.message_expression) {
        o.insert("messageExpression".into(), Value::String(expr));
    }
    if let Some(reason) = &r.reason {
        o.insert("reason".into(), Value::String(reason.clone()));
    }
    if let Some(fp) = non_empty(&r.field_path) {
        o.insert("fieldPath".into(), Value::String(fp));
    }
    if let Some(b) = r.optional_old_self {
        o.insert("optionalOldSelf".into(), Value::Bool(b));
    }
    Value::Object(o)
}

/// The value validations from `maximum` to `required`, in order.
fn write_value_bounds(m: &mut Map<String, Value>, v: &ValueValidation) {
    if let Some(n) = &v.maximum {
        m.insert("maximum".into(), go_float(n));
    }
    if v.exclusive_maximum {
        m.insert("exclusiveMaximum".into(), Value::Bool(true));
    }
    if let Some(n) = &v.minimum {
        m.insert("minimum".into(), go_float(n));
    }
    if v.exclusive_minimum {
        m.insert("exclusiveMinimum".into(), Value::Bool(true));
    }
    let mut int = |key: &str, n: Option<i64>| {
        if let Some(n) = n {
            m.insert(key.into(), Value::from(n));
        }
    };
    int("maxLength", v.max_length);
    int("minLength", v.min_length);
    if !v.pattern.is_empty() {
        m.insert("pattern".into(), Value::String(v.pattern.clone()));
    }
    if let Some(n) = v.max_items {
        m.insert("maxItems".into(), Value::from(n));
    }
    if let Some(n) = v.min_items {
        m.insert("minItems".into(), Value::from(n));
    }
    if v.unique_items {
        m.insert("uniqueItems".into(), Value::Bool(true));
    }
    if let Some(n) = &v.multiple_of {
        m.insert("multipleOf".into(), go_float(n));
    }
    if !v.enum_.is_empty() {
        m.insert(
            "enum".into(),
            Value::Array(v.enum_.iter().map(go_json).collect()),
        );
    }
    if let Some(n) = v.max_properties {
        m.insert("maxProperties".into(), Value::from(n));
    }
    if let Some(n) = v.min_properties {
        m.insert("minProperties".into(), Value::from(n));
    }
    if !v.required.is_empty() {
        let req = v.required.iter().cloned().map(Value::String).collect();
        m.insert("required".into(), Value::Array(req));
    }
}

/// `allOf`, `oneOf`, `anyOf` and `not`, in that order.
fn write_junctors(m: &mut Map<String, Value>, v: &ValueValidation) {
    let nested = |list: &[NestedValueValidation]| {
        Value::Array(list.iter().map(|n| Value::Object(kube_nested(n))).collect())
    };
    if !v.all_of.is_empty() {
        m.insert("allOf".into(), nested(&v.all_of));
    }
    if !v.one_of.is_empty() {
        m.insert("oneOf".into(), nested(&v.one_of));
    }
    if !v.any_of.is_empty() {
        m.insert("anyOf".into(), nested(&v.any_of));
    }
    if let Some(n) = v.not.as_deref() {
        m.insert("not".into(), Value::Object(kube_nested(n)));
    }
}

/// A number the API server holds as a Go `float64`, written as Go's
/// `encoding/json` writes it: an integral value below 1e21 has no
/// fraction (so it reads back as an integer).
fn go_float(n: &Number) -> Value {
    let Some(f) = n.as_f64() else {
        return Value::Number(n.clone());
    };
    float_value(f).unwrap_or_else(|| Value::Number(n.clone()))
}

fn float_value(f: f64) -> Option<Value> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    if f.fract() == 0.0 && f.abs() < 1e21 {
        if (-TWO_63..TWO_63).contains(&f) {
            // In range, integral: the conversion is exact.
            #[allow(clippy::cast_possible_truncation)]
            return Some(Value::from(f as i64));
        }
        if (0.0..TWO_64).contains(&f) {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            return Some(Value::from(f as u64));
        }
    }
    Number::from_f64(f).map(Value::Number)
}

/// A free-form JSON value (`default`, `enum` members) as Go marshals the
/// `interface{}` the API server decoded it into: object keys sorted,
/// integers beyond int64 and non-integers as `float64`.
fn go_json(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .filter_map(|k| o.get(k).map(|v| (k.clone(), go_json(v))))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(go_json).collect()),
        Value::Number(n) if n.is_i64() => v.clone(),
        Value::Number(n) => go_float(n),
        _ => v.clone(),
    }
}

// ---------------------------------------------------------------------------
// Schema-aware JSON walks
// ---------------------------------------------------------------------------

/// Calls `f` on every schema object below `m` (not on `m` itself): items,
/// junctors, `not`, properties, additionalProperties, patternProperties,
/// dependencies, additionalItems, definitions.
fn for_each_child_schema(m: &mut Map<String, Value>, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    for (key, child) in m.iter_mut() {
        match (key.as_str(), child) {
            ("items" | "not" | "additionalProperties" | "additionalItems", Value::Object(c)) => {
                f(c)
            }
            ("items" | "allOf" | "anyOf" | "oneOf", Value::Array(list)) => {
                for c in list.iter_mut() {
                    if let Value::Object(c) = c {
                        f(c);
                    }
                }
            }
            (
                "properties" | "patternProperties" | "definitions" | "dependencies",
                Value::Object(map),
            ) => {
                for c in map.values_mut() {
                    if let Value::Object(c) = c {
                        f(c);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Reorders the keys of every schema object as kube-openapi marshals a
/// `spec.Schema`, and sorts `properties` (and the other schema maps) by
/// name, as Go marshals maps.
fn canonicalize(v: &mut Value) {
    if let Value::Object(m) = v {
        canonicalize_map(m);
    }
}

fn canonicalize_map(m: &mut Map<String, Value>) {
    for_each_child_schema(m, &mut canonicalize_map);
    for key in [
        "properties",
        "patternProperties",
        "definitions",
        "dependencies",
    ] {
        if let Some(Value::Object(map)) = m.get_mut(key) {
            if !m_is_sorted(map) {
                sort_map(map);
            }
        }
    }
    let in_order = m
        .keys()
        .zip(m.keys().skip(1))
        .all(|(a, b)| key_order(a, b) != std::cmp::Ordering::Greater);
    if !in_order {
        let mut entries: Vec<(String, Value)> = std::mem::take(m).into_iter().collect();
        entries.sort_by(|a, b| key_order(&a.0, &b.0));
        m.extend(entries);
    }
}

/// kube-openapi's marshalling order of schema keys: the fields of
/// `spec.Schema` in [`SCHEMA_KEY_ORDER`], then the rest (extensions) by name.
fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    let rank = |k: &str| {
        SCHEMA_KEY_ORDER
            .iter()
            .position(|o| *o == k)
            .unwrap_or(SCHEMA_KEY_ORDER.len())
    };
    rank(a).cmp(&rank(b)).then_with(|| a.cmp(b))
}

fn m_is_sorted(map: &Map<String, Value>) -> bool {
    map.keys().zip(map.keys().skip(1)).all(|(a, b)| a <= b)
}

fn sort_map(map: &mut Map<String, Value>) {
    let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    map.extend(entries);
}

/// `WrapRefs`: a schema with a non-empty `$ref` and any other field becomes
/// `allOf: [{$ref}]` plus the other fields (a previous `allOf` is
/// replaced), everywhere below.
fn wrap_refs(m: &mut Map<String, Value>) {
    let has_ref = matches!(m.get("$ref"), Some(Value::String(r)) if !r.is_empty());
    if has_ref && m.len() > 1 {
        if let Some(r) = m.remove("$ref") {
            let mut only_ref = Map::new();
            only_ref.insert("$ref".into(), r);
            m.insert("allOf".into(), Value::Array(vec![Value::Object(only_ref)]));
        }
    }
    for_each_child_schema(m, &mut wrap_refs);
}

/// The inverse of [`wrap_refs`] on the generated apimachinery
/// definitions (whose every `allOf` is a wrapped ref): the v2 form.
fn unwrap_refs(m: &mut Map<String, Value>) {
    let wrapped = match m.get("allOf") {
        Some(Value::Array(list)) => match list.as_slice() {
            [Value::Object(only)] if only.len() == 1 => only.get("$ref").cloned(),
            _ => None,
        },
        _ => None,
    };
    if let Some(r) = wrapped {
        m.remove("allOf");
        m.insert("$ref".into(), r);
    }
    for_each_child_schema(m, &mut unwrap_refs);
}

/// `PruneDefaults`: removes `default` from every schema.
fn prune_defaults(m: &mut Map<String, Value>) {
    m.remove("default");
    for_each_child_schema(m, &mut prune_defaults);
}

/// Rewrites `$ref`s from one definition prefix to another.
fn rewrite_ref_prefix(m: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(Value::String(r)) = m.get_mut("$ref")
        && let Some(rest) = r.strip_prefix(from)
    {
        *r = format!("{to}{rest}");
    }
    for_each_child_schema(m, &mut |c| rewrite_ref_prefix(c, from, to));
}

/// The `$ref`s below (and at) `m`.
fn collect_refs(m: &mut Map<String, Value>, out: &mut BTreeSet<String>) {
    if let Some(Value::String(r)) = m.get("$ref") {
        out.insert(r.clone());
    }
    for_each_child_schema(m, &mut |c| collect_refs(c, out));
}

// ---------------------------------------------------------------------------
// SchemaHasInvalidTypes
// ---------------------------------------------------------------------------

/// `SchemaHasInvalidTypes`: whether any schema node (value validations,
/// definitions and dependencies included) has a `type` other than array,
/// boolean, integer, number, object or string.
pub fn schema_has_invalid_types(s: &JsonSchemaProps) -> bool {
    let t = s.type_str();
    if !t.is_empty() && !OPENAPI_V3_TYPES.contains(&t) {
        return true;
    }
    let list = |l: &Option<Vec<JsonSchemaProps>>| l.iter().flatten().any(schema_has_invalid_types);
    let map = |m: &Option<indexmap::IndexMap<String, JsonSchemaProps>>| {
        m.iter()
            .flat_map(|m| m.values())
            .any(schema_has_invalid_types)
    };
    let items = match &s.items {
        Some(SchemaOrArray::Schema(i)) => schema_has_invalid_types(i),
        Some(SchemaOrArray::Array(a)) => a.iter().any(schema_has_invalid_types),
        None => false,
    };
    let or_bool = |b: &Option<SchemaOrBool>| {
        b.as_ref()
            .and_then(SchemaOrBool::schema)
            .is_some_and(schema_has_invalid_types)
    };
    items
        || list(&s.all_of)
        || list(&s.any_of)
        || list(&s.one_of)
        || s.not.as_deref().is_some_and(schema_has_invalid_types)
        || map(&s.properties)
        || or_bool(&s.additional_properties)
        || map(&s.pattern_properties)
        || or_bool(&s.additional_items)
        || map(&s.definitions)
        || s.dependencies
            .iter()
            .flat_map(|d| d.values())
            .any(|d| match d {
                SchemaOrStringArray::Schema(d) => schema_has_invalid_types(d),
                SchemaOrStringArray::Property(_) => false,
            })
}

// ---------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// The builder
// ---------------------------------------------------------------------------

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
struct CrdNames<'a> {
    group: &'a str,
    kind: &'a str,
    list_kind: String,
    plural: &'a str,
    preserve_unknown_fields: bool,
}

fn crd_names(crd: &CustomResourceDefinition) -> CrdNames<'_> {
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

/// The structural schema the builder publishes for a wire schema
/// (`generateBuilder`), unfolded; an error where the builder publishes no
/// schema (an invalid type, `NewStructural` fails, not structural unless
/// allowed).
fn publishable(
    schema: &JsonSchemaProps,
    allow_non_structural: bool,
) -> Result<Structural, PublishError> {
    if schema_has_invalid_types(schema) {
        return Err(PublishError::InvalidTypes);
    }
    let mut s = Structural::from_props(schema)?;
    if !allow_non_structural {
        let errs = validate_structural(&Path::root(), &s, StructuralOptions::default());
        if !errs.is_empty() {
            return Err(PublishError::NonStructural(
                errs.iter().map(ToString::to_string).collect(),
            ));
        }
    }
    unfold_in_place(&mut s);
    Ok(s)
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
        .and_then(|s| publishable(s, opts.allow_non_structural).ok());

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
        (!fields.is_empty()).then_some(Value::Array(fields))
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

// ---------------------------------------------------------------------------
// apimachinery definitions and documents
// ---------------------------------------------------------------------------

/// The apimachinery definitions in their v3 form, parsed once.
fn meta_definitions_v3() -> Result<&'static Map<String, Value>, PublishError> {
    static DEFS: OnceLock<Result<Map<String, Value>, String>> = OnceLock::new();
    let parsed =
        DEFS.get_or_init(
            || match serde_json::from_str::<Value>(apimachinery::META_V3_JSON) {
                Ok(Value::Object(mut defs)) => {
                    for d in defs.values_mut() {
                        canonicalize(d);
                    }
                    Ok(defs)
                }
                Ok(_) => Err("the apimachinery definitions are not an object".into()),
                Err(e) => Err(format!("the apimachinery definitions do not parse: {e}")),
            },
        );
    parsed
        .as_ref()
        .map_err(|e| PublishError::Internal(e.clone()))
}

/// One apimachinery definition for `target`.
fn meta_definition(name: &str, target: OpenApiVersion) -> Result<Option<Value>, PublishError> {
    let Some(def) = meta_definitions_v3()?.get(name) else {
        return Ok(None);
    };
    let mut def = def.clone();
    if target == OpenApiVersion::V2
        && let Value::Object(m) = &mut def
    {
        unwrap_refs(m);
        rewrite_ref_prefix(m, DEFINITION_PREFIX_V3, DEFINITION_PREFIX_V2);
        canonicalize_map(m);
    }
    Ok(Some(def))
}

/// Adds the apimachinery definitions `defs` refers to, transitively.
fn add_referenced_definitions(
    defs: &mut BTreeMap<String, Value>,
    target: OpenApiVersion,
) -> Result<(), PublishError> {
    let prefix = target.prefix();
    let mut pending: Vec<String> = defs.keys().cloned().collect();
    while let Some(name) = pending.pop() {
        let mut refs = BTreeSet::new();
        if let Some(Value::Object(m)) = defs.get_mut(&name) {
            collect_refs(m, &mut refs);
        }
        for r in refs {
            let Some(target_name) = r.strip_prefix(prefix) else {
                continue;
            };
            let target_name = target_name.replace("~1", "/").replace("~0", "~");
            if defs.contains_key(&target_name) {
                continue;
            }
            if let Some(def) = meta_definition(&target_name, target)? {
                defs.insert(target_name.clone(), def);
                pending.push(target_name);
            }
        }
    }
    Ok(())
}

fn info() -> Value {
    let mut o = Map::new();
    o.insert("title".into(), Value::String(INFO_TITLE.into()));
    o.insert("version".into(), Value::String(INFO_VERSION.into()));
    Value::Object(o)
}

fn swagger_document(defs: BTreeMap<String, Value>) -> Value {
    let mut doc = Map::new();
    doc.insert("swagger".into(), Value::String("2.0".into()));
    doc.insert("info".into(), info());
    doc.insert("paths".into(), Value::Object(Map::new()));
    doc.insert(
        "definitions".into(),
        Value::Object(defs.into_iter().collect()),
    );
    Value::Object(doc)
}

fn openapi3_document(defs: BTreeMap<String, Value>) -> Value {
    let mut components = Map::new();
    components.insert("schemas".into(), Value::Object(defs.into_iter().collect()));
    let mut doc = Map::new();
    doc.insert("openapi".into(), Value::String("3.0.0".into()));
    doc.insert("info".into(), info());
    doc.insert("paths".into(), Value::Object(Map::new()));
    doc.insert("components".into(), Value::Object(components));
    Value::Object(doc)
}

fn version_definitions(
    crd: &CustomResourceDefinition,
    version: &str,
    target: OpenApiVersion,
    opts: &BuildOptions,
    defs: &mut BTreeMap<String, Value>,
) -> Result<(), PublishError> {
    let models = build_models(crd, version, target, opts)?;
    defs.insert(models.name, models.schema);
    defs.insert(models.list_name, models.list_schema);
    Ok(())
}

/// `BuildOpenAPIV2` for one CRD version: a Swagger 2.0 document whose
/// `definitions` hold the version's models ([`build_models`]) and the
/// apimachinery definitions they refer to. Defaults are kept, as
/// `BuildOpenAPIV2` keeps them; [`publish_v2`] prunes them.
///
/// # Errors
///
/// [`PublishError::VersionNotFound`], or [`PublishError::Internal`].
pub fn build_openapi_v2(
    crd: &CustomResourceDefinition,
    version: &str,
    opts: &BuildOptions,
) -> Result<Value, PublishError> {
    let mut defs = BTreeMap::new();
    version_definitions(crd, version, OpenApiVersion::V2, opts, &mut defs)?;
    add_referenced_definitions(&mut defs, OpenApiVersion::V2)?;
    Ok(swagger_document(defs))
}

/// `BuildOpenAPIV3` for one CRD version: an OpenAPI 3.0 document whose
/// `components.schemas` hold the version's models ([`build_models`]) and
/// the apimachinery definitions they refer to.
///
/// # Errors
///
/// [`PublishError::VersionNotFound`], or [`PublishError::Internal`].
pub fn build_openapi_v3(
    crd: &CustomResourceDefinition,
    version: &str,
    opts: &BuildOptions,
) -> Result<Value, PublishError> {
    let mut defs = BTreeMap::new();
    version_definitions(crd, version, OpenApiVersion::V3, opts, &mut defs)?;
    add_referenced_definitions(&mut defs, OpenApiVersion::V3)?;
    Ok(openapi3_document(defs))
}

/// The names of the served versions, in the CRD's order.
fn served_versions(crd: &CustomResourceDefinition) -> Vec<&str> {
    crd.spec
        .as_ref()
        .and_then(|s| s.versions.as_deref())
        .unwrap_or(&[])
        .iter()
        .filter(|v| v.served == Some(true))
        .filter_map(|v| v.name.as_deref())
        .collect()
}

/// What the OpenAPI v2 controller publishes for a CRD: one Swagger 2.0
/// document with the models of every served version, their lists and the
/// apimachinery definitions they refer to, with every `default` removed
/// (`PruneDefaults`). The controller's options are [`BuildOptions::default`].
/// A CRD with no served version gives a document without definitions.
///
/// # Errors
///
/// [`PublishError::Internal`] only (served versions always exist).
pub fn publish_v2(crd: &CustomResourceDefinition) -> Result<Value, PublishError> {
    let opts = BuildOptions::default();
    let mut defs = BTreeMap::new();
    for version in served_versions(crd) {
        version_definitions(crd, version, OpenApiVersion::V2, &opts, &mut defs)?;
    }
    add_referenced_definitions(&mut defs, OpenApiVersion::V2)?;
    for def in defs.values_mut() {
        if let Value::Object(m) = def {
            prune_defaults(m);
        }
    }
    Ok(swagger_document(defs))
}

/// What the OpenAPI v3 controller publishes for a CRD: for every served
/// version, the document served at `/openapi/v3/apis/<group>/<version>`
/// (keyed `apis/<group>/<version>`), with the version's models, its list
/// and the apimachinery definitions they refer to in
/// `components.schemas`. Defaults are kept. The controller's options are
/// [`BuildOptions::default`].
///
/// # Errors
///
/// [`PublishError::Internal`] only.
pub fn publish_v3(crd: &CustomResourceDefinition) -> Result<BTreeMap<String, Value>, PublishError> {
    let opts = BuildOptions::default();
    let group = crd_names(crd).group;
    let mut out = BTreeMap::new();
    for version in served_versions(crd) {
        let doc = build_openapi_v3(crd, version, &opts)?;
        out.insert(format!("apis/{group}/{version}"), doc);
    }
    Ok(out)
}

/// A bare schema (the content of `openAPIV3Schema`) as published in
/// OpenAPI v3: `NewStructural`, `Unfold`, `ToKubeOpenAPI`. Only the schema:
/// no `apiVersion`, `kind`, `metadata` or extensions are added (use
/// [`build_models`] for the model of a CRD version).
///
/// # Errors
///
/// Where the builder would fall back to `{type: object}`:
/// [`PublishError::InvalidTypes`], [`PublishError::NewStructural`],
/// [`PublishError::NonStructural`].
pub fn publish_schema_v3(schema: &JsonSchemaProps) -> Result<Value, PublishError> {
    let s = publishable(schema, false)?;
    Ok(to_kube_openapi(&s))
}

/// A bare schema as published in OpenAPI v2: `NewStructural`, `Unfold`,
/// [`to_structural_openapi_v2`], `ToKubeOpenAPI`, then every `default`
/// removed. Only the schema (see [`publish_schema_v3`]); note that the
/// model of a CRD whose root preserves unknown fields is published in v2
/// as `{type: object}`, which [`build_models`] does and this does not.
///
/// # Errors
///
/// As [`publish_schema_v3`].
pub fn publish_schema_v2(schema: &JsonSchemaProps) -> Result<Value, PublishError> {
    let s = publishable(schema, false)?;
    let mut v = to_kube_openapi(&to_structural_openapi_v2(&s));
    if let Value::Object(m) = &mut v {
        prune_defaults(m);
    }
    Ok(v)
}

#[cfg(test)]
mod tests;
