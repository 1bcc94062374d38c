//! Whole-CRD validation as the API server runs it on **create**:
//! apiextensions-apiserver's `ValidateCustomResourceDefinition(ctx, obj)`
//! (`pkg/apis/apiextensions/validation/validation.go`), with the create
//! options of `pkg/registry/customresourcedefinition/strategy.go`.
//!
//! What the server does before it validates, and what this module
//! therefore does too:
//!
//! 1. **Defaulting**, then
//! 2. **conversion to the internal type** (see `crd::internal`):
//!    the errors are reported at the internal object's field paths (a
//!    schema shared by all versions under `spec.validation.openAPIV3Schema…`,
//!    a column's `JSONPath`, the flattened conversion webhook), which
//!    `submitted_location` maps
//!    back to where the field is written in the document.
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
//! [`validate_custom_resource_definition_validation`][vcrdv], called with
//! the [`SchemaOptions`] derived here. The other parts of the spec are
//! checked in the submodules: `names` (names, group and scope), `versions`
//! (versions and stored versions), `subresources`, `columns` (printer
//! columns and selectable fields), `conversion` (the conversion webhook,
//! with `ca_bundle` for its CA bundle) and `approval` (API approval of
//! protected groups). The update
//! ([`update`](crate::crd::validation::update)) validates the spec with the
//! same functions and the options it derives from the old CRD.
//!
//! [vcrdv]: crate::crd::validation::schema::validate_custom_resource_definition_validation

mod approval;
mod ca_bundle;
mod columns;
mod conversion;
mod names;
mod subresources;
mod versions;

use std::collections::{BTreeSet, HashSet};

use serde_json::Value;

use crate::crd::internal::{Spec, Version, defaulted_spec, internal_spec, versions_of};
use crate::crd::validation::schema::{
    PreexistingExpressions, SchemaOptions, SchemaRatchet,
    validate_custom_resource_definition_validation_ratcheting,
};
use crate::go::names::{is_dns1035_label, name_is_dns_subdomain};
use crate::model::field::{ErrorList, FieldError, Path};
use crate::model::kube_version::KubeVersion;
use crate::model::wire::codec::Wire;
use crate::model::wire::{
    CustomResourceDefinition, JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray,
};
use crate::object::metadata::{before_create, decode_object_meta, validate_object_meta_with};
use columns::{validate_column, validate_selectable_fields_with_schema};
use conversion::validate_conversion;
use names::{validate_group_and_scope, validate_names};
use subresources::validate_subresources;
use versions::{
    has_any_status_enabled, has_status_enabled, prepared_stored_versions, subresources_for_version,
    validate_version,
};

pub(super) use approval::{api_approval_annotation, validate_api_approval};
pub(super) use columns::MAX_SELECTABLE_FIELDS;
pub(super) use conversion::{is_accepted_conversion_review_version, validate_ca_bundle};
pub(super) use names::validate_definition_names;
pub(super) use versions::validate_stored_versions;

pub use crate::crd::internal::RequestVersion;

/// Validates a CRD as the API server of `options.kube_version` does on
/// create, returning the field errors in the order the server produces
/// them (see the module docs for the defaulting and the internal-form
/// paths): its CEL environment for new rules, and without
/// `selectableFields` where its `CustomResourceFieldSelectors` gate is off
/// by default (`PrepareForCreate` drops them; see
/// [`drop_disabled_fields`]). `crd` is the v1 form; `request` says which
/// API version it was submitted as.
#[must_use]
pub fn validate_custom_resource_definition(
    crd: &CustomResourceDefinition,
    request: RequestVersion,
    options: &crate::model::options::Options,
) -> ErrorList {
    let kube = options.kube_version;
    let dropped;
    let crd = if kube.field_selectors() {
        crd
    } else {
        dropped = drop_disabled_fields(crd, kube);
        &dropped
    };
    let mut opts = Options::for_create(request);
    opts.kube = kube;
    let defaulted = defaulted_spec(crd);
    let spec = internal_spec(&defaulted, versions_of(crd), request);
    let meta = crd.metadata.as_ref();

    let mut errs = ErrorList::new();
    validate_object_meta(meta, &spec, &mut errs);
    validate_spec(&spec, &opts, &mut errs);
    // ValidateCustomResourceDefinitionStatus: PrepareForCreate clears the
    // status, so the accepted names are empty and produce no errors.
    validate_stored_versions(prepared_stored_versions(&spec).as_deref(), &spec, &mut errs);
    if opts.check_api_approval {
        validate_api_approval(spec.group, meta, None, &mut errs);
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

/// The CRD as `PrepareForCreate` leaves it on the API server of `kube`
/// (`dropDisabledFields`): without `selectableFields` where the
/// `CustomResourceFieldSelectors` gate is off by default.
#[must_use]
pub(crate) fn drop_disabled_fields(
    crd: &CustomResourceDefinition,
    kube: KubeVersion,
) -> CustomResourceDefinition {
    let mut crd = crd.clone();
    if !kube.field_selectors()
        && let Some(versions) = crd.spec.as_mut().and_then(|s| s.versions.as_mut())
    {
        for v in versions {
            v.selectable_fields = None;
        }
    }
    crd
}

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

/// `validationOptions`. On create (`for_create`) `requireImmutableNames`
/// is false, `preexistingExpressions`, `versionsWithUnchangedSchemas` and
/// `allowTooManySelectableFields` are empty, and `allowInvalidCABundle` is
/// true, so the webhook `caBundle` is not checked; an update derives them
/// from the old CRD (`update.rs`). `suppressPerExpressionCost` is decided
/// per schema from `versions_with_unchanged_schemas` ([`Options::ratchet`]).
#[derive(Clone, Debug)]
pub(super) struct Options {
    pub(super) allow_defaults: bool,
    pub(super) require_recognized_conversion_review_version: bool,
    pub(super) require_immutable_names: bool,
    pub(super) require_open_api_schema: bool,
    pub(super) require_valid_property_type: bool,
    pub(super) require_structural_schema: bool,
    pub(super) require_pruned_defaults: bool,
    pub(super) require_atomic_set_type: bool,
    pub(super) require_map_list_keys_map_set_validation: bool,
    pub(super) check_api_approval: bool,
    pub(super) check_preserve_unknown_fields: bool,
    /// `preexistingExpressions` (`None` on create).
    pub(super) preexisting_expressions: Option<PreexistingExpressions>,
    /// `versionsWithUnchangedSchemas`, by version name.
    pub(super) versions_with_unchanged_schemas: BTreeSet<String>,
    /// `allowInvalidCABundle`.
    pub(super) allow_invalid_ca_bundle: bool,
    /// `allowTooManySelectableFields`: the version names (`""` for the
    /// top-level fields) whose selectable fields may stay above the limit.
    pub(super) allow_too_many_selectable_fields: BTreeSet<String>,
    /// The release whose server validates.
    pub(super) kube: KubeVersion,
}

impl Options {
    fn for_create(request: RequestVersion) -> Self {
        let v1 = request == RequestVersion::V1;
        Self {
            allow_defaults: v1,
            require_recognized_conversion_review_version: true,
            require_immutable_names: false,
            require_open_api_schema: v1,
            require_valid_property_type: v1,
            require_structural_schema: v1,
            require_pruned_defaults: true,
            require_atomic_set_type: true,
            require_map_list_keys_map_set_validation: true,
            check_api_approval: v1,
            check_preserve_unknown_fields: v1,
            preexisting_expressions: None,
            versions_with_unchanged_schemas: BTreeSet::new(),
            allow_invalid_ca_bundle: true,
            allow_too_many_selectable_fields: BTreeSet::new(),
            kube: KubeVersion::default(),
        }
    }

    /// The update-only schema options of the schema of `version`
    /// (`suppressExpressionCostForUnchangedSchema`).
    pub(super) fn ratchet(&self, version: &str) -> SchemaRatchet<'_> {
        SchemaRatchet {
            preexisting: self.preexisting_expressions.as_ref(),
            suppress_per_expression_cost: self.versions_with_unchanged_schemas.contains(version),
        }
    }

    fn schema_options(&self, preserve_unknown_fields: bool) -> SchemaOptions {
        let mut o = SchemaOptions::create(
            &crate::model::options::Options::new().with_kube_version(self.kube),
        );
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
    let required_name = format!("{}.{}", spec.names.plural, spec.group);
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
pub(super) fn validate_spec(spec: &Spec<'_>, opts0: &Options, errs: &mut ErrorList) {
    let sp = Path::new(["spec"]);

    validate_group_and_scope(spec, &sp, errs);

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
        validate_version(
            v,
            &vp,
            status_enabled,
            &schema_opts,
            opts.ratchet(v.name),
            opts.allow_too_many_selectable_fields.contains(v.name),
            errs,
        );
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

    validate_names(spec, &sp.child("names"), errs);

    errs.extend(validate_custom_resource_definition_validation_ratcheting(
        spec.validation,
        has_any_status_enabled(spec),
        &schema_opts,
        opts.ratchet(spec.version),
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
                opts.allow_too_many_selectable_fields.contains(""),
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
            opts.allow_invalid_ca_bundle,
            &sp.child("conversion"),
            errs,
        );
    }
}

/// The submitted versions, as the bad value of `spec.versions` errors.
fn versions_value(spec: &Spec<'_>) -> Value {
    Value::Array(spec.wire_versions.iter().map(Wire::encode).collect())
}

/// `HasSchemaWith` with `SchemaHas`: whether the top-level or a
/// per-version schema has a node satisfying `pred`.
pub(super) fn spec_has(spec: &Spec<'_>, pred: &dyn Fn(&JsonSchemaProps) -> bool) -> bool {
    spec.validation
        .into_iter()
        .chain(spec.versions.iter().filter_map(|v| v.schema))
        .filter_map(|v| v.open_api_v3_schema.as_ref())
        .any(|s| schema_has(s, pred))
}

/// `SchemaHas`: `pred` on every node, pre-order.
pub(super) fn schema_has(s: &JsonSchemaProps, pred: &dyn Fn(&JsonSchemaProps) -> bool) -> bool {
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

#[cfg(test)]
mod tests;
