//! `validateAPIApproval`: a CRD in a protected community group (`k8s.io`,
//! `kubernetes.io` and their subdomains) needs the
//! `api-approved.kubernetes.io` annotation; on update, only a change of its
//! approval state is checked.

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

/// `apihelpers.APIApprovalState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ApprovalState {
    Invalid,
    Approved,
    Bypassed,
    Missing,
}

/// `apihelpers.GetAPIApprovalState` of the annotation's value (empty when
/// absent); the reason is only needed for the failing states, whose
/// messages are written where they are reported.
fn approval_state(annotation: &str) -> ApprovalState {
    if annotation.is_empty() {
        ApprovalState::Missing
    } else if annotation.starts_with("unapproved") {
        ApprovalState::Bypassed
    } else if crate::go::url::parse_request_uri(annotation)
        .is_ok_and(|u| !u.host.is_empty() && !u.scheme.is_empty())
    {
        ApprovalState::Approved
    } else {
        ApprovalState::Invalid
    }
}

/// The approval annotation of a CRD's `metadata` (empty when absent).
pub(crate) fn api_approval_annotation(meta: Option<&Value>) -> &str {
    meta.and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(API_APPROVAL_ANNOTATION))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// `validateAPIApproval(newCRD, oldCRD)`: `old_annotation` is `None` on
/// create and the old CRD's annotation (empty when absent) on update, where
/// an unchanged approval state never fails.
pub(crate) fn validate_api_approval(
    group: &str,
    meta: Option<&Value>,
    old_annotation: Option<&str>,
    errs: &mut ErrorList,
) {
    if !is_protected_community_group(group) {
        return;
    }
    let annotation = api_approval_annotation(meta);
    let state = approval_state(annotation);
    if old_annotation.is_some_and(|old| approval_state(old) == state) {
        return;
    }
    let p = Path::new(["metadata", "annotations"]).key(API_APPROVAL_ANNOTATION);
    match state {
        ApprovalState::Missing => errs.push(FieldError::required(
            &p,
            format!(
                "protected groups must have approval annotation {}, see https://github.com/kubernetes/enhancements/pull/1111",
                go_quote(API_APPROVAL_ANNOTATION)
            ),
        )),
        ApprovalState::Invalid => errs.push(FieldError::invalid(
            &p,
            annotation,
            format!(
                "protected groups must have approval annotation {} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111",
                go_quote(API_APPROVAL_ANNOTATION)
            ),
        )),
        ApprovalState::Approved | ApprovalState::Bypassed => {}
    }
}
