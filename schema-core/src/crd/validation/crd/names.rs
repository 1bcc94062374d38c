//! `spec.group`, `spec.scope` and `spec.names` (`ValidateCustomResourceDefinitionNames`).

use super::validate_enum_strings;
use crate::crd::internal::Spec;
use crate::go::names::{is_dns1035_label, is_dns1123_subdomain};
use crate::model::field::{ErrorList, FieldError, Path};

/// The group (a DNS subdomain with at least one dot) and the scope
/// (`Cluster` or `Namespaced`), under the spec path `sp`.
pub(super) fn validate_group_and_scope(spec: &Spec<'_>, sp: &Path, errs: &mut ErrorList) {
    if spec.group.is_empty() {
        errs.push(FieldError::required(&sp.child("group"), ""));
    } else {
        let msgs = is_dns1123_subdomain(spec.group);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &sp.child("group"),
                spec.group,
                msgs.join(","),
            ));
        } else if spec.group.split('.').count() < 2 {
            errs.push(FieldError::invalid(
                &sp.child("group"),
                spec.group,
                "should be a domain with at least one dot",
            ));
        }
    }

    validate_enum_strings(
        &sp.child("scope"),
        spec.scope,
        &["Cluster", "Namespaced"],
        errs,
    );
}

/// `ValidateCustomResourceDefinitionNames` (for `spec.names`, at `np`), after
/// the required names (`plural`, `singular`, `kind`, `listKind`).
pub(super) fn validate_names(spec: &Spec<'_>, np: &Path, errs: &mut ErrorList) {
    for (value, key) in [
        (spec.plural, "plural"),
        (spec.singular, "singular"),
        (spec.kind, "kind"),
        (spec.list_kind, "listKind"),
    ] {
        if value.is_empty() {
            errs.push(FieldError::required(&np.child(key), ""));
        }
    }
    let mut plain = |value: &str, key: &str| {
        let msgs = is_dns1035_label(value);
        if !value.is_empty() && !msgs.is_empty() {
            errs.push(FieldError::invalid(&np.child(key), value, msgs.join(",")));
        }
    };
    plain(spec.plural, "plural");
    plain(spec.singular, "singular");
    for (value, key) in [(spec.kind, "kind"), (spec.list_kind, "listKind")] {
        let msgs = is_dns1035_label(&value.to_lowercase());
        if !value.is_empty() && !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &np.child(key),
                value,
                format!(
                    "may have mixed case, but should otherwise match: {}",
                    msgs.join(",")
                ),
            ));
        }
    }
    for (i, s) in spec.short_names.iter().enumerate() {
        let msgs = is_dns1035_label(s);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &np.child("shortNames").index(i),
                s.as_str(),
                msgs.join(","),
            ));
        }
    }
    if !spec.kind.is_empty() && spec.kind == spec.list_kind {
        errs.push(FieldError::invalid(
            &np.child("listKind"),
            spec.list_kind,
            "kind and listKind may not be the same",
        ));
    }
    for (i, c) in spec.categories.iter().enumerate() {
        let msgs = is_dns1035_label(c);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &np.child("categories").index(i),
                c.as_str(),
                msgs.join(","),
            ));
        }
    }
}
