//! Object validation against a real CRD schema (Prometheus Operator's
//! ServiceMonitor), side by side with the `jsonschema` crate validating the
//! same object against the same schema, at three object sizes (about
//! 100 KB, 1 MB and 10 MB: 1x, 10x, 100x). Run with `cargo xtask bench`.
//!
//! `value_validation` is the API server's value validation alone (what
//! `jsonschema` does); `admission` is all of `schema-gen validate`'s
//! create admission (prune, default, metadata, values, list types), whose
//! decoding and value validation run in one walk for a valid object.
//!
//! From 1 MB to 10 MB every walk here costs more per byte: the objects
//! (several times their JSON size in memory) no longer fit the caches.
//! `cargo run --release -p schema-core --example profile_validate
//! admission_chain N ITERATIONS` times admission alone over N endpoints,
//! to see where the step is and that time is linear past it.

use std::path::PathBuf;

use schema_core::admission::Admission;
use schema_core::check::read_input_owned;
use schema_core::field::Path;
use schema_core::source::{Limits, parse_documents};
use schema_core::value::SchemaValidator;
use schema_core::wire::JsonSchemaProps;
use serde_json::{Value, json};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

/// Endpoints per object: about 100 KB, 1 MB and 10 MB of JSON.
const ENDPOINTS: [usize; 3] = [300, 3_000, 30_000];

const CRD: &str = "prometheus-operator/monitoring.coreos.com_servicemonitors.yaml";

fn corpus() -> PathBuf {
    std::env::var_os("SCHEMA_GEN_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../shared/corpus/crds"
            ))
        })
}

struct Setup {
    crd: schema_core::wire::CustomResourceDefinition,
    schema: JsonSchemaProps,
    schema_json: Value,
}

fn setup() -> Option<Setup> {
    let bytes = std::fs::read(corpus().join(CRD)).ok()?;
    let doc = parse_documents(CRD, &bytes, &Limits::default())
        .ok()?
        .into_iter()
        .next()?;
    let schema_json = doc
        .value
        .pointer("/spec/versions/0/schema/openAPIV3Schema")?
        .clone();
    let (input, _) = read_input_owned(doc.value).ok()?;
    let crd = input.crd()?.clone();
    let schema = crd
        .spec
        .as_ref()?
        .versions
        .as_ref()?
        .first()?
        .schema
        .as_ref()?
        .open_api_v3_schema
        .clone()?;
    Some(Setup {
        crd,
        schema,
        schema_json,
    })
}

/// A valid ServiceMonitor with `n` endpoints.
fn object(n: usize) -> Value {
    let endpoints: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "port": format!("http-{i}"),
                "path": "/metrics",
                "interval": "30s",
                "scrapeTimeout": "10s",
                "scheme": "https",
                "honorLabels": i % 2 == 0,
                "relabelings": [{
                    "action": "replace",
                    "sourceLabels": ["__meta_kubernetes_pod_name"],
                    "targetLabel": "pod",
                }],
                "tlsConfig": {"insecureSkipVerify": false, "serverName": "api.example.com"},
            })
        })
        .collect();
    json!({
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "ServiceMonitor",
        "metadata": {"name": "api", "namespace": "default", "labels": {"team": "core"}},
        "spec": {
            "selector": {"matchLabels": {"app": "api"}},
            "endpoints": endpoints,
        },
    })
}

#[divan::bench(args = ENDPOINTS, sample_count = 10)]
fn value_validation(bencher: divan::Bencher<'_, '_>, n: usize) {
    let Some(s) = setup() else { return };
    let validator = SchemaValidator::new(&s.schema);
    let obj = object(n);
    assert!(validator.validate(&obj, &Path::root()).is_empty());
    bencher.bench(|| validator.validate(&obj, &Path::root()).len());
}

#[divan::bench(args = ENDPOINTS, sample_count = 10)]
fn jsonschema_crate(bencher: divan::Bencher<'_, '_>, n: usize) {
    let Some(s) = setup() else { return };
    let Ok(validator) = jsonschema::validator_for(&s.schema_json) else {
        return;
    };
    let obj = object(n);
    assert!(validator.is_valid(&obj));
    // Collects every error, as the API server's validator does.
    bencher.bench(|| validator.iter_errors(&obj).count());
}

#[divan::bench(args = ENDPOINTS, sample_count = 10)]
fn admission(bencher: divan::Bencher<'_, '_>, n: usize) {
    let Some(s) = setup() else { return };
    let Ok(admission) = Admission::for_crd(&s.crd, "v1") else {
        return;
    };
    let obj = object(n);
    assert!(admission.create(obj.clone()).errors.is_empty());
    // Admission takes the object by value and gives it back: the copy is
    // made, and the result dropped, outside the timed part (`jsonschema`
    // borrows its input, which is neither made nor dropped either).
    bencher
        .with_inputs(|| obj.clone())
        .bench_values(|o| admission.create(o));
}
