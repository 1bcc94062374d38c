//! `spec.group`, `spec.scope` and `spec.names` (`ValidateCustomResourceDefinitionNames`).

use crate::crd::internal::{NamesRef, Spec};
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

/// The required names of `spec.names` (`plural`, `singular`, `kind`,
/// `listKind`), then `ValidateCustomResourceDefinitionNames` at `np`.
pub(super) fn validate_names(spec: &Spec<'_>, np: &Path, errs: &mut ErrorList) {
    for (value, key) in [
        (spec.names.plural, "plural"),
        (spec.names.singular, "singular"),
        (spec.names.kind, "kind"),
        (spec.names.list_kind, "listKind"),
    ] {
        if value.is_empty() {
            errs.push(FieldError::required(&np.child(key), ""));
        }
    }
    validate_definition_names(&spec.names, np, errs);
}

/// `ValidateCustomResourceDefinitionNames` at `np`.
pub(crate) fn validate_definition_names(names: &NamesRef<'_>, np: &Path, errs: &mut ErrorList) {
    let mut plain = |value: &str, key: &str| {
        let msgs = is_dns1035_label(value);
        if !value.is_empty() && !msgs.is_empty() {
            errs.push(FieldError::invalid(&np.child(key), value, msgs.join(",")));
        }
    };
    plain(names.plural, "plural");
    plain(names.singular, "singular");
    for (value, key) in [(names.kind, "kind"), (names.list_kind, "listKind")] {
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
    for (i, s) in names.short_names.iter().enumerate() {
        let msgs = is_dns1035_label(s);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &np.child("shortNames").index(i),
                s.as_str(),
                msgs.join(","),
            ));
        }
    }
    if !names.kind.is_empty() && names.kind == names.list_kind {
        errs.push(FieldError::invalid(
            &np.child("listKind"),
            names.list_kind,
            "kind and listKind may not be the same",
        ));
    }
    for (i, c) in names.categories.iter().enumerate() {
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

/// `validateEnumStrings` with `required` set.
pub(super) fn validate_enum_strings(
    p: &Path,
    value: &str,
    accepted: &[&str],
    errs: &mut ErrorList,
) {
    if value.is_empty() {
        errs.push(FieldError::required(p, ""));
    } else if !accepted.contains(&value) {
        errs.push(FieldError::not_supported(p, value, accepted));
    }
}
