//! Which schemas the builder publishes (`generateBuilder`): no invalid
//! type (`SchemaHasInvalidTypes`), `NewStructural` succeeds, structural
//! unless allowed otherwise; the published schema is unfolded.

use super::PublishError;
use super::unfold::unfold_in_place;
use crate::crd::validation::structural::{StructuralOptions, validate_structural};
use crate::model::field::Path;
use crate::model::structural::Structural;
use crate::model::wire::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray};

/// The types a schema may name (`openapiV3Types`).
const OPENAPI_V3_TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// `SchemaHasInvalidTypes`: whether any schema node (value validations,
/// definitions and dependencies included) has a `type` other than array,
/// boolean, integer, number, object or string.
pub fn schema_has_invalid_types(s: &JsonSchemaProps) -> bool {
    let t = s.type_str();
    if !t.is_empty() && !OPENAPI_V3_TYPES.contains(&t) {
        return true;
    }
    let list = |l: &Option<Vec<JsonSchemaProps>>| l.iter().flatten().any(schema_has_invalid_types);
    let map = |m: &Option<indexmap::IndexMap<String, JsonSchemaProps>>| {
        m.iter()
            .flat_map(|m| m.values())
            .any(schema_has_invalid_types)
    };
    let items = match &s.items {
        Some(SchemaOrArray::Schema(i)) => schema_has_invalid_types(i),
        Some(SchemaOrArray::Array(a)) => a.iter().any(schema_has_invalid_types),
        None => false,
    };
    let or_bool = |b: &Option<SchemaOrBool>| {
        b.as_ref()
            .and_then(SchemaOrBool::schema)
            .is_some_and(schema_has_invalid_types)
    };
    items
        || list(&s.all_of)
        || list(&s.any_of)
        || list(&s.one_of)
        || s.not.as_deref().is_some_and(schema_has_invalid_types)
        || map(&s.properties)
        || or_bool(&s.additional_properties)
        || map(&s.pattern_properties)
        || or_bool(&s.additional_items)
        || map(&s.definitions)
        || s.dependencies
            .iter()
            .flat_map(|d| d.values())
            .any(|d| match d {
                SchemaOrStringArray::Schema(d) => schema_has_invalid_types(d),
                SchemaOrStringArray::Property(_) => false,
            })
}

/// The structural schema the builder publishes for a wire schema
/// (`generateBuilder`), unfolded; an error where the builder publishes no
/// schema (an invalid type, `NewStructural` fails, not structural unless
/// allowed).
pub(super) fn publishable(
    schema: &JsonSchemaProps,
    allow_non_structural: bool,
    keep_external_docs_and_example: bool,
) -> Result<Structural, PublishError> {
    if schema_has_invalid_types(schema) {
        return Err(PublishError::InvalidTypes);
    }
    let mut s = Structural::from_props(schema)?;
    if !keep_external_docs_and_example {
        drop_external_docs_and_example(&mut s);
    }
    if !allow_non_structural {
        let errs = validate_structural(&Path::root(), &s, StructuralOptions::default());
        if !errs.is_empty() {
            return Err(PublishError::NonStructural(
                errs.iter().map(ToString::to_string).collect(),
            ));
        }
    }
    unfold_in_place(&mut s);
    Ok(s)
}

/// The structural schema as releases before 1.36 converted it
/// (`newGenerics` without `externalDocs` and `example`), so they are not
/// published.
fn drop_external_docs_and_example(s: &mut Structural) {
    let mut stack = vec![s];
    while let Some(s) = stack.pop() {
        s.generic.external_docs = None;
        s.generic.example = None;
        let Structural {
            items,
            properties,
            generic,
            ..
        } = s;
        stack.extend(items.as_deref_mut());
        stack.extend(properties.values_mut());
        stack.extend(
            generic
                .additional_properties
                .as_mut()
                .and_then(|a| a.structural.as_deref_mut()),
        );
    }
}
