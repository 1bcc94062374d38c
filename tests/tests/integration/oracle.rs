//! Differential tests: the same requests to the API server's own code (the
//! oracle, `oracle/`, one build per Kubernetes version it lists) and to
//! schema-gen ([`tests::ours`]), answers compared value for value.
//!
//! Inputs: every case of the `k8s` conformance suite, every CRD of the
//! corpus (CRD validation on create and on updates built from it, published
//! OpenAPI v2 and v3, each version's structural check, its root CEL rules'
//! compilation and costs, and the admission of a sample object built from
//! its schema), the bundled example
//! objects, the regression inputs under `tests/oracle-regressions/`, and
//! random schemas, objects and rules (`tests::fuzz`) for a time budget of
//! `SCHEMA_GEN_FUZZ_SECONDS` (default 0: the random suite still finds open
//! differences; `SCHEMA_GEN_FUZZ_SEED` repeats a run, `SCHEMA_GEN_FUZZ_CASES`
//! caps the cases). A difference fails
//! the run, with the shrunk input written where the regression suite reads
//! it.
//!
//! Needs Go (see `tests::go`): without it, a notice and nothing else.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::time::{Duration, Instant};
use tests::report;

use serde_json::{Value, json};

use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::structural::Structural;
use schema_core::model::wire::codec::Wire;
use tests::oracle::{Oracle, oracle_versions};

/// Inputs whose difference is upstream's and plainly wrong for an offline
/// tool, with the reason. Empty: every difference found so far was ours.
const ACCEPTED: &[(&str, &str)] = &[];

/// Differences the oracle shows where ours is wrong and not fixed yet, with
/// what differs. They are compared and reported on every run; one that
/// stops differing fails the run (the list must shrink), as does any
/// difference not listed.
const OPEN: &[(&str, &str)] = &[];

#[derive(Default)]
struct Run {
    compared: usize,
    open: usize,
    failures: Vec<String>,
}

impl Run {
    fn compare(&mut self, oracle: &mut Oracle, id: &str, req: &Value) {
        self.compared += 1;
        let diffs = tests::oracle::compare(oracle, req);
        if let Some((_, why)) = OPEN.iter().find(|(o, _)| *o == id) {
            if diffs.is_empty() {
                self.failures.push(format!(
                    "STALE open difference {id}: it no longer differs; remove it from OPEN"
                ));
            } else {
                self.open += 1;
                report!("OPEN {id}: {why}\n  {}", diffs.join("\n  "));
            }
            return;
        }
        if diffs.is_empty() || ACCEPTED.iter().any(|(a, _)| *a == id) {
            return;
        }
        self.failures.push(format!(
            "DIFF {id}\n  request: {}\n  {}",
            truncate(&req.to_string(), 2000),
            diffs
                .iter()
                .map(|d| truncate(d, 1000))
                .collect::<Vec<_>>()
                .join("\n  ")
        ));
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &s[..end], s.len())
}

/// Runs one suite against the oracle of every Kubernetes version it lists.
/// Each suite is a test of its own, with an oracle process of its own, so
/// the suites run side by side.
fn against_the_oracle(name: &str, suite: fn(&mut Oracle) -> Run) {
    let versions = oracle_versions();
    assert!(
        !versions.is_empty(),
        "oracle/go.mod names no Kubernetes version"
    );
    let mut failed = false;
    for version in &versions {
        let Some(mut oracle) = Oracle::start(version) else {
            return;
        };
        let run = suite(&mut oracle);
        for f in &run.failures {
            report!("{f}\n");
        }
        report!(
            "oracle k8s-{} {name}: compared={} differences={} open={}",
            version.kube,
            run.compared,
            run.failures.len(),
            run.open
        );
        failed |= !run.failures.is_empty();
    }
    if failed {
        panic!("differences from the oracle in {name} (listed above)");
    }
}

#[test]
fn conformance_cases() {
    against_the_oracle("conformance", conformance);
}

#[test]
fn corpus_crds() {
    against_the_oracle("corpus", corpus);
}

#[test]
fn example_objects() {
    against_the_oracle("examples", examples);
}

#[test]
fn regression_inputs() {
    against_the_oracle("regressions", regressions);
}

#[test]
fn random_inputs() {
    against_the_oracle("random", random);
}

/// Every case of the `k8s` conformance suite as a request.
fn conformance(oracle: &mut Oracle) -> Run {
    let mut run = Run::default();
    let Some(dir) = tests::conformance_dir() else {
        return run;
    };
    let files = ["k8s", "k8s-cel"]
        .into_iter()
        .flat_map(|suite| tests::files_below(&dir.join(suite), &["json"]));
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read cases");
        let cases: Vec<Value> = serde_json::from_str(&text).expect("cases are a JSON array");
        for case in &cases {
            let id = case["id"].as_str().unwrap_or("?");
            let req = case_request(case)
                .unwrap_or_else(|| panic!("case {id}: no request for its operation"));
            run.compare(oracle, id, &req);
        }
    }
    run
}

/// The oracle request of a conformance case: its input with the operation
/// named as the oracle names it.
fn case_request(case: &Value) -> Option<Value> {
    let mut req = case["input"].as_object()?.clone();
    let input = &case["input"];
    let op = match input["operation"].as_str()? {
        "ValidateStructural" | "validateStructuralCompleteness" => "structural",
        "validateCustomResourceDefinitionValidation" => "validate_crd_validation",
        "ValidateCustomResource" => "validate_value",
        "ValidateListSetsAndMaps" => "list_sets_maps",
        "PruneWithOptions" => "prune",
        "Default" | "PruneNonNullableNullsWithoutDefaults" => "default",
        "ToStructuralOpenAPIV2" => "to_structural_v2",
        "UnfoldToKubeOpenAPI" => "unfold",
        op @ ("BuildOpenAPIV2" | "BuildOpenAPIV3") => {
            let c = &input["crd"];
            let version = c["version"].as_str().unwrap_or("v1");
            let mut v = json!({"name": version, "served": true, "storage": true});
            if !input["schema"].is_null() {
                v["schema"] = json!({"openAPIV3Schema": input["schema"]});
            }
            if !input["selectableFields"].is_null() {
                v["selectableFields"] = input["selectableFields"].clone();
            }
            let crd = json!({
                "apiVersion": "apiextensions.k8s.io/v1",
                "kind": "CustomResourceDefinition",
                "metadata": {"name": format!("{}.{}", c["plural"].as_str().unwrap_or(""), c["group"].as_str().unwrap_or(""))},
                "spec": {
                    "group": c["group"],
                    "names": {"kind": c["kind"], "listKind": c["listKind"], "plural": c["plural"], "singular": c["singular"]},
                    "scope": c["scope"],
                    "versions": [v],
                },
            });
            return Some(json!({
                "op": "build_openapi",
                "crd": crd,
                "version": version,
                "options": {"V2": op == "BuildOpenAPIV2", "IncludeSelectableFields": input["includeSelectableFields"] == true},
            }));
        }
        _ => return None,
    };
    req.insert("op".into(), json!(op));
    Some(Value::Object(req))
}

/// Every v1 CRD of the corpus: CRD validation, both published documents,
/// and per version the structural check, the root rules' compilation and
/// a sample object's admission.
fn corpus(oracle: &mut Oracle) -> Run {
    let mut run = Run::default();
    let Some(dir) = tests::corpus_dir() else {
        return run;
    };
    for file in tests::files_below(&dir, &["yaml", "yml", "json"]) {
        if file.file_name().is_some_and(|n| n == "index.json") {
            continue;
        }
        let name = file
            .strip_prefix(&dir)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (i, doc) in read_documents(&file).iter().enumerate() {
            crd_requests(oracle, &mut run, &format!("{name}#{i}"), doc, &[]);
        }
    }
    run
}

fn read_documents(file: &Path) -> Vec<Value> {
    let bytes = std::fs::read(file).expect("read file");
    let name = file.display().to_string();
    parse_documents(&name, &bytes, &Limits::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .into_iter()
        .map(|d| d.value)
        .collect()
}

/// The requests of one CRD document, plus the admission of `objects`.
fn crd_requests(oracle: &mut Oracle, run: &mut Run, id: &str, doc: &Value, objects: &[Value]) {
    if doc["kind"] != "CustomResourceDefinition" {
        return;
    }
    let validate = json!({"op": "validate_crd", "crd": doc});
    run.compare(oracle, &format!("{id} validate_crd"), &validate);
    update_requests(oracle, run, id, doc);
    // Objects are only admitted against CRDs the server accepts.
    let accepted = oracle.ask(&validate)["errors"]
        .as_array()
        .is_some_and(Vec::is_empty);
    run.compare(
        oracle,
        &format!("{id} publish v2"),
        &json!({"op": "publish", "crd": doc, "v2": true}),
    );
    run.compare(
        oracle,
        &format!("{id} publish v3"),
        &json!({"op": "publish", "crd": doc, "v2": false}),
    );
    let crd = match schema_core::read_input(doc) {
        Ok((schema_core::Input::CrdV1(c), _)) => *c,
        Ok((schema_core::Input::CrdV1Beta1 { v1, .. }, _)) => *v1,
        other => panic!("{id}: not a CRD: {other:?}"),
    };
    let spec = crd.spec.as_ref().expect("a CRD has a spec");
    let namespaced = spec.scope.as_deref() == Some("Namespaced");
    let group = spec.group.clone().unwrap_or_default();
    let kind = spec
        .names
        .as_ref()
        .and_then(|n| n.kind.clone())
        .unwrap_or_default();
    for v in spec.versions.iter().flatten().filter(|_| accepted) {
        let version = v.name.clone().unwrap_or_default();
        let vid = format!("{id} {version}");
        let Some(props) = v.schema.as_ref().and_then(|s| s.open_api_v3_schema.clone()) else {
            continue;
        };
        let schema_json = props.encode();
        run.compare(
            oracle,
            &format!("{vid} structural"),
            &json!({"op": "structural", "schema": schema_json}),
        );
        run.compare(
            oracle,
            &format!("{vid} cel_compile"),
            &json!({"op": "cel_compile", "schema": schema_json, "isResourceRoot": true}),
        );
        let Ok(s) = Structural::from_props(&props) else {
            continue;
        };
        let mut sample = tests::sample_object(&s);
        if let Value::Object(m) = &mut sample {
            m.insert("apiVersion".into(), json!(format!("{group}/{version}")));
            m.insert("kind".into(), json!(kind));
            let mut meta = json!({"name": "sample"});
            if namespaced {
                meta["namespace"] = json!("default");
            }
            m.insert("metadata".into(), meta);
        }
        let ns = if namespaced { "default" } else { "" };
        run.compare(
            oracle,
            &format!("{vid} admit sample"),
            &json!({"op": "admit", "crd": doc, "version": version, "object": sample, "namespace": ns}),
        );
        for (i, obj) in objects.iter().enumerate() {
            if obj["apiVersion"] == format!("{group}/{version}").as_str()
                && obj["kind"] == kind.as_str()
            {
                // The namespace of the request (kubectl's context) when
                // the object names none, as the handler fills it in.
                let mut obj = obj.clone();
                if namespaced && obj["metadata"]["namespace"].is_null() {
                    obj["metadata"]["namespace"] = json!("default");
                }
                run.compare(
                    oracle,
                    &format!("{vid} admit object {i}"),
                    &json!({"op": "admit", "crd": doc, "version": version, "object": obj, "namespace": ns}),
                );
            }
        }
    }
}

/// `ValidateCustomResourceDefinitionUpdate` of a CRD document: the CRD
/// updated to itself, and (for a v1 CRD) updates that change one thing
/// each, built here: the scope flipped (before and after the CRD is
/// established), the group changed, a version removed, the storage moved to
/// another version, a served version turned off, a required field added to
/// every schema, a conversion webhook with an invalid CA bundle (before and
/// after the CRD is established), `status.storedVersions` naming a version
/// not in the spec, and the kind and plural changed on an established CRD.
fn update_requests(oracle: &mut Oracle, run: &mut Run, id: &str, doc: &Value) {
    let mut compare = |name: &str, new: &Value, old: &Value| {
        run.compare(
            oracle,
            &format!("{id} update {name}"),
            &json!({"op": "validate_crd", "crd": new, "oldCrd": old}),
        );
    };
    compare("unchanged", doc, doc);
    if doc["apiVersion"] != "apiextensions.k8s.io/v1" {
        return;
    }
    // A stored object, so that only the change itself is reported.
    let mut old = doc.clone();
    old["metadata"]["resourceVersion"] = json!("1");
    let mut established = old.clone();
    established["status"]["conditions"] =
        json!([{"type": "Established", "status": "True", "reason": "InitialNamesAccepted"}]);
    let changed = |base: &Value, f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        v
    };
    let versions = old["spec"]["versions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let storage = versions.iter().position(|v| v["storage"] == true);

    let flip = |v: &mut Value| {
        let scope = &mut v["spec"]["scope"];
        *scope = json!(if *scope == "Namespaced" {
            "Cluster"
        } else {
            "Namespaced"
        });
    };
    compare("scope", &changed(&old, &flip), &old);
    compare(
        "scope established",
        &changed(&established, &flip),
        &established,
    );
    compare(
        "group",
        &changed(&old, &|v| v["spec"]["group"] = json!("changed.example.com")),
        &old,
    );
    if versions.len() > 1 {
        compare(
            "version removed",
            &changed(&old, &|v| {
                if let Some(vs) = v["spec"]["versions"].as_array_mut() {
                    vs.pop();
                }
            }),
            &old,
        );
        if let Some(s) = storage {
            let other = usize::from(s == 0);
            compare(
                "storage moved",
                &changed(&old, &|v| {
                    v["spec"]["versions"][s]["storage"] = json!(false);
                    v["spec"]["versions"][other]["storage"] = json!(true);
                }),
                &old,
            );
        }
    }
    if let Some(served) = versions.iter().position(|v| v["served"] == true) {
        compare(
            "served off",
            &changed(&old, &|v| {
                v["spec"]["versions"][served]["served"] = json!(false)
            }),
            &old,
        );
    }
    compare(
        "required field added",
        &changed(&old, &|v| {
            for version in v["spec"]["versions"].as_array_mut().into_iter().flatten() {
                let schema = &mut version["schema"]["openAPIV3Schema"];
                if !schema.is_object() {
                    continue;
                }
                schema["properties"]["addedField"] = json!({"type": "string"});
                match schema["required"].as_array_mut() {
                    Some(r) => r.push(json!("addedField")),
                    None => schema["required"] = json!(["addedField"]),
                }
            }
        }),
        &old,
    );
    // A conversion webhook whose CA bundle holds no certificate: checked
    // only once the old CRD is established.
    let webhook = |v: &mut Value| {
        v["spec"]["conversion"] = json!({"strategy": "Webhook", "webhook": {
            "clientConfig": {
                "url": "https://conversion.example.com/convert",
                "caBundle": "bm90IGEgY2VydGlmaWNhdGU=",
            },
            "conversionReviewVersions": ["v1"],
        }});
    };
    compare("invalid caBundle", &changed(&old, &webhook), &old);
    compare(
        "invalid caBundle established",
        &changed(&established, &webhook),
        &established,
    );
    compare(
        "stored version not in spec",
        &changed(&old, &|v| {
            v["status"]["storedVersions"] = json!(["vnotinspec"])
        }),
        &old,
    );
    compare(
        "names established",
        &changed(&established, &|v| {
            let names = &mut v["spec"]["names"];
            names["kind"] = json!(format!("{}Changed", names["kind"].as_str().unwrap_or("")));
            names["plural"] = json!(format!("{}changed", names["plural"].as_str().unwrap_or("")));
        }),
        &established,
    );
}

/// The bundled examples: each CRD with the example objects of its group.
fn examples(oracle: &mut Oracle) -> Run {
    let mut run = Run::default();
    let dir = tests::examples_dir();
    let docs: Vec<(String, Value)> = tests::files_below(&dir, &["yaml", "yml", "json"])
        .iter()
        .flat_map(|f| {
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            read_documents(f)
                .into_iter()
                .map(move |d| (name.clone(), d))
        })
        .collect();
    let objects: Vec<Value> = docs
        .iter()
        .filter(|(_, d)| d["kind"] != "CustomResourceDefinition" && d["apiVersion"].is_string())
        .map(|(_, d)| d.clone())
        .collect();
    for (name, d) in &docs {
        if d["kind"] == "CustomResourceDefinition" {
            crd_requests(oracle, &mut run, name, d, &objects);
        }
    }
    run
}

/// Inputs that once differed: every `*.json` request under
/// `tests/oracle-regressions/`.
fn regressions(oracle: &mut Oracle) -> Run {
    let mut run = Run::default();
    let dir = tests::workspace_root()
        .join("tests")
        .join("oracle-regressions");
    for file in tests::files_below(&dir, &["json"]) {
        let req: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("JSON");
        let id = file.file_name().unwrap().to_string_lossy().to_string();
        run.compare(oracle, &id, &req);
    }
    run
}

/// Random inputs for the time budget; a difference is shrunk and written
/// under `tests/oracle-regressions/`.
fn random(oracle: &mut Oracle) -> Run {
    let mut run = Run::default();
    let secs: u64 = std::env::var("SCHEMA_GEN_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let seed: u64 = std::env::var("SCHEMA_GEN_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(tests::fuzz::fresh_seed);
    let max_cases: Option<usize> = std::env::var("SCHEMA_GEN_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok());
    let deadline = Instant::now() + Duration::from_secs(secs);
    let out_dir = tests::workspace_root()
        .join("tests")
        .join("oracle-regressions");
    let report = tests::fuzz::run(oracle, seed, deadline, max_cases, &out_dir);
    run.compared = report.cases;
    report!(
        "oracle random: seed={seed} budget={secs}s cases={} requests={}",
        report.cases,
        report.requests
    );
    run.failures = report.failures;
    run
}
