//! The CRD as a whole: group, scope, names, `preserveUnknownFields`.

use std::collections::HashSet;

use crate::go::strings::to_lower;
use crate::model::wire::{CrdNames, CrdSpec};

use super::text::quoted;
use super::{Finding, Rule, rules};

/// Group, scope, names and `spec.preserveUnknownFields`.
pub(super) fn diff_spec(crd: &str, old: &CrdSpec, new: &CrdSpec, out: &mut Vec<Finding>) {
    let empty = CrdNames::default();
    let on = old.names.as_ref().unwrap_or(&empty);
    let nn = new.names.as_ref().unwrap_or(&empty);
    let s = |v: &Option<String>| v.clone().unwrap_or_default();

    // The server refuses a scope change of an established CRD; unset is
    // invalid, so it is compared as written.
    changed(
        crd,
        &rules::SCOPE_CHANGED,
        "spec.scope",
        &s(&old.scope),
        &s(&new.scope),
        "the server refuses it once the CRD is established, and objects live under other URLs and storage keys",
        out,
    );
    changed(
        crd,
        &rules::GROUP_CHANGED,
        "spec.group",
        &s(&old.group),
        &s(&new.group),
        "the group is part of the CRD's immutable name and of every object's apiVersion",
        out,
    );
    changed(
        crd,
        &rules::KIND_CHANGED,
        "spec.names.kind",
        &s(&on.kind),
        &s(&nn.kind),
        "the server refuses it once the CRD is established, and every object and client names the kind",
        out,
    );
    changed(
        crd,
        &rules::PLURAL_CHANGED,
        "spec.names.plural",
        &s(&on.plural),
        &s(&nn.plural),
        "the plural is part of the CRD's immutable name and the resource's URL",
        out,
    );
    // The server defaults singular to the lowercased kind and listKind to
    // kind + "List": an unset name equal to its default is no change.
    changed(
        crd,
        &rules::SINGULAR_CHANGED,
        "spec.names.singular",
        &singular(on),
        &singular(nn),
        "kubectl and scripts naming the resource by its singular break",
        out,
    );
    changed(
        crd,
        &rules::LIST_KIND_CHANGED,
        "spec.names.listKind",
        &list_kind(on),
        &list_kind(nn),
        "list responses change their kind, which typed clients decode by",
        out,
    );

    removed_names(
        crd,
        &rules::SHORT_NAME_REMOVED,
        on.short_names.as_deref(),
        nn.short_names.as_deref(),
        "short name",
        "`kubectl get` with it stops working",
        out,
    );
    removed_names(
        crd,
        &rules::CATEGORY_REMOVED,
        on.categories.as_deref(),
        nn.categories.as_deref(),
        "category",
        "`kubectl get` of it no longer lists this kind",
        out,
    );

    if old.preserve_unknown_fields == Some(true) && new.preserve_unknown_fields != Some(true) {
        out.push(Finding::new(
            &rules::PRESERVE_UNKNOWN_FIELDS_DISABLED,
            crd,
            "spec.preserveUnknownFields is turned off: fields not in the schema are pruned from stored objects on their next write".to_string(),
        ));
    }
}

fn singular(n: &CrdNames) -> String {
    match n.singular.as_deref() {
        Some(s) if !s.is_empty() => s.to_string(),
        _ => to_lower(n.kind.as_deref().unwrap_or("")),
    }
}

fn list_kind(n: &CrdNames) -> String {
    match n.list_kind.as_deref() {
        Some(s) if !s.is_empty() => s.to_string(),
        _ => format!("{}List", n.kind.as_deref().unwrap_or("")),
    }
}

fn changed(
    crd: &str,
    rule: &Rule,
    field: &str,
    old: &str,
    new: &str,
    why: &str,
    out: &mut Vec<Finding>,
) {
    if old != new {
        out.push(Finding::new(
            rule,
            crd,
            format!(
                "{field} changes from {} to {}: {why}",
                quoted(old),
                quoted(new)
            ),
        ));
    }
}

fn removed_names(
    crd: &str,
    rule: &Rule,
    old: Option<&[String]>,
    new: Option<&[String]>,
    what: &str,
    why: &str,
    out: &mut Vec<Finding>,
) {
    let new: HashSet<&str> = new.unwrap_or(&[]).iter().map(String::as_str).collect();
    let mut seen = HashSet::new();
    for name in old.unwrap_or(&[]) {
        if !new.contains(name.as_str()) && seen.insert(name.as_str()) {
            out.push(Finding::new(
                rule,
                crd,
                format!("{what} {} removed: {why}", quoted(name)),
            ));
        }
    }
}
