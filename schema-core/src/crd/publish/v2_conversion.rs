//! `ToStructuralOpenAPIV2` (apiextensions-apiserver's
//! `pkg/controller/openapi/v2/conversion.go`): what OpenAPI v2 and kubectl
//! cannot take is removed from a structural schema.

use std::collections::BTreeSet;

use crate::model::structural::Structural;

/// `ToStructuralOpenAPIV2`: on a copy, top-down (a node before its
/// children), removes what OpenAPI v2 and kubectl cannot take:
///
/// 1. `allOf`, `oneOf`, `anyOf` and `not`;
/// 2. a nullable node loses `type`, `nullable`, `items` and `properties`;
/// 3. a node preserving unknown fields loses `items` and `properties`;
/// 4. an array without `items` loses its type;
/// 5. an object preserving unknown fields loses its type;
/// 6. nullable properties (judged before they are converted) leave
///    `required`;
/// 7. a nullable `additionalProperties` schema clears `required`.
///
/// Everything else (defaults, formats, bounds, enums, extensions) stays.
///
/// Upstream visits properties through copies and writes a converted
/// property back only if its visit reports a change, and step 6 overwrites
/// the change flag with the outcome of the last filter (in Go map order).
/// For a schema that passes `ValidateStructural` every conversion is
/// written back; this function always writes it back, which is upstream's
/// result except in that random-order corner of non-structural input (an
/// array without `items` whose nullable properties are not all required:
/// upstream may keep its `type`).
#[must_use]
pub fn to_structural_openapi_v2(s: &Structural) -> Structural {
    let mut out = s.clone();
    to_v2_in_place(&mut out);
    out
}

/// [`to_structural_openapi_v2`] in place.
pub(super) fn to_v2_in_place(s: &mut Structural) {
    if let Some(vv) = s.value_validation.as_deref_mut() {
        vv.all_of.clear();
        vv.one_of.clear();
        vv.any_of.clear();
        vv.not = None;
    }
    if s.generic.nullable {
        s.generic.type_.clear();
        s.generic.nullable = false;
        s.items = None;
        s.properties.clear();
    }
    if s.extensions.preserve_unknown_fields {
        s.items = None;
        s.properties.clear();
    }
    if s.items.is_none() && s.generic.type_ == "array" {
        s.generic.type_.clear();
    }
    if s.extensions.preserve_unknown_fields && s.generic.type_ == "object" {
        s.generic.type_.clear();
    }
    if let Some(vv) = s.value_validation.as_deref_mut() {
        let nullable: BTreeSet<&str> = s
            .properties
            .iter()
            .filter(|(_, p)| p.generic.nullable)
            .map(|(k, _)| k.as_str())
            .collect();
        if !nullable.is_empty() {
            vv.required.retain(|r| !nullable.contains(r.as_str()));
        }
        let nullable_additional = s
            .generic
            .additional_properties
            .as_ref()
            .and_then(|ap| ap.structural.as_deref())
            .is_some_and(|a| a.generic.nullable);
        if nullable_additional {
            vv.required.clear();
        }
    }
    if let Some(items) = s.items.as_deref_mut() {
        to_v2_in_place(items);
    }
    for p in s.properties.values_mut() {
        to_v2_in_place(p);
    }
    if let Some(ap) = s.generic.additional_properties.as_mut()
        && let Some(a) = ap.structural.as_deref_mut()
    {
        to_v2_in_place(a);
    }
}
