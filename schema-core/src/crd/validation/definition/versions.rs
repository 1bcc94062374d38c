//! The versions: `validateCustomResourceDefinitionVersion` (deprecation
//! warning, schema, subresources, columns and selectable fields of one
//! version), which subresources apply to a version, and
//! `ValidateCustomResourceDefinitionStoredVersions` (`status.storedVersions`:
//! on create the ones `PrepareForCreate` sets, on update the new object's).

use serde_json::Value;

use super::columns::{validate_column, validate_selectable_fields_with_schema};
use super::subresources::validate_subresources;
use crate::crd::internal::{Spec, Version};
use crate::crd::validation::schema::{
    SchemaOptions, SchemaRatchet, validate_custom_resource_definition_validation_ratcheting,
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

/// `validateCustomResourceDefinitionVersion`, with the update's ratcheting
/// of this version's schema and `allowTooManySelectableFields[version]`.
pub(super) fn validate_version(
    v: &Version<'_>,
    vp: &Path,
    status_enabled: bool,
    schema_opts: &SchemaOptions,
    ratchet: SchemaRatchet<'_>,
    allow_too_many_selectable_fields: bool,
    errs: &mut ErrorList,
) {
    for msg in deprecation_warning_errors(v.deprecated, v.deprecation_warning) {
        errs.push(FieldError::invalid(
            &vp.child("deprecationWarning"),
            v.deprecation_warning.unwrap_or(""),
            msg,
        ));
    }
    errs.extend(validate_custom_resource_definition_validation_ratcheting(
        v.schema,
        status_enabled,
        schema_opts,
        ratchet,
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
                allow_too_many_selectable_fields,
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

/// The stored versions `PrepareForCreate` sets: the name of the first
/// version marked as storage (nil when none is).
pub(super) fn prepared_stored_versions(spec: &Spec<'_>) -> Option<Vec<String>> {
    spec.versions
        .iter()
        .find(|v| v.storage)
        .map(|v| vec![v.name.to_string()])
}

/// `ValidateCustomResourceDefinitionStoredVersions(storedVersions,
/// spec.versions, status.storedVersions)`. `stored` is `None` for a nil
/// list (printed `null`), `Some(&[])` for an empty one (`[]`). Upstream
/// keys the stored versions by name (a repeated name keeps its last index)
/// and reports the ones missing from `spec.versions` in Go's map order;
/// here they come in the order of their indices.
pub(crate) fn validate_stored_versions(
    stored: Option<&[String]>,
    spec: &Spec<'_>,
    errs: &mut ErrorList,
) {
    let p = Path::new(["status", "storedVersions"]);
    let stored_value = || stored.map_or(Value::Null, |s| Value::from(s.to_vec()));
    let Some(list) = stored.filter(|s| !s.is_empty()) else {
        errs.push(FieldError::invalid(
            &p,
            stored_value(),
            "must have at least one stored version",
        ));
        return;
    };
    // storedVersionsMap: name -> last index.
    let mut remaining: Vec<(&str, usize)> = Vec::new();
    for (i, v) in list.iter().enumerate() {
        match remaining.iter_mut().find(|(n, _)| *n == v.as_str()) {
            Some(entry) => entry.1 = i,
            None => remaining.push((v.as_str(), i)),
        }
    }
    for v in &spec.versions {
        let pos = remaining.iter().position(|(n, _)| *n == v.name);
        if v.storage && pos.is_none() {
            errs.push(FieldError::invalid(
                &p,
                stored_value(),
                format!("must have the storage version {}", v.name),
            ));
        }
        if let Some(pos) = pos {
            remaining.remove(pos);
        }
    }
    remaining.sort_by_key(|(_, i)| *i);
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
