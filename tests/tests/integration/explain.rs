//! `explain` against kubectl's own explain code.
//!
//! 1. Every field path of every served version of every CRD (the corpus
//!    when present, and the bundled examples) resolves: `explain` prints
//!    its `FIELD:` line. The paths come from the CRD's schema as written
//!    (properties, through items and additional properties), not from the
//!    published document `explain` reads.
//! 2. With Go, the same questions go to kubectl's explain
//!    (`k8s.io/kubectl/pkg/explain/v2`, through the oracle) and the output
//!    is compared byte for byte:
//!    - the resource-level cases of kubectl's own tests of the plaintext
//!      template (`pkg/explain/v2/templates/plaintext_test.go`,
//!      `TestPlaintext`, kubectl v0.37.0), over the two OpenAPI documents
//!      those tests read, taken from the kubectl module Go downloaded for
//!      the oracle;
//!    - every corpus CRD version: the resource, recursively, to depth 2,
//!      missing fields, and a sample of field paths, from the document
//!      the API server's own builder publishes (paths included);
//!    - a document built here to reach every branch of the template's
//!      type names, enums, external docs and wrapping.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;
use tests::report;

use serde_json::{Value, json};

use schema_core::docs::explain::{self, Gvk, Options};
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::{CustomResourceDefinition, JsonSchemaProps, SchemaOrArray};
use schema_core::{Input, check, publish_v3, read_input};
use tests::oracle::{Oracle, oracle_versions};

/// Every CRD the API server accepts of the corpus (when present) and of
/// the examples, with the file it came from.
fn crds() -> Vec<(String, CustomResourceDefinition, Value)> {
    let mut dirs = vec![tests::examples_dir()];
    match tests::corpus_dir() {
        Some(d) => dirs.push(d),
        None => report!("notice: no corpus (SCHEMA_GEN_CORPUS_DIR): the examples only"),
    }
    let mut out = Vec::new();
    for dir in dirs {
        for file in tests::files_below(&dir, &["yaml", "yml", "json"]) {
            if file.file_name().is_some_and(|n| n == "index.json") {
                continue;
            }
            let bytes = std::fs::read(&file).expect("read file");
            let name = file
                .strip_prefix(&dir)
                .unwrap_or(&file)
                .display()
                .to_string();
            let Ok(docs) = parse_documents(&name, &bytes, &Limits::default()) else {
                continue;
            };
            for (i, d) in docs.into_iter().enumerate() {
                if d.value["kind"] != "CustomResourceDefinition" {
                    continue;
                }
                let Ok((input, _)) = read_input(&d.value) else {
                    continue;
                };
                // A CRD the API server rejects publishes no fields.
                if !check(&input, &schema_core::Options::default())
                    .errors
                    .is_empty()
                {
                    continue;
                }
                let crd = match input {
                    Input::CrdV1(c) => *c,
                    Input::CrdV1Beta1 { v1, .. } => *v1,
                    _ => continue,
                };
                out.push((format!("{name}#{i}"), crd, d.value));
            }
        }
    }
    out
}

/// The served versions of a CRD with their schemas.
fn served(crd: &CustomResourceDefinition) -> Vec<(String, Option<JsonSchemaProps>)> {
    let spec = crd.spec.as_ref().expect("a CRD has a spec");
    spec.versions
        .iter()
        .flatten()
        .filter(|v| v.served == Some(true))
        .map(|v| {
            (
                v.name.clone().unwrap_or_default(),
                v.schema.as_ref().and_then(|s| s.open_api_v3_schema.clone()),
            )
        })
        .collect()
}

fn gvk_of(crd: &CustomResourceDefinition, version: &str) -> Gvk {
    let spec = crd.spec.as_ref().expect("a CRD has a spec");
    Gvk {
        group: spec.group.clone().unwrap_or_default(),
        version: version.to_string(),
        kind: spec
            .names
            .as_ref()
            .and_then(|n| n.kind.clone())
            .unwrap_or_default(),
    }
}

/// The field paths of a schema as written: each property, below through
/// items and additional properties; the root's `metadata` is the API
/// server's `ObjectMeta`, so only `metadata` itself.
fn field_paths(s: &JsonSchemaProps, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if prefix.len() > 40 {
        return;
    }
    if let Some(props) = &s.properties {
        for (name, p) in props {
            prefix.push(name.clone());
            out.push(prefix.clone());
            if !(prefix.len() == 1 && name == "metadata") {
                field_paths(p, prefix, out);
            }
            prefix.pop();
        }
    }
    if let Some(SchemaOrArray::Schema(items)) = &s.items {
        field_paths(items, prefix, out);
    }
    if let Some(add) = s.additional_properties.as_ref().and_then(|a| a.schema()) {
        field_paths(add, prefix, out);
    }
}

/// Part 1: every field path resolves.
fn every_field_path_resolves(crds: &[(String, CustomResourceDefinition, Value)]) -> Vec<String> {
    let mut failures = Vec::new();
    let (mut versions, mut paths, mut extra_lines) = (0, 0, 0);
    for (id, crd, _) in crds {
        let Ok(docs) = publish_v3(crd, &schema_core::Options::default()) else {
            failures.push(format!("{id}: does not publish"));
            continue;
        };
        for (version, schema) in served(crd) {
            let gvk = gvk_of(crd, &version);
            let Some(doc) = docs.get(&format!("apis/{}/{version}", gvk.group)) else {
                failures.push(format!("{id} {version}: no document"));
                continue;
            };
            versions += 1;
            if let Err(e) = explain::explain(doc, &gvk, &[], Options::default()) {
                failures.push(format!("{id} {version}: the resource: {}", e.error));
            }
            let mut all = vec![
                vec!["apiVersion".to_string()],
                vec!["kind".to_string()],
                vec!["metadata".to_string()],
                vec!["metadata".to_string(), "name".to_string()],
            ];
            if let Some(s) = &schema {
                field_paths(s, &mut Vec::new(), &mut all);
            }
            for fields in all {
                paths += 1;
                match explain::explain(doc, &gvk, &fields, Options::default()) {
                    Ok(out) => {
                        let line = format!("FIELD: {} <", fields.last().unwrap());
                        if !out.contains(&line) {
                            failures
                                .push(format!("{id} {version} {}: no {line:?}", fields.join(".")));
                        }
                        // The extra lines only add to kubectl's.
                        let extras = Options {
                            extras: true,
                            ..Options::default()
                        };
                        let with = explain::explain(doc, &gvk, &fields, extras).unwrap();
                        if without_extras(&with) != out {
                            failures.push(format!(
                                "{id} {version} {}: the extra lines change kubectl's",
                                fields.join(".")
                            ));
                        }
                        extra_lines += with.lines().count() - out.lines().count();
                        if explain::explain_json(doc, &gvk, &fields, extras).is_err() {
                            failures.push(format!("{id} {version} {}: no JSON", fields.join(".")));
                        }
                    }
                    Err(e) => {
                        failures.push(format!("{id} {version} {}: {}", fields.join("."), e.error))
                    }
                }
            }
        }
    }
    report!("explain: {paths} field paths of {versions} CRD versions, {extra_lines} extra lines");
    failures
}

/// Text without the lines `explain` adds to kubectl's.
fn without_extras(text: &str) -> String {
    text.split_inclusive('\n')
        .filter(|l| !l.trim_start().starts_with(explain::EXTRA_MARK))
        .collect()
}

/// The directory of the kubectl module the oracle links.
fn kubectl_module_dir() -> Option<PathBuf> {
    let go = tests::go::go_command("explain against kubectl")?;
    let out = Command::new(go)
        .args(["list", "-m", "-f", "{{.Dir}}", "k8s.io/kubectl"])
        .current_dir(tests::go::oracle_dir())
        .output()
        .expect("run go list");
    assert!(
        out.status.success(),
        "go list: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    Some(dir.join("pkg/explain/v2/templates"))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .expect("JSON")
}

/// Compares one request's answers; a difference is a failure line.
fn compare(
    oracle: &mut Oracle,
    id: &str,
    req: &Value,
    failures: &mut Vec<String>,
    compared: &mut usize,
) {
    *compared += 1;
    let theirs = oracle.ask(req);
    let ours = tests::ours::answer(req);
    if theirs != ours {
        failures.push(format!("DIFF {id}\n{}", describe(&theirs, &ours)));
    }
}

/// The first differing line of two answers, with context.
fn describe(theirs: &Value, ours: &Value) -> String {
    let t = theirs["output"].as_str().unwrap_or_default();
    let o = ours["output"].as_str().unwrap_or_default();
    let mut s = String::new();
    if theirs["error"] != ours["error"] || theirs.get("buildError") != ours.get("buildError") {
        s.push_str(&format!(
            "  error: kubectl {} / ours {}\n",
            theirs
                .get("error")
                .or(theirs.get("buildError"))
                .unwrap_or(&Value::Null),
            ours.get("error")
                .or(ours.get("buildError"))
                .unwrap_or(&Value::Null)
        ));
    }
    let (tl, ol): (Vec<&str>, Vec<&str>) = (t.split('\n').collect(), o.split('\n').collect());
    if let Some(i) = (0..tl.len().max(ol.len())).find(|&i| tl.get(i) != ol.get(i)) {
        let from = i.saturating_sub(3);
        s.push_str(&format!("  output differs at line {}:\n", i + 1));
        for j in from..(i + 3) {
            s.push_str(&format!(
                "    kubectl {:?}\n    ours    {:?}\n",
                tl.get(j).copied().unwrap_or("<end>"),
                ol.get(j).copied().unwrap_or("<end>")
            ));
        }
    }
    s
}

/// A kubectl case: name, document, group, version, resource, field path,
/// recursive.
type KubectlCase = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    bool,
);

/// The resource-level cases of kubectl's `TestPlaintext` (v0.37.0).
const KUBECTL_CASES: &[KubectlCase] = &[
    ("ResourceNotFound", "apiextensions", "", "", "", &[], false),
    (
        "SchemaFound",
        "apiextensions",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &[],
        false,
    ),
    (
        "SchemaFoundNamespaced",
        "batch",
        "batch",
        "v1",
        "jobs",
        &[],
        false,
    ),
    (
        "SchemaFoundWithoutListVerb",
        "apiextensions-without-list",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &[],
        false,
    ),
    (
        "SchemaFoundNamespacedWithoutListVerb",
        "batch-without-list",
        "batch",
        "v1",
        "jobs",
        &[],
        false,
    ),
    (
        "SchemaFoundNamespacedWithoutTopLevelListVerb",
        "batch-without-list",
        "batch",
        "v1",
        "cronjobs",
        &[],
        false,
    ),
    (
        "SchemaFieldPathNotFound",
        "apiextensions",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &["does", "not", "exist"],
        false,
    ),
    (
        "SchemaFieldPathShallow",
        "apiextensions",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &["kind"],
        false,
    ),
    (
        "SchemaFieldPathDeep",
        "apiextensions",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &["spec", "names", "singular"],
        false,
    ),
    (
        "SchemaFieldPathViaList",
        "apiextensions",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &["spec", "versions", "name"],
        false,
    ),
    (
        "SchemaFieldPathViaMap",
        "apiextensions",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &[
            "spec",
            "versions",
            "schema",
            "openAPIV3Schema",
            "properties",
            "default",
        ],
        false,
    ),
    (
        "SchemaFieldPathRecursive",
        "apiextensions",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &[
            "spec",
            "versions",
            "schema",
            "openAPIV3Schema",
            "properties",
            "properties",
            "properties",
            "properties",
            "properties",
            "default",
        ],
        false,
    ),
    (
        "SchemaAllFields",
        "apiextensions",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &["spec", "versions", "schema"],
        false,
    ),
    (
        "SchemaAllFieldsRecursive",
        "apiextensions",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &["spec", "versions", "schema"],
        true,
    ),
    // Beyond the test's own selections, over the same documents.
    ("JobRecursive", "batch", "batch", "v1", "jobs", &[], true),
    (
        "CronJobTemplate",
        "batch",
        "batch",
        "v1",
        "cronjobs",
        &["spec", "jobTemplate", "spec", "template", "spec"],
        false,
    ),
    (
        "ContainerPorts",
        "batch",
        "batch",
        "v1",
        "jobs",
        &[
            "spec",
            "template",
            "spec",
            "containers",
            "ports",
            "protocol",
        ],
        false,
    ),
    (
        "CRDRecursive",
        "apiextensions",
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        &[],
        true,
    ),
];

fn kubectl_documents(dir: &Path) -> Vec<(&'static str, Value)> {
    let apiext = read_json(&dir.join("apiextensions.k8s.io_v1.json"));
    let batch = read_json(&dir.join("batch.k8s.io_v1.json"));
    // The test's variants: the same documents without some list paths.
    let without = |doc: &Value, paths: &[&str]| {
        let mut d = doc.clone();
        for p in paths {
            d["paths"].as_object_mut().unwrap().shift_remove(*p);
        }
        d
    };
    vec![
        (
            "apiextensions-without-list",
            without(
                &apiext,
                &["/apis/apiextensions.k8s.io/v1/customresourcedefinitions"],
            ),
        ),
        (
            "batch-without-list",
            without(
                &batch,
                &[
                    "/apis/batch/v1/jobs",
                    "/apis/batch/v1/namespaces/{namespace}/jobs",
                    "/apis/batch/v1/cronjobs",
                    "/apis/batch/v1/namespaces/{namespace}/cronjobs/{name}",
                ],
            ),
        ),
        ("apiextensions", apiext),
        ("batch", batch),
    ]
}

/// A document of one kind whose fields reach every branch of the
/// template: referenced primitives and objects, arrays and maps of them,
/// `allOf` wrappers, boolean additional properties, enums short and long,
/// external docs, empty descriptions, long words and deep nesting.
fn synthetic_document() -> Value {
    let mut deep = json!({"type": "string", "description": "the bottom of a deep tree, described at some length so that the width left for it runs out"});
    for i in 0..45 {
        deep = json!({"type": "object", "description": format!("level {i} of a deep tree"), "properties": {format!("l{i}"): deep}});
    }
    json!({
        "openapi": "3.0.0",
        "paths": {
            "/apis/example.com/v1/namespaces/{namespace}/gadgets/{name}": {
                "put": {"x-kubernetes-group-version-kind": {"group": "example.com", "version": "v1", "kind": "Gadget"}},
                "get": {"x-kubernetes-group-version-kind": {"group": "example.com", "version": "v1", "kind": "Gadget"}}
            }
        },
        "components": {"schemas": {
            "com.example.v1.Gadget": {
                "type": "object",
                "description": "A Gadget exercises every corner of kubectl's type names.\n\nIt has a second paragraph, and a word far longer than any line: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.",
                "externalDocs": {"description": "More about gadgets.", "url": "https://example.com/gadgets"},
                "required": ["primitiveRef", "mode"],
                "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Gadget"}],
                "properties": {
                    "primitiveRef": {"$ref": "#/components/schemas/com.example.v1.Quantity"},
                    "objectRef": {"allOf": [{"$ref": "#/components/schemas/com.example.v1.Part"}], "description": "wrapped"},
                    "arrayOfRef": {"type": "array", "items": {"$ref": "#/components/schemas/com.example.v1.Part"}},
                    "arrayOfAllOfRef": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/com.example.v1.Part"}]}},
                    "arrayOfScalar": {"type": "array", "items": {"type": "integer", "format": "int32"}},
                    "arrayUnknown": {"type": "array", "items": {"x-kubernetes-preserve-unknown-fields": true}},
                    "arrayOfMap": {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "string"}}},
                    "mapOfArrayOfScalar": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "number"}}},
                    "mapOfRef": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/com.example.v1.Part"}},
                    "trueAdditional": {"type": "object", "additionalProperties": true},
                    "missingRef": {"$ref": "#/components/schemas/com.example.v1.Nowhere"},
                    "cycle": {"$ref": "#/components/schemas/com.example.v1.Cycle"},
                    "untyped": {"description": ""},
                    "intOrString": {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true},
                    "mode": {"type": "string", "enum": ["", "Fast", "Slow", "Medium", "Off", "On"], "description": "how it runs"},
                    "level": {"type": "number", "enum": [1, 2.5, 1000000, 0.000001]},
                    "documented": {"type": "string", "externalDocs": {"description": "The field's own docs, which are long enough to wrap across more than one line of output.", "url": "https://example.com/field"}},
                    "deep": deep
                }
            },
            "com.example.v1.Quantity": {"type": "string", "description": "a quantity"},
            "com.example.v1.Part": {"type": "object", "description": "A part.", "properties": {"name": {"type": "string", "description": "its name"}, "size": {"type": "integer"}}},
            "com.example.v1.Cycle": {"type": "object", "description": "A cycle.", "properties": {"next": {"$ref": "#/components/schemas/com.example.v1.Cycle"}, "value": {"type": "string"}}}
        }}
    })
}

/// Every path through a published schema as the template follows it,
/// up to `depth` elements (cycles end at the depth).
fn document_paths(
    doc: &Value,
    s: &Value,
    prefix: &mut Vec<String>,
    depth: usize,
    out: &mut Vec<Vec<String>>,
) {
    if prefix.len() >= depth {
        return;
    }
    let s = match s
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
    {
        Some(p) => doc.pointer(p).unwrap_or(s),
        None => s,
    };
    if let Some(Value::Object(props)) = s.get("properties") {
        for (name, p) in props {
            prefix.push(name.clone());
            out.push(prefix.clone());
            document_paths(doc, p, prefix, depth, out);
            prefix.pop();
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub) = s.get(key).filter(|v| v.is_object()) {
            document_paths(doc, sub, prefix, depth, out);
        }
    }
    for sub in s
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        document_paths(doc, sub, prefix, depth, out);
    }
}

/// Part 2: the oracle's answers against ours.
fn against_kubectl(crds: &[(String, CustomResourceDefinition, Value)]) -> Vec<String> {
    let mut failures = Vec::new();
    for version in &oracle_versions() {
        let Some(mut oracle) = Oracle::start(version) else {
            return failures;
        };
        let mut compared = 0;
        // kubectl's own test documents.
        let dir = kubectl_module_dir().expect("Go is here: the oracle started");
        let docs = kubectl_documents(&dir);
        for (name, doc, group, ver, resource, fields, recursive) in KUBECTL_CASES {
            let document = &docs.iter().find(|(n, _)| n == doc).expect("a document").1;
            let req = json!({"op": "explain_document", "document": document, "group": group, "version": ver,
                "resource": resource, "fields": fields, "recursive": recursive});
            compare(
                &mut oracle,
                &format!("kubectl {name}"),
                &req,
                &mut failures,
                &mut compared,
            );
        }
        // The synthetic document: the resource, recursively, every path.
        let doc = synthetic_document();
        let root = doc
            .pointer("/components/schemas/com.example.v1.Gadget")
            .unwrap()
            .clone();
        let mut paths = vec![
            vec![],
            vec!["nothing".to_string()],
            vec!["deep".into(), "l44".into(), "none".into()],
        ];
        document_paths(&doc, &root, &mut Vec::new(), 50, &mut paths);
        let mut req = json!({"op": "explain_document", "document": doc, "group": "example.com", "version": "v1",
            "resource": "gadgets"});
        for fields in &paths {
            for (recursive, max_depth) in [(false, 0), (true, 0), (true, 2)] {
                req["fields"] = json!(fields);
                req["recursive"] = json!(recursive);
                req["maxDepth"] = json!(max_depth);
                compare(
                    &mut oracle,
                    &format!("synthetic {} r={recursive} d={max_depth}", fields.join(".")),
                    &req,
                    &mut failures,
                    &mut compared,
                );
            }
        }
        // The corpus.
        for (id, crd, raw) in crds {
            let Ok(published) = publish_v3(crd, &schema_core::Options::default()) else {
                continue;
            };
            let plural = crd
                .spec
                .as_ref()
                .and_then(|s| s.names.as_ref())
                .and_then(|n| n.plural.clone())
                .unwrap_or_default();
            for (ver, _) in served(crd) {
                let group = gvk_of(crd, &ver).group;
                let Some(doc) = published.get(&format!("apis/{group}/{ver}")) else {
                    continue;
                };
                let model = explain_model(doc);
                let mut paths = Vec::new();
                document_paths(doc, &model, &mut Vec::new(), 12, &mut paths);
                let sampled: Vec<Vec<String>> = paths
                    .iter()
                    .enumerate()
                    .filter(|(i, p)| p.len() <= 1 || i % 97 == 0)
                    .map(|(_, p)| p.clone())
                    .take(24)
                    .collect();
                let mut asks: Vec<(Vec<String>, bool, u64)> =
                    vec![(vec![], false, 0), (vec![], true, 0), (vec![], true, 2)];
                asks.push((vec!["spec".into(), "doesNotExist".into()], false, 0));
                asks.push((vec!["does".into(), "not".into(), "exist".into()], false, 0));
                asks.extend(sampled.into_iter().map(|p| (p, false, 0)));
                // One request, its CRD copied once, asked with each question.
                let mut req =
                    json!({"op": "explain", "crd": raw, "version": ver, "resource": plural});
                for (fields, recursive, max_depth) in asks {
                    req["fields"] = json!(fields);
                    req["recursive"] = json!(recursive);
                    req["maxDepth"] = json!(max_depth);
                    compare(
                        &mut oracle,
                        &format!(
                            "{id} {ver} {} r={recursive} d={max_depth}",
                            fields.join(".")
                        ),
                        &req,
                        &mut failures,
                        &mut compared,
                    );
                }
            }
        }
        report!(
            "explain against kubectl ({}): compared={compared} differences={}",
            version.kube,
            failures.len()
        );
    }
    failures
}

/// The kind's model in a CRD version's document: the definition with a
/// group-version-kind that is not a list.
fn explain_model(doc: &Value) -> Value {
    doc.pointer("/components/schemas")
        .and_then(Value::as_object)
        .and_then(|s| {
            s.values().find(|m| {
                m.get("x-kubernetes-group-version-kind").is_some()
                    && m.pointer("/properties/items").is_none()
            })
        })
        .cloned()
        .unwrap_or(Value::Null)
}

#[test]
fn explain() {
    let started = std::time::Instant::now();
    let crds = crds();
    let mut failures = every_field_path_resolves(&crds);
    report!("explain: every field path in {:.1?}", started.elapsed());
    let started = std::time::Instant::now();
    failures.extend(against_kubectl(&crds));
    report!("explain: against kubectl in {:.1?}", started.elapsed());
    for f in &failures {
        report!("{f}");
    }
    if !failures.is_empty() {
        report!("{} failures", failures.len());
        panic!("{} explain failures", failures.len());
    }
}
