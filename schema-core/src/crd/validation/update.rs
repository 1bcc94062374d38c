//! Whole-CRD validation as the API server runs it on **update**:
//! apiextensions-apiserver's `ValidateCustomResourceDefinitionUpdate(ctx,
//! obj, oldObj)` (`pkg/apis/apiextensions/validation/validation.go`).
//!
//! Both CRDs are read as the server's decoder leaves them (the v1 defaults,
//! `status.storedVersions` defaulted to the first storage version when
//! empty) and converted to the internal type (see `crd::internal`:
//! errors are reported at the internal object's field paths, which
//! `submitted_location` maps
//! back). This is the validation function itself, on the two objects as
//! given: the registry strategy's `PrepareForUpdate`, which would copy the
//! old status into the new object and move the generation, is not applied,
//! so the new object's `status` (its stored versions and accepted names)
//! is validated as written.
//!
//! The validation options come from the **old** CRD, so that an update
//! never fails on what the old object already had:
//!
//! - `requireRecognizedConversionReviewVersion` unless the old conversion
//!   webhook names only unrecognized review versions;
//! - `requireImmutableNames` when the old CRD is `Established`: `spec.scope`
//!   and `spec.names.kind` may not change then (`spec.group` and
//!   `spec.names.plural` never may);
//! - `requireOpenAPISchema`, `requireValidPropertyType`,
//!   `requireStructuralSchema`, `requirePrunedDefaults`,
//!   `requireAtomicSetType` and `requireMapListKeysMapSetValidation` unless
//!   the old schemas already break the rule;
//! - the old CEL rules and message expressions compile in the
//!   stored-expressions environment (`findPreexistingExpressions`);
//! - the rules of a version whose schema is unchanged are not held to the
//!   per-expression cost limit (`findVersionsWithUnchangedSchemas`);
//! - an invalid webhook `caBundle` is allowed while the old CRD is not
//!   established or its bundle is invalid too (`allowInvalidCABundle`);
//! - more than 8 selectable fields are allowed where the old CRD had them
//!   and they did not change (`findTooManySelectableFieldsAllowed`).
//!
//! Then, in the server's order: `ValidateObjectMetaUpdate` of the metadata
//! (the name is not checked again: it cannot change), the spec as on
//! create with those options, the immutable fields, `status.acceptedNames`,
//! `status.storedVersions`, the API approval (only a change of its state
//! is checked) and `spec.preserveUnknownFields` (true is allowed only when
//! it was true).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::crd::internal::{
    NamesRef, Spec, canon_selectable, canon_validation, defaulted_spec, internal_spec, versions_of,
};
use crate::crd::validation::definition::{
    Options, RequestVersion, api_approval_annotation, drop_disabled_fields,
    is_accepted_conversion_review_version, schema_has, spec_has, validate_api_approval,
    validate_ca_bundle, validate_definition_names, validate_spec, validate_stored_versions,
};
use crate::crd::validation::schema::PreexistingExpressions;
use crate::crd::validation::structural::{StructuralOptions, validate_structural};
use crate::go::json::go_json;
use crate::model::field::{BadValue, ErrorList, ErrorType, FieldError, Path};
use crate::model::kube_version::KubeVersion;
use crate::model::schema_step::SchemaStep;
use crate::model::structural::Structural;
use crate::model::wire::{
    CrdVersion, CustomResourceDefinition, CustomResourceValidation, JsonSchemaProps, SchemaOrArray,
    SchemaOrBool, SchemaOrStringArray,
};
use crate::object::metadata::{coerce_metadata, decode_object_meta, validate_object_meta_update};
use crate::object::prune::prune;

/// Validates the update of `old` to `new` as the API server of
/// `options.kube_version` does, returning the field errors in the order the
/// server produces them (see the module docs): its CEL environments, and
/// without the new `selectableFields` where its
/// `CustomResourceFieldSelectors` gate is off by default and the old CRD
/// does not use them (`PrepareForUpdate`'s `dropDisabledFields`). Both
/// CRDs are the v1 form.
#[must_use]
pub fn validate_custom_resource_definition_update(
    new: &CustomResourceDefinition,
    old: &CustomResourceDefinition,
    options: &crate::model::options::Options,
) -> ErrorList {
    let kube = options.kube_version;
    let dropped;
    let new = if kube.field_selectors() || selectable_fields_in_use(old) {
        new
    } else {
        dropped = drop_disabled_fields(new, kube);
        &dropped
    };
    let new_defaulted = defaulted_spec(new);
    let new_spec = internal_spec(&new_defaulted, versions_of(new), RequestVersion::V1);
    let old_defaulted = defaulted_spec(old);
    let old_spec = internal_spec(&old_defaulted, versions_of(old), RequestVersion::V1);
    let new_status = new.status.as_ref();
    let old_established = is_established(old.status.as_ref());

    let opts = update_options(&new_spec, &old_spec, old_established, kube);

    let mut errs = ErrorList::new();
    validate_metadata_update(new.metadata.as_ref(), old.metadata.as_ref(), &mut errs);
    validate_spec_update(&new_spec, &old_spec, &opts, &mut errs);
    // ValidateCustomResourceDefinitionStatus.
    let accepted = new_status.and_then(|s| s.get("acceptedNames"));
    let short_names = string_list(accepted.and_then(|a| a.get("shortNames")));
    let categories = string_list(accepted.and_then(|a| a.get("categories")));
    let name = |key: &str| accepted.and_then(|a| a.get(key)).and_then(Value::as_str);
    let names = NamesRef {
        plural: name("plural").unwrap_or(""),
        singular: name("singular").unwrap_or(""),
        kind: name("kind").unwrap_or(""),
        list_kind: name("listKind").unwrap_or(""),
        short_names: &short_names,
        categories: &categories,
    };
    validate_definition_names(&names, &Path::new(["status", "acceptedNames"]), &mut errs);
    let stored = defaulted_stored_versions(new_status, versions_of(new));
    validate_stored_versions(stored.as_deref(), &new_spec, &mut errs);
    validate_api_approval(
        new_spec.group,
        new.metadata.as_ref(),
        Some(api_approval_annotation(old.metadata.as_ref())),
        &mut errs,
    );
    // validatePreserveUnknownFields(obj, oldObj).
    if old_spec.preserve_unknown_fields != Some(true)
        && new_spec.preserve_unknown_fields == Some(true)
    {
        errs.push(FieldError::invalid(
            &Path::new(["spec", "preserveUnknownFields"]),
            true,
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
    errs
}

/// `selectableFieldsInUse`: whether any version of the CRD has selectable
/// fields.
fn selectable_fields_in_use(crd: &CustomResourceDefinition) -> bool {
    versions_of(crd)
        .iter()
        .any(|v| v.selectable_fields.as_ref().is_some_and(|f| !f.is_empty()))
}

/// The strings of a JSON list (`[]string` as decoded; anything else is
/// left out, where the server's decoder would have rejected the object).
fn string_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// `status.storedVersions` as the decoder leaves it: when empty, the name
/// of the first version marked as storage (`SetDefaults_CustomResourceDefinition`).
/// `None` is a nil list (absent or `null`), `Some(vec![])` an empty one.
fn defaulted_stored_versions(
    status: Option<&Value>,
    versions: &[CrdVersion],
) -> Option<Vec<String>> {
    let written = status
        .and_then(|s| s.get("storedVersions"))
        .filter(|v| !v.is_null())
        .map(|v| string_list(Some(v)));
    if written.as_ref().is_some_and(|w| !w.is_empty()) {
        return written;
    }
    match versions.iter().find(|v| v.storage == Some(true)) {
        Some(v) => Some(vec![v.name.clone().unwrap_or_default()]),
        None => written,
    }
}

/// `apiextensions.IsCRDConditionTrue(crd, Established)`: the first
/// `Established` condition has status `True`.
fn is_established(status: Option<&Value>) -> bool {
    status
        .and_then(|s| s.get("conditions"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("Established"))
        .is_some_and(|c| c.get("status").and_then(Value::as_str) == Some("True"))
}

// ---------------------------------------------------------------------------
// Options from the old CRD
// ---------------------------------------------------------------------------

/// The `validationOptions` of `ValidateCustomResourceDefinitionUpdate`.
fn update_options(
    new: &Spec<'_>,
    old: &Spec<'_>,
    old_established: bool,
    kube: KubeVersion,
) -> Options {
    Options {
        allow_defaults: true,
        require_recognized_conversion_review_version: old.conversion.as_ref().is_none_or(|c| {
            c.review_versions.is_empty()
                || c.review_versions
                    .iter()
                    .any(|v| is_accepted_conversion_review_version(v))
        }),
        require_immutable_names: old_established,
        require_open_api_schema: all_versions_specify_openapi_schema(old),
        require_valid_property_type: !spec_has(old, &has_invalid_type),
        require_structural_schema: !old_schemas(old).any(schema_is_non_structural),
        require_pruned_defaults: !old_schemas(old)
            .any(|s| schema_has_unpruned_defaults(s) == Ok(true)),
        require_atomic_set_type: !spec_has(old, &has_non_atomic_set_type),
        require_map_list_keys_map_set_validation: !spec_has(
            old,
            &has_invalid_map_list_keys_map_set,
        ),
        // validateAPIApproval and validatePreserveUnknownFields run on
        // every update, with the old CRD (above).
        check_api_approval: false,
        check_preserve_unknown_fields: false,
        preexisting_expressions: Some(find_preexisting_expressions(old)),
        versions_with_unchanged_schemas: find_versions_with_unchanged_schemas(new, old),
        allow_invalid_ca_bundle: allow_invalid_ca_bundle(old, old_established),
        allow_too_many_selectable_fields: find_too_many_selectable_fields_allowed(new, old),
        kube,
    }
}

/// The top-level schema and the per-version schemas of a spec, present.
fn old_schemas<'a>(spec: &'a Spec<'a>) -> impl Iterator<Item = &'a JsonSchemaProps> + 'a {
    spec.validation
        .into_iter()
        .chain(spec.versions.iter().filter_map(|v| v.schema))
        .filter_map(|v| v.open_api_v3_schema.as_ref())
}

/// `allVersionsSpecifyOpenAPISchema`.
fn all_versions_specify_openapi_schema(spec: &Spec<'_>) -> bool {
    if spec
        .validation
        .is_some_and(|v| v.open_api_v3_schema.is_some())
    {
        return true;
    }
    spec.versions
        .iter()
        .all(|v| v.schema.is_some_and(|s| s.open_api_v3_schema.is_some()))
}

/// `SchemaHasInvalidTypes`' predicate: a type that is not one of OpenAPI
/// v3's.
fn has_invalid_type(s: &JsonSchemaProps) -> bool {
    let t = s.type_str();
    !t.is_empty()
        && !matches!(
            t,
            "string" | "number" | "integer" | "boolean" | "array" | "object"
        )
}

/// `schemaIsNonStructural`: `NewStructural` fails or `ValidateStructural`
/// finds something.
fn schema_is_non_structural(schema: &JsonSchemaProps) -> bool {
    match Structural::from_props(schema) {
        Err(_) => true,
        Ok(ss) => !validate_structural(&Path::root(), &ss, StructuralOptions::default()).is_empty(),
    }
}

/// `hasNonAtomicSetType`'s predicate: a `set` list whose items are a list
/// of another list type than `atomic`, or an object that is not an atomic
/// map.
fn has_non_atomic_set_type(s: &JsonSchemaProps) -> bool {
    if s.x_list_type.as_deref() != Some("set") {
        return false;
    }
    let Some(SchemaOrArray::Schema(is)) = &s.items else {
        return false;
    };
    match is.type_str() {
        "array" => is.x_list_type.as_deref().is_some_and(|t| t != "atomic"),
        "object" => is.x_map_type.as_deref() != Some("atomic"),
        _ => false,
    }
}

/// `hasInvalidMapListKeysMapSet`'s predicate: `validateMapListKeysMapSet`
/// finds something at the node.
fn has_invalid_map_list_keys_map_set(s: &JsonSchemaProps) -> bool {
    let Some(SchemaOrArray::Schema(is)) = &s.items else {
        return false;
    };
    let Some(lt) = s.x_list_type.as_deref() else {
        return false;
    };
    if lt != "set" && lt != "map" {
        return false;
    }
    if is.is_nullable() {
        return true;
    }
    if lt != "map" {
        return false;
    }
    let required = is.required.as_deref().unwrap_or_default();
    s.x_list_map_keys.iter().flatten().any(|k| {
        is.properties
            .as_ref()
            .and_then(|m| m.get(k))
            .is_some_and(|ks| (!required.contains(k) && ks.default.is_none()) || ks.is_nullable())
    })
}

/// `findPreexistingExpressions`: every rule and non-empty message
/// expression of the old schemas.
fn find_preexisting_expressions(old: &Spec<'_>) -> PreexistingExpressions {
    let mut found = PreexistingExpressions::default();
    for schema in old_schemas(old) {
        for_each_node(schema, &mut |s| {
            for rule in s.x_validations.iter().flatten() {
                found.rules.insert(rule.rule.clone().unwrap_or_default());
                if let Some(m) = rule.message_expression.as_ref().filter(|m| !m.is_empty()) {
                    found.message_expressions.insert(m.clone());
                }
            }
        });
    }
    found
}

/// Every node `SchemaHas` visits, pre-order.
fn for_each_node(s: &JsonSchemaProps, f: &mut dyn FnMut(&JsonSchemaProps)) {
    f(s);
    match &s.items {
        Some(SchemaOrArray::Schema(i)) => for_each_node(i, f),
        Some(SchemaOrArray::Array(a)) => a.iter().for_each(|i| for_each_node(i, f)),
        None => {}
    }
    for list in [&s.all_of, &s.any_of, &s.one_of] {
        list.iter().flatten().for_each(|x| for_each_node(x, f));
    }
    if let Some(n) = s.not.as_deref() {
        for_each_node(n, f);
    }
    s.properties
        .iter()
        .flatten()
        .for_each(|(_, x)| for_each_node(x, f));
    if let Some(x) = s
        .additional_properties
        .as_ref()
        .and_then(SchemaOrBool::schema)
    {
        for_each_node(x, f);
    }
    s.pattern_properties
        .iter()
        .flatten()
        .for_each(|(_, x)| for_each_node(x, f));
    if let Some(x) = s.additional_items.as_ref().and_then(SchemaOrBool::schema) {
        for_each_node(x, f);
    }
    s.definitions
        .iter()
        .flatten()
        .for_each(|(_, x)| for_each_node(x, f));
    for (_, d) in s.dependencies.iter().flatten() {
        if let SchemaOrStringArray::Schema(x) = d {
            for_each_node(x, f);
        }
    }
}

/// `apiextensions.GetSchemaForVersion`: the top-level schema when no
/// version has one of its own (for any version name), else the named
/// version's; `Err` when the version is not there.
fn schema_for_version<'a>(
    spec: &Spec<'a>,
    version: &str,
) -> Result<Option<&'a CustomResourceValidation>, ()> {
    if !spec.versions.iter().any(|v| v.schema.is_some()) {
        return Ok(spec.validation);
    }
    if spec.validation.is_some() {
        return Err(());
    }
    spec.versions
        .iter()
        .find(|v| v.name == version)
        .map(|v| v.schema)
        .ok_or(())
}

/// `findVersionsWithUnchangedSchemas`: the new versions whose schema is
/// semantically equal to the old CRD's schema for the same version name.
fn find_versions_with_unchanged_schemas(new: &Spec<'_>, old: &Spec<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for v in &new.versions {
        let (Ok(new_schema), Ok(old_schema)) = (
            schema_for_version(new, v.name),
            schema_for_version(old, v.name),
        ) else {
            continue;
        };
        if canon_validation(new_schema) == canon_validation(old_schema) {
            out.insert(v.name.to_string());
        }
    }
    out
}

/// `findTooManySelectableFieldsAllowed`: the fields (`""` for the top
/// level, else a version name) that had more than the limit on the old
/// CRD and are unchanged.
fn find_too_many_selectable_fields_allowed(new: &Spec<'_>, old: &Spec<'_>) -> BTreeSet<String> {
    use crate::crd::validation::definition::MAX_SELECTABLE_FIELDS;
    let mut out = BTreeSet::new();
    if old.selectable_fields.len() > MAX_SELECTABLE_FIELDS
        && canon_selectable(new.selectable_fields) == canon_selectable(old.selectable_fields)
    {
        out.insert(String::new());
    }
    for v in &new.versions {
        // The old versions by name; a repeated name keeps the last one.
        let Some(old_v) = old.versions.iter().rev().find(|o| o.name == v.name) else {
            continue;
        };
        if old_v.selectable_fields.len() > MAX_SELECTABLE_FIELDS
            && canon_selectable(v.selectable_fields) == canon_selectable(old_v.selectable_fields)
        {
            out.insert(v.name.to_string());
        }
    }
    out
}

/// `allowInvalidCABundle(oldCRD)`: while the old CRD is not established,
/// or when its own webhook `caBundle` is set and invalid.
fn allow_invalid_ca_bundle(old: &Spec<'_>, old_established: bool) -> bool {
    if !old_established {
        return true;
    }
    let Some(bundle) = old
        .conversion
        .as_ref()
        .and_then(|c| c.client_config)
        .and_then(|cc| cc.ca_bundle.as_deref())
        .filter(|b| crate::go::base64::std_decode(b).is_some_and(|d| !d.is_empty()))
    else {
        return false;
    };
    !validate_ca_bundle(&Path::new(["caBundle"]), bundle).is_empty()
}

// ---------------------------------------------------------------------------
// requirePrunedDefaults
// ---------------------------------------------------------------------------

/// `schemaHasUnprunedDefaults`: whether pruning some default of the
/// schema, in the object around it from the root (`PruneDefaults`),
/// changes it. `Err` where upstream's is an error (not structural, or a
/// default the surrounding object cannot be built around), which does not
/// relax the option.
fn schema_has_unpruned_defaults(schema: &JsonSchemaProps) -> Result<bool, ()> {
    if !schema_has(schema, &|s| s.default.is_some()) {
        return Ok(false);
    }
    let ss = Structural::from_props(schema).map_err(|_| ())?;
    if !validate_structural(&Path::root(), &ss, StructuralOptions::default()).is_empty() {
        return Err(());
    }
    let mut steps = Vec::new();
    defaults_pruned_differently(&ss, &ss, &mut steps)
}

/// The key a schema step stands for in the object `SurroundingObjectFunc`
/// builds around a default: the property's name, `*` for a map's values;
/// `None` for a list's items (a one-item list).
fn surrounding_key(step: &SchemaStep<String>) -> Option<&str> {
    match step {
        SchemaStep::Property(k) => Some(k),
        SchemaStep::AdditionalProperties => Some("*"),
        SchemaStep::Items => None,
    }
}

/// `pruner.pruneDefaults` at `s` (reached from `root` along `steps`) and
/// below: whether a default changes; `Err` on the first error.
fn defaults_pruned_differently(
    root: &Structural,
    s: &Structural,
    steps: &mut Vec<SchemaStep<String>>,
) -> Result<bool, ()> {
    let mut changed = false;
    if let Some(default) = &s.generic.default {
        let pruned = pruned_in_place(root, steps, default)?;
        changed |= pruned.as_ref() != Some(default);
    }
    if let Some(ap) = s
        .generic
        .additional_properties
        .as_ref()
        .and_then(|a| a.structural.as_deref())
    {
        steps.push(SchemaStep::AdditionalProperties);
        let c = defaults_pruned_differently(root, ap, steps);
        steps.pop();
        changed |= c?;
    }
    if let Some(items) = &s.items {
        steps.push(SchemaStep::Items);
        let c = defaults_pruned_differently(root, items, steps);
        steps.pop();
        changed |= c?;
    }
    for (k, sub) in &s.properties {
        steps.push(SchemaStep::Property(k.clone()));
        let c = defaults_pruned_differently(root, sub, steps);
        steps.pop();
        changed |= c?;
    }
    Ok(changed)
}

/// A default wrapped in the object from the root along `steps`, its
/// metadata coerced (dropping invalid fields) and pruned as a resource
/// root, then taken out again: `None` when pruning removed it.
fn pruned_in_place(
    root: &Structural,
    steps: &[SchemaStep<String>],
    default: &Value,
) -> Result<Option<Value>, ()> {
    let mut obj = default.clone();
    for step in steps.iter().rev() {
        obj = match surrounding_key(step) {
            Some(k) => {
                let mut m = Map::new();
                m.insert(k.to_string(), obj);
                Value::Object(m)
            }
            None => Value::Array(vec![obj]),
        };
    }
    // NewRootObjectFunc: the root must be an object.
    if !obj.is_object() {
        return Err(());
    }
    coerce_dropping_invalid(&mut obj, Some(root), true);
    prune(&mut obj, Some(root), true, false);
    let mut cur = obj;
    for step in steps {
        cur = match (surrounding_key(step), cur) {
            (Some(k), Value::Object(mut m)) => match m.shift_remove(k) {
                Some(v) => v,
                None => return Ok(None),
            },
            (None, Value::Array(a)) => match a.into_iter().next() {
                Some(v) => v,
                None => return Ok(None),
            },
            _ => return Err(()),
        };
    }
    Ok(Some(cur))
}

/// `objectmeta.Coerce(nil, x, s, isResourceRoot, dropInvalidFields=true)`:
/// in every embedded resource, a non-string `apiVersion` or `kind` is
/// dropped and `metadata` is rewritten as stored. The walk descends into
/// the values as they were before the rewrite, as upstream ranges over the
/// map it changes: a replaced or dropped value is not visited again.
fn coerce_dropping_invalid(x: &mut Value, s: Option<&Structural>, forced: bool) {
    let Some(s) = s else { return };
    match x {
        Value::Object(map) => {
            let embedded = forced || s.extensions.embedded_resource;
            let mut replaced: Vec<&str> = Vec::new();
            if embedded {
                for k in ["apiVersion", "kind"] {
                    if map.get(k).is_some_and(|v| !v.is_string()) {
                        map.shift_remove(k);
                        replaced.push(k);
                    }
                }
                if let Some(Ok(cleaned)) = map.get("metadata").map(|m| coerce_metadata(m, true)) {
                    map.insert("metadata".into(), cleaned);
                    replaced.push("metadata");
                }
            }
            for (k, v) in map.iter_mut() {
                if replaced.contains(&k.as_str()) {
                    continue;
                }
                if let Some(prop) = s.properties.get(k) {
                    coerce_dropping_invalid(v, Some(prop), false);
                } else if let Some(ap) = &s.generic.additional_properties {
                    coerce_dropping_invalid(v, ap.structural.as_deref(), false);
                }
            }
        }
        Value::Array(items) => {
            for v in items {
                coerce_dropping_invalid(v, s.items.as_deref(), false);
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------
// Metadata and spec
// ---------------------------------------------------------------------------

/// `ValidateObjectMetaUpdate` of the CRD's metadata. As on create, the
/// metadata is decoded into the typed `ObjectMeta` dropping wrongly typed
/// fields, and managed fields are not checked (the server's field manager
/// rewrites them before validation).
fn validate_metadata_update(new: Option<&Value>, old: Option<&Value>, errs: &mut ErrorList) {
    let decode = |m: Option<&Value>| {
        let mut meta = m
            .and_then(|m| decode_object_meta(m, true).ok())
            .unwrap_or_default();
        meta.managed_fields.clear();
        meta
    };
    errs.extend(validate_object_meta_update(
        &decode(new),
        &decode(old),
        &Path::new(["metadata"]),
    ));
}

/// `validateCustomResourceDefinitionSpecUpdate`.
fn validate_spec_update(spec: &Spec<'_>, old: &Spec<'_>, opts: &Options, errs: &mut ErrorList) {
    validate_spec(spec, opts, errs);
    let sp = Path::new(["spec"]);
    if opts.require_immutable_names {
        if spec.scope != old.scope {
            // A ResourceScope is not a plain string: json.Marshal prints it.
            errs.push(FieldError {
                error_type: ErrorType::Invalid,
                field: sp.child("scope"),
                bad_value: BadValue::Raw(go_json(&Value::from(spec.scope), false)),
                detail: IMMUTABLE.into(),
            });
        }
        if spec.names.kind != old.names.kind {
            errs.push(FieldError::invalid(
                &sp.child("names").child("kind"),
                spec.names.kind,
                IMMUTABLE,
            ));
        }
    }
    if spec.group != old.group {
        errs.push(FieldError::invalid(
            &sp.child("group"),
            spec.group,
            IMMUTABLE,
        ));
    }
    if spec.names.plural != old.names.plural {
        errs.push(FieldError::invalid(
            &sp.child("names").child("plural"),
            spec.names.plural,
            IMMUTABLE,
        ));
    }
}

/// `FieldImmutableErrorMsg`.
const IMMUTABLE: &str = "field is immutable";

#[cfg(test)]
mod tests;
