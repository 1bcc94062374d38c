//! What the comparisons share: the two sides' source tables, CRDs as JSON,
//! admission requests in the oracle's shape.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube_compat_tests::{Example, Source};
use serde_json::{Value, json};

/// Every side this build compiles the sources with: kube-derive's, and
/// ours with the `ours` feature.
pub fn sides() -> Vec<(&'static str, &'static [Source])> {
    #[cfg_attr(not(feature = "ours"), allow(unused_mut))]
    let mut sides = vec![("kube-derive", kube_compat_tests::kube_derive::SOURCES)];
    #[cfg(feature = "ours")]
    sides.push(("ours", kube_compat_tests::ours::SOURCES));
    sides
}

/// A CRD as the JSON a client sends.
pub fn crd_json(crd: &CustomResourceDefinition) -> Value {
    serde_json::to_value(crd).expect("a CRD serializes")
}

/// The CRD of `source` named `name`, as JSON.
pub fn crd_named(source: &Source, name: &str) -> Value {
    let crds = (source.crds)();
    let (_, crd) = crds
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("{} has no CRD named {name:?}", source.name));
    crd_json(crd)
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
