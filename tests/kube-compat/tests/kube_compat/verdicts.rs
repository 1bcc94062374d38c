//! The API server's verdict on every CRD of every source, on each side:
//! accepted, or rejected with exactly the errors [`REJECTED`] lists (the
//! same on both sides). schema-core's CRD validation judges always; with
//! Go, the API server's own code (the oracle) judges too and must agree.
//! Every CRD with an allowed difference is judged here.

use kube_compat_tests::Source;
use schema_core::{Options, check, read_input};
use serde_json::{Value, json};

use crate::common::{against_the_oracle, crd_json, crds_of, error_line, sides};

/// CRDs the API server rejects: the source, the CRD, its errors as
/// `field: Type`, and why the source derives it anyway.
const REJECTED: &[(&str, &str, &[&str], &str)] = &[
    (
        "crd_derive_no_schema",
        "plains (derived)",
        &["spec.versions[0].schema.openAPIV3Schema: FieldValueRequired"],
        "`schema = \"disabled\"` derives no schema; the program puts its own in before it submits the CRD (`plains`)",
    ),
    (
        "crd_schema",
        "gauges v1",
        &[
            "spec.versions: FieldValueInvalid",
            "status.storedVersions: FieldValueInvalid",
        ],
        "the version is neither served nor stored; the program submits it merged with v2, stored (`gauges`)",
    ),
];

/// CRDs whose verdict from schema-core differs from the server's own, not
/// fixed yet: the source, the CRD and what differs. Each is compared and
/// reported on every run; one that stops differing fails the run, as does
/// a difference not listed.
const OPEN: &[(&str, &str, &str)] = &[(
    "crd_derive_no_schema",
    "plains (derived)",
    "the missing schema's error: the server (apiextensions-apiserver v0.36 and v0.37) writes it \
     with an empty detail (`field.Required(..., \"\")`), schema-core's create validation with \
     1.34's \"schemas are required\"",
)];

/// The errors a CRD must get: `field: Type` each, sorted.
fn expected(source: &str, crd: &str) -> Vec<String> {
    REJECTED
        .iter()
        .find(|(s, c, _, _)| *s == source && *c == crd)
        .map(|(_, _, errors, _)| errors.iter().map(ToString::to_string).collect())
        .unwrap_or_default()
}

/// `field: Type` of each error line (`field: Type: detail`), sorted.
fn field_and_type(lines: &[String]) -> Vec<String> {
    let mut out: Vec<String> = lines
        .iter()
        .map(|l| l.splitn(3, ": ").take(2).collect::<Vec<_>>().join(": "))
        .collect();
    out.sort();
    out
}

/// Visits every CRD of every source of every side; returns the sources
/// whose CRDs cannot be had.
fn each_crd(mut visit: impl FnMut(&str, &Source, &'static str, Value)) -> Vec<String> {
    let mut broken = Vec::new();
    for (side, sources) in sides() {
        for source in sources {
            match crds_of(source) {
                Ok(crds) => {
                    for (name, crd) in crds {
                        visit(side, source, name, crd_json(&crd));
                    }
                }
                Err(e) => broken.push(format!("{side} {e}")),
            }
        }
    }
    broken
}

#[test]
fn schema_core_judges_every_crd_as_listed() {
    let mut failures = Vec::new();
    let broken = each_crd(|side, source, name, crd| {
        let (input, _) = read_input(&crd).expect("a CRD");
        let report = check(&input, &Options::default());
        let lines: Vec<String> = report
            .errors
            .iter()
            .map(|e| {
                error_line(&json!({
                    "field": e.field.to_string(),
                    "type": e.error_type.name(),
                    "detail": e.detail,
                }))
            })
            .collect();
        if field_and_type(&lines) != expected(source.name, name) {
            failures.push(format!(
                "{side} {} {name}:\n  {}",
                source.name,
                lines.join("\n  ")
            ));
        }
    });
    failures.extend(broken);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_rejected_list_names_crds_that_exist() {
    for (source, crd, errors, why) in REJECTED {
        assert!(!errors.is_empty() && !why.is_empty(), "{source} {crd}");
        let found = kube_compat_tests::kube_derive::SOURCES
            .iter()
            .find(|s| s.name == *source)
            .is_some_and(|s| (s.crds)().iter().any(|(n, _)| n == crd));
        assert!(found, "REJECTED names {source} {crd}, which does not exist");
    }
}

/// With Go: the API server's own CRD validation gives each CRD the listed
/// verdict, and ours gives the server's errors.
#[test]
fn the_api_server_judges_every_crd_as_listed() {
    against_the_oracle("verdicts", |oracle, tag| {
        let mut failures = Vec::new();
        let mut judged = 0;
        let broken = each_crd(|side, source, name, crd| {
            judged += 1;
            let req = json!({ "op": "validate_crd", "crd": crd });
            let answer = oracle.ask(&req);
            let lines: Vec<String> = answer["errors"]
                .as_array()
                .map(|errs| errs.iter().map(error_line).collect())
                .unwrap_or_else(|| vec![answer.to_string()]);
            let what = format!("{tag} {side} {} {name}", source.name);
            if field_and_type(&lines) != expected(source.name, name) {
                failures.push(format!("{what}: the server says\n  {}", lines.join("\n  ")));
            }
            let diffs = tests::oracle::compare(oracle, &req);
            match OPEN
                .iter()
                .find(|(s, c, _)| *s == source.name && *c == name)
            {
                Some(_) if diffs.is_empty() => failures.push(format!(
                    "STALE open difference {what}: it no longer differs; remove it from OPEN"
                )),
                Some((_, _, why)) => {
                    tests::report!("OPEN {what}: {why}\n  {}", diffs.join("\n  "));
                }
                None if diffs.is_empty() => {}
                None => failures.push(format!(
                    "{what}: ours differs from the server\n  {}",
                    diffs.join("\n  ")
                )),
            }
        });
        failures.extend(broken);
        (judged, failures)
    });
}
