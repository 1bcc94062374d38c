//! The real-CRD corpus (`../shared/corpus/crds`, or `SCHEMA_GEN_CORPUS_DIR`):
//! every CRD must check clean exactly as the API server would accept it,
//! and `fmt` must give back the input as a JSON value (and its YAML output
//! must read back as the same value).
//!
//! One file is not accepted by an API server as it is published, and is
//! expected to fail with exactly the server's errors (see [`EXPECTED`]).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use schema_core::crd::check::check;
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::input::read_input;
use tests::report;

/// Corpus files the API server rejects as published, with the exact errors
/// it reports. Crossplane's provider CRDs name a conversion webhook service
/// by path only: Crossplane's package manager fills in the service name and
/// namespace when it installs the package, and `kubectl apply` of the raw
/// file fails with these errors (`ValidateWebhookService` requires both).
const EXPECTED: &[(&str, &[&str])] = &[(
    "crossplane/kubernetes.crossplane.io_objects.yaml",
    &[
        "spec.conversion.webhookClientConfig.service.name: Required value",
        "spec.conversion.webhookClientConfig.service.namespace: Required value",
    ],
)];

#[test]
fn corpus() {
    let Some(corpus) = tests::Corpus::open() else {
        return;
    };
    let mut failures = Vec::new();
    let (mut docs_total, mut files_total) = (0, 0);
    for tests::CorpusFile { path: file, name } in &corpus.files {
        files_total += 1;
        let bytes = std::fs::read(file).expect("read corpus file");
        let docs = match parse_documents(name, &bytes, &Limits::default()) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{name}: parse: {e}"));
                continue;
            }
        };
        for (i, doc) in docs.iter().enumerate() {
            docs_total += 1;
            let (input, _warnings) = match read_input(&doc.value) {
                Ok(x) => x,
                Err(e) => {
                    failures.push(format!("{name} doc {i}: read: {e}"));
                    continue;
                }
            };
            let report = check(&input, &schema_core::Options::default());
            let got: Vec<String> = report.errors.iter().map(ToString::to_string).collect();
            let want: Vec<String> = EXPECTED
                .iter()
                .find(|(f, _)| *f == name)
                .map(|(_, errs)| errs.iter().map(|e| (*e).to_string()).collect())
                .unwrap_or_default();
            if got != want {
                failures.push(format!(
                    "{name} doc {i}: check: want {want:#?}\n got {got:#?}"
                ));
            }
            let written = input.to_value();
            if written != doc.value {
                failures.push(format!("{name} doc {i}: fmt is not lossless"));
            }
            // `fmt` writes YAML by default: reading it back gives the same value.
            let yaml = schema_core::model::yaml_writer::to_yaml(&written);
            match parse_documents("fmt output", yaml.as_bytes(), &Limits::default()) {
                Ok(back) if back.len() == 1 && back[0].value == written => {}
                Ok(_) => failures.push(format!(
                    "{name} doc {i}: fmt YAML does not read back the same"
                )),
                Err(e) => failures.push(format!("{name} doc {i}: fmt YAML does not parse: {e}")),
            }
        }
    }
    for f in &failures {
        report!("{f}");
    }
    report!(
        "corpus: files={files_total} documents={docs_total} failures={}",
        failures.len()
    );
    assert!(failures.is_empty(), "{} corpus failures", failures.len());
}
