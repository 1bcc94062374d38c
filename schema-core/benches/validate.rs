//! Object validation against a real CRD schema (Prometheus Operator's
//! ServiceMonitor), side by side with the `jsonschema` crate validating the
//! same object against the same schema, at three object sizes (about
//! 100 KB, 1 MB and 10 MB of JSON: 1x, 10x, 100x). Run with `cargo xtask
//! bench`.
//!
//! - `admission`: all of `schema-gen validate`'s create admission (prune,
//!   default, metadata, values, list types), whose decoding and value
//!   validation run in one walk for a valid object;
//! - `value_validation`: the API server's value validation alone (what
//!   `jsonschema` does);
//! - `jsonschema_crate`: the `jsonschema` crate, collecting every error as
//!   the API server's validator does;
//! - `read_floor`: a read-only visit of every key and value, the least any
//!   validator does.
//!
//! Every run gets its own object, parsed from the same JSON text just
//! before it (not timed; nor is dropping it): each side sees the object as
//! `schema-gen validate` sees it, laid out as the parser laid it out, as
//! warm as parsing left it. Throughput is per byte of JSON.
//!
//! Per byte every walk costs more as the object outgrows the caches (in
//! memory an object takes several times its JSON size), `read_floor` the
//! most. `cargo xtask bench-validate-work` counts the instructions
//! admission runs (with valgrind), which grow exactly with the size.

use schema_core::model::field::Path;
use schema_core::object::admission::Admission;
use schema_core::object::value_validation::SchemaValidator;

#[path = "common/servicemonitor.rs"]
mod servicemonitor;

use servicemonitor::{object_text, parse, read_floor, setup};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// Endpoints per object: about 100 KB, 1 MB and 10 MB of JSON.
const ENDPOINTS: [usize; 3] = [300, 3_000, 30_000];

/// The object's JSON text and its size, for throughput.
fn text(n: usize) -> (String, divan::counter::BytesCount) {
    let text = object_text(n);
    let bytes = divan::counter::BytesCount::new(text.len());
    (text, bytes)
}

#[divan::bench(args = ENDPOINTS, sample_count = 40, sample_size = 1)]
fn admission(bencher: divan::Bencher<'_, '_>, n: usize) {
    let Some(s) = setup() else { return };
    let Ok(admission) = Admission::for_crd(&s.crd, "v1", &schema_core::Options::default()) else {
        return;
    };
    let (text, bytes) = text(n);
    assert!(admission.create(parse(&text)).errors.is_empty());
    bencher
        .counter(bytes)
        .with_inputs(|| parse(&text))
        .bench_values(|o| admission.create(o));
}

#[divan::bench(args = ENDPOINTS, sample_count = 40, sample_size = 1)]
fn value_validation(bencher: divan::Bencher<'_, '_>, n: usize) {
    let Some(s) = setup() else { return };
    let validator = SchemaValidator::new(&s.schema);
    let (text, bytes) = text(n);
    assert!(validator.validate(&parse(&text), &Path::root()).is_empty());
    bencher
        .counter(bytes)
        .with_inputs(|| parse(&text))
        .bench_refs(|o| validator.validate(o, &Path::root()).len());
}

#[divan::bench(args = ENDPOINTS, sample_count = 40, sample_size = 1)]
fn jsonschema_crate(bencher: divan::Bencher<'_, '_>, n: usize) {
    let Some(s) = setup() else { return };
    let Ok(validator) = jsonschema::validator_for(&s.schema_json) else {
        return;
    };
    let (text, bytes) = text(n);
    assert!(validator.is_valid(&parse(&text)));
    bencher
        .counter(bytes)
        .with_inputs(|| parse(&text))
        .bench_refs(|o| validator.iter_errors(o).count());
}

#[divan::bench(args = ENDPOINTS, sample_count = 40, sample_size = 1)]
fn read_floor_walk(bencher: divan::Bencher<'_, '_>, n: usize) {
    let (text, bytes) = text(n);
    bencher
        .counter(bytes)
        .with_inputs(|| parse(&text))
        .bench_refs(|o| read_floor(o));
}
