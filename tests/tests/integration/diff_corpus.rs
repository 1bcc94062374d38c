//! `schema_core::crd::diff` on the real-CRD corpus (`../shared/corpus/crds`,
//! or `SCHEMA_GEN_CORPUS_DIR`): every corpus file diffed against a second,
//! independent decoding of itself gives no findings, and the two
//! prometheus-operator ServiceMonitor releases of the corpus (v0.38.0 and
//! the current one, read in place) give the findings of a real upgrade.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use tests::report;

use schema_core::crd::diff::{DiffOptions, DiffReport, Severity, diff};
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::CustomResourceDefinition;
use schema_core::model::wire::input::{Input, read_input};

/// The CRDs of a corpus file, decoded.
fn crds(file: &Path) -> Result<Vec<CustomResourceDefinition>, String> {
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    let docs = parse_documents(&file.display().to_string(), &bytes, &Limits::default())
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for doc in docs {
        match read_input(&doc.value).map_err(|e| e.to_string())?.0 {
            Input::CrdV1(c) => out.push(*c),
            Input::CrdV1Beta1 { v1, .. } => out.push(*v1),
            Input::Schema(_) => {}
        }
    }
    Ok(out)
}

#[test]
fn diff_corpus() {
    let Some(corpus) = tests::Corpus::open() else {
        return;
    };
    let mut failures = Vec::new();
    let (mut files_total, mut crds_total) = (0, 0);
    for tests::CorpusFile { path: file, name } in &corpus.files {
        files_total += 1;
        // Two decodings, so nothing is shared between the sides.
        let (old, new) = match (crds(file), crds(file)) {
            (Ok(o), Ok(n)) => (o, n),
            (Err(e), _) | (_, Err(e)) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        crds_total += old.len();
        let report = diff(&old, &new, &DiffOptions::default());
        if let Some(first) = report.findings.first() {
            failures.push(format!(
                "{name}: diffed against itself gives {} finding(s), first: {first}",
                report.findings.len(),
            ));
        }
        // The update is refused exactly where the CRD itself is (a CRD the
        // server rejects on create is rejected on update too).
        let create_errors: usize = new
            .iter()
            .map(|c| {
                schema_core::check(
                    &Input::CrdV1(Box::new(c.clone())),
                    &schema_core::Options::default(),
                )
                .errors
                .len()
            })
            .sum();
        if report.rejected.len() != create_errors {
            failures.push(format!(
                "{name}: the update to itself is refused {} time(s), its create {create_errors}: {:?}",
                report.rejected.len(),
                report.rejected.first().map(ToString::to_string)
            ));
        }
    }
    real_upgrade(&corpus.dir, &mut failures);
    for f in &failures {
        report!("{f}");
    }
    report!(
        "diff corpus: files={files_total} crds={crds_total} failures={}",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} diff corpus failures",
        failures.len()
    );
}

/// ServiceMonitor from prometheus-operator v0.38.0 to the corpus's current
/// release.
fn real_upgrade(dir: &Path, failures: &mut Vec<String>) {
    let old = dir.join("prometheus-operator/v0.38.0-monitoring.coreos.com_servicemonitors.yaml");
    let new = dir.join("prometheus-operator/monitoring.coreos.com_servicemonitors.yaml");
    if !old.is_file() || !new.is_file() {
        report!("notice: the two ServiceMonitor releases are not in the corpus; skipped");
        return;
    }
    let (old, new) = (crds(&old).unwrap(), crds(&new).unwrap());
    let report: DiffReport = diff(&old, &new, &DiffOptions::default());
    report!(
        "servicemonitors v0.38.0 -> current: errors={} warnings={} infos={}",
        report.errors(),
        report.warnings(),
        report.infos()
    );
    for f in &report.findings {
        report!("  {f}");
    }
    let again = diff(&old, &new, &DiffOptions::default());
    if again != report {
        failures.push("servicemonitors: two runs differ".to_string());
    }
    // What the two files show, and the minimal fixture
    // `prometheus_operator_v0_38_to_current_servicemonitor` of
    // schema-core's diff tests models: new fields only (nothing removed or
    // retyped), new enums and defaults, the status subresource, and
    // selector structs made atomic (warnings).
    let has = |rule: &str, path: Option<&str>| {
        report
            .findings
            .iter()
            .any(|f| f.rule == rule && f.new_path.as_deref() == path)
    };
    for (rule, path) in [
        ("status-subresource-added", None),
        ("enum-added", Some("spec.endpoints[*].scheme")),
        (
            "enum-added",
            Some("spec.endpoints[*].relabelings[*].action"),
        ),
        (
            "default-added",
            Some("spec.endpoints[*].relabelings[*].action"),
        ),
        ("field-added", Some("spec.endpoints[*].authorization")),
    ] {
        if !has(rule, path) {
            failures.push(format!("servicemonitors: no {rule} at {path:?}"));
        }
    }
    for f in &report.findings {
        if matches!(f.rule, "field-removed" | "type-changed" | "crd-removed")
            || f.rule.starts_with("version-removed")
        {
            failures.push(format!("servicemonitors: unexpected {f}"));
        }
    }
    // Selector structs made atomic are warnings; nothing in this upgrade
    // breaks stored data or clients.
    if report.max_severity() != Some(Severity::Warning) {
        failures.push(
            "servicemonitors: the atomic selectors are warnings, nothing is an error".to_string(),
        );
    }
    if !has("map-type-changed", Some("spec.selector")) {
        failures.push("servicemonitors: no map-type-changed at spec.selector".to_string());
    }
}
