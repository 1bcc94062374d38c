//! `Unfold` (apiextensions-apiserver's `pkg/apiserver/schema/unfold.go`):
//! every `x-kubernetes-int-or-string` node gets its `anyOf: [{type:
//! integer}, {type: string}]`, or that `anyOf` as `allOf[0]` when `anyOf`
//! is taken.

use crate::model::structural::{
    Extensions, Generic, NestedValueValidation, Structural, ValueValidation,
};

impl Structural {
    /// `Unfold`: expands `x-kubernetes-int-or-string` on every structural
    /// node (items, properties, additionalProperties; never inside value
    /// validations). A node that has neither the `anyOf: [{type: integer},
    /// {type: string}]` pattern nor that `anyOf` as `allOf[0]` gets
    /// `anyOf: [{type: integer}, {type: string}]` if its `anyOf` is empty,
    /// else `allOf[0] = {anyOf: [{type: integer}, {type: string}]}`
    /// prepended.
    #[must_use]
    pub fn unfold(&self) -> Structural {
        let mut out = self.clone();
        unfold_in_place(&mut out);
        out
    }
}

/// [`Structural::unfold`] in place.
pub fn unfold_in_place(s: &mut Structural) {
    if s.extensions.int_or_string
        && !is_int_or_string_any_of_pattern(s)
        && !is_int_or_string_all_of_pattern(s)
    {
        let vv = s.value_validation.get_or_insert_with(Box::default);
        if vv.any_of.is_empty() {
            vv.any_of = int_or_string_any_of();
        } else {
            vv.all_of.insert(
                0,
                NestedValueValidation {
                    value_validation: ValueValidation {
                        any_of: int_or_string_any_of(),
                        ..ValueValidation::default()
                    },
                    ..NestedValueValidation::default()
                },
            );
        }
    }
    if let Some(items) = s.items.as_deref_mut() {
        unfold_in_place(items);
    }
    for p in s.properties.values_mut() {
        unfold_in_place(p);
    }
    if let Some(ap) = s.generic.additional_properties.as_mut()
        && let Some(a) = ap.structural.as_deref_mut()
    {
        unfold_in_place(a);
    }
}

/// `[{type: integer}, {type: string}]` as nested value validations.
fn int_or_string_any_of() -> Vec<NestedValueValidation> {
    ["integer", "string"]
        .into_iter()
        .map(|t| NestedValueValidation {
            forbidden_generics: Generic {
                type_: t.to_string(),
                ..Generic::default()
            },
            ..NestedValueValidation::default()
        })
        .collect()
}

/// Whether a nested value validation is `{type: <t>}` and nothing else, as
/// upstream's `reflect.DeepEqual` sees it (upstream's model has no
/// `externalDocs` or `example`, so those do not count).
fn is_only_type(n: &NestedValueValidation, t: &str) -> bool {
    let g = &n.forbidden_generics;
    g.type_ == t
        && g.description.is_empty()
        && g.title.is_empty()
        && g.default.is_none()
        && !g.nullable
        && g.additional_properties.is_none()
        && n.value_validation == ValueValidation::default()
        && n.x_validations.is_empty()
        && n.items.is_none()
        && n.properties.is_empty()
        && n.additional_properties.is_none()
        && n.forbidden_extensions == Extensions::default()
}

fn is_int_or_string_any_of(any_of: &[NestedValueValidation]) -> bool {
    matches!(any_of, [a, b] if is_only_type(a, "integer") && is_only_type(b, "string"))
}

/// `isIntOrStringAnyOfPattern`.
fn is_int_or_string_any_of_pattern(s: &Structural) -> bool {
    s.value_validation
        .as_deref()
        .is_some_and(|vv| is_int_or_string_any_of(&vv.any_of))
}

/// `isIntOrStringAllOfPattern`.
fn is_int_or_string_all_of_pattern(s: &Structural) -> bool {
    s.value_validation.as_deref().is_some_and(|vv| {
        vv.all_of
            .first()
            .is_some_and(|first| is_int_or_string_any_of(&first.value_validation.any_of))
    })
}
