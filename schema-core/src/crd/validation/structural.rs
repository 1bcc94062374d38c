//! `ValidateStructural`: the invariants and the completeness of a
//! structural schema (apiextensions `pkg/apiserver/schema/validation.go`
//! and `complete.go`), with the server's paths, messages and order.

use crate::goregex;
use crate::model::field::{ErrorList, FieldError, Path};
use crate::model::structural::{NestedValueValidation, Structural, ValueValidation};
use crate::model::wire::codec::Loc;

/// Options of the structural check (`ValidationOptions`). CRDs use the
/// default: everything off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StructuralOptions {
    /// `AllowNestedAdditionalProperties`.
    pub allow_nested_additional_properties: bool,
    /// `AllowNestedXValidations` (only under `allOf`).
    pub allow_nested_x_validations: bool,
    /// `AllowValidationPropertiesWithAdditionalProperties`.
    pub allow_validation_properties_with_additional_properties: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

/// `ValidateStructural(fldPath, s)`: invariants plus completeness, sorted
/// by the full error string as the server sorts them.
pub fn validate_structural(path: &Path, s: &Structural, opts: StructuralOptions) -> ErrorList {
    let mut errs = ErrorList::new();
    invariants(s, Level::Root, &Loc::base(path), opts, &mut errs);
    errs.extend(validate_structural_completeness(s, path, opts));
    sort_errors(&mut errs);
    errs
}

/// Sorts errors by their `Error()` string, byte-wise.
pub(crate) fn sort_errors(errs: &mut ErrorList) {
    let mut keyed: Vec<(String, crate::model::field::FieldError)> =
        errs.drain(..).map(|e| (e.to_string(), e)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    errs.extend(keyed.into_iter().map(|(_, e)| e));
}

fn invariants(
    s: &Structural,
    lvl: Level,
    p: &Loc<'_>,
    opts: StructuralOptions,
    errs: &mut ErrorList,
) {
    let g = &s.generic;
    let x = &s.extensions;
    if g.type_ == "array" && s.items.is_none() {
        errs.push(FieldError::required(
            &p.child("items").path(),
            "must be specified",
        ));
    }
    if let Some(items) = &s.items {
        invariants(items, Level::Item, &p.child("items"), opts, errs);
    }
    for (k, v) in &s.properties {
        invariants(
            v,
            Level::Field,
            &p.child("properties").key(k.as_str()),
            opts,
            errs,
        );
    }
    if let Some(ap) = &g.additional_properties {
        if lvl == Level::Root {
            errs.push(FieldError::forbidden(
                &p.child("additionalProperties").path(),
                "must not be used at the root",
            ));
        }
        if let Some(aps) = &ap.structural {
            invariants(
                aps,
                Level::Field,
                &p.child("additionalProperties"),
                opts,
                errs,
            );
        }
    }
    if x.int_or_string && x.preserve_unknown_fields {
        errs.push(FieldError::invalid(
            &p.child("x-kubernetes-preserve-unknown-fields").path(),
            true,
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if x.int_or_string && x.embedded_resource {
        errs.push(FieldError::invalid(
            &p.child("x-kubernetes-embedded-resource").path(),
            true,
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }

    let skip_any_of = is_int_or_string_any_of(&s.vv().any_of);
    let skip_first_all_of_any_of = s
        .vv()
        .all_of
        .first()
        .is_some_and(|a| is_int_or_string_any_of(&a.value_validation.any_of));
    if let Some(vv) = &s.value_validation {
        value_validation(vv, skip_any_of, skip_first_all_of_any_of, p, opts, errs);
    }

    let check_metadata = lvl == Level::Root || x.embedded_resource;
    if x.embedded_resource && g.type_ != "object" {
        let detail = "must be object if x-kubernetes-embedded-resource is true";
        if g.type_.is_empty() {
            errs.push(FieldError::required(&p.child("type").path(), detail));
        } else {
            errs.push(FieldError::invalid(
                &p.child("type").path(),
                g.type_.as_str(),
                detail,
            ));
        }
    } else if g.type_.is_empty() && !x.int_or_string && !x.preserve_unknown_fields {
        let detail = match lvl {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errs.push(FieldError::required(&p.child("type").path(), detail));
    }
    if x.embedded_resource && g.additional_properties.is_some() {
        errs.push(FieldError::forbidden(
            &p.child("additionalProperties").path(),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if lvl == Level::Root && !g.type_.is_empty() && g.type_ != "object" {
        errs.push(FieldError::invalid(
            &p.child("type").path(),
            g.type_.as_str(),
            "must be object at the root",
        ));
    }
    for name in ["kind", "apiVersion"] {
        if let Some(f) = s.properties.get(name) {
            if check_metadata && f.generic.type_ != "string" {
                errs.push(FieldError::invalid(
                    &p.child("properties").key(name).child("type").path(),
                    f.generic.type_.as_str(),
                    "must be string",
                ));
            }
        }
    }
    if let Some(metadata) = s.properties.get("metadata") {
        let mpp = p.child("properties");
        let mp = mpp.key("metadata");
        if check_metadata && metadata.generic.type_ != "object" {
            errs.push(FieldError::invalid(
                &mp.child("type").path(),
                metadata.generic.type_.as_str(),
                "must be object",
            ));
        }
        if lvl == Level::Root && !is_bare_root_metadata(metadata) {
            errs.push(FieldError::forbidden(
                &mp.path(),
                "must not specify anything other than name and generateName, but metadata is implicitly specified",
            ));
        }
    }
    if x.embedded_resource && !x.preserve_unknown_fields && s.properties.is_empty() {
        errs.push(FieldError::required(&p.child("properties").path(),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ));
    }
}

/// Whether the root `metadata` schema says nothing but `type`, `default`
/// and the schemas of `name` and/or `generateName`.
fn is_bare_root_metadata(m: &Structural) -> bool {
    let found_name = m.properties.contains_key("name");
    let found_generate_name = m.properties.contains_key("generateName");
    let n = m.properties.len();
    let properties_ok = n == 0
        || (found_name && found_generate_name && n == 2)
        || ((found_name || found_generate_name) && n == 1);
    let g = &m.generic;
    properties_ok
        && m.items.is_none()
        && g.description.is_empty()
        && g.title.is_empty()
        && g.additional_properties.is_none()
        && !g.nullable
        && m.extensions == Default::default()
        && m.x_validations.is_empty()
        && m.value_validation
            .as_deref()
            .is_none_or(|v| *v == ValueValidation::default())
}

fn is_int_or_string_any_of(any_of: &[NestedValueValidation]) -> bool {
    matches!(any_of, [a, b] if a.is_only_type("integer") && b.is_only_type("string"))
}

fn value_validation(
    v: &ValueValidation,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    p: &Loc<'_>,
    opts: StructuralOptions,
    errs: &mut ErrorList,
) {
    let no_cel = StructuralOptions {
        allow_nested_x_validations: false,
        ..opts
    };
    if !skip_any_of {
        for (i, n) in v.any_of.iter().enumerate() {
            nested(n, false, &p.child("anyOf").index(i), no_cel, errs);
        }
    }
    for (i, n) in v.all_of.iter().enumerate() {
        nested(
            n,
            skip_first_all_of_any_of && i == 0,
            &p.child("allOf").index(i),
            opts,
            errs,
        );
    }
    for (i, n) in v.one_of.iter().enumerate() {
        nested(n, false, &p.child("oneOf").index(i), no_cel, errs);
    }
    if let Some(n) = &v.not {
        nested(n, false, &p.child("not"), no_cel, errs);
    }
    if !v.pattern.is_empty() {
        if let Err(e) = goregex::compile(&v.pattern) {
            errs.push(FieldError::invalid(
                &p.child("pattern").path(),
                v.pattern.as_str(),
                format!("must be a valid regular expression, but isn't: {e}"),
            ));
        }
    }
}

fn nested(
    v: &NestedValueValidation,
    skip_any_of: bool,
    p: &Loc<'_>,
    opts: StructuralOptions,
    errs: &mut ErrorList,
) {
    value_validation(&v.value_validation, skip_any_of, false, p, opts, errs);
    if let Some(items) = &v.items {
        nested(items, false, &p.child("items"), opts, errs);
    }
    for (k, f) in &v.properties {
        nested(f, false, &p.child("properties").key(k.as_str()), opts, errs);
    }
    let g = &v.forbidden_generics;
    let x = &v.forbidden_extensions;
    if !g.type_.is_empty() {
        errs.push(FieldError::forbidden(
            &p.child("type").path(),
            "must be empty to be structural",
        ));
    }
    if let Some(ap) = &v.additional_properties {
        if opts.allow_nested_additional_properties {
            nested(ap, false, &p.child("additionalProperties"), opts, errs);
        } else {
            errs.push(FieldError::forbidden(
                &p.child("additionalProperties").path(),
                "must be undefined to be structural",
            ));
        }
    }
    let forbid = |errs: &mut ErrorList, cond: bool, key: &str, detail: &str| {
        if cond {
            errs.push(FieldError::forbidden(&p.child(key).path(), detail));
        }
    };
    forbid(
        errs,
        g.default.is_some(),
        "default",
        "must be undefined to be structural",
    );
    forbid(
        errs,
        !g.title.is_empty(),
        "title",
        "must be empty to be structural",
    );
    forbid(
        errs,
        !g.description.is_empty(),
        "description",
        "must be empty to be structural",
    );
    forbid(
        errs,
        g.nullable,
        "nullable",
        "must be false to be structural",
    );
    forbid(
        errs,
        x.preserve_unknown_fields,
        "x-kubernetes-preserve-unknown-fields",
        "must be false to be structural",
    );
    forbid(
        errs,
        x.embedded_resource,
        "x-kubernetes-embedded-resource",
        "must be false to be structural",
    );
    forbid(
        errs,
        x.int_or_string,
        "x-kubernetes-int-or-string",
        "must be false to be structural",
    );
    forbid(
        errs,
        !x.list_map_keys.is_empty(),
        "x-kubernetes-list-map-keys",
        "must be empty to be structural",
    );
    forbid(
        errs,
        x.list_type.is_some(),
        "x-kubernetes-list-type",
        "must be undefined to be structural",
    );
    forbid(
        errs,
        x.map_type.is_some(),
        "x-kubernetes-map-type",
        "must be undefined to be structural",
    );
    forbid(
        errs,
        !v.x_validations.is_empty() && !opts.allow_nested_x_validations,
        "x-kubernetes-validations",
        "must be empty to be structural",
    );
    if v.properties.contains_key("metadata") {
        errs.push(FieldError::forbidden(
            &p.child("properties").key("metadata").path(),
            "must not be specified in a nested context",
        ));
    }
}

/// `validateStructuralCompleteness`: every property and item a junctor of
/// the **root** node talks about must be specified structurally.
pub fn validate_structural_completeness(
    s: &Structural,
    path: &Path,
    opts: StructuralOptions,
) -> ErrorList {
    let mut errs = ErrorList::new();
    if let Some(vv) = &s.value_validation {
        vv_completeness(vv, Some(s), path, path, opts, &mut errs);
    }
    errs
}

fn missing(s_path: &Path, v_path: &Path) -> FieldError {
    FieldError::required(s_path, format!("because it is defined in {v_path}"))
}

fn vv_completeness(
    v: &ValueValidation,
    s: Option<&Structural>,
    s_path: &Path,
    v_path: &Path,
    opts: StructuralOptions,
    errs: &mut ErrorList,
) {
    if s.is_none() {
        errs.push(missing(s_path, v_path));
        return;
    }
    if let Some(n) = &v.not {
        nested_completeness(n, s, s_path, &v_path.child("not"), opts, errs);
    }
    for (name, list) in [
        ("allOf", &v.all_of),
        ("anyOf", &v.any_of),
        ("oneOf", &v.one_of),
    ] {
        for (i, n) in list.iter().enumerate() {
            nested_completeness(n, s, s_path, &v_path.child(name).index(i), opts, errs);
        }
    }
}

fn nested_completeness(
    v: &NestedValueValidation,
    s: Option<&Structural>,
    s_path: &Path,
    v_path: &Path,
    opts: StructuralOptions,
    errs: &mut ErrorList,
) {
    let Some(s) = s else {
        errs.push(missing(s_path, v_path));
        return;
    };
    vv_completeness(&v.value_validation, Some(s), s_path, v_path, opts, errs);
    if let Some(items) = &v.items {
        nested_completeness(
            items,
            s.items.as_deref(),
            &s_path.child("items"),
            &v_path.child("items"),
            opts,
            errs,
        );
    }
    for (k, vf) in &v.properties {
        let vp = v_path.child("properties").key(k.as_str());
        match s.properties.get(k) {
            Some(sf) => {
                nested_completeness(
                    vf,
                    Some(sf),
                    &s_path.child("properties").key(k.as_str()),
                    &vp,
                    opts,
                    errs,
                );
            }
            None => {
                let ap = s
                    .generic
                    .additional_properties
                    .as_ref()
                    .and_then(|a| a.structural.as_deref());
                match ap {
                    Some(ap) if opts.allow_validation_properties_with_additional_properties => {
                        nested_completeness(
                            vf,
                            Some(ap),
                            &s_path.child("additionalProperties"),
                            &vp,
                            opts,
                            errs,
                        );
                    }
                    _ => errs.push(missing(&s_path.child("properties").key(k.as_str()), &vp)),
                }
            }
        }
    }
    if opts.allow_nested_additional_properties {
        if let Some(vap) = &v.additional_properties {
            let sap = s
                .generic
                .additional_properties
                .as_ref()
                .and_then(|a| a.structural.as_deref());
            nested_completeness(
                vap,
                sap,
                &s_path.child("additionalProperties"),
                &v_path.child("additionalProperties"),
                opts,
                errs,
            );
        }
    }
}
