//! What the profiling examples share: the schema they time (a CRD's first
//! version's) and the two phases every check of it starts with.

use std::time::Instant;

use schema_core::crd::validation::structural::{StructuralOptions, validate_structural};
use schema_core::model::field::Path;
use schema_core::model::structural::Structural;
use schema_core::model::wire::{CustomResourceDefinition, JsonSchemaProps};

/// The `openAPIV3Schema` of `crd`'s first version (empty if it has none).
pub fn first_version_schema(crd: &CustomResourceDefinition) -> JsonSchemaProps {
    crd.spec
        .as_ref()
        .and_then(|s| s.versions.as_ref())
        .and_then(|v| v.first())
        .and_then(|v| v.schema.as_ref())
        .and_then(|s| s.open_api_v3_schema.clone())
        .unwrap_or_default()
}

/// Builds the structural schema of `s` and validates it, printing the time
/// of each phase (and the number of errors); returns the structural schema.
pub fn timed_structural(s: &JsonSchemaProps) -> Structural {
    let t = Instant::now();
    let ss = Structural::from_props(s).unwrap_or_default();
    println!("from_props {:?}", t.elapsed());
    let t = Instant::now();
    let n = validate_structural(&Path::root(), &ss, StructuralOptions::default()).len();
    println!("validate_structural {:?} {n}", t.elapsed());
    ss
}
