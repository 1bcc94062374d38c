//! Benchmarks of `check` on the largest corpus CRDs, against the cost of
//! just parsing the same YAML with the same parser (the baseline the
//! targets are stated in). Run with `cargo xtask bench`.
//!
//! The benchmarks use the allocator the `schema-gen` binary uses
//! (mimalloc), so they measure what the command does.
//!
//! The corpus is read from `SCHEMA_GEN_CORPUS_DIR` or `../shared/corpus/crds`.

use schema_core::Options;
use schema_core::crd::check::check;
use schema_core::crd::publish::{publish_v2, publish_v3};
use schema_core::model::source::{Limits, parse_documents, parse_documents_unmapped};
use schema_core::model::wire::input::{Input, read_input, read_input_owned};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

const FILES: [&str; 3] = [
    "argo-workflows/full-argoproj.io_workflows.yaml",
    "prometheus-operator/monitoring.coreos.com_alertmanagerconfigs.yaml",
    "argo-cd/applicationset-crd.yaml",
];

#[path = "common/corpus.rs"]
mod corpus;

use corpus::corpus;

fn load(file: &str) -> Vec<u8> {
    std::fs::read(corpus().join(file)).unwrap_or_default()
}

/// Parsing the YAML into JSON values with positions: the baseline.
#[divan::bench(args = FILES, sample_count = 20)]
fn parse_only(bencher: divan::Bencher<'_, '_>, file: &str) {
    let bytes = load(file);
    bencher.bench(|| parse_documents(file, &bytes, &Limits::default()).map(|d| d.len()));
}

/// Parsing without source maps (`parse_documents_unmapped`, what
/// `schema-gen rust` reads its input with).
#[divan::bench(args = FILES, sample_count = 20)]
fn parse_unmapped(bencher: divan::Bencher<'_, '_>, file: &str) {
    let bytes = load(file);
    bencher.bench(|| parse_documents_unmapped(file, &bytes, &Limits::default()).map(|d| d.len()));
}

/// saphyr-parser's event stream over the same text, events only (no values
/// built): the floor of reading these files through saphyr-parser, which the
/// block reader replaces for block-style YAML.
#[divan::bench(args = FILES, sample_count = 20)]
fn saphyr_events(bencher: divan::Bencher<'_, '_>, file: &str) {
    let bytes = load(file);
    let text = std::str::from_utf8(&bytes).unwrap_or_default();
    bencher.bench(|| {
        saphyr_parser::Parser::new_from_str(text)
            .map_while(Result::ok)
            .count()
    });
}

/// Parsing and decoding, as every command starts: the inputs in `bytes`.
fn parse_and_decode(file: &str, bytes: &[u8]) -> impl Iterator<Item = Input> {
    parse_documents(file, bytes, &Limits::default())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|d| read_input_owned(d.value).ok())
        .map(|(input, _)| input)
}

/// What `schema-gen check` does: parse, decode, validate.
#[divan::bench(args = FILES, sample_count = 20)]
fn parse_and_check(bencher: divan::Bencher<'_, '_>, file: &str) {
    let bytes = load(file);
    bencher.bench(|| {
        parse_and_decode(file, &bytes)
            .map(|input| check(&input, &Options::default()).errors.len())
            .sum::<usize>()
    });
}

/// Decode and validate only, on an already parsed document.
#[divan::bench(args = FILES, sample_count = 20)]
fn check_only(bencher: divan::Bencher<'_, '_>, file: &str) {
    let bytes = load(file);
    let docs = parse_documents(file, &bytes, &Limits::default()).unwrap_or_default();
    bencher.bench(|| {
        docs.iter()
            .filter_map(|d| read_input(&d.value).ok())
            .map(|(input, _)| check(&input, &Options::default()).errors.len())
            .sum::<usize>()
    });
}

/// What `schema-gen openapi --v3` does: parse, decode, publish every
/// served version.
#[divan::bench(args = FILES, sample_count = 20)]
fn parse_and_publish_v3(bencher: divan::Bencher<'_, '_>, file: &str) {
    let bytes = load(file);
    bencher.bench(|| {
        parse_and_decode(file, &bytes)
            .filter_map(|input| {
                let crd = input.crd()?;
                publish_v3(crd, &Options::default()).ok()
            })
            .map(|docs| docs.len())
            .sum::<usize>()
    });
}

/// What `schema-gen openapi --v2` does.
#[divan::bench(args = FILES, sample_count = 20)]
fn parse_and_publish_v2(bencher: divan::Bencher<'_, '_>, file: &str) {
    let bytes = load(file);
    bencher.bench(|| {
        parse_and_decode(file, &bytes)
            .filter_map(|input| {
                let crd = input.crd()?;
                publish_v2(crd, &Options::default()).ok()
            })
            .count()
    });
}
