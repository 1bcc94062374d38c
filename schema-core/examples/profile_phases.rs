//! Times the phases of CRD validation on one file (a profiling aid).
use schema_core::KubeVersion;
use schema_core::cel::functions::CompatibilityVersion;
use schema_core::crd::validation::defaults::validate_defaults;
use schema_core::crd::validation::definition::{
    RequestVersion, validate_custom_resource_definition,
};
use schema_core::crd::validation::schema::{SchemaOptions, validate_openapi_v3_schema};
use schema_core::model::field::Path;
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::input::{Input, read_input};
use std::time::Instant;

#[path = "common/phases.rs"]
mod phases;

use phases::{first_version_schema, timed_structural};

fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let bytes = std::fs::read(&path).unwrap_or_default();
    let docs = parse_documents(&path, &bytes, &Limits::default()).unwrap_or_default();
    for d in &docs {
        let Ok((Input::CrdV1(c), _)) = read_input(&d.value) else {
            continue;
        };
        let s = first_version_schema(&c);
        let ss = timed_structural(&s);
        let t = Instant::now();
        let n = validate_defaults(
            &Path::root(),
            &ss,
            true,
            true,
            CompatibilityVersion::stored_expressions(KubeVersion::default()),
        )
        .len();
        println!("validate_defaults {:?} {n}", t.elapsed());
        let t = Instant::now();
        let n = validate_openapi_v3_schema(
            &s,
            false,
            &SchemaOptions::create(&schema_core::Options::default()),
            &Path::root(),
        )
        .len();
        println!("validate_openapi_v3_schema (all) {:?} {n}", t.elapsed());
        let t = Instant::now();
        let n = validate_custom_resource_definition(
            &c,
            RequestVersion::V1,
            &schema_core::Options::default(),
        )
        .len();
        println!("validate_crd (all) {:?} {n}", t.elapsed());
        let t = Instant::now();
        drop(ss);
        println!("drop structural {:?}", t.elapsed());
    }
}
