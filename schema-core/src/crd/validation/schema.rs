//! `validateCustomResourceDefinitionValidation`: the schema part of CRD
//! validation.

use std::cell::{OnceCell, RefCell};
use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::Value;

use crate::cel::compile::{RuleEnv, compile_rule_in};
use crate::cel::decl::{DeclType, schema_decl_type};
use crate::cel::escape::escape;
use crate::cel::functions::CompatibilityVersion;
use crate::crd::validation::defaults::validate_defaults;
use crate::crd::validation::structural::{StructuralOptions, validate_structural};
use crate::model::field::{ErrorList, FieldError, Path};
use crate::model::options::Options;
use crate::model::schema_step::SchemaStep;
use crate::model::structural::Structural;
use crate::model::wire::codec::Wire;
use crate::model::wire::{CustomResourceValidation, JsonSchemaProps, SchemaOrArray, SchemaOrBool};

/// The validation options the server derives from the request
/// (`validationOptions` in apiextensions' validation.go). A new CRD uses
/// [`SchemaOptions::create`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SchemaOptions {
    /// `allowDefaults`.
    pub allow_defaults: bool,
    /// `requireStructuralSchema`.
    pub require_structural_schema: bool,
    /// `requireValidPropertyType`.
    pub require_valid_property_type: bool,
    /// `requirePrunedDefaults`.
    pub require_pruned_defaults: bool,
    /// `requireAtomicSetType`.
    pub require_atomic_set_type: bool,
    /// `requireMapListKeysMapSetValidation`.
    pub require_map_list_keys_map_set_validation: bool,
    /// Whether `spec.preserveUnknownFields` is true for this CRD.
    pub preserve_unknown_fields: bool,
    /// The compatibility version of the CEL environment rules are compiled
    /// in (`celEnvironmentSet`): the server's default compatibility version
    /// unless set.
    pub cel_compatibility_version: CompatibilityVersion,
    /// The CEL environment of stored rules, which the rules on `default`
    /// values run in: every library of the server's release.
    pub cel_stored_version: CompatibilityVersion,
}

impl SchemaOptions {
    /// The options of a create request to the API server of
    /// `options.kube_version`: every requirement on, rules compiled as that
    /// release compiles new rules.
    pub fn create(options: &Options) -> Self {
        let kube = options.kube_version;
        Self {
            allow_defaults: true,
            require_structural_schema: true,
            require_valid_property_type: true,
            require_pruned_defaults: true,
            require_atomic_set_type: true,
            require_map_list_keys_map_set_validation: true,
            preserve_unknown_fields: false,
            cel_compatibility_version: CompatibilityVersion::new_expressions(kube),
            cel_stored_version: CompatibilityVersion::stored_expressions(kube),
        }
    }
}

/// `preexistingExpressions`: the CEL rules and message expressions of the
/// old CRD on an update (every node of its top-level and per-version
/// schemas). They compile in the stored-expressions environment
/// ([`SchemaOptions::cel_stored_version`]), new ones in the environment of
/// new expressions, so that an update of a CRD written for a newer release
/// does not fail on the rules it already had.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PreexistingExpressions {
    /// Every `rule`, as written.
    pub rules: BTreeSet<String>,
    /// Every non-empty `messageExpression`, as written.
    pub message_expressions: BTreeSet<String>,
}

/// What an update carries from the old CRD into the validation of one
/// schema (the update-only parts of `validationOptions`). The default is a
/// create's: no preexisting expressions, per-expression cost limits on.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SchemaRatchet<'a> {
    /// `preexistingExpressions`.
    pub preexisting: Option<&'a PreexistingExpressions>,
    /// `suppressPerExpressionCost`: the schema of this version is unchanged,
    /// so its rules are not held to the per-expression cost limit (the
    /// limit for the whole schema still applies).
    pub suppress_per_expression_cost: bool,
}

impl SchemaRatchet<'_> {
    fn preexisting_rule(&self, rule: &str) -> bool {
        self.preexisting.is_some_and(|p| p.rules.contains(rule))
    }

    fn preexisting_message_expression(&self, expr: &str) -> bool {
        self.preexisting
            .is_some_and(|p| p.message_expressions.contains(expr))
    }
}

/// The root fields allowed when the status subresource is enabled, named
/// as the Go struct fields (they appear in the message).
const ALLOWED_AT_ROOT_WITH_STATUS: &str = "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]";

/// The keys of the Go struct fields in order, with whether each is
/// allowed at the root when the status subresource is enabled.
fn first_disallowed_root_field(s: &JsonSchemaProps) -> Option<&'static str> {
    // Fields in JSONSchemaProps' order; a field counts when it is not the
    // Go zero value.
    let set_str = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    let set_bool = |v: &Option<bool>| *v == Some(true);
    let checks: [(&'static str, bool, bool); 44] = [
        ("ID", set_str(&s.id), false),
        ("Schema", set_str(&s.schema), false),
        ("Ref", s.reference.is_some(), false),
        ("Description", set_str(&s.description), true),
        ("Type", set_str(&s.type_), true),
        ("Format", set_str(&s.format), true),
        ("Title", set_str(&s.title), true),
        (
            "Default",
            s.default.as_ref().is_some_and(|d| !d.is_null()),
            false,
        ),
        ("Maximum", s.maximum.is_some(), true),
        ("ExclusiveMaximum", set_bool(&s.exclusive_maximum), true),
        ("Minimum", s.minimum.is_some(), true),
        ("ExclusiveMinimum", set_bool(&s.exclusive_minimum), true),
        ("MaxLength", s.max_length.is_some(), true),
        ("MinLength", s.min_length.is_some(), true),
        ("Pattern", set_str(&s.pattern), true),
        ("MaxItems", s.max_items.is_some(), true),
        ("MinItems", s.min_items.is_some(), true),
        ("UniqueItems", set_bool(&s.unique_items), true),
        ("MultipleOf", s.multiple_of.is_some(), true),
        ("Enum", s.enum_.is_some(), false),
        ("MaxProperties", s.max_properties.is_some(), false),
        ("MinProperties", s.min_properties.is_some(), false),
        ("Required", s.required.is_some(), true),
        ("Items", s.items.is_some(), true),
        ("AllOf", s.all_of.is_some(), false),
        ("OneOf", s.one_of.is_some(), false),
        ("AnyOf", s.any_of.is_some(), false),
        ("Not", s.not.is_some(), false),
        ("Properties", s.properties.is_some(), true),
        (
            "AdditionalProperties",
            s.additional_properties.is_some(),
            false,
        ),
        ("PatternProperties", s.pattern_properties.is_some(), false),
        ("Dependencies", s.dependencies.is_some(), false),
        ("AdditionalItems", s.additional_items.is_some(), false),
        ("Definitions", s.definitions.is_some(), false),
        ("ExternalDocs", s.external_docs.is_some(), true),
        (
            "Example",
            s.example.as_ref().is_some_and(|d| !d.is_null()),
            true,
        ),
        ("Nullable", set_bool(&s.nullable), false),
        (
            "XPreserveUnknownFields",
            s.x_preserve_unknown_fields.is_some(),
            true,
        ),
        ("XEmbeddedResource", set_bool(&s.x_embedded_resource), false),
        ("XIntOrString", set_bool(&s.x_int_or_string), false),
        ("XListMapKeys", s.x_list_map_keys.is_some(), false),
        ("XListType", s.x_list_type.is_some(), false),
        ("XMapType", s.x_map_type.is_some(), false),
        ("XValidations", s.x_validations.is_some(), true),
    ];
    for (name, set, allowed) in checks {
        if !set {
            continue;
        }
        if name == "Type" {
            if s.type_str() != "object" {
                return Some("Type");
            }
            continue;
        }
        if !allowed {
            return Some(name);
        }
    }
    None
}

/// Validates one version's `schema` (`v` is `None` when absent) at `path`
/// (e.g. `spec.versions[0].schema`): `validateCustomResourceDefinitionValidation`,
/// CEL rule compilation and cost estimation included.
pub fn validate_custom_resource_definition_validation(
    v: Option<&CustomResourceValidation>,
    status_enabled: bool,
    opts: &SchemaOptions,
    path: &Path,
) -> ErrorList {
    validate_custom_resource_definition_validation_ratcheting(
        v,
        status_enabled,
        opts,
        SchemaRatchet::default(),
        path,
    )
}

/// [`validate_custom_resource_definition_validation`] on an update: with
/// the old CRD's expressions and whether this version's schema is
/// unchanged (see [`SchemaRatchet`]).
pub(crate) fn validate_custom_resource_definition_validation_ratcheting(
    v: Option<&CustomResourceValidation>,
    status_enabled: bool,
    opts: &SchemaOptions,
    ratchet: SchemaRatchet<'_>,
    path: &Path,
) -> ErrorList {
    match v.and_then(|v| v.open_api_v3_schema.as_ref()) {
        Some(schema) => validate_openapi_v3_schema_ratcheting(
            schema,
            status_enabled,
            opts,
            ratchet,
            &path.child("openAPIV3Schema"),
        ),
        None => ErrorList::new(),
    }
}

/// Validates an `openAPIV3Schema` found at `schema_path` (the nil path for
/// a bare schema): the status-subresource root rules, root nullability,
/// the structural checks and defaults (when required), and the recursive
/// OpenAPI rules.
pub fn validate_openapi_v3_schema(
    schema: &JsonSchemaProps,
    status_enabled: bool,
    opts: &SchemaOptions,
    schema_path: &Path,
) -> ErrorList {
    validate_openapi_v3_schema_ratcheting(
        schema,
        status_enabled,
        opts,
        SchemaRatchet::default(),
        schema_path,
    )
}

/// [`validate_openapi_v3_schema`] on an update (see [`SchemaRatchet`]).
pub(crate) fn validate_openapi_v3_schema_ratcheting(
    schema: &JsonSchemaProps,
    status_enabled: bool,
    opts: &SchemaOptions,
    ratchet: SchemaRatchet<'_>,
    schema_path: &Path,
) -> ErrorList {
    let mut errs = ErrorList::new();
    if status_enabled {
        match first_disallowed_root_field(schema) {
            Some("Type") => errs.push(FieldError::invalid(
                &schema_path.child("type"),
                schema.type_str(),
                r#"only "object" is allowed as the type at the root of the schema if the status subresource is enabled"#,
            )),
            Some(_) => errs.push(FieldError::invalid_struct(
                schema_path,
                &schema.to_value(),
                format!(
                    "only {ALLOWED_AT_ROOT_WITH_STATUS} fields are allowed at the root of the schema if the status subresource is enabled"
                ),
            )),
            None => {}
        }
    }
    if schema.is_nullable() {
        errs.push(FieldError::forbidden(
            &schema_path.child("nullable"),
            "nullable cannot be true at the root",
        ));
    }
    let mut structural_init_errs = ErrorList::new();
    let mut cel_enabled = false;
    if opts.require_structural_schema {
        match Structural::from_props(schema) {
            Err(e) => structural_init_errs.push(FieldError::invalid(schema_path, "", e.0)),
            Ok(ss) => {
                let structural_errs =
                    validate_structural(schema_path, &ss, StructuralOptions::default());
                if !structural_errs.is_empty() {
                    errs.extend(structural_errs);
                } else {
                    let default_errs = validate_defaults(
                        schema_path,
                        &ss,
                        true,
                        opts.require_pruned_defaults,
                        opts.cel_stored_version,
                    );
                    if !default_errs.is_empty() {
                        errs.extend(default_errs);
                    } else {
                        // Only a structural schema gets a CEL context.
                        cel_enabled = true;
                    }
                }
            }
        }
    }
    let ssv = StandardValidator {
        allow_defaults: opts.allow_defaults,
        disallow_defaults_reason: String::new(),
        inside_resource_meta: false,
        require_valid_property_type: opts.require_valid_property_type,
        uncorrelatable_old_self_path: None,
    };
    let total = RefCell::new(TotalCost::default());
    let root_ctx = cel_enabled.then(|| CelCtx {
        json: Some(schema),
        parent: None,
        accessor: None,
        within_scope: schema.x_validations.as_ref().is_some_and(|v| !v.is_empty()),
        max_cardinality: Some(1),
        total: &total,
        version: opts.cel_compatibility_version,
        stored_version: opts.cel_stored_version,
        ratchet,
        type_info: OnceCell::new(),
    });
    let mut tree = Errs::default();
    openapi_schema(
        schema,
        schema_path,
        &ssv,
        true,
        opts,
        root_ctx.as_ref(),
        &mut tree,
    );
    errs.extend(tree.schema);
    errs.extend(tree.cel);
    if errs.is_empty() {
        errs.extend(structural_init_errs);
    }
    if root_ctx.is_some() {
        let total = total.borrow();
        if total.total > STATIC_ESTIMATED_CRD_COST_LIMIT {
            for (path, _) in &total.most_expensive {
                errs.push(FieldError::forbidden(
                    path,
                    "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
                ));
            }
            errs.push(FieldError::forbidden(
                schema_path,
                cost_error_message(
                    "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                    total.total,
                    STATIC_ESTIMATED_CRD_COST_LIMIT,
                ),
            ));
        }
    }
    errs
}

/// The largest static cost of one expression (`StaticEstimatedCostLimit`).
pub(crate) const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;
/// The largest static cost of all the rules of a schema
/// (`StaticEstimatedCRDCostLimit`).
pub(crate) const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

/// `getCostErrorMessage`.
fn cost_error_message(name: &str, cost: u64, limit: u64) -> String {
    let f = cost as f64 / limit as f64;
    let factor = if f > 100.0 {
        "more than 100x".to_string()
    } else if f < 1.5 {
        format!("{f:.6}x")
    } else {
        format!("{f:.1}x")
    };
    format!(
        "{name} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

/// `multiplyWithOverflowGuard`.
fn multiply_guarded(base: u64, cardinality: u64) -> u64 {
    if base == 0 {
        0
    } else {
        base.saturating_mul(cardinality)
    }
}

/// `TotalCost`: the cost of all the rules, and the (at most 4) most
/// expensive ones costing at least 1% of the limit.
#[derive(Default)]
struct TotalCost {
    total: u64,
    most_expensive: Vec<(Path, u64)>,
}

impl TotalCost {
    fn observe(&mut self, path: Path, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100 {
            return;
        }
        self.most_expensive.push((path, cost));
        self.most_expensive.sort_by_key(|e| std::cmp::Reverse(e.1));
        self.most_expensive.truncate(4);
    }
}

/// The schema errors and the CEL errors of a subtree, kept apart as
/// `OpenAPISchemaErrorList` does (schema errors first in the result).
#[derive(Default)]
struct Errs {
    schema: ErrorList,
    cel: ErrorList,
}

/// `CELTypeInfo`: a structural node (as a path from a converted root) and
/// its declared type.
#[derive(Clone)]
struct TypeInfo {
    root: Arc<Structural>,
    steps: Vec<SchemaStep<String>>,
    decl: Arc<DeclType>,
}

impl TypeInfo {
    fn node(&self) -> Option<&Structural> {
        let mut cur: &Structural = &self.root;
        for s in &self.steps {
            cur = match s {
                SchemaStep::Property(n) => cur.properties.get(n)?,
                SchemaStep::Items => cur.items.as_deref()?,
                SchemaStep::AdditionalProperties => cur
                    .generic
                    .additional_properties
                    .as_ref()?
                    .structural
                    .as_deref()?,
            };
        }
        Some(cur)
    }

    fn child(&self, step: SchemaStep<String>, decl: &Arc<DeclType>) -> TypeInfo {
        let mut steps = self.steps.clone();
        steps.push(step);
        TypeInfo {
            root: Arc::clone(&self.root),
            steps,
            decl: Arc::clone(decl),
        }
    }
}

/// `CELSchemaContext`.
struct CelCtx<'a> {
    json: Option<&'a JsonSchemaProps>,
    parent: Option<&'a CelCtx<'a>>,
    /// The step from the parent (`None` at the root).
    accessor: Option<SchemaStep<String>>,
    within_scope: bool,
    max_cardinality: Option<u64>,
    total: &'a RefCell<TotalCost>,
    /// The environment of new expressions.
    version: CompatibilityVersion,
    /// The environment of the expressions the old CRD had (on update).
    stored_version: CompatibilityVersion,
    ratchet: SchemaRatchet<'a>,
    type_info: OnceCell<Result<Option<TypeInfo>, String>>,
}

/// `extractMaxElements`.
fn extract_max_elements(s: &JsonSchemaProps) -> Option<u64> {
    match s.type_str() {
        "object" => {
            if s.additional_properties.is_some() {
                s.max_properties.map(|m| m.max(0) as u64)
            } else {
                Some(1)
            }
        }
        "array" => s.max_items.map(|m| m.max(0) as u64),
        _ => Some(1),
    }
}

impl<'a> CelCtx<'a> {
    fn child(
        &'a self,
        child: Option<&'a JsonSchemaProps>,
        accessor: Option<SchemaStep<String>>,
    ) -> CelCtx<'a> {
        let mut within_scope = self.within_scope;
        if child.is_some_and(|c| c.x_validations.as_ref().is_some_and(|v| !v.is_empty())) {
            within_scope = true;
        }
        let max_cardinality = match (self.max_cardinality, self.json) {
            (Some(card), Some(json)) => {
                extract_max_elements(json).map(|m| multiply_guarded(card, m))
            }
            _ => None,
        };
        CelCtx {
            json: child,
            parent: Some(self),
            accessor,
            within_scope,
            max_cardinality,
            total: self.total,
            version: self.version,
            stored_version: self.stored_version,
            ratchet: self.ratchet,
            type_info: OnceCell::new(),
        }
    }

    fn type_info(&self) -> Result<Option<TypeInfo>, String> {
        if !self.within_scope {
            return Ok(None);
        }
        self.type_info
            .get_or_init(|| {
                if let Some(parent) = self.parent {
                    if let Some(pti) = parent.type_info()? {
                        if let Some(ti) = self.access(&pti) {
                            return Ok(Some(ti));
                        }
                    }
                }
                let Some(json) = self.json else {
                    return Ok(None);
                };
                let structural = Structural::from_props(json).map_err(|e| e.0)?;
                let is_root = self.parent.is_none() || json.is_embedded_resource();
                let decl = schema_decl_type(&structural, is_root).ok_or_else(|| {
                    "unable to convert structural schema to CEL declarations".to_string()
                })?;
                Ok(Some(TypeInfo {
                    root: Arc::new(structural),
                    steps: Vec::new(),
                    decl,
                }))
            })
            .clone()
    }

    fn access(&self, parent: &TypeInfo) -> Option<TypeInfo> {
        let node = parent.node()?;
        match self.accessor.as_ref()? {
            SchemaStep::Property(name) => {
                if node.properties.is_empty() {
                    return None;
                }
                let escaped = escape(name)?;
                let field = parent.decl.fields()?.get(&escaped)?;
                Some(parent.child(SchemaStep::Property(name.clone()), &field.ty))
            }
            SchemaStep::Items => {
                node.items.as_ref()?;
                Some(parent.child(SchemaStep::Items, parent.decl.elem()?))
            }
            SchemaStep::AdditionalProperties => {
                node.generic.additional_properties.as_ref()?;
                Some(parent.child(SchemaStep::AdditionalProperties, parent.decl.elem()?))
            }
        }
    }
}

/// `specStandardValidatorV3`.
#[derive(Clone)]
struct StandardValidator {
    allow_defaults: bool,
    disallow_defaults_reason: String,
    inside_resource_meta: bool,
    require_valid_property_type: bool,
    uncorrelatable_old_self_path: Option<Path>,
}

impl StandardValidator {
    fn with_forbidden_defaults(&self, reason: String) -> Self {
        Self {
            allow_defaults: false,
            disallow_defaults_reason: reason,
            ..self.clone()
        }
    }

    fn with_forbid_old_self_validations(&self, path: &Path) -> Self {
        if self.uncorrelatable_old_self_path.is_some() {
            return self.clone();
        }
        Self {
            uncorrelatable_old_self_path: Some(path.clone()),
            ..self.clone()
        }
    }

    fn validate(&self, s: &JsonSchemaProps, p: &Path, errs: &mut ErrorList) {
        const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];
        let t = s.type_str();
        if self.require_valid_property_type && !t.is_empty() && !TYPES.contains(&t) {
            errs.push(FieldError::not_supported(&p.child("type"), t, &TYPES));
        }
        if s.default.is_some() && !self.allow_defaults {
            let mut detail = "must not be set".to_string();
            if !self.disallow_defaults_reason.is_empty() {
                detail.push(' ');
                detail.push_str(&self.disallow_defaults_reason);
            }
            errs.push(FieldError::forbidden(&p.child("default"), detail));
        }
        if s.id.as_deref().is_some_and(|i| !i.is_empty()) {
            errs.push(FieldError::forbidden(&p.child("id"), "id is not supported"));
        }
        if s.additional_items.is_some() {
            errs.push(FieldError::forbidden(
                &p.child("additionalItems"),
                "additionalItems is not supported",
            ));
        }
        if s.pattern_properties.as_ref().is_some_and(|m| !m.is_empty()) {
            errs.push(FieldError::forbidden(
                &p.child("patternProperties"),
                "patternProperties is not supported",
            ));
        }
        if s.definitions.as_ref().is_some_and(|m| !m.is_empty()) {
            errs.push(FieldError::forbidden(
                &p.child("definitions"),
                "definitions is not supported",
            ));
        }
        if s.dependencies.is_some() {
            errs.push(FieldError::forbidden(
                &p.child("dependencies"),
                "dependencies is not supported",
            ));
        }
        if s.reference.is_some() {
            errs.push(FieldError::forbidden(
                &p.child("$ref"),
                "$ref is not supported",
            ));
        }
        if t == "null" {
            errs.push(FieldError::forbidden(
                &p.child("type"),
                "type cannot be set to null, use nullable as an alternative",
            ));
        }
        if matches!(&s.items, Some(SchemaOrArray::Array(a)) if !a.is_empty()) {
            errs.push(FieldError::forbidden(
                &p.child("items"),
                "items must be a schema object and not an array",
            ));
        }
        if self.inside_resource_meta && s.is_embedded_resource() {
            errs.push(FieldError::forbidden(
                &p.child("x-kubernetes-embedded-resource"),
                "must not be used inside of resource meta",
            ));
        }
    }
}

const META_FIELDS: [&str; 3] = ["metadata", "kind", "apiVersion"];

/// `ValidateCustomResourceDefinitionOpenAPISchema`.
fn openapi_schema(
    s: &JsonSchemaProps,
    p: &Path,
    ssv: &StandardValidator,
    is_root: bool,
    opts: &SchemaOptions,
    ctx: Option<&CelCtx<'_>>,
    errs: &mut Errs,
) {
    let schema_start = errs.schema.len();
    ssv.validate(s, p, &mut errs.schema);
    if s.unique_items == Some(true) {
        errs.schema.push(FieldError::forbidden(
            &p.child("uniqueItems"),
            "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ));
    }
    let has_properties = s.properties.as_ref().is_some_and(|m| !m.is_empty());
    if let Some(ap) = &s.additional_properties {
        if has_properties && (!ap.allows() || ap.schema().is_some()) {
            errs.schema.push(FieldError::forbidden(
                &p.child("additionalProperties"),
                "additionalProperties and properties are mutual exclusive",
            ));
        }
        let sub = if ssv.inside_resource_meta {
            ssv.with_forbidden_defaults(
                "inside additionalProperties applying to object metadata".into(),
            )
        } else {
            ssv.clone()
        };
        let ap_schema = match ap {
            SchemaOrBool::Schema(aps) => Some(aps.as_ref()),
            SchemaOrBool::Bool(_) => None,
        };
        let child = ctx.map(|c| c.child(ap_schema, Some(SchemaStep::AdditionalProperties)));
        if let Some(aps) = ap_schema {
            openapi_schema(
                aps,
                &p.child("additionalProperties"),
                &sub,
                false,
                opts,
                child.as_ref(),
                errs,
            );
        }
    }
    for (name, prop) in s.properties.iter().flatten() {
        let mut sub = ssv.clone();
        if !map_is_correlatable(s.x_map_type.as_deref()) {
            sub = sub.with_forbid_old_self_validations(p);
        }
        if (is_root || s.is_embedded_resource()) && META_FIELDS.contains(&name.as_str()) {
            sub.inside_resource_meta = true;
            if is_root {
                sub = sub.with_forbidden_defaults(format!("in top-level {name}"));
            }
        }
        let child = ctx.map(|c| c.child(Some(prop), Some(SchemaStep::Property(name.clone()))));
        openapi_schema(
            prop,
            &p.child("properties").key(name.as_str()),
            &sub,
            false,
            opts,
            child.as_ref(),
            errs,
        );
    }
    if let Some(n) = &s.not {
        openapi_schema(n, &p.child("not"), ssv, false, opts, None, errs);
    }
    for (key, list) in [
        ("allOf", &s.all_of),
        ("oneOf", &s.one_of),
        ("anyOf", &s.any_of),
    ] {
        for (i, sub) in list.iter().flatten().enumerate() {
            openapi_schema(sub, &p.child(key).index(i), ssv, false, opts, None, errs);
        }
    }
    for (name, d) in s.definitions.iter().flatten() {
        openapi_schema(
            d,
            &p.child("definitions").key(name.as_str()),
            ssv,
            false,
            opts,
            None,
            errs,
        );
    }
    if s.items.is_some() {
        let sub = if s.x_list_type.as_deref() != Some("map") {
            ssv.with_forbid_old_self_validations(p)
        } else {
            ssv.clone()
        };
        match &s.items {
            Some(SchemaOrArray::Schema(items)) => {
                let child = ctx.map(|c| c.child(Some(items), Some(SchemaStep::Items)));
                openapi_schema(
                    items,
                    &p.child("items"),
                    &sub,
                    false,
                    opts,
                    child.as_ref(),
                    errs,
                );
            }
            Some(SchemaOrArray::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    let child = ctx.map(|c| c.child(Some(item), Some(SchemaStep::Items)));
                    openapi_schema(
                        item,
                        &p.child("items").index(i),
                        &sub,
                        false,
                        opts,
                        child.as_ref(),
                        errs,
                    );
                }
            }
            None => {}
        }
    }
    for (name, dep) in s.dependencies.iter().flatten() {
        if let crate::model::wire::SchemaOrStringArray::Schema(d) = dep {
            openapi_schema(
                d,
                &p.child("dependencies").key(name.as_str()),
                ssv,
                false,
                opts,
                None,
                errs,
            );
        }
    }
    extensions(s, p, opts, &mut errs.schema);
    rules(s, p, ssv, ctx, schema_start, errs);
}

/// `MapIsCorrelatable`: maps with map-type unset, granular or atomic.
fn map_is_correlatable(map_type: Option<&str>) -> bool {
    matches!(map_type, None | Some("granular" | "atomic"))
}

fn type_must_be(s: &JsonSchemaProps, p: &Path, want: &str, ext: &str, errs: &mut ErrorList) {
    let detail = format!("must be {want} if {ext} is specified");
    match s.type_str() {
        "" => errs.push(FieldError::required(&p.child("type"), detail)),
        t if t != want => errs.push(FieldError::invalid(&p.child("type"), t, detail)),
        _ => {}
    }
}

fn item_schema(s: &JsonSchemaProps) -> Option<&JsonSchemaProps> {
    match &s.items {
        Some(SchemaOrArray::Schema(i)) => Some(i),
        _ => None,
    }
}

fn extensions(s: &JsonSchemaProps, p: &Path, opts: &SchemaOptions, errs: &mut ErrorList) {
    if s.x_preserve_unknown_fields == Some(false) {
        errs.push(FieldError::invalid(
            &p.child("x-kubernetes-preserve-unknown-fields"),
            false,
            "must be true or undefined",
        ));
    }
    if let Some(mt) = &s.x_map_type {
        type_must_be(s, p, "object", "x-kubernetes-map-type", errs);
        if mt != "atomic" && mt != "granular" {
            errs.push(FieldError::not_supported(
                &p.child("x-kubernetes-map-type"),
                mt.as_str(),
                &["atomic", "granular"],
            ));
        }
    }
    let list_type = s.x_list_type.as_deref();
    if list_type.is_some() && s.type_str() != "array" {
        type_must_be(s, p, "array", "x-kubernetes-list-type", errs);
    } else if opts.require_atomic_set_type && list_type == Some("set") {
        if let Some(is) = item_schema(s) {
            let detail = "must be atomic as item of a list with x-kubernetes-list-type=set";
            let item_list_type = is.x_list_type.clone().map_or(Value::Null, Value::String);
            match is.type_str() {
                "array" if is.x_list_type.as_deref().is_some_and(|t| t != "atomic") => {
                    errs.push(FieldError::invalid(
                        &p.child("items").child("x-kubernetes-list-type"),
                        item_list_type,
                        detail,
                    ));
                }
                "object" if is.x_map_type.as_deref() != Some("atomic") => {
                    errs.push(FieldError::invalid(
                        &p.child("items").child("x-kubernetes-map-type"),
                        item_list_type,
                        detail,
                    ));
                }
                _ => {}
            }
        }
    }
    if let Some(lt) = list_type {
        if lt != "atomic" && lt != "set" && lt != "map" {
            errs.push(FieldError::not_supported(
                &p.child("x-kubernetes-list-type"),
                lt,
                &["atomic", "set", "map"],
            ));
        }
    }
    let keys = s.x_list_map_keys.as_deref().unwrap_or_default();
    if !keys.is_empty() {
        let detail = "must be map if x-kubernetes-list-map-keys is non-empty";
        match list_type {
            None => errs.push(FieldError::required(
                &p.child("x-kubernetes-list-type"),
                detail,
            )),
            Some(lt) if lt != "map" => {
                errs.push(FieldError::invalid(
                    &p.child("x-kubernetes-list-type"),
                    lt,
                    detail,
                ));
            }
            _ => {}
        }
    }
    if list_type == Some("map") {
        if keys.is_empty() {
            errs.push(FieldError::required(
                &p.child("x-kubernetes-list-map-keys"),
                "must not be empty if x-kubernetes-list-type is map",
            ));
        }
        match &s.items {
            None => errs.push(FieldError::required(
                &p.child("items"),
                "must have a schema if x-kubernetes-list-type is map",
            )),
            Some(SchemaOrArray::Array(a)) => errs.push(FieldError::invalid(
                &p.child("items"),
                Value::Array(a.iter().map(JsonSchemaProps::to_value).collect()),
                "must only have a single schema if x-kubernetes-list-type is map",
            )),
            Some(SchemaOrArray::Schema(is)) => {
                if is.type_str() != "object" {
                    errs.push(FieldError::invalid(
                        &p.child("items").child("type"),
                        is.type_str(),
                        "must be object if parent array's x-kubernetes-list-type is map",
                    ));
                } else {
                    let keys_value = Value::from(keys.to_vec());
                    let mut seen = std::collections::HashSet::new();
                    for k in keys {
                        match is.properties.as_ref().and_then(|m| m.get(k)) {
                            Some(ks) => {
                                if matches!(ks.type_str(), "array" | "object") {
                                    errs.push(FieldError::invalid(
                                        &p.child("items").child("properties").key(k.as_str()).child("type"),
                                        is.type_str(),
                                        "must be a scalar type if parent array's x-kubernetes-list-type is map",
                                    ));
                                }
                            }
                            None => errs.push(FieldError::invalid(
                                &p.child("x-kubernetes-list-map-keys"),
                                keys_value.clone(),
                                "entries must all be names of item properties",
                            )),
                        }
                        if !seen.insert(k.as_str()) {
                            errs.push(FieldError::invalid(
                                &p.child("x-kubernetes-list-map-keys"),
                                keys_value.clone(),
                                "must not contain duplicate entries",
                            ));
                        }
                    }
                }
            }
        }
    }
    if opts.require_map_list_keys_map_set_validation {
        map_list_keys_map_set(s, p, errs);
    }
}

fn map_list_keys_map_set(s: &JsonSchemaProps, p: &Path, errs: &mut ErrorList) {
    let (Some(is), Some(lt)) = (item_schema(s), s.x_list_type.as_deref()) else {
        return;
    };
    if lt != "set" && lt != "map" {
        return;
    }
    if is.is_nullable() {
        errs.push(FieldError::forbidden(
            &p.child("items").child("nullable"),
            format!("cannot be nullable when x-kubernetes-list-type is {lt}"),
        ));
    }
    if lt == "map" {
        let required = is.required.as_deref().unwrap_or_default();
        for k in s.x_list_map_keys.iter().flatten() {
            let Some(ks) = is.properties.as_ref().and_then(|m| m.get(k)) else {
                continue;
            };
            let kp = p.child("items").child("properties").key(k.as_str());
            if !required.contains(k) && ks.default.is_none() {
                errs.push(FieldError::required(
                    &kp.child("default"),
                    "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
                ));
            }
            if ks.is_nullable() {
                errs.push(FieldError::forbidden(
                    &kp.child("nullable"),
                    "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
                ));
            }
        }
    }
}

fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// The checks of `x-kubernetes-validations`: their form, then, when no
/// schema error was found at this node or below, their compilation.
fn rules(
    s: &JsonSchemaProps,
    p: &Path,
    ssv: &StandardValidator,
    ctx: Option<&CelCtx<'_>>,
    schema_start: usize,
    all: &mut Errs,
) {
    let Some(validations) = s.x_validations.as_ref().filter(|v| !v.is_empty()) else {
        return;
    };
    let errs = &mut all.schema;
    const REASONS: [&str; 4] = [
        "FieldValueDuplicate",
        "FieldValueForbidden",
        "FieldValueInvalid",
        "FieldValueRequired",
    ];
    for (i, rule) in validations.iter().enumerate() {
        let rp = p.child("x-kubernetes-validations").index(i);
        let raw_rule = rule.rule.as_deref().unwrap_or_default();
        let raw_msg = rule.message.as_deref().unwrap_or_default();
        let trimmed_rule = raw_rule.trim();
        let trimmed_msg = raw_msg.trim();
        if trimmed_rule.is_empty() {
            errs.push(FieldError::required(
                &rp.child("rule"),
                "rule is not specified",
            ));
        } else if !raw_msg.is_empty() && trimmed_msg.is_empty() {
            errs.push(FieldError::invalid(
                &rp.child("message"),
                raw_msg,
                "must be non-empty if specified",
            ));
        } else if has_newlines(trimmed_msg) {
            errs.push(FieldError::invalid(
                &rp.child("message"),
                raw_msg,
                "must not contain line breaks",
            ));
        } else if has_newlines(trimmed_rule) && trimmed_msg.is_empty() {
            errs.push(FieldError::required(
                &rp.child("message"),
                "message must be specified if rule contains line breaks",
            ));
        }
        let raw_expr = rule.message_expression.as_deref().unwrap_or_default();
        if !raw_expr.is_empty() && raw_expr.trim().is_empty() {
            errs.push(FieldError::required(
                &rp.child("messageExpression"),
                "messageExpression must be non-empty if specified",
            ));
        }
        if let Some(reason) = &rule.reason {
            if !REASONS.contains(&reason.as_str()) {
                errs.push(FieldError::not_supported(
                    &rp.child("reason"),
                    reason.as_str(),
                    &REASONS,
                ));
            }
        }
        let fp = rule.field_path.as_deref().unwrap_or_default();
        if !fp.is_empty() && fp.trim().is_empty() {
            errs.push(FieldError::invalid(
                &rp.child("fieldPath"),
                fp,
                "must be non-empty if specified",
            ));
        }
        if has_newlines(fp) {
            errs.push(FieldError::invalid(
                &rp.child("fieldPath"),
                fp,
                "must not contain line breaks",
            ));
        }
        if !fp.is_empty() && !crate::cel::field_path::path_valid(s, fp) {
            errs.push(FieldError::invalid(
                &rp.child("fieldPath"),
                fp,
                "must be a valid path",
            ));
        }
    }
    if all.schema.len() > schema_start {
        return;
    }
    let Some(ctx) = ctx else {
        return;
    };
    let vp = p.child("x-kubernetes-validations");
    let info = match ctx.type_info() {
        Err(e) => {
            all.cel.push(FieldError::internal(
                &vp,
                format!(
                    "internal error: failed to construct type information for x-kubernetes-validations rules: {e}"
                ),
            ));
            return;
        }
        Ok(None) => {
            all.cel.push(FieldError::internal(
                &vp,
                "internal error: failed to retrieve type information for x-kubernetes-validations",
            ));
            return;
        }
        Ok(Some(info)) => info,
    };
    let env = RuleEnv::new(&info.decl, ctx.version);
    // The stored-expressions environment, built when an expression of the
    // old CRD asks for it.
    let stored_env = OnceCell::new();
    let env_for = |preexisting: bool| -> &RuleEnv {
        if preexisting && ctx.stored_version != ctx.version {
            stored_env.get_or_init(|| RuleEnv::new(&info.decl, ctx.stored_version))
        } else {
            &env
        }
    };
    let suppress_cost = ctx.ratchet.suppress_per_expression_cost;
    for (i, rule) in validations.iter().enumerate() {
        let rp = vp.index(i);
        let rule_env = env_for(
            ctx.ratchet
                .preexisting_rule(rule.rule.as_deref().unwrap_or_default()),
        );
        let message_env = env_for(ctx.ratchet.preexisting_message_expression(
            rule.message_expression.as_deref().unwrap_or_default(),
        ));
        let cr = compile_rule_in(rule, rule_env, message_env);
        let cardinality = ctx.max_cardinality.unwrap_or(cr.max_cardinality);
        let cost = multiply_guarded(cr.max_cost, cardinality);
        if !suppress_cost && cost > STATIC_ESTIMATED_COST_LIMIT {
            all.cel.push(FieldError::forbidden(
                &rp.child("rule"),
                cost_error_message("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT),
            ));
        }
        ctx.total.borrow_mut().observe(rp.child("rule"), cost);
        if let Some(e) = &cr.error {
            all.cel.push(FieldError::invalid_struct(
                &rp.child("rule"),
                &rule.encode(),
                e.clone(),
            ));
        }
        if let Some(e) = &cr.message_expression_error {
            all.cel.push(FieldError::invalid_struct(
                &rp.child("messageExpression"),
                &rule.encode(),
                e.clone(),
            ));
        } else if let Some(mc) = cr.message_expression_max_cost {
            if !suppress_cost && mc > STATIC_ESTIMATED_COST_LIMIT {
                all.cel.push(FieldError::forbidden(
                    &rp.child("messageExpression"),
                    cost_error_message(
                        "estimated messageExpression cost",
                        mc,
                        STATIC_ESTIMATED_COST_LIMIT,
                    ),
                ));
            }
            ctx.total
                .borrow_mut()
                .observe(rp.child("messageExpression"), mc);
        }
        if cr.uses_old_self {
            if let Some(up) = &ssv.uncorrelatable_old_self_path {
                all.cel.push(FieldError::invalid(
                    &rp.child("rule"),
                    rule.rule.clone().unwrap_or_default(),
                    format!(
                        "oldSelf cannot be used on the uncorrelatable portion of the schema within {up}"
                    ),
                ));
            }
        } else if let Some(o) = rule.optional_old_self {
            all.cel.push(FieldError::invalid(
                &rp.child("optionalOldSelf"),
                o,
                "may not be set if oldSelf is not used in rule",
            ));
        }
    }
}
