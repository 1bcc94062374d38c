//! `validateAPIApproval` on create: a CRD in a protected community group
//! (`k8s.io`, `kubernetes.io` and their subdomains) needs the
//! `api-approved.kubernetes.io` annotation.

use serde_json::Value;

use crate::go::fmt::go_quote;
use crate::model::field::{ErrorList, FieldError, Path};

const API_APPROVAL_ANNOTATION: &str = "api-approved.kubernetes.io";

/// `apihelpers.IsProtectedCommunityGroup`.
fn is_protected_community_group(group: &str) -> bool {
    group == "k8s.io"
        || group.ends_with(".k8s.io")
        || group == "kubernetes.io"
        || group.ends_with(".kubernetes.io")
}

/// `validateAPIApproval` on create.
pub(super) fn validate_api_approval(group: &str, meta: Option<&Value>, errs: &mut ErrorList) {
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
