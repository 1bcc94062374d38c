//! What the comparisons share: the two sides' source tables, CRDs as JSON,
//! admission requests in the oracle's shape.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube_compat_tests::{Crds, Example, Source};
use serde_json::{Value, json};

/// Both sides the sources are compiled with: kube-derive's and ours.
pub fn sides() -> Vec<(&'static str, &'static [Source])> {
    vec![
        ("kube-derive", kube_compat_tests::kube_derive::SOURCES),
        ("ours", kube_compat_tests::ours::SOURCES),
    ]
}

/// Each source of ours with the source of the same name of kube-derive's.
pub fn pairs() -> Vec<(&'static Source, &'static Source)> {
    use kube_compat_tests::{kube_derive, ours};
    ours::SOURCES
        .iter()
        .map(|mine| {
            let theirs = kube_derive::SOURCES
                .iter()
                .find(|s| s.name == mine.name)
                .expect("both sides compile the same sources");
            (theirs, mine)
        })
        .collect()
}

/// A CRD as the JSON a client sends.
pub fn crd_json(crd: &CustomResourceDefinition) -> Value {
    serde_json::to_value(crd).expect("a CRD serializes")
}

/// The CRDs of `source`, or why there are none: a `crd()` that panics
/// fails its source alone, with the panic's message.
pub fn crds_of(source: &Source) -> Result<Crds, String> {
    std::panic::catch_unwind(source.crds).map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(ToString::to_string))
            .unwrap_or_default();
        format!("{}: crd() panics: {message}", source.name)
    })
}

/// The CRD of `source` named `name`, as JSON.
pub fn crd_named(source: &Source, name: &str) -> Result<Value, String> {
    let crds = crds_of(source)?;
    crds.iter()
        .find(|(n, _)| *n == name)
        .map(|(_, crd)| crd_json(crd))
        .ok_or_else(|| format!("{} has no CRD named {name:?}", source.name))
}

/// The oracle's `admit` request for `example` with `crd`: a namespaced
/// object without a namespace gets the request's (`default`), as the
/// handler fills it in.
pub fn admit_request(crd: &Value, example: &Example) -> Value {
    let namespaced = crd["spec"]["scope"] == "Namespaced";
    let namespace = if namespaced { "default" } else { "" };
    let mut object = example.object.clone();
    if namespaced && object["metadata"]["namespace"].is_null() {
        object["metadata"]["namespace"] = json!(namespace);
    }
    json!({
        "op": "admit",
        "crd": crd,
        "version": example.version,
        "object": object,
        "oldObject": example.old.clone().unwrap_or(Value::Null),
        "namespace": namespace,
    })
}

/// A field error of an answer as `field: Type: detail`.
pub fn error_line(e: &Value) -> String {
    format!(
        "{}: {}: {}",
        e["field"].as_str().unwrap_or_default(),
        e["type"].as_str().unwrap_or_default(),
        e["detail"].as_str().unwrap_or_default()
    )
}

/// Runs `suite` with the oracle of every Kubernetes version it builds for
/// (nothing, after a notice, without Go). `suite` asks its questions and
/// returns how many it asked and its failures, each naming what failed;
/// the failures of every version fail the test.
pub fn against_the_oracle(
    name: &str,
    mut suite: impl FnMut(&mut tests::oracle::Oracle, &str) -> (usize, Vec<String>),
) {
    use tests::oracle::{Oracle, oracle_versions};
    let mut failures = Vec::new();
    for version in oracle_versions() {
        let Some(mut oracle) = Oracle::start(&version) else {
            return;
        };
        let tag = format!("k8s-{}", version.kube);
        let (asked, mut failed) = suite(&mut oracle, &tag);
        tests::report!(
            "oracle {tag} kube-compat {name}: asked={asked} failures={}",
            failed.len()
        );
        failures.append(&mut failed);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
