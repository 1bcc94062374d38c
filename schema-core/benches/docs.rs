//! Benchmarks of reading CRDs: the API reference of the whole corpus as
//! Markdown and as the HTML site, and `explain` of every corpus CRD
//! version (the resource, recursively), against the cost of parsing the
//! same files (the floor: every command starts with it). Run with
//! `cargo xtask bench`.
//!
//! The corpus is read from `SCHEMA_GEN_CORPUS_DIR` or `../shared/corpus/crds`.

use schema_core::docs::explain::{self, Gvk, Options};
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::CustomResourceDefinition;
use schema_core::model::wire::input::{Input, read_input_owned};
use schema_core::publish_v3;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/corpus.rs"]
mod corpus;

fn main() {
    divan::main();
}

/// Every corpus file's bytes, in path order.
fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![corpus::corpus()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                out.push((
                    p.display().to_string(),
                    std::fs::read(&p).unwrap_or_default(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// The CRDs of the corpus.
fn crds(files: &[(String, Vec<u8>)]) -> Vec<CustomResourceDefinition> {
    let mut out = Vec::new();
    for (name, bytes) in files {
        for d in parse_documents(name, bytes, &Limits::default()).unwrap_or_default() {
            match read_input_owned(d.value) {
                Ok((Input::CrdV1(c), _)) | Ok((Input::CrdV1Beta1 { v1: c, .. }, _)) => {
                    out.push(*c);
                }
                _ => {}
            }
        }
    }
    out
}

/// Parsing every corpus file: the floor.
#[divan::bench(sample_count = 10)]
fn parse_corpus(bencher: divan::Bencher<'_, '_>) {
    let files = files();
    bencher.bench(|| {
        files
            .iter()
            .map(|(n, b)| parse_documents(n, b, &Limits::default()).map_or(0, |d| d.len()))
            .sum::<usize>()
    });
}

/// The Markdown reference of the whole corpus, from its CRDs.
#[divan::bench(sample_count = 10)]
fn markdown_corpus(bencher: divan::Bencher<'_, '_>) {
    let crds = crds(&files());
    bencher.bench(|| schema_core::docs::markdown(&crds).map(|d| d.len()));
}

/// The HTML site of the whole corpus, from its CRDs.
#[divan::bench(sample_count = 10)]
fn html_corpus(bencher: divan::Bencher<'_, '_>) {
    let crds = crds(&files());
    bencher.bench(|| schema_core::docs::html(&crds).map(|d| d.len()));
}

/// Publishing each corpus CRD's OpenAPI v3 and explaining each served
/// version's resource recursively (what `explain --recursive` does after
/// reading).
#[divan::bench(sample_count = 10)]
fn explain_recursive_corpus(bencher: divan::Bencher<'_, '_>) {
    let crds = crds(&files());
    bencher.bench(|| {
        let mut bytes = 0;
        for crd in &crds {
            let Ok(docs) = publish_v3(crd, &schema_core::Options::default()) else {
                continue;
            };
            let spec = crd.spec.as_ref();
            let group = spec.and_then(|s| s.group.clone()).unwrap_or_default();
            let kind = spec
                .and_then(|s| s.names.as_ref())
                .and_then(|n| n.kind.clone())
                .unwrap_or_default();
            for (key, doc) in &docs {
                let version = key.rsplit('/').next().unwrap_or_default().to_string();
                let gvk = Gvk {
                    group: group.clone(),
                    version,
                    kind: kind.clone(),
                };
                let options = Options {
                    recursive: true,
                    max_depth: 0,
                    extras: true,
                };
                bytes += explain::explain(doc, &gvk, &[], options).map_or(0, |s| s.len());
            }
        }
        bytes
    });
}
