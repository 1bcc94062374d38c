//! Benchmarks of `crd::diff` on the largest corpus CRD (Argo Workflows'
//! `Workflow`, about 3 MB of YAML) diffed against itself with one change
//! (a removed field), at its own size (1x) and with its schema replicated
//! under 10 properties (10x), next to parsing the same file (the floor).
//! The 10x/1x ratio shows the diff is linear in the schema's size.
//!
//! Run with `cargo bench -p schema-core --bench diff`. The corpus is read
//! from `SCHEMA_GEN_CORPUS_DIR` or `../shared/corpus/crds`; without it the
//! benchmarks measure empty inputs.

use indexmap::IndexMap;
use schema_core::crd::diff::{DiffOptions, diff};
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::input::{Input, read_input_owned};
use schema_core::model::wire::{CustomResourceDefinition, JsonSchemaProps};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

const FILE: &str = "argo-workflows/full-argoproj.io_workflows.yaml";

#[path = "common/corpus.rs"]
mod corpus;

use corpus::corpus;

fn load() -> Vec<u8> {
    std::fs::read(corpus().join(FILE)).unwrap_or_default()
}

fn decode(bytes: &[u8]) -> Vec<CustomResourceDefinition> {
    parse_documents(FILE, bytes, &Limits::default())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|d| match read_input_owned(d.value).ok()?.0 {
            Input::CrdV1(c) => Some(*c),
            Input::CrdV1Beta1 { v1, .. } => Some(*v1),
            Input::Schema(_) => None,
        })
        .collect()
}

/// Every version's root schema, mutably.
fn roots(crds: &mut [CustomResourceDefinition]) -> impl Iterator<Item = &mut JsonSchemaProps> {
    crds.iter_mut()
        .filter_map(|c| c.spec.as_mut()?.versions.as_mut())
        .flatten()
        .filter_map(|v| v.schema.as_mut()?.open_api_v3_schema.as_mut())
}

/// The one change: the last property of `spec` (or of the root) removed.
fn change(root: &mut JsonSchemaProps) {
    let node = match root.properties.as_mut().and_then(|p| p.get_mut("spec")) {
        Some(spec) => spec,
        None => root,
    };
    if let Some(p) = node.properties.as_mut() {
        p.pop();
    }
}

/// Each root schema replicated under `copy0` … `copy9`.
fn tenfold(crds: &mut [CustomResourceDefinition]) {
    for root in roots(crds) {
        let mut props = IndexMap::new();
        for i in 0..10 {
            props.insert(format!("copy{i}"), root.clone());
        }
        *root = JsonSchemaProps {
            type_: Some("object".to_string()),
            properties: Some(props),
            ..JsonSchemaProps::default()
        };
    }
}

/// The change inside the first copy only.
fn change_first_copy(crds: &mut [CustomResourceDefinition]) {
    for root in roots(crds) {
        if let Some(copy) = root.properties.as_mut().and_then(|p| p.get_mut("copy0")) {
            change(copy);
        }
    }
}

/// Parsing the YAML into JSON values with positions: the floor.
#[divan::bench(sample_count = 20)]
fn parse_floor(bencher: divan::Bencher<'_, '_>) {
    let bytes = load();
    bencher.bench(|| parse_documents(FILE, &bytes, &Limits::default()).map(|d| d.len()));
}

/// The CRD against itself with one field removed.
#[divan::bench(sample_count = 20)]
fn diff_1x(bencher: divan::Bencher<'_, '_>) {
    let old = decode(&load());
    let mut new = old.clone();
    roots(&mut new).for_each(change);
    let options = DiffOptions::default();
    bencher.bench(|| diff(&old, &new, &options).findings.len());
}

/// The same with the schema replicated under 10 properties, the change in
/// one copy.
#[divan::bench(sample_count = 20)]
fn diff_10x(bencher: divan::Bencher<'_, '_>) {
    let mut old = decode(&load());
    tenfold(&mut old);
    let mut new = old.clone();
    change_first_copy(&mut new);
    let options = DiffOptions::default();
    bencher.bench(|| diff(&old, &new, &options).findings.len());
}
