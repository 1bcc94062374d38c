//! The CustomResourceDefinition as the API server validates it: the v1
//! object defaulted and converted to the internal type.
//!
//! 1. **Defaulting** (`apis/apiextensions/v1/defaults.go`): an empty
//!    `names.singular` becomes `lower(names.kind)`, an empty `names.listKind`
//!    becomes `kind + "List"` (when `kind` is set), a missing `conversion`
//!    becomes `{strategy: None}`, a webhook service without `port` gets 443
//!    (`defaulted_spec`).
//! 2. **Conversion to the internal type** (`apis/apiextensions/v1/conversion.go`):
//!    `spec.version` becomes the name of `versions[0]`, and each of the
//!    per-version `schema`, `subresources`, `additionalPrinterColumns` and
//!    `selectableFields` that is *semantically identical in every version*
//!    (a single version always is) moves to the top level
//!    (`internal_spec`). Validation errors are then reported where the
//!    internal object has the field: a schema shared by all versions under
//!    `spec.validation.openAPIV3Schema…`, a shared column under
//!    `spec.additionalPrinterColumns[i]…`, and a schema that differs between
//!    versions under `spec.versions[i].schema…`, exactly as `kubectl apply`
//!    shows them. Printer columns use the internal field name `JSONPath`,
//!    the conversion webhook is flattened to
//!    `spec.conversion.webhookClientConfig` and
//!    `spec.conversion.conversionReviewVersions`.
//!
//! [`submitted_location`] maps such a path back to where the field is
//! written in the submitted document.

use serde_json::{Map, Value};

use crate::model::field::{Path, PathElement};
use crate::model::wire::{
    CrdSpec, CrdSubresources, CrdVersion, CustomResourceDefinition, CustomResourceValidation,
    JsonSchemaProps, PrinterColumn, SchemaOrArray, SchemaOrBool, SchemaOrStringArray,
    SelectableField, ValidationRule, WebhookClientConfig,
};

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

/// The versions as submitted.
pub(crate) fn versions_of(crd: &CustomResourceDefinition) -> &[CrdVersion] {
    crd.spec
        .as_ref()
        .and_then(|s| s.versions.as_deref())
        .unwrap_or_default()
}

/// The spec with the v1 defaults applied, as the server defaults it. The
/// versions' schemas (which defaulting does not touch, and which are most
/// of a CRD) are not copied: read them from the submitted versions.
pub(crate) fn defaulted_spec(crd: &CustomResourceDefinition) -> CrdSpec {
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
pub(crate) struct Version<'a> {
    pub(crate) name: &'a str,
    pub(crate) served: bool,
    pub(crate) storage: bool,
    pub(crate) deprecated: bool,
    pub(crate) deprecation_warning: Option<&'a str>,
    pub(crate) schema: Option<&'a CustomResourceValidation>,
    pub(crate) subresources: Option<&'a CrdSubresources>,
    pub(crate) columns: &'a [PrinterColumn],
    pub(crate) selectable_fields: &'a [SelectableField],
}

/// `CustomResourceConversion` in internal form.
pub(crate) struct Conversion<'a> {
    pub(crate) strategy: &'a str,
    pub(crate) client_config: Option<&'a WebhookClientConfig>,
    pub(crate) review_versions: &'a [String],
}

/// A `CustomResourceDefinitionNames` (of the spec, or the status's
/// `acceptedNames`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NamesRef<'a> {
    pub(crate) plural: &'a str,
    pub(crate) singular: &'a str,
    pub(crate) kind: &'a str,
    pub(crate) list_kind: &'a str,
    pub(crate) short_names: &'a [String],
    pub(crate) categories: &'a [String],
}

/// `CustomResourceDefinitionSpec` in internal form.
pub(crate) struct Spec<'a> {
    pub(crate) group: &'a str,
    pub(crate) names: NamesRef<'a>,
    pub(crate) scope: &'a str,
    pub(crate) version: &'a str,
    pub(crate) versions: Vec<Version<'a>>,
    pub(crate) validation: Option<&'a CustomResourceValidation>,
    pub(crate) subresources: Option<&'a CrdSubresources>,
    pub(crate) columns: &'a [PrinterColumn],
    pub(crate) selectable_fields: &'a [SelectableField],
    pub(crate) conversion: Option<Conversion<'a>>,
    pub(crate) preserve_unknown_fields: Option<bool>,
    /// The submitted versions, for the bad value of `spec.versions` errors.
    pub(crate) wire_versions: &'a [CrdVersion],
}

pub(crate) fn opt_str(s: Option<&String>) -> &str {
    s.map_or("", String::as_str)
}

/// Converts the (defaulted) v1 spec to the internal form, moving the
/// per-version fields that are identical in all versions to the top level.
pub(crate) fn internal_spec<'a>(
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
        names: NamesRef {
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
        },
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

pub(crate) fn canon_validation(v: Option<&CustomResourceValidation>) -> Value {
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

pub(crate) fn canon_selectable(fields: &[SelectableField]) -> Value {
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

/// Maps the field path of an error produced by
/// [`validate_custom_resource_definition`](crate::crd::validation::definition::validate_custom_resource_definition) (which uses the server's
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::crd::fixtures::{base2, decode};

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
