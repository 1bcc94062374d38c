//! Whole-CRD validation as the API server runs it on **create**:
//! apiextensions-apiserver's `ValidateCustomResourceDefinition(ctx, obj)`
//! (`pkg/apis/apiextensions/validation/validation.go`), with the create
//! options of `pkg/registry/customresourcedefinition/strategy.go`.
//!
//! What the server does before it validates, and what this module
//! therefore does too:
//!
//! 1. **Defaulting** (`apis/apiextensions/v1/defaults.go`): an empty
//!    `names.singular` becomes `lower(names.kind)`, an empty `names.listKind`
//!    becomes `kind + "List"` (when `kind` is set), a missing `conversion`
//!    becomes `{strategy: None}`, a webhook service without `port` gets 443.
//! 2. **Conversion to the internal type** (`apis/apiextensions/v1/conversion.go`):
//!    `spec.version` becomes the name of `versions[0]`, and each of the
//!    per-version `schema`, `subresources`, `additionalPrinterColumns` and
//!    `selectableFields` that is *semantically identical in every version*
//!    (a single version always is) moves to the top level. Errors are then
//!    reported where the internal object has the field: a schema shared by
//!    all versions is reported under `spec.validation.openAPIV3Schema…`, a
//!    shared column under `spec.additionalPrinterColumns[i]…`, and a schema
//!    that differs between versions under `spec.versions[i].schema…`,
//!    exactly as `kubectl apply` shows them. Printer columns use the internal
//!    field name `JSONPath`, the conversion webhook is flattened to
//!    `spec.conversion.webhookClientConfig` and
//!    `spec.conversion.conversionReviewVersions`. [`submitted_location`]
//!    maps such a path back to where the field is written in the document.
//! 3. **`PrepareForCreate`**: the status is cleared and `status.storedVersions`
//!    becomes the name of the first version marked `storage`; a name is
//!    generated from `metadata.generateName` when `metadata.name` is empty;
//!    a `metadata.namespace` is dropped (CRDs are cluster-scoped).
//!
//! Then, in the server's order: ObjectMeta (`metadata.name` must be
//! `<plural>.<group>` and a DNS subdomain, labels, annotations, owner
//! references, finalizers), `validateCustomResourceDefinitionSpec`,
//! `ValidateCustomResourceDefinitionStatus` (empty on create),
//! `ValidateCustomResourceDefinitionStoredVersions`, `validateAPIApproval`
//! and `validatePreserveUnknownFields`.
//!
//! The schema part of each version (and of the top-level schema) is
//! [`validate_custom_resource_definition_validation`], called with the
//! [`SchemaOptions`] derived here.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::cel::field_path::{FieldPathError, valid_field_path};
use crate::crd::validation::schema::{
    SchemaOptions, validate_custom_resource_definition_validation,
};
use crate::go::fmt::go_quote;
use crate::go::names::{is_dns1035_label, is_dns1123_subdomain, name_is_dns_subdomain};
use crate::model::field::{ErrorList, FieldError, Path, PathElement};
use crate::model::structural::Structural;
use crate::model::wire::codec::Wire;
use crate::model::wire::{
    CrdSpec, CrdSubresources, CrdVersion, CustomResourceDefinition, CustomResourceValidation,
    JsonSchemaProps, PrinterColumn, SchemaOrArray, SchemaOrBool, SchemaOrStringArray,
    SelectableField, ServiceReference, ValidationRule, WebhookClientConfig,
};
use crate::object::metadata::{before_create, decode_object_meta, validate_object_meta_with};

/// The API version a CRD was submitted as.
///
/// Current API servers serve only `apiextensions.k8s.io/v1`; for a
/// [`RequestVersion::V1`] request this module reproduces the current create
/// validation exactly. `v1beta1` was last served by Kubernetes 1.21, whose
/// create validation derived some options from the request version; a
/// [`RequestVersion::V1Beta1`] request (the CRD already converted with
/// [`to_v1`](crate::model::wire::v1beta1::CustomResourceDefinitionV1Beta1::to_v1))
/// is validated with those options: no defaults allowed in schemas, no
/// schema required, no property-type check, structural schemas required
/// only when pruning, defaults or Kubernetes extensions ask for it, no API
/// approval check and `preserveUnknownFields: true` allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestVersion {
    /// `apiextensions.k8s.io/v1`.
    V1,
    /// `apiextensions.k8s.io/v1beta1`, converted to v1.
    V1Beta1,
}

/// Validates a CRD as the API server does on create, returning the field
/// errors in the order the server produces them (see the module docs for
/// the defaulting and the internal-form paths). `crd` is the v1 form;
/// `request` says which API version it was submitted as.
#[must_use]
pub fn validate_custom_resource_definition(
    crd: &CustomResourceDefinition,
    request: RequestVersion,
) -> ErrorList {
    let opts = Options::for_create(request);
    let defaulted = defaulted_spec(crd);
    let spec = internal_spec(&defaulted, versions_of(crd), request);
    let meta = crd.metadata.as_ref();

    let mut errs = ErrorList::new();
    validate_object_meta(meta, &spec, &mut errs);
    validate_spec(&spec, &opts, &mut errs);
    // ValidateCustomResourceDefinitionStatus: PrepareForCreate clears the
    // status, so the accepted names are empty and produce no errors.
    validate_stored_versions(&spec, &mut errs);
    if opts.check_api_approval {
        validate_api_approval(spec.group, meta, &mut errs);
    }
    if opts.check_preserve_unknown_fields && spec.preserve_unknown_fields == Some(true) {
        errs.push(FieldError::invalid(
            &Path::new(["spec", "preserveUnknownFields"]),
            true,
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
    errs
}

/// Maps the field path of an error produced by
/// [`validate_custom_resource_definition`] (which uses the server's
/// internal field layout) to where that field is written in the submitted
/// v1 document, e.g. `spec.validation.openAPIV3Schema.type` to
/// `spec.versions[0].schema.openAPIV3Schema.type` (a hoisted field is
/// identical in every version; the first one is named),
/// `spec.conversion.webhookClientConfig.url` to
/// `spec.conversion.webhook.clientConfig.url`, a column's `JSONPath` to
/// `jsonPath` and `spec.version` to `spec.versions[0].name`. Other paths
/// are returned unchanged. Meant for locating errors in the source.
#[must_use]
pub fn submitted_location(field: &Path) -> Path {
    let els = field.elements();
    let name = |i: usize| match els.get(i) {
        Some(PathElement::Child(c)) => Some(c.as_str()),
        _ => None,
    };
    let ch = |s: &str| PathElement::Child(s.to_string());
    let first_version = || [ch("spec"), ch("versions"), PathElement::Index(0)];
    let mut out: Vec<PathElement> = Vec::with_capacity(els.len() + 3);
    let mut rest_from = 0;
    if name(0) == Some("spec") {
        match (name(1), name(2)) {
            (Some("validation"), _) | (Some("schema"), Some("openAPIV3Schema")) => {
                out.extend(first_version());
                out.push(ch("schema"));
                rest_from = 2;
            }
            (Some(f @ ("subresources" | "additionalPrinterColumns" | "selectableFields")), _) => {
                out.extend(first_version());
                out.push(ch(f));
                rest_from = 2;
            }
            (Some("version"), None) if els.len() == 2 => {
                out.extend(first_version());
                out.push(ch("name"));
                rest_from = 2;
            }
            (Some("conversion"), Some("webhookClientConfig")) => {
                out.extend([
                    ch("spec"),
                    ch("conversion"),
                    ch("webhook"),
                    ch("clientConfig"),
                ]);
                rest_from = 3;
            }
            (Some("conversion"), Some("conversionReviewVersions")) => {
                out.extend([
                    ch("spec"),
                    ch("conversion"),
                    ch("webhook"),
                    ch("conversionReviewVersions"),
                ]);
                rest_from = 3;
            }
            _ => {}
        }
    }
    out.extend(els.iter().skip(rest_from).cloned());
    for i in 2..out.len() {
        let is_column_path = matches!(
            (out.get(i - 2), out.get(i - 1), out.get(i)),
            (Some(PathElement::Child(a)), Some(PathElement::Index(_)), Some(PathElement::Child(j)))
                if a == "additionalPrinterColumns" && j == "JSONPath"
        );
        if is_column_path {
            if let Some(e) = out.get_mut(i) {
                *e = ch("jsonPath");
            }
        }
    }
    out.into_iter().fold(Path::root(), |p, e| match e {
        PathElement::Child(c) => p.child(c),
        PathElement::Key(k) => p.key(k),
        PathElement::Index(n) => p.index(n),
    })
}

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

/// `validationOptions` of a create request. `requireImmutableNames`,
/// `preexistingExpressions`, `versionsWithUnchangedSchemas` and
/// `suppressPerExpressionCost` only matter on update (they are false or
/// empty on create); `allowInvalidCABundle` is true on create, so the
/// webhook `caBundle` is not checked.
#[derive(Clone, Debug)]
struct Options {
    allow_defaults: bool,
    require_recognized_conversion_review_version: bool,
    require_open_api_schema: bool,
    require_valid_property_type: bool,
    require_structural_schema: bool,
    require_pruned_defaults: bool,
    require_atomic_set_type: bool,
    require_map_list_keys_map_set_validation: bool,
    check_api_approval: bool,
    check_preserve_unknown_fields: bool,
}

impl Options {
    fn for_create(request: RequestVersion) -> Self {
        let v1 = request == RequestVersion::V1;
        Self {
            allow_defaults: v1,
            require_recognized_conversion_review_version: true,
            require_open_api_schema: v1,
            require_valid_property_type: v1,
            require_structural_schema: v1,
            require_pruned_defaults: true,
            require_atomic_set_type: true,
            require_map_list_keys_map_set_validation: true,
            check_api_approval: v1,
            check_preserve_unknown_fields: v1,
        }
    }

    fn schema_options(&self, preserve_unknown_fields: bool) -> SchemaOptions {
        let mut o = SchemaOptions::create();
        o.allow_defaults = self.allow_defaults;
        o.require_structural_schema = self.require_structural_schema;
        o.require_valid_property_type = self.require_valid_property_type;
        o.require_pruned_defaults = self.require_pruned_defaults;
        o.require_atomic_set_type = self.require_atomic_set_type;
        o.require_map_list_keys_map_set_validation = self.require_map_list_keys_map_set_validation;
        o.preserve_unknown_fields = preserve_unknown_fields;
        o
    }
}

// ---------------------------------------------------------------------------
// Defaulting and the internal form
// ---------------------------------------------------------------------------

/// The versions as submitted.
fn versions_of(crd: &CustomResourceDefinition) -> &[CrdVersion] {
    crd.spec
        .as_ref()
        .and_then(|s| s.versions.as_deref())
        .unwrap_or_default()
}

/// The spec with the v1 defaults applied, as the server defaults it. The
/// versions' schemas (which defaulting does not touch, and which are most
/// of a CRD) are not copied: read them from the submitted versions.
fn defaulted_spec(crd: &CustomResourceDefinition) -> CrdSpec {
    let mut spec = match &crd.spec {
        None => CrdSpec::default(),
        Some(s) => CrdSpec {
            group: s.group.clone(),
            names: s.names.clone(),
            scope: s.scope.clone(),
            versions: s.versions.as_ref().map(|vs| {
                vs.iter()
                    .map(|v| CrdVersion {
                        schema: None,
                        name: v.name.clone(),
                        served: v.served,
                        storage: v.storage,
                        deprecated: v.deprecated,
                        deprecation_warning: v.deprecation_warning.clone(),
                        subresources: v.subresources.clone(),
                        additional_printer_columns: v.additional_printer_columns.clone(),
                        selectable_fields: v.selectable_fields.clone(),
                        extra: v.extra.clone(),
                        explicit_nulls: v.explicit_nulls.clone(),
                    })
                    .collect()
            }),
            conversion: s.conversion.clone(),
            preserve_unknown_fields: s.preserve_unknown_fields,
            extra: s.extra.clone(),
            explicit_nulls: s.explicit_nulls.clone(),
        },
    };
    let names = spec.names.get_or_insert_with(Default::default);
    let kind = names.kind.clone().unwrap_or_default();
    if names.singular.as_deref().unwrap_or("").is_empty() {
        names.singular = Some(kind.to_lowercase());
    }
    if names.list_kind.as_deref().unwrap_or("").is_empty() && !kind.is_empty() {
        names.list_kind = Some(format!("{kind}List"));
    }
    let conversion = spec
        .conversion
        .get_or_insert_with(|| crate::model::wire::CrdConversion {
            strategy: Some("None".into()),
            ..Default::default()
        });
    if let Some(svc) = conversion
        .webhook
        .as_mut()
        .and_then(|w| w.client_config.as_mut())
        .and_then(|c| c.service.as_mut())
    {
        if svc.port.is_none() {
            svc.port = Some(443);
        }
    }
    spec
}

/// One `CustomResourceDefinitionVersion` in internal form.
struct Version<'a> {
    name: &'a str,
    served: bool,
    storage: bool,
    deprecated: bool,
    deprecation_warning: Option<&'a str>,
    schema: Option<&'a CustomResourceValidation>,
    subresources: Option<&'a CrdSubresources>,
    columns: &'a [PrinterColumn],
    selectable_fields: &'a [SelectableField],
}

/// `CustomResourceConversion` in internal form.
struct Conversion<'a> {
    strategy: &'a str,
    client_config: Option<&'a WebhookClientConfig>,
    review_versions: &'a [String],
}

/// `CustomResourceDefinitionSpec` in internal form.
struct Spec<'a> {
    group: &'a str,
    plural: &'a str,
    singular: &'a str,
    kind: &'a str,
    list_kind: &'a str,
    short_names: &'a [String],
    categories: &'a [String],
    scope: &'a str,
    version: &'a str,
    versions: Vec<Version<'a>>,
    validation: Option<&'a CustomResourceValidation>,
    subresources: Option<&'a CrdSubresources>,
    columns: &'a [PrinterColumn],
    selectable_fields: &'a [SelectableField],
    conversion: Option<Conversion<'a>>,
    preserve_unknown_fields: Option<bool>,
    /// The submitted versions, for the bad value of `spec.versions` errors.
    wire_versions: &'a [CrdVersion],
}

fn opt_str(s: Option<&String>) -> &str {
    s.map_or("", String::as_str)
}

/// Converts the (defaulted) v1 spec to the internal form, moving the
/// per-version fields that are identical in all versions to the top level.
fn internal_spec<'a>(
    spec: &'a CrdSpec,
    wire_versions: &'a [CrdVersion],
    request: RequestVersion,
) -> Spec<'a> {
    let names = spec.names.as_ref();
    let defaulted_versions: &[CrdVersion] = spec.versions.as_deref().unwrap_or_default();
    let mut versions: Vec<Version<'_>> = defaulted_versions
        .iter()
        .zip(wire_versions)
        .map(|(v, wire)| Version {
            name: opt_str(v.name.as_ref()),
            served: v.served == Some(true),
            storage: v.storage == Some(true),
            deprecated: v.deprecated == Some(true),
            deprecation_warning: v.deprecation_warning.as_deref(),
            schema: wire.schema.as_ref(),
            subresources: v.subresources.as_ref(),
            columns: v.additional_printer_columns.as_deref().unwrap_or_default(),
            selectable_fields: v.selectable_fields.as_deref().unwrap_or_default(),
        })
        .collect();

    let mut validation = None;
    let mut subresources = None;
    let mut columns: &[PrinterColumn] = &[];
    let mut selectable_fields: &[SelectableField] = &[];
    if let Some(first) = versions.first() {
        let all_same = |f: &dyn Fn(&Version<'_>) -> Value| {
            if versions.len() < 2 {
                return true;
            }
            let first_value = f(first);
            versions.iter().skip(1).all(|v| f(v) == first_value)
        };
        let schema_same = all_same(&|v| canon_validation(v.schema));
        let subresources_same = all_same(&|v| canon_subresources(v.subresources));
        let columns_same = all_same(&|v| canon_columns(v.columns));
        let selectable_same = all_same(&|v| canon_selectable(v.selectable_fields));
        if schema_same {
            validation = first.schema;
        }
        if subresources_same {
            subresources = first.subresources;
        }
        if columns_same {
            columns = first.columns;
        }
        if selectable_same {
            selectable_fields = first.selectable_fields;
        }
        for v in &mut versions {
            if schema_same {
                v.schema = None;
            }
            if subresources_same {
                v.subresources = None;
            }
            if columns_same {
                v.columns = &[];
            }
            if selectable_same {
                v.selectable_fields = &[];
            }
        }
    }

    let conversion = spec.conversion.as_ref().map(|c| {
        let webhook = c.webhook.as_ref();
        Conversion {
            strategy: opt_str(c.strategy.as_ref()),
            client_config: webhook.and_then(|w| w.client_config.as_ref()),
            review_versions: webhook
                .and_then(|w| w.conversion_review_versions.as_deref())
                .unwrap_or_default(),
        }
    });
    // v1's `preserveUnknownFields` is a plain bool, converted to a non-nil
    // pointer; v1beta1 defaults it to true.
    let preserve_unknown_fields = Some(match request {
        RequestVersion::V1 => spec.preserve_unknown_fields.unwrap_or(false),
        RequestVersion::V1Beta1 => spec.preserve_unknown_fields.unwrap_or(true),
    });

    Spec {
        group: opt_str(spec.group.as_ref()),
        plural: opt_str(names.and_then(|n| n.plural.as_ref())),
        singular: opt_str(names.and_then(|n| n.singular.as_ref())),
        kind: opt_str(names.and_then(|n| n.kind.as_ref())),
        list_kind: opt_str(names.and_then(|n| n.list_kind.as_ref())),
        short_names: names
            .and_then(|n| n.short_names.as_deref())
            .unwrap_or_default(),
        categories: names
            .and_then(|n| n.categories.as_deref())
            .unwrap_or_default(),
        scope: opt_str(spec.scope.as_ref()),
        version: versions.first().map_or("", |v| v.name),
        versions,
        validation,
        subresources,
        columns,
        selectable_fields,
        conversion,
        preserve_unknown_fields,
        wire_versions,
    }
}

// Canonical values for `apiequality.Semantic.DeepEqual` of the internal
// types: zero-valued non-pointer fields and empty slices/maps count as
// absent, pointers keep their presence, unknown fields and explicit nulls
// are ignored, `float64` fields compare as numbers.

fn put_str(m: &mut Map<String, Value>, k: &str, v: Option<&String>) {
    if let Some(s) = v.filter(|s| !s.is_empty()) {
        m.insert(k.to_string(), Value::String(s.clone()));
    }
}

fn put_flag(m: &mut Map<String, Value>, k: &str, v: Option<bool>) {
    if v == Some(true) {
        m.insert(k.to_string(), Value::Bool(true));
    }
}

fn put_some<T: Clone + Into<Value>>(m: &mut Map<String, Value>, k: &str, v: Option<&T>) {
    if let Some(x) = v {
        m.insert(k.to_string(), x.clone().into());
    }
}

fn put_f64(m: &mut Map<String, Value>, k: &str, v: Option<&serde_json::Number>) {
    if let Some(n) = v {
        m.insert(k.to_string(), Value::from(n.as_f64().unwrap_or(f64::NAN)));
    }
}

fn put_schemas(m: &mut Map<String, Value>, k: &str, v: Option<&Vec<JsonSchemaProps>>) {
    if let Some(list) = v.filter(|l| !l.is_empty()) {
        m.insert(
            k.to_string(),
            Value::Array(list.iter().map(canon_schema).collect()),
        );
    }
}

fn put_schema_map(
    m: &mut Map<String, Value>,
    k: &str,
    v: Option<&indexmap::IndexMap<String, JsonSchemaProps>>,
) {
    if let Some(map) = v.filter(|l| !l.is_empty()) {
        let inner: Map<String, Value> = map
            .iter()
            .map(|(name, s)| (name.clone(), canon_schema(s)))
            .collect();
        m.insert(k.to_string(), Value::Object(inner));
    }
}

fn canon_or_bool(v: &SchemaOrBool) -> Value {
    let mut m = Map::new();
    m.insert("allows".into(), Value::Bool(v.allows()));
    if let Some(s) = v.schema() {
        m.insert("schema".into(), canon_schema(s));
    }
    Value::Object(m)
}

fn canon_rule(r: &ValidationRule) -> Value {
    let mut m = Map::new();
    put_str(&mut m, "rule", r.rule.as_ref());
    put_str(&mut m, "message", r.message.as_ref());
    put_str(&mut m, "messageExpression", r.message_expression.as_ref());
    put_some(&mut m, "reason", r.reason.as_ref());
    put_str(&mut m, "fieldPath", r.field_path.as_ref());
    put_some(&mut m, "optionalOldSelf", r.optional_old_self.as_ref());
    Value::Object(m)
}

fn canon_schema(s: &JsonSchemaProps) -> Value {
    let mut m = Map::new();
    put_str(&mut m, "id", s.id.as_ref());
    put_str(&mut m, "$schema", s.schema.as_ref());
    put_some(&mut m, "$ref", s.reference.as_ref());
    put_str(&mut m, "description", s.description.as_ref());
    put_str(&mut m, "type", s.type_.as_ref());
    put_str(&mut m, "format", s.format.as_ref());
    put_str(&mut m, "title", s.title.as_ref());
    put_some(&mut m, "default", s.default.as_ref());
    put_f64(&mut m, "maximum", s.maximum.as_ref());
    put_flag(&mut m, "exclusiveMaximum", s.exclusive_maximum);
    put_f64(&mut m, "minimum", s.minimum.as_ref());
    put_flag(&mut m, "exclusiveMinimum", s.exclusive_minimum);
    put_some(&mut m, "maxLength", s.max_length.as_ref());
    put_some(&mut m, "minLength", s.min_length.as_ref());
    put_str(&mut m, "pattern", s.pattern.as_ref());
    put_some(&mut m, "maxItems", s.max_items.as_ref());
    put_some(&mut m, "minItems", s.min_items.as_ref());
    put_flag(&mut m, "uniqueItems", s.unique_items);
    put_f64(&mut m, "multipleOf", s.multiple_of.as_ref());
    if let Some(e) = s.enum_.as_ref().filter(|e| !e.is_empty()) {
        m.insert("enum".into(), Value::Array(e.clone()));
    }
    put_some(&mut m, "maxProperties", s.max_properties.as_ref());
    put_some(&mut m, "minProperties", s.min_properties.as_ref());
    if let Some(r) = s.required.as_ref().filter(|r| !r.is_empty()) {
        m.insert("required".into(), Value::from(r.clone()));
    }
    match &s.items {
        Some(SchemaOrArray::Schema(i)) => {
            let mut im = Map::new();
            im.insert("schema".into(), canon_schema(i));
            m.insert("items".into(), Value::Object(im));
        }
        Some(SchemaOrArray::Array(a)) => {
            let mut im = Map::new();
            if !a.is_empty() {
                im.insert(
                    "array".into(),
                    Value::Array(a.iter().map(canon_schema).collect()),
                );
            }
            m.insert("items".into(), Value::Object(im));
        }
        None => {}
    }
    put_schemas(&mut m, "allOf", s.all_of.as_ref());
    put_schemas(&mut m, "oneOf", s.one_of.as_ref());
    put_schemas(&mut m, "anyOf", s.any_of.as_ref());
    if let Some(n) = &s.not {
        m.insert("not".into(), canon_schema(n));
    }
    put_schema_map(&mut m, "properties", s.properties.as_ref());
    if let Some(ap) = &s.additional_properties {
        m.insert("additionalProperties".into(), canon_or_bool(ap));
    }
    put_schema_map(&mut m, "patternProperties", s.pattern_properties.as_ref());
    if let Some(deps) = s.dependencies.as_ref().filter(|d| !d.is_empty()) {
        let inner: Map<String, Value> = deps
            .iter()
            .map(|(k, d)| {
                let mut dm = Map::new();
                match d {
                    SchemaOrStringArray::Schema(x) => {
                        dm.insert("schema".into(), canon_schema(x));
                    }
                    SchemaOrStringArray::Property(p) if !p.is_empty() => {
                        dm.insert("property".into(), Value::from(p.clone()));
                    }
                    SchemaOrStringArray::Property(_) => {}
                }
                (k.clone(), Value::Object(dm))
            })
            .collect();
        m.insert("dependencies".into(), Value::Object(inner));
    }
    if let Some(ai) = &s.additional_items {
        m.insert("additionalItems".into(), canon_or_bool(ai));
    }
    put_schema_map(&mut m, "definitions", s.definitions.as_ref());
    if let Some(d) = &s.external_docs {
        let mut dm = Map::new();
        put_str(&mut dm, "description", d.description.as_ref());
        put_str(&mut dm, "url", d.url.as_ref());
        m.insert("externalDocs".into(), Value::Object(dm));
    }
    put_some(&mut m, "example", s.example.as_ref());
    put_flag(&mut m, "nullable", s.nullable);
    put_some(
        &mut m,
        "x-kubernetes-preserve-unknown-fields",
        s.x_preserve_unknown_fields.as_ref(),
    );
    put_flag(
        &mut m,
        "x-kubernetes-embedded-resource",
        s.x_embedded_resource,
    );
    put_flag(&mut m, "x-kubernetes-int-or-string", s.x_int_or_string);
    if let Some(k) = s.x_list_map_keys.as_ref().filter(|k| !k.is_empty()) {
        m.insert("x-kubernetes-list-map-keys".into(), Value::from(k.clone()));
    }
    put_some(&mut m, "x-kubernetes-list-type", s.x_list_type.as_ref());
    put_some(&mut m, "x-kubernetes-map-type", s.x_map_type.as_ref());
    if let Some(rules) = s.x_validations.as_ref().filter(|r| !r.is_empty()) {
        m.insert(
            "x-kubernetes-validations".into(),
            Value::Array(rules.iter().map(canon_rule).collect()),
        );
    }
    Value::Object(m)
}

fn canon_validation(v: Option<&CustomResourceValidation>) -> Value {
    match v {
        None => Value::Null,
        Some(v) => {
            let mut m = Map::new();
            if let Some(s) = &v.open_api_v3_schema {
                m.insert("openAPIV3Schema".into(), canon_schema(s));
            }
            Value::Object(m)
        }
    }
}

fn canon_subresources(v: Option<&CrdSubresources>) -> Value {
    match v {
        None => Value::Null,
        Some(s) => {
            let mut m = Map::new();
            if s.status.is_some() {
                m.insert("status".into(), Value::Object(Map::new()));
            }
            if let Some(scale) = &s.scale {
                let mut sm = Map::new();
                put_str(
                    &mut sm,
                    "specReplicasPath",
                    scale.spec_replicas_path.as_ref(),
                );
                put_str(
                    &mut sm,
                    "statusReplicasPath",
                    scale.status_replicas_path.as_ref(),
                );
                put_some(
                    &mut sm,
                    "labelSelectorPath",
                    scale.label_selector_path.as_ref(),
                );
                m.insert("scale".into(), Value::Object(sm));
            }
            Value::Object(m)
        }
    }
}

fn canon_columns(cols: &[PrinterColumn]) -> Value {
    Value::Array(
        cols.iter()
            .map(|c| {
                let mut m = Map::new();
                put_str(&mut m, "name", c.name.as_ref());
                put_str(&mut m, "type", c.type_.as_ref());
                put_str(&mut m, "format", c.format.as_ref());
                put_str(&mut m, "description", c.description.as_ref());
                if let Some(p) = c.priority.filter(|p| *p != 0) {
                    m.insert("priority".into(), Value::from(p));
                }
                put_str(&mut m, "JSONPath", c.json_path.as_ref());
                Value::Object(m)
            })
            .collect(),
    )
}

fn canon_selectable(fields: &[SelectableField]) -> Value {
    Value::Array(
        fields
            .iter()
            .map(|f| {
                let mut m = Map::new();
                put_str(&mut m, "jsonPath", f.json_path.as_ref());
                Value::Object(m)
            })
            .collect(),
    )
}

// ---------------------------------------------------------------------------
// ObjectMeta
// ---------------------------------------------------------------------------

/// `genericvalidation.ValidateObjectMeta` with the CRD's name function, as
/// it sees the object after `PrepareForCreate` and `BeforeCreate`
/// (generation 1, no namespace, a name generated from `generateName`).
/// The server decodes the metadata into its typed `ObjectMeta` first (a
/// wrongly typed field fails the whole request there); here such a field
/// is dropped and the rest is validated. Managed fields are not checked.
fn validate_object_meta(meta: Option<&Value>, spec: &Spec<'_>, errs: &mut ErrorList) {
    let mut meta = meta
        .and_then(|m| decode_object_meta(m, true).ok())
        .unwrap_or_default();
    meta.generation = 1;
    meta.managed_fields.clear();
    before_create(&mut meta, false);
    let required_name = format!("{}.{}", spec.plural, spec.group);
    let name_fn = |name: &str, prefix: bool| {
        let mut ret = name_is_dns_subdomain(name, prefix);
        if name != required_name {
            ret.push(r#"must be spec.names.plural+"."+spec.group"#.to_string());
        }
        ret
    };
    errs.extend(validate_object_meta_with(
        &meta,
        false,
        &name_fn,
        &Path::new(["metadata"]),
    ));
}

// ---------------------------------------------------------------------------
// Spec
// ---------------------------------------------------------------------------

/// `validateCustomResourceDefinitionSpec`.
fn validate_spec(spec: &Spec<'_>, opts0: &Options, errs: &mut ErrorList) {
    let sp = Path::new(["spec"]);

    if spec.group.is_empty() {
        errs.push(FieldError::required(&sp.child("group"), ""));
    } else {
        let msgs = is_dns1123_subdomain(spec.group);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &sp.child("group"),
                spec.group,
                msgs.join(","),
            ));
        } else if spec.group.split('.').count() < 2 {
            errs.push(FieldError::invalid(
                &sp.child("group"),
                spec.group,
                "should be a domain with at least one dot",
            ));
        }
    }

    validate_enum_strings(
        &sp.child("scope"),
        spec.scope,
        &["Cluster", "Namespaced"],
        errs,
    );

    let mut opts = opts0.clone();
    let pruning = spec.preserve_unknown_fields != Some(true);
    if pruning {
        // enabling pruning requires structural schemas
        opts.require_structural_schema = true;
    }
    let top_schema_missing = spec
        .validation
        .and_then(|v| v.open_api_v3_schema.as_ref())
        .is_none();
    let version_schema_missing = |v: &Version<'_>| {
        v.schema
            .and_then(|s| s.open_api_v3_schema.as_ref())
            .is_none()
    };
    if opts.require_open_api_schema {
        if top_schema_missing {
            for (i, v) in spec.versions.iter().enumerate() {
                if version_schema_missing(v) {
                    errs.push(FieldError::required(
                        &sp.child("versions")
                            .index(i)
                            .child("schema")
                            .child("openAPIV3Schema"),
                        "schemas are required",
                    ));
                }
            }
        }
    } else if pruning && top_schema_missing {
        for (i, v) in spec.versions.iter().enumerate() {
            if v.served && version_schema_missing(v) {
                errs.push(FieldError::required(
                    &sp.child("versions")
                        .index(i)
                        .child("schema")
                        .child("openAPIV3Schema"),
                    "because otherwise all fields are pruned",
                ));
            }
        }
    }
    if opts.allow_defaults && spec_has(spec, &|s| s.default.is_some()) {
        opts.require_structural_schema = true;
        if spec.preserve_unknown_fields != Some(false) {
            errs.push(FieldError::invalid(
                &sp.child("preserveUnknownFields"),
                true,
                "must be false in order to use defaults in the schema",
            ));
        }
    }
    if spec_has(spec, &has_kubernetes_extensions) {
        opts.require_structural_schema = true;
    }
    let puf = spec.preserve_unknown_fields == Some(true);
    let schema_opts = opts.schema_options(puf);

    let mut storage_count = 0usize;
    let mut seen: HashSet<&str> = HashSet::new();
    let mut unique_names = true;
    for (i, v) in spec.versions.iter().enumerate() {
        let vp = sp.child("versions").index(i);
        if v.storage {
            storage_count += 1;
        }
        if !seen.insert(v.name) {
            unique_names = false;
        }
        let msgs = is_dns1035_label(v.name);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &vp.child("name"),
                v.name,
                msgs.join(","),
            ));
        }
        let status_enabled = has_status_enabled(subresources_for_version(spec, v.name));
        validate_version(v, &vp, status_enabled, &schema_opts, errs);
    }
    // The checks that top-level and per-version schemas, subresources and
    // columns are mutually exclusive, and that per-version ones are not all
    // identical, cannot fire for a v1 object: its conversion moves identical
    // per-version fields to the top level and leaves nothing per version.

    if !unique_names {
        errs.push(FieldError::invalid_struct(
            &sp.child("versions"),
            &versions_value(spec),
            "must contain unique version names",
        ));
    }
    if storage_count != 1 {
        errs.push(FieldError::invalid_struct(
            &sp.child("versions"),
            &versions_value(spec),
            "must have exactly one version marked as storage version",
        ));
    }
    if !spec.version.is_empty() {
        // `spec.version` is the name of `versions[0]`, so it always matches.
        let msgs = is_dns1035_label(spec.version);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &sp.child("version"),
                spec.version,
                msgs.join(","),
            ));
        }
    }

    let np = sp.child("names");
    for (value, key) in [
        (spec.plural, "plural"),
        (spec.singular, "singular"),
        (spec.kind, "kind"),
        (spec.list_kind, "listKind"),
    ] {
        if value.is_empty() {
            errs.push(FieldError::required(&np.child(key), ""));
        }
    }
    validate_names(spec, &np, errs);

    errs.extend(validate_custom_resource_definition_validation(
        spec.validation,
        has_any_status_enabled(spec),
        &schema_opts,
        &sp.child("validation"),
    ));
    validate_subresources(spec.subresources, &sp.child("subresources"), errs);
    for (i, col) in spec.columns.iter().enumerate() {
        validate_column(col, &sp.child("additionalPrinterColumns").index(i), errs);
    }
    if !spec.selectable_fields.is_empty() {
        match spec.validation {
            None => errs.push(FieldError::invalid(
                &sp.child("selectableFields"),
                "",
                "selectableFields may only be set when validations.schema is included",
            )),
            Some(v) => validate_selectable_fields_with_schema(
                spec.selectable_fields,
                v.open_api_v3_schema.as_ref(),
                &sp.child("schema").child("openAPIV3Schema"),
                &sp.child("selectableFields"),
                errs,
            ),
        }
    }

    if let Some(conversion) = &spec.conversion {
        if conversion.strategy != "None" && spec.preserve_unknown_fields != Some(false) {
            errs.push(FieldError::invalid(
                &sp.child("conversion").child("strategy"),
                conversion.strategy,
                "must be None if spec.preserveUnknownFields is true",
            ));
        }
        validate_conversion(
            conversion,
            opts.require_recognized_conversion_review_version,
            &sp.child("conversion"),
            errs,
        );
    }
}

/// The submitted versions, as the bad value of `spec.versions` errors.
fn versions_value(spec: &Spec<'_>) -> Value {
    Value::Array(spec.wire_versions.iter().map(Wire::encode).collect())
}

/// `validateEnumStrings` with `required` set.
fn validate_enum_strings(p: &Path, value: &str, accepted: &[&str], errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(FieldError::required(p, ""));
    } else if !accepted.contains(&value) {
        errs.push(FieldError::not_supported(p, value, accepted));
    }
}

/// `getSubresourcesForVersion`.
fn subresources_for_version<'a>(spec: &Spec<'a>, name: &str) -> Option<&'a CrdSubresources> {
    if !spec.versions.iter().any(|v| v.subresources.is_some()) {
        return spec.subresources;
    }
    spec.versions
        .iter()
        .find(|v| v.name == name)
        .and_then(|v| v.subresources)
}

fn has_status_enabled(s: Option<&CrdSubresources>) -> bool {
    s.is_some_and(|s| s.status.is_some())
}

/// `hasAnyStatusEnabled`.
fn has_any_status_enabled(spec: &Spec<'_>) -> bool {
    has_status_enabled(spec.subresources)
        || spec
            .versions
            .iter()
            .any(|v| has_status_enabled(v.subresources))
}

/// `HasSchemaWith`: whether the top-level or a per-version schema has a
/// node satisfying `pred`.
fn spec_has(spec: &Spec<'_>, pred: &dyn Fn(&JsonSchemaProps) -> bool) -> bool {
    spec.validation
        .into_iter()
        .chain(spec.versions.iter().filter_map(|v| v.schema))
        .filter_map(|v| v.open_api_v3_schema.as_ref())
        .any(|s| schema_has(s, pred))
}

/// `SchemaHas`: `pred` on every node, pre-order.
fn schema_has(s: &JsonSchemaProps, pred: &dyn Fn(&JsonSchemaProps) -> bool) -> bool {
    if pred(s) {
        return true;
    }
    match &s.items {
        Some(SchemaOrArray::Schema(i)) if schema_has(i, pred) => return true,
        Some(SchemaOrArray::Array(a)) if a.iter().any(|i| schema_has(i, pred)) => return true,
        _ => {}
    }
    let lists = [&s.all_of, &s.any_of, &s.one_of];
    if lists
        .iter()
        .any(|l| l.iter().flatten().any(|x| schema_has(x, pred)))
    {
        return true;
    }
    if s.not.as_deref().is_some_and(|n| schema_has(n, pred)) {
        return true;
    }
    if s.properties
        .iter()
        .flatten()
        .any(|(_, x)| schema_has(x, pred))
    {
        return true;
    }
    if s.additional_properties
        .as_ref()
        .and_then(SchemaOrBool::schema)
        .is_some_and(|x| schema_has(x, pred))
    {
        return true;
    }
    if s.pattern_properties
        .iter()
        .flatten()
        .any(|(_, x)| schema_has(x, pred))
    {
        return true;
    }
    if s.additional_items
        .as_ref()
        .and_then(SchemaOrBool::schema)
        .is_some_and(|x| schema_has(x, pred))
    {
        return true;
    }
    if s.definitions
        .iter()
        .flatten()
        .any(|(_, x)| schema_has(x, pred))
    {
        return true;
    }
    s.dependencies.iter().flatten().any(|(_, d)| match d {
        SchemaOrStringArray::Schema(x) => schema_has(x, pred),
        SchemaOrStringArray::Property(_) => false,
    })
}

/// `schemaHasKubernetesExtensions`' predicate.
fn has_kubernetes_extensions(s: &JsonSchemaProps) -> bool {
    s.is_embedded_resource()
        || s.x_preserve_unknown_fields.is_some()
        || s.is_int_or_string()
        || s.x_list_map_keys.as_ref().is_some_and(|k| !k.is_empty())
        || s.x_list_type.is_some()
        || s.x_validations.as_ref().is_some_and(|r| !r.is_empty())
}

/// `validateCustomResourceDefinitionVersion`.
fn validate_version(
    v: &Version<'_>,
    vp: &Path,
    status_enabled: bool,
    schema_opts: &SchemaOptions,
    errs: &mut ErrorList,
) {
    for msg in deprecation_warning_errors(v.deprecated, v.deprecation_warning) {
        errs.push(FieldError::invalid(
            &vp.child("deprecationWarning"),
            v.deprecation_warning.unwrap_or(""),
            msg,
        ));
    }
    errs.extend(validate_custom_resource_definition_validation(
        v.schema,
        status_enabled,
        schema_opts,
        &vp.child("schema"),
    ));
    validate_subresources(v.subresources, &vp.child("subresources"), errs);
    for (i, col) in v.columns.iter().enumerate() {
        validate_column(col, &vp.child("additionalPrinterColumns").index(i), errs);
    }
    if !v.selectable_fields.is_empty() {
        match v.schema.and_then(|s| s.open_api_v3_schema.as_ref()) {
            None => errs.push(FieldError::invalid(
                &vp.child("selectableFields"),
                "",
                "selectableFields may only be set when version.schema.openAPIV3Schema is not included",
            )),
            Some(schema) => validate_selectable_fields_with_schema(
                v.selectable_fields,
                Some(schema),
                &vp.child("schema").child("openAPIV3Schema"),
                &vp.child("selectableFields"),
                errs,
            ),
        }
    }
}

/// `validateDeprecationWarning`.
fn deprecation_warning_errors(deprecated: bool, warning: Option<&str>) -> Vec<String> {
    let Some(w) = warning else {
        return Vec::new();
    };
    if !deprecated {
        return vec!["can only be set for deprecated versions".into()];
    }
    let mut out = Vec::new();
    if w.len() > 256 {
        out.push("must be <= 256 characters long".into());
    }
    if w.is_empty() {
        out.push("must not be an empty string".into());
    }
    for (i, c) in w.char_indices() {
        if !crate::go::fmt::is_go_print(c) {
            out.push(format!(
                "must only contain printable UTF-8 characters; non-printable character found at index {i}"
            ));
            break;
        }
    }
    out
}

/// `ValidateCustomResourceDefinitionNames` (for `spec.names`).
fn validate_names(spec: &Spec<'_>, np: &Path, errs: &mut ErrorList) {
    let mut plain = |value: &str, key: &str| {
        let msgs = is_dns1035_label(value);
        if !value.is_empty() && !msgs.is_empty() {
            errs.push(FieldError::invalid(&np.child(key), value, msgs.join(",")));
        }
    };
    plain(spec.plural, "plural");
    plain(spec.singular, "singular");
    for (value, key) in [(spec.kind, "kind"), (spec.list_kind, "listKind")] {
        let msgs = is_dns1035_label(&value.to_lowercase());
        if !value.is_empty() && !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &np.child(key),
                value,
                format!(
                    "may have mixed case, but should otherwise match: {}",
                    msgs.join(",")
                ),
            ));
        }
    }
    for (i, s) in spec.short_names.iter().enumerate() {
        let msgs = is_dns1035_label(s);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &np.child("shortNames").index(i),
                s.as_str(),
                msgs.join(","),
            ));
        }
    }
    if !spec.kind.is_empty() && spec.kind == spec.list_kind {
        errs.push(FieldError::invalid(
            &np.child("listKind"),
            spec.list_kind,
            "kind and listKind may not be the same",
        ));
    }
    for (i, c) in spec.categories.iter().enumerate() {
        let msgs = is_dns1035_label(c);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &np.child("categories").index(i),
                c.as_str(),
                msgs.join(","),
            ));
        }
    }
}

// ---------------------------------------------------------------------------
// Subresources, printer columns, selectable fields
// ---------------------------------------------------------------------------

/// `ValidateCustomResourceDefinitionSubresources`. Whether the paths exist
/// in the schema is not checked at create (only when scaling).
fn validate_subresources(s: Option<&CrdSubresources>, p: &Path, errs: &mut ErrorList) {
    let Some(scale) = s.and_then(|s| s.scale.as_ref()) else {
        return;
    };
    let sp = p.child("scale");
    let spec_path = opt_str(scale.spec_replicas_path.as_ref());
    let fp = sp.child("specReplicasPath");
    if spec_path.is_empty() {
        errs.push(FieldError::required(&fp, ""));
    } else if let Some(e) = simple_json_path_error(spec_path, &fp) {
        errs.push(e);
    } else if !spec_path.starts_with(".spec.") {
        errs.push(FieldError::invalid(
            &fp,
            spec_path,
            "should be a json path under .spec",
        ));
    }

    let status_path = opt_str(scale.status_replicas_path.as_ref());
    let fp = sp.child("statusReplicasPath");
    if status_path.is_empty() {
        errs.push(FieldError::required(&fp, ""));
    } else if let Some(e) = simple_json_path_error(status_path, &fp) {
        errs.push(e);
    } else if !status_path.starts_with(".status.") {
        errs.push(FieldError::invalid(
            &fp,
            status_path,
            "should be a json path under .status",
        ));
    }

    if let Some(label) = scale
        .label_selector_path
        .as_deref()
        .filter(|l| !l.is_empty())
    {
        let fp = sp.child("labelSelectorPath");
        if let Some(e) = simple_json_path_error(label, &fp) {
            errs.push(e);
        } else if !label.starts_with(".spec.") && !label.starts_with(".status.") {
            errs.push(FieldError::invalid(
                &fp,
                label,
                "should be a json path under either .spec or .status",
            ));
        }
    }
}

/// `validateSimpleJSONPath`: only the leading dot is checked (the
/// dot-notation split can never fail).
fn simple_json_path_error(s: &str, p: &Path) -> Option<FieldError> {
    if s.is_empty() {
        Some(FieldError::invalid(p, s, "must not be empty"))
    } else if !s.starts_with('.') {
        Some(FieldError::invalid(
            p,
            s,
            "must be a simple json path starting with .",
        ))
    } else {
        None
    }
}

const COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";

/// `ValidateCustomResourceColumnDefinition` (the path of the JSON path is
/// the internal field name `JSONPath`).
fn validate_column(col: &PrinterColumn, p: &Path, errs: &mut ErrorList) {
    if opt_str(col.name.as_ref()).is_empty() {
        errs.push(FieldError::required(&p.child("name"), ""));
    }
    let t = opt_str(col.type_.as_ref());
    let type_detail = format!("must be one of {COLUMN_TYPES}");
    if t.is_empty() {
        errs.push(FieldError::required(&p.child("type"), type_detail));
    } else if !COLUMN_TYPES.split(',').any(|x| x == t) {
        errs.push(FieldError::invalid(&p.child("type"), t, type_detail));
    }
    let f = opt_str(col.format.as_ref());
    if !f.is_empty() && !COLUMN_FORMATS.split(',').any(|x| x == f) {
        errs.push(FieldError::invalid(
            &p.child("format"),
            f,
            format!("must be one of {COLUMN_FORMATS}"),
        ));
    }
    let jp = opt_str(col.json_path.as_ref());
    let fp = p.child("JSONPath");
    if jp.is_empty() {
        errs.push(FieldError::required(&fp, ""));
    } else if let Some(e) = simple_json_path_error(jp, &fp) {
        errs.push(e);
    }
}

/// The most selectable fields a version may have.
const MAX_SELECTABLE_FIELDS: usize = 8;

/// Builds the structural schema (reporting a `NewStructural` error at
/// `schema_path`) and validates the selectable fields against it. Where
/// the server would dereference the missing structural schema (and answer
/// with an internal error), validation of the fields stops.
fn validate_selectable_fields_with_schema(
    fields: &[SelectableField],
    schema: Option<&JsonSchemaProps>,
    schema_path: &Path,
    p: &Path,
    errs: &mut ErrorList,
) {
    let structural = match schema.map(Structural::from_props) {
        None => None,
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            errs.push(FieldError::invalid(schema_path, "", e.0));
            None
        }
    };
    validate_selectable_fields(fields, structural.as_ref(), p, errs);
}

/// `ValidateCustomResourceSelectableFields`.
fn validate_selectable_fields(
    fields: &[SelectableField],
    schema: Option<&Structural>,
    p: &Path,
    errs: &mut ErrorList,
) {
    let mut unique: Vec<String> = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let fp = p.index(i).child("jsonPath");
        let jp = opt_str(f.json_path.as_ref());
        if jp.is_empty() {
            errs.push(FieldError::required(&fp, ""));
            continue;
        }
        let (path, found) = match valid_field_path(jp, schema, false) {
            Ok(r) => r,
            Err(FieldPathError::Message(m)) => {
                errs.push(FieldError::invalid(
                    &fp,
                    jp,
                    format!("is an invalid path: {m}"),
                ));
                continue;
            }
            // The server would dereference a nil schema here.
            Err(FieldPathError::NilSchema(_)) => return,
        };
        if matches!(path.elements().first(), Some(PathElement::Child(c)) if c == "metadata") {
            errs.push(FieldError::invalid(
                &fp,
                jp,
                "must not point to fields in metadata",
            ));
        }
        let allowed = found
            .is_some_and(|s| matches!(s.generic.type_.as_str(), "string" | "boolean" | "integer"));
        if !allowed {
            errs.push(FieldError::invalid(
                &fp,
                jp,
                "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            ));
        }
        let key = path.to_string();
        if unique.contains(&key) {
            errs.push(FieldError::duplicate(&fp, jp));
        } else {
            unique.push(key);
        }
    }
    if unique.len() > MAX_SELECTABLE_FIELDS {
        errs.push(FieldError::too_many(
            p,
            i64::try_from(unique.len()).unwrap_or(i64::MAX),
            i64::try_from(MAX_SELECTABLE_FIELDS).unwrap_or(i64::MAX),
        ));
    }
}

// ---------------------------------------------------------------------------
// Conversion
// ---------------------------------------------------------------------------

/// `validateCustomResourceConversion` (the `caBundle` is not checked on
/// create: `allowInvalidCABundle` is true).
fn validate_conversion(
    c: &Conversion<'_>,
    require_recognized_version: bool,
    p: &Path,
    errs: &mut ErrorList,
) {
    validate_enum_strings(&p.child("strategy"), c.strategy, &["None", "Webhook"], errs);
    let ccp = p.child("webhookClientConfig");
    if c.strategy == "Webhook" {
        match c.client_config {
            None => errs.push(FieldError::required(
                &ccp,
                "required when strategy is set to Webhook",
            )),
            Some(cc) => match (&cc.url, &cc.service) {
                (Some(url), None) => validate_webhook_url(&ccp.child("url"), url, errs),
                (None, Some(svc)) => validate_webhook_service(&ccp.child("service"), svc, errs),
                _ => errs.push(FieldError::required(
                    &ccp,
                    "exactly one of url or service is required",
                )),
            },
        }
        validate_conversion_review_versions(
            c.review_versions,
            require_recognized_version,
            &p.child("conversionReviewVersions"),
            errs,
        );
    } else {
        if c.client_config.is_some() {
            errs.push(FieldError::forbidden(
                &ccp,
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !c.review_versions.is_empty() {
            errs.push(FieldError::forbidden(
                &p.child("conversionReviewVersions"),
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
}

/// `validateConversionReviewVersions`.
fn validate_conversion_review_versions(
    versions: &[String],
    require_recognized_version: bool,
    p: &Path,
    errs: &mut ErrorList,
) {
    if versions.is_empty() {
        errs.push(FieldError::required(p, ""));
        return;
    }
    let mut seen: HashSet<&str> = HashSet::new();
    let mut has_accepted = false;
    for (i, v) in versions.iter().enumerate() {
        if !seen.insert(v.as_str()) {
            errs.push(FieldError::invalid(
                &p.index(i),
                v.as_str(),
                "duplicate version",
            ));
            continue;
        }
        for msg in is_dns1035_label(v) {
            errs.push(FieldError::invalid(&p.index(i), v.as_str(), msg));
        }
        if v == "v1" || v == "v1beta1" {
            has_accepted = true;
        }
    }
    if require_recognized_version && !has_accepted {
        errs.push(FieldError::invalid(
            p,
            Value::from(versions.to_vec()),
            "must include at least one of v1, v1beta1",
        ));
    }
}

/// `webhook.ValidateWebhookURL` with `forceHttps`.
fn validate_webhook_url(p: &Path, url: &str, errs: &mut ErrorList) {
    const FORM: &str = "; desired format: https://host[/path]";
    match crate::go::url::parse(url) {
        Err(e) => errs.push(FieldError::required(
            p,
            format!("url must be a valid URL: {e}{FORM}"),
        )),
        Ok(u) => {
            if u.scheme != "https" {
                errs.push(FieldError::invalid(
                    p,
                    u.scheme.as_str(),
                    format!("'https' is the only allowed URL scheme{FORM}"),
                ));
            }
            if u.host.is_empty() {
                errs.push(FieldError::invalid(
                    p,
                    u.host.as_str(),
                    format!("host must be specified{FORM}"),
                ));
            }
            if let Some(user) = &u.user {
                errs.push(FieldError::invalid(
                    p,
                    user.as_str(),
                    "user information is not permitted in the URL",
                ));
            }
            if !u.fragment.is_empty() {
                errs.push(FieldError::invalid(
                    p,
                    u.fragment.as_str(),
                    "fragments are not permitted in the URL",
                ));
            }
            if !u.raw_query.is_empty() {
                errs.push(FieldError::invalid(
                    p,
                    u.raw_query.as_str(),
                    "query parameters are not permitted in the URL",
                ));
            }
        }
    }
}

/// `webhook.ValidateWebhookService`.
fn validate_webhook_service(p: &Path, svc: &ServiceReference, errs: &mut ErrorList) {
    if opt_str(svc.name.as_ref()).is_empty() {
        errs.push(FieldError::required(
            &p.child("name"),
            "service name is required",
        ));
    }
    if opt_str(svc.namespace.as_ref()).is_empty() {
        errs.push(FieldError::required(
            &p.child("namespace"),
            "service namespace is required",
        ));
    }
    let port = svc.port.unwrap_or(443);
    if !(1..=65535).contains(&port) {
        errs.push(FieldError::invalid(
            &p.child("port"),
            port,
            "port is not valid: must be between 1 and 65535, inclusive",
        ));
    }
    let Some(url_path) = svc.path.as_deref() else {
        return;
    };
    let pp = p.child("path");
    if url_path == "/" || url_path.is_empty() {
        return;
    }
    if url_path == "//" {
        errs.push(FieldError::invalid(
            &pp,
            url_path,
            "segment[0] may not be empty",
        ));
        return;
    }
    if !url_path.starts_with('/') {
        errs.push(FieldError::invalid(&pp, url_path, "must start with a '/'"));
    }
    // Go drops the first byte whether or not it is a '/'.
    let mut check = url_path.as_bytes().get(1..).unwrap_or_default();
    if let Some(stripped) = check.strip_suffix(b"/") {
        check = stripped;
    }
    for (i, step) in check.split(|b| *b == b'/').enumerate() {
        if step.is_empty() {
            errs.push(FieldError::invalid(
                &pp,
                url_path,
                format!("segment[{i}] may not be empty"),
            ));
            continue;
        }
        let step = String::from_utf8_lossy(step);
        for failure in is_dns1123_subdomain(&step) {
            errs.push(FieldError::invalid(
                &pp,
                url_path,
                format!("segment[{i}]: {failure}"),
            ));
        }
    }
}

// ---------------------------------------------------------------------------
// Status, API approval
// ---------------------------------------------------------------------------

/// `ValidateCustomResourceDefinitionStoredVersions` on the stored versions
/// `PrepareForCreate` sets: the first version marked as storage.
fn validate_stored_versions(spec: &Spec<'_>, errs: &mut ErrorList) {
    let p = Path::new(["status", "storedVersions"]);
    let stored: Vec<&str> = spec
        .versions
        .iter()
        .find(|v| v.storage)
        .map(|v| vec![v.name])
        .unwrap_or_default();
    if stored.is_empty() {
        errs.push(FieldError::invalid(
            &p,
            Value::Null,
            "must have at least one stored version",
        ));
        return;
    }
    let stored_value = Value::from(stored.iter().map(|s| (*s).to_string()).collect::<Vec<_>>());
    let mut remaining: Vec<(&str, usize)> =
        stored.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    for v in &spec.versions {
        let pos = remaining.iter().position(|(n, _)| *n == v.name);
        if v.storage && pos.is_none() {
            errs.push(FieldError::invalid(
                &p,
                stored_value.clone(),
                format!("must have the storage version {}", v.name),
            ));
        }
        if let Some(pos) = pos {
            remaining.remove(pos);
        }
    }
    for (v, i) in remaining {
        errs.push(FieldError::invalid(
            &p.index(i),
            v,
            format!(
                "missing from spec.versions; {v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {v} and removes {v} from status.storedVersions"
            ),
        ));
    }
}

const API_APPROVAL_ANNOTATION: &str = "api-approved.kubernetes.io";

/// `apihelpers.IsProtectedCommunityGroup`.
fn is_protected_community_group(group: &str) -> bool {
    group == "k8s.io"
        || group.ends_with(".k8s.io")
        || group == "kubernetes.io"
        || group.ends_with(".kubernetes.io")
}

/// `validateAPIApproval` on create.
fn validate_api_approval(group: &str, meta: Option<&Value>, errs: &mut ErrorList) {
    if !is_protected_community_group(group) {
        return;
    }
    let annotation = meta
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(API_APPROVAL_ANNOTATION))
        .and_then(Value::as_str)
        .unwrap_or("");
    let p = Path::new(["metadata", "annotations"]).key(API_APPROVAL_ANNOTATION);
    if annotation.is_empty() {
        errs.push(FieldError::required(
            &p,
            format!(
                "protected groups must have approval annotation {}, see https://github.com/kubernetes/enhancements/pull/1111",
                go_quote(API_APPROVAL_ANNOTATION)
            ),
        ));
        return;
    }
    if annotation.starts_with("unapproved") {
        return;
    }
    let approved = crate::go::url::parse_request_uri(annotation)
        .is_ok_and(|u| !u.host.is_empty() && !u.scheme.is_empty());
    if !approved {
        errs.push(FieldError::invalid(
            &p,
            annotation,
            format!(
                "protected groups must have approval annotation {} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111",
                go_quote(API_APPROVAL_ANNOTATION)
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::field::ErrorType;
    use crate::model::wire::codec::DecodeCx;

    fn decode(v: &Value) -> CustomResourceDefinition {
        let mut cx = DecodeCx::default();
        let crd = CustomResourceDefinition::decode(v, &Path::root(), &mut cx).expect("decodes");
        assert!(cx.errors.is_empty(), "{:?}", cx.errors);
        crd
    }

    /// A valid v1 CRD, in the shape of upstream's test fixtures.
    fn base() -> Value {
        json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "plural.group.com"},
            "spec": {
                "group": "group.com",
                "scope": "Cluster",
                "names": {"plural": "plural", "singular": "singular", "kind": "Plural", "listKind": "PluralList"},
                "versions": [
                    {"name": "version", "served": true, "storage": true,
                     "schema": {"openAPIV3Schema": {"type": "object"}}}
                ]
            }
        })
    }

    /// `base()` with a second, non-storage version `version2`.
    fn base2() -> Value {
        let mut v = base();
        v["spec"]["versions"] = json!([
            {"name": "version", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}},
            {"name": "version2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}}
        ]);
        v
    }

    fn run(v: &Value) -> ErrorList {
        validate_custom_resource_definition(&decode(v), RequestVersion::V1)
    }

    fn run_beta(v: &Value) -> ErrorList {
        validate_custom_resource_definition(&decode(v), RequestVersion::V1Beta1)
    }

    fn pairs(errs: &ErrorList) -> Vec<(ErrorType, String)> {
        errs.iter()
            .map(|e| (e.error_type, e.field.to_string()))
            .collect()
    }

    fn expect(errs: &ErrorList, want: &[(ErrorType, &str)]) {
        let want: Vec<(ErrorType, String)> =
            want.iter().map(|(t, f)| (*t, (*f).to_string())).collect();
        assert_eq!(
            pairs(errs),
            want,
            "{:#?}",
            errs.iter().map(ToString::to_string).collect::<Vec<_>>()
        );
    }

    fn messages(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    use ErrorType::{Forbidden, Invalid, NotSupported, Required, TooMany};

    #[test]
    fn valid_crd_has_no_errors() {
        assert_eq!(messages(&run(&base())), Vec::<String>::new());
        assert_eq!(messages(&run(&base2())), Vec::<String>::new());
    }

    #[test]
    fn defaults_singular_list_kind_and_conversion() {
        let mut v = base();
        v["spec"]["names"] = json!({"plural": "plural", "kind": "Plural"});
        assert_eq!(messages(&run(&v)), Vec::<String>::new());
    }

    // --- conversion (upstream: TestValidateCustomResourceDefinition) ---

    fn with_conversion(conversion: Value) -> Value {
        let mut v = base2();
        v["spec"]["conversion"] = conversion;
        v
    }

    #[test]
    fn webhookconfig_invalid_port_0() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"service": {"name": "n", "namespace": "ns", "port": 0}},
            "conversionReviewVersions": ["v1beta1"]}})));
        expect(
            &errs,
            &[(Invalid, "spec.conversion.webhookClientConfig.service.port")],
        );
        assert_eq!(
            messages(&errs),
            [
                "spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive"
            ]
        );
    }

    #[test]
    fn webhookconfig_invalid_port_65536() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"service": {"name": "n", "namespace": "ns", "port": 65536}},
            "conversionReviewVersions": ["v1beta1"]}})));
        expect(
            &errs,
            &[(Invalid, "spec.conversion.webhookClientConfig.service.port")],
        );
    }

    #[test]
    fn webhookconfig_both_service_and_url() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": "https://example.com/webhook", "service": {"name": "n", "namespace": "ns"}},
            "conversionReviewVersions": ["v1beta1"]}})));
        expect(&errs, &[(Required, "spec.conversion.webhookClientConfig")]);
        assert_eq!(
            messages(&errs),
            [
                "spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required"
            ]
        );
    }

    #[test]
    fn webhookconfig_blank_url() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": ""}, "conversionReviewVersions": ["v1beta1"]}})));
        assert_eq!(
            messages(&errs),
            [
                "spec.conversion.webhookClientConfig.url: Invalid value: \"\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
                "spec.conversion.webhookClientConfig.url: Invalid value: \"\": host must be specified; desired format: https://host[/path]",
            ]
        );
    }

    #[test]
    fn webhookconfig_should_not_be_set() {
        let errs = run(&with_conversion(json!({"strategy": "None", "webhook": {
            "clientConfig": {"url": "https://example.com/webhook"}}})));
        expect(&errs, &[(Forbidden, "spec.conversion.webhookClientConfig")]);
        assert_eq!(
            messages(&errs),
            [
                "spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook"
            ]
        );
    }

    #[test]
    fn conversion_review_versions_should_not_be_set() {
        let errs = run(&with_conversion(json!({"strategy": "None", "webhook": {
            "conversionReviewVersions": ["v1beta1"]}})));
        expect(
            &errs,
            &[(Forbidden, "spec.conversion.conversionReviewVersions")],
        );
    }

    #[test]
    fn webhookconfig_invalid_conversion_review_version() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": "https://example.com/webhook"},
            "conversionReviewVersions": ["invalid-version"]}})));
        expect(
            &errs,
            &[(Invalid, "spec.conversion.conversionReviewVersions")],
        );
        assert_eq!(
            messages(&errs),
            [
                r#"spec.conversion.conversionReviewVersions: Invalid value: ["invalid-version"]: must include at least one of v1, v1beta1"#
            ]
        );
    }

    #[test]
    fn webhookconfig_invalid_conversion_review_version_string() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": "https://example.com/webhook"},
            "conversionReviewVersions": ["0v"]}})));
        expect(
            &errs,
            &[
                (Invalid, "spec.conversion.conversionReviewVersions[0]"),
                (Invalid, "spec.conversion.conversionReviewVersions"),
            ],
        );
        assert_eq!(
            messages(&errs)[0],
            "spec.conversion.conversionReviewVersions[0]: Invalid value: \"0v\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
        );
    }

    #[test]
    fn webhookconfig_at_least_one_valid_conversion_review_version() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": "https://example.com/webhook"},
            "conversionReviewVersions": ["invalid-version", "v1beta1"]}})));
        expect(&errs, &[]);
    }

    #[test]
    fn webhookconfig_duplicate_conversion_review_version() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": "https://example.com/webhook"},
            "conversionReviewVersions": ["v1beta1", "v1beta1"]}})));
        expect(
            &errs,
            &[(Invalid, "spec.conversion.conversionReviewVersions[1]")],
        );
        assert!(messages(&errs)[0].ends_with(": duplicate version"));
    }

    #[test]
    fn missing_webhookconfig() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "conversionReviewVersions": ["v1beta1"]}})));
        expect(&errs, &[(Required, "spec.conversion.webhookClientConfig")]);
    }

    #[test]
    fn missing_conversion_review_versions_in_v1() {
        // v1 does not default conversionReviewVersions (v1beta1 did).
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": "https://example.com/webhook"}}})));
        expect(
            &errs,
            &[(Required, "spec.conversion.conversionReviewVersions")],
        );
    }

    #[test]
    fn invalid_conversion_strategy() {
        let errs = run(&with_conversion(
            json!({"strategy": "non_existing_conversion"}),
        ));
        expect(&errs, &[(NotSupported, "spec.conversion.strategy")]);
        assert_eq!(
            messages(&errs),
            [
                r#"spec.conversion.strategy: Unsupported value: "non_existing_conversion": supported values: "None", "Webhook""#
            ]
        );
    }

    #[test]
    fn webhook_conversion_with_preserve_unknown_fields() {
        let mut v = with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": "https://example.com/webhook"},
            "conversionReviewVersions": ["v1beta1"]}}));
        v["spec"]["preserveUnknownFields"] = json!(true);
        let errs = run(&v);
        expect(
            &errs,
            &[
                (Invalid, "spec.conversion.strategy"),
                (Invalid, "spec.preserveUnknownFields"),
            ],
        );
        assert_eq!(
            messages(&errs)[0],
            r#"spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true"#
        );
    }

    #[test]
    fn webhook_url_parts_are_checked() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": "http://user@example.com/x?y=1#z"},
            "conversionReviewVersions": ["v1"]}})));
        assert_eq!(
            messages(&errs),
            [
                "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
                "spec.conversion.webhookClientConfig.url: Invalid value: \"user\": user information is not permitted in the URL",
                "spec.conversion.webhookClientConfig.url: Invalid value: \"z\": fragments are not permitted in the URL",
                "spec.conversion.webhookClientConfig.url: Invalid value: \"y=1\": query parameters are not permitted in the URL",
            ]
        );
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": "https://exa mple.com/"},
            "conversionReviewVersions": ["v1"]}})));
        assert_eq!(
            messages(&errs),
            [
                "spec.conversion.webhookClientConfig.url: Required value: url must be a valid URL: parse \"https://exa mple.com/\": invalid character \" \" in host name; desired format: https://host[/path]"
            ]
        );
    }

    #[test]
    fn webhook_service_name_namespace_and_path() {
        let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"service": {"path": "foo//Bar/"}},
            "conversionReviewVersions": ["v1"]}})));
        expect(
            &errs,
            &[
                (Required, "spec.conversion.webhookClientConfig.service.name"),
                (
                    Required,
                    "spec.conversion.webhookClientConfig.service.namespace",
                ),
                (Invalid, "spec.conversion.webhookClientConfig.service.path"),
                (Invalid, "spec.conversion.webhookClientConfig.service.path"),
                (Invalid, "spec.conversion.webhookClientConfig.service.path"),
            ],
        );
        let m = messages(&errs);
        assert!(m[2].ends_with(": must start with a '/'"), "{}", m[2]);
        assert!(m[3].ends_with(": segment[1] may not be empty"), "{}", m[3]);
        assert!(
            m[4].contains(": segment[2]: a lowercase RFC 1123 subdomain"),
            "{}",
            m[4]
        );
    }

    // --- versions and storage ---

    #[test]
    fn no_storage_version() {
        let mut v = base2();
        v["spec"]["versions"][0]["storage"] = json!(false);
        let errs = run(&v);
        // Upstream's test supplies status.storedVersions; on a real create
        // PrepareForCreate leaves them empty.
        expect(
            &errs,
            &[
                (Invalid, "spec.versions"),
                (Invalid, "status.storedVersions"),
            ],
        );
        let m = messages(&errs);
        assert!(m[0].ends_with(": must have exactly one version marked as storage version"));
        assert_eq!(
            m[1],
            "status.storedVersions: Invalid value: null: must have at least one stored version"
        );
    }

    #[test]
    fn multiple_storage_version() {
        let mut v = base2();
        v["spec"]["versions"][1]["storage"] = json!(true);
        let errs = run(&v);
        expect(
            &errs,
            &[
                (Invalid, "spec.versions"),
                (Invalid, "status.storedVersions"),
            ],
        );
        assert_eq!(
            messages(&errs)[1],
            r#"status.storedVersions: Invalid value: ["version"]: must have the storage version version2"#
        );
    }

    #[test]
    fn duplicate_version_names() {
        let mut v = base2();
        v["spec"]["versions"][1]["name"] = json!("version");
        let errs = run(&v);
        expect(&errs, &[(Invalid, "spec.versions")]);
        assert!(messages(&errs)[0].ends_with(": must contain unique version names"));
    }

    #[test]
    fn invalid_version_name_is_reported_twice() {
        // The internal spec.version is versions[0].name.
        let mut v = base();
        v["spec"]["versions"][0]["name"] = json!("V1");
        let errs = run(&v);
        expect(
            &errs,
            &[
                (Invalid, "spec.versions[0].name"),
                (Invalid, "spec.version"),
            ],
        );
        assert!(
            messages(&errs)[0]
                .starts_with("spec.versions[0].name: Invalid value: \"V1\": a DNS-1035 label")
        );
    }

    #[test]
    fn no_versions_at_all() {
        let mut v = base();
        v["spec"]["versions"] = json!([]);
        expect(
            &run(&v),
            &[
                (Invalid, "spec.versions"),
                (Invalid, "status.storedVersions"),
            ],
        );
    }

    // --- names, group, scope (upstream: mismatched name, missing values, bad names) ---

    #[test]
    fn mismatched_name() {
        let v = json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "plural.not.group.com"},
            "spec": {"group": "group.com", "names": {"plural": "plural"}}
        });
        let errs = run(&v);
        expect(
            &errs,
            &[
                (Invalid, "metadata.name"),
                (Required, "spec.scope"),
                (Invalid, "spec.versions"),
                (Required, "spec.names.singular"),
                (Required, "spec.names.kind"),
                (Required, "spec.names.listKind"),
                (Invalid, "status.storedVersions"),
            ],
        );
        assert_eq!(
            messages(&errs)[0],
            r#"metadata.name: Invalid value: "plural.not.group.com": must be spec.names.plural+"."+spec.group"#
        );
    }

    #[test]
    fn missing_values() {
        let v = json!({"metadata": {"name": "plural.group.com"}});
        expect(
            &run(&v),
            &[
                (Invalid, "metadata.name"),
                (Required, "spec.group"),
                (Required, "spec.scope"),
                (Invalid, "spec.versions"),
                (Required, "spec.names.plural"),
                (Required, "spec.names.singular"),
                (Required, "spec.names.kind"),
                (Required, "spec.names.listKind"),
                (Invalid, "status.storedVersions"),
            ],
        );
    }

    #[test]
    fn bad_names_01() {
        let v = json!({
            "metadata": {"name": "plural.group"},
            "spec": {
                "group": "group", "scope": "foo",
                "names": {"plural": "pl()*ural", "singular": "value()*a", "kind": "value()*a", "listKind": "value()*a"},
                "versions": [{"name": "ve()*rsion", "served": true, "storage": false,
                              "schema": {"openAPIV3Schema": {"type": "object"}}}]
            }
        });
        let errs = run(&v);
        expect(
            &errs,
            &[
                (Invalid, "metadata.name"),
                (Invalid, "spec.group"),
                (NotSupported, "spec.scope"),
                (Invalid, "spec.versions[0].name"),
                (Invalid, "spec.versions"),
                (Invalid, "spec.version"),
                (Invalid, "spec.names.plural"),
                (Invalid, "spec.names.singular"),
                (Invalid, "spec.names.kind"),
                (Invalid, "spec.names.listKind"),
                (Invalid, "spec.names.listKind"),
                (Invalid, "status.storedVersions"),
            ],
        );
        let m = messages(&errs);
        assert_eq!(
            m[1],
            r#"spec.group: Invalid value: "group": should be a domain with at least one dot"#
        );
        assert_eq!(
            m[2],
            r#"spec.scope: Unsupported value: "foo": supported values: "Cluster", "Namespaced""#
        );
        assert!(m[8].starts_with(r#"spec.names.kind: Invalid value: "value()*a": may have mixed case, but should otherwise match: a DNS-1035 label"#));
        assert_eq!(
            m[10],
            r#"spec.names.listKind: Invalid value: "value()*a": kind and listKind may not be the same"#
        );
    }

    #[test]
    fn bad_names_02() {
        let mut v = base();
        v["metadata"]["name"] = json!("plural.group");
        v["spec"]["group"] = json!("group.c(*&om");
        v["spec"].as_object_mut().unwrap().remove("scope");
        v["spec"]["names"]["kind"] = json!("matching");
        v["spec"]["names"]["listKind"] = json!("matching");
        let errs = run(&v);
        expect(
            &errs,
            &[
                (Invalid, "metadata.name"),
                (Invalid, "spec.group"),
                (Required, "spec.scope"),
                (Invalid, "spec.names.listKind"),
            ],
        );
        assert_eq!(
            messages(&errs)[1],
            "spec.group: Invalid value: \"group.c(*&om\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        );
    }

    #[test]
    fn short_names_and_categories() {
        let mut v = base();
        v["spec"]["names"]["shortNames"] = json!(["ok", "Bad", ""]);
        v["spec"]["names"]["categories"] = json!(["all", "a_b"]);
        expect(
            &run(&v),
            &[
                (Invalid, "spec.names.shortNames[1]"),
                (Invalid, "spec.names.shortNames[2]"),
                (Invalid, "spec.names.categories[1]"),
            ],
        );
    }

    // --- schemas and preserveUnknownFields ---

    #[test]
    fn preserve_unknown_fields_true() {
        let mut v = base();
        v["spec"]["preserveUnknownFields"] = json!(true);
        let errs = run(&v);
        expect(&errs, &[(Invalid, "spec.preserveUnknownFields")]);
        assert_eq!(
            messages(&errs),
            [
                "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"
            ]
        );
    }

    #[test]
    fn schema_is_required() {
        let mut v = base2();
        v["spec"]["versions"][0]
            .as_object_mut()
            .unwrap()
            .remove("schema");
        v["spec"]["versions"][1]["schema"] = json!({});
        let errs = run(&v);
        expect(
            &errs,
            &[
                (Required, "spec.versions[0].schema.openAPIV3Schema"),
                (Required, "spec.versions[1].schema.openAPIV3Schema"),
            ],
        );
        assert_eq!(
            messages(&errs)[0],
            "spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required"
        );
    }

    // --- subresources and printer columns ---

    #[test]
    fn label_selector_path_outside_spec_and_status() {
        let mut v = base();
        let scale = |label: Value| {
            let mut s = json!({"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"});
            if !label.is_null() {
                s["labelSelectorPath"] = label;
            }
            json!({"scale": s})
        };
        let schema = json!({"openAPIV3Schema": {"type": "object"}});
        v["spec"]["versions"] = json!([
            {"name": "version0", "served": true, "storage": true, "schema": schema, "subresources": scale(Value::Null)},
            {"name": "version1", "served": true, "storage": false, "schema": schema, "subresources": scale(json!(".status.labelSelector"))},
            {"name": "version2", "served": true, "storage": false, "schema": schema, "subresources": scale(json!(".spec.labelSelector"))},
            {"name": "version3", "served": true, "storage": false, "schema": schema, "subresources": scale(json!(".labelSelector"))}
        ]);
        let errs = run(&v);
        expect(
            &errs,
            &[(
                Invalid,
                "spec.versions[3].subresources.scale.labelSelectorPath",
            )],
        );
        assert_eq!(
            messages(&errs),
            [
                r#"spec.versions[3].subresources.scale.labelSelectorPath: Invalid value: ".labelSelector": should be a json path under either .spec or .status"#
            ]
        );
    }

    #[test]
    fn scale_paths_of_a_shared_subresource_are_top_level() {
        let mut v = base();
        v["spec"]["versions"][0]["subresources"] =
            json!({"scale": {"specReplicasPath": ".status.replicas", "labelSelectorPath": "spec"}});
        let errs = run(&v);
        assert_eq!(
            messages(&errs),
            [
                r#"spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec"#,
                "spec.subresources.scale.statusReplicasPath: Required value",
                r#"spec.subresources.scale.labelSelectorPath: Invalid value: "spec": must be a simple json path starting with ."#,
            ]
        );
        assert_eq!(
            submitted_location(&errs[0].field).to_string(),
            "spec.versions[0].subresources.scale.specReplicasPath"
        );
    }

    #[test]
    fn printer_columns() {
        let mut v = base2();
        let cols = json!([
            {"name": "", "type": "bogus", "format": "uuid", "jsonPath": "spec.x"},
            {"name": "Age", "jsonPath": ""}
        ]);
        v["spec"]["versions"][0]["additionalPrinterColumns"] = cols.clone();
        v["spec"]["versions"][1]["additionalPrinterColumns"] = cols;
        let errs = run(&v);
        assert_eq!(
            messages(&errs),
            [
                "spec.additionalPrinterColumns[0].name: Required value",
                r#"spec.additionalPrinterColumns[0].type: Invalid value: "bogus": must be one of boolean,date,integer,number,string"#,
                r#"spec.additionalPrinterColumns[0].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password"#,
                r#"spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with ."#,
                "spec.additionalPrinterColumns[1].type: Required value: must be one of boolean,date,integer,number,string",
                "spec.additionalPrinterColumns[1].JSONPath: Required value",
            ]
        );
        assert_eq!(
            submitted_location(&errs[3].field).to_string(),
            "spec.versions[0].additionalPrinterColumns[0].jsonPath"
        );
        // Different columns stay per version.
        v["spec"]["versions"][1]["additionalPrinterColumns"] = json!([]);
        expect(
            &run(&v),
            &[
                (
                    Required,
                    "spec.versions[0].additionalPrinterColumns[0].name",
                ),
                (Invalid, "spec.versions[0].additionalPrinterColumns[0].type"),
                (
                    Invalid,
                    "spec.versions[0].additionalPrinterColumns[0].format",
                ),
                (
                    Invalid,
                    "spec.versions[0].additionalPrinterColumns[0].JSONPath",
                ),
                (
                    Required,
                    "spec.versions[0].additionalPrinterColumns[1].type",
                ),
                (
                    Required,
                    "spec.versions[0].additionalPrinterColumns[1].JSONPath",
                ),
            ],
        );
    }

    #[test]
    fn deprecation_warning() {
        let mut v = base();
        v["spec"]["versions"][0]["deprecationWarning"] = json!("use v2");
        let errs = run(&v);
        assert_eq!(
            messages(&errs),
            [
                r#"spec.versions[0].deprecationWarning: Invalid value: "use v2": can only be set for deprecated versions"#
            ]
        );
        v["spec"]["versions"][0]["deprecated"] = json!(true);
        assert!(run(&v).is_empty());
        v["spec"]["versions"][0]["deprecationWarning"] = json!("x".repeat(257));
        expect(
            &run(&v),
            &[(Invalid, "spec.versions[0].deprecationWarning")],
        );
        assert_eq!(
            deprecation_warning_errors(true, Some("Test message\n")),
            [
                "must only contain printable UTF-8 characters; non-printable character found at index 12"
            ]
        );
        assert!(deprecation_warning_errors(true, Some("Iñtërnâtiônàlizætiøn,💝🐹🌇⛔")).is_empty());
        assert_eq!(
            deprecation_warning_errors(true, Some("")),
            ["must not be an empty string"]
        );
    }

    // --- selectable fields ---

    fn selectable_crd(fields: Value) -> Value {
        let mut v = base();
        v["spec"]["versions"][0]["schema"] = json!({"openAPIV3Schema": {"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "color": {"type": "string"}, "size": {"type": "integer"}, "obj": {"type": "object"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}
            }},
            "metadata": {"type": "object"}
        }}});
        v["spec"]["versions"][0]["selectableFields"] = fields;
        v
    }

    #[test]
    fn selectable_fields() {
        assert!(
            run(&selectable_crd(
                json!([{"jsonPath": ".spec.color"}, {"jsonPath": ".spec.labels.x"}])
            ))
            .is_empty()
        );
        let errs = run(&selectable_crd(json!([
            {"jsonPath": "spec.color"},
            {"jsonPath": ".spec.obj"},
            {"jsonPath": ".spec.size"},
            {"jsonPath": ".spec.size"},
            {"jsonPath": ".spec['color']"},
            {"jsonPath": ".metadata.name"},
            {"jsonPath": ""}
        ])));
        assert_eq!(
            messages(&errs),
            [
                r#"spec.selectableFields[0].jsonPath: Invalid value: "spec.color": is an invalid path: expected [ or . but got: spec"#,
                r#"spec.selectableFields[1].jsonPath: Invalid value: ".spec.obj": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."#,
                r#"spec.selectableFields[3].jsonPath: Duplicate value: ".spec.size""#,
                r#"spec.selectableFields[4].jsonPath: Invalid value: ".spec['color']": is an invalid path: array notation is not allowed"#,
                r#"spec.selectableFields[5].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field"#,
                "spec.selectableFields[6].jsonPath: Required value",
            ]
        );
    }

    #[test]
    fn selectable_fields_too_many_and_metadata() {
        let mut v = selectable_crd(json!([]));
        let mut props = Map::new();
        let mut fields = Vec::new();
        for i in 0..9 {
            props.insert(format!("f{i}"), json!({"type": "string"}));
            fields.push(json!({"jsonPath": format!(".spec.f{i}")}));
        }
        v["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"] =
            Value::Object(props);
        v["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["metadata"] =
            json!({"type": "object", "properties": {"name": {"type": "string"}}});
        fields.push(json!({"jsonPath": ".metadata.name"}));
        v["spec"]["versions"][0]["selectableFields"] = Value::Array(fields);
        let errs = run(&v);
        expect(
            &errs,
            &[
                (Invalid, "spec.selectableFields[9].jsonPath"),
                (TooMany, "spec.selectableFields"),
            ],
        );
        assert_eq!(
            messages(&errs),
            [
                r#"spec.selectableFields[9].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata"#,
                "spec.selectableFields: Too many: 10: must have at most 8 items",
            ]
        );
    }

    #[test]
    fn selectable_fields_per_version_without_own_schema() {
        // Identical schemas move to the top level, different selectable
        // fields stay per version: upstream then rejects them.
        let mut v = base2();
        v["spec"]["versions"][0]["selectableFields"] = json!([{"jsonPath": ".spec.a"}]);
        expect(&run(&v), &[(Invalid, "spec.versions[0].selectableFields")]);
        assert_eq!(
            messages(&run(&v)),
            [
                r#"spec.versions[0].selectableFields: Invalid value: "": selectableFields may only be set when version.schema.openAPIV3Schema is not included"#
            ]
        );
    }

    // --- metadata and API approval ---

    #[test]
    fn object_meta() {
        let mut v = base();
        v["metadata"] = json!({
            "name": "plural.group.com",
            "labels": {"a b": "ok", "k": "-bad"},
            "annotations": {"Example.com/OK": "1", "x/y/z": ""},
            "finalizers": ["orphan", "foregroundDeletion"]
        });
        let errs = run(&v);
        expect(
            &errs,
            &[
                (Invalid, "metadata.labels"),
                (Invalid, "metadata.labels"),
                (Invalid, "metadata.annotations"),
                (Invalid, "metadata.finalizers"),
            ],
        );
        assert_eq!(
            messages(&errs)[0],
            "metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
        );
    }

    #[test]
    fn object_meta_is_validated_as_decoded() {
        let mut v = base();
        // A field of the wrong type is dropped; the namespace is cleared
        // and the generation set to 1 before validation; managed fields
        // are not checked.
        v["metadata"] = json!({
            "name": "plural.group.com",
            "namespace": "ns",
            "generation": -1,
            "labels": {"a": 1, "b c": "d"},
            "managedFields": [{"operation": "Bad"}],
            "ownerReferences": [
                {"kind": "Event", "unknown": 1, "apiVersion": "v1", "name": "e", "controller": true},
                {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d", "uid": "u", "controller": true},
            ],
        });
        assert_eq!(
            messages(&run(&v)),
            [
                r#"metadata.ownerReferences.uid: Invalid value: "": uid must not be empty"#,
                r#"metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"","controller":true}: /v1, Kind=Event is disallowed from being an owner"#,
                r#"metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"Event","name":"e","uid":"","controller":true},{"apiVersion":"apps/v1","kind":"Deployment","name":"d","uid":"u","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for Event/e and Deployment/d"#,
            ]
        );
    }

    #[test]
    fn generate_name_and_missing_name() {
        let mut v = base();
        v["metadata"] = json!({"generateName": "plural-"});
        expect(
            &run(&v),
            &[
                (Invalid, "metadata.generateName"),
                (Invalid, "metadata.name"),
            ],
        );
        v["metadata"] = json!({});
        let errs = run(&v);
        assert_eq!(
            messages(&errs),
            ["metadata.name: Required value: name or generateName is required"]
        );
    }

    #[test]
    fn api_approval_for_protected_groups() {
        let mut v = base();
        v["metadata"]["name"] = json!("plural.foo.k8s.io");
        v["spec"]["group"] = json!("foo.k8s.io");
        let errs = run(&v);
        assert_eq!(
            messages(&errs),
            [
                r#"metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111"#
            ]
        );
        v["metadata"]["annotations"] = json!({"api-approved.kubernetes.io": "https://github.com/kubernetes/kubernetes/pull/78458"});
        assert!(run(&v).is_empty());
        v["metadata"]["annotations"] =
            json!({"api-approved.kubernetes.io": "unapproved, experimental"});
        assert!(run(&v).is_empty());
        v["metadata"]["annotations"] = json!({"api-approved.kubernetes.io": "yes"});
        expect(
            &run(&v),
            &[(Invalid, "metadata.annotations[api-approved.kubernetes.io]")],
        );
        // No approval check for a v1beta1 request (Kubernetes <= 1.21).
        assert!(
            run_beta(&v)
                .iter()
                .all(|e| !e.field.to_string().starts_with("metadata"))
        );
    }

    // --- v1beta1 requests ---

    #[test]
    fn v1beta1_allows_preserve_unknown_fields_but_not_webhooks_with_it() {
        let mut v = base2();
        v["spec"]["preserveUnknownFields"] = json!(true);
        assert!(run_beta(&v).is_empty());
        v["spec"]["conversion"] = json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {"url": "https://example.com/webhook"},
            "conversionReviewVersions": ["v1beta1"]}});
        expect(&run_beta(&v), &[(Invalid, "spec.conversion.strategy")]);
    }

    #[test]
    fn v1beta1_schemas_not_required_unless_pruning() {
        let mut v = base2();
        v["spec"]["versions"][0]
            .as_object_mut()
            .unwrap()
            .remove("schema");
        v["spec"]["versions"][1]
            .as_object_mut()
            .unwrap()
            .remove("schema");
        v["spec"]["preserveUnknownFields"] = json!(true);
        assert!(run_beta(&v).is_empty());
        v["spec"]["preserveUnknownFields"] = json!(false);
        expect(
            &run_beta(&v),
            &[
                (Required, "spec.versions[0].schema.openAPIV3Schema"),
                (Required, "spec.versions[1].schema.openAPIV3Schema"),
            ],
        );
        assert!(messages(&run_beta(&v))[0].ends_with("because otherwise all fields are pruned"));
    }

    // --- the internal form ---

    #[test]
    fn identical_fields_move_to_the_top_level() {
        let mut v = base2();
        v["spec"]["versions"][0]["subresources"] = json!({"status": {}});
        v["spec"]["versions"][1]["subresources"] = json!({"status": {}});
        let crd = decode(&v);
        let spec = defaulted_spec(&crd);
        let s = internal_spec(&spec, versions_of(&crd), RequestVersion::V1);
        assert!(s.validation.is_some() && s.subresources.is_some());
        assert!(
            s.versions
                .iter()
                .all(|v| v.schema.is_none() && v.subresources.is_none())
        );
        assert_eq!(s.version, "version");
        // Semantically equal schemas (1 vs 1.0 as float64, false vs absent) also move.
        let mut v = base2();
        v["spec"]["versions"][0]["schema"] =
            json!({"openAPIV3Schema": {"type": "object", "maximum": 1, "nullable": false}});
        v["spec"]["versions"][1]["schema"] =
            json!({"openAPIV3Schema": {"type": "object", "maximum": 1.0}});
        let crd = decode(&v);
        let spec = defaulted_spec(&crd);
        assert!(
            internal_spec(&spec, versions_of(&crd), RequestVersion::V1)
                .validation
                .is_some()
        );
        // Different ones stay per version.
        v["spec"]["versions"][1]["schema"] =
            json!({"openAPIV3Schema": {"type": "object", "maximum": 2}});
        let crd = decode(&v);
        let spec = defaulted_spec(&crd);
        let s = internal_spec(&spec, versions_of(&crd), RequestVersion::V1);
        assert!(s.validation.is_none() && s.versions.iter().all(|v| v.schema.is_some()));
    }

    #[test]
    fn submitted_locations() {
        let cases = [
            (
                "spec.validation.openAPIV3Schema.properties[a].type",
                "spec.versions[0].schema.openAPIV3Schema.properties[a].type",
            ),
            (
                "spec.conversion.webhookClientConfig.url",
                "spec.conversion.webhook.clientConfig.url",
            ),
            (
                "spec.conversion.conversionReviewVersions[0]",
                "spec.conversion.webhook.conversionReviewVersions[0]",
            ),
            (
                "spec.versions[1].additionalPrinterColumns[2].JSONPath",
                "spec.versions[1].additionalPrinterColumns[2].jsonPath",
            ),
            ("spec.version", "spec.versions[0].name"),
            (
                "spec.schema.openAPIV3Schema",
                "spec.versions[0].schema.openAPIV3Schema",
            ),
            ("metadata.name", "metadata.name"),
        ];
        for (from, to) in cases {
            assert_eq!(
                submitted_location(&Path::parse(from)).to_string(),
                to,
                "{from}"
            );
        }
    }
}
