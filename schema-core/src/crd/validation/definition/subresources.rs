//! `ValidateCustomResourceDefinitionSubresources`: the scale
//! subresource's replica and label selector paths.

use crate::crd::internal::opt_str;
use crate::model::field::{ErrorList, FieldError, Path};
use crate::model::wire::CrdSubresources;

/// `ValidateCustomResourceDefinitionSubresources`. Whether the paths exist
/// in the schema is not checked at create (only when scaling).
pub(super) fn validate_subresources(s: Option<&CrdSubresources>, p: &Path, errs: &mut ErrorList) {
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
pub(super) fn simple_json_path_error(s: &str, p: &Path) -> Option<FieldError> {
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
