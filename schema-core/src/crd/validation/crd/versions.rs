//! The versions: `validateCustomResourceDefinitionVersion` (deprecation
//! warning, schema, subresources, columns and selectable fields of one
//! version), which subresources apply to a version, and the stored
//! versions `PrepareForCreate` sets (`status.storedVersions`).

use serde_json::Value;

use super::columns::{validate_column, validate_selectable_fields_with_schema};
use super::subresources::validate_subresources;
use crate::crd::internal::{Spec, Version};
use crate::crd::validation::schema::{
    SchemaOptions, validate_custom_resource_definition_validation,
};
use crate::model::field::{ErrorList, FieldError, Path};
use crate::model::wire::CrdSubresources;

/// `getSubresourcesForVersion`.
pub(super) fn subresources_for_version<'a>(
    spec: &Spec<'a>,
    name: &str,
) -> Option<&'a CrdSubresources> {
    if !spec.versions.iter().any(|v| v.subresources.is_some()) {
        return spec.subresources;
    }
    spec.versions
        .iter()
        .find(|v| v.name == name)
        .and_then(|v| v.subresources)
}

pub(super) fn has_status_enabled(s: Option<&CrdSubresources>) -> bool {
    s.is_some_and(|s| s.status.is_some())
}

/// `hasAnyStatusEnabled`.
pub(super) fn has_any_status_enabled(spec: &Spec<'_>) -> bool {
    has_status_enabled(spec.subresources)
        || spec
            .versions
            .iter()
            .any(|v| has_status_enabled(v.subresources))
}

/// `validateCustomResourceDefinitionVersion`.
pub(super) fn validate_version(
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
pub(super) fn deprecation_warning_errors(deprecated: bool, warning: Option<&str>) -> Vec<String> {
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

/// `ValidateCustomResourceDefinitionStoredVersions` on the stored versions
/// `PrepareForCreate` sets: the first version marked as storage.
pub(super) fn validate_stored_versions(spec: &Spec<'_>, errs: &mut ErrorList) {
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
