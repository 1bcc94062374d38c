//! The `schema-gen` binary end to end: exit codes, output formats, and
//! hostile inputs that must end quickly with a clear message (never a
//! panic, a stack overflow or a hang).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::PathBuf;

use common::{examples, run, text, untimed};

mod diff;
mod docs;
mod explain;
mod hostile;
mod update;

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("schema-gen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write tmp");
    p
}

#[test]
fn check_accepts_the_example() {
    let f = examples().join("widget-crd.yaml");
    let out = run(&["check", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
}

#[test]
fn check_reports_structural_mistakes_with_lines() {
    let f = examples().join("broken-crd.yaml");
    let out = run(&["check", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("broken-crd.yaml:24:15: error: spec.validation.openAPIV3Schema.properties[spec].properties[color].type: Required value: must not be empty for specified object fields"),
        "{stdout}"
    );
    assert!(
        stdout.contains("spec.validation.openAPIV3Schema.properties[spec].properties[parts].items: Required value: must be specified"),
        "{stdout}"
    );
    assert!(
        stdout.contains("x-kubernetes-list-map-keys: Invalid value"),
        "{stdout}"
    );
}

#[test]
fn check_json_output() {
    let f = examples().join("broken-crd.yaml");
    let out = run(&["check", "--output", "json", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json output");
    let errors = v["files"][0]["errors"].as_array().expect("errors");
    let e = &errors[0];
    assert_eq!(e["type"], "FieldValueRequired");
    assert_eq!(
        e["field"],
        "spec.validation.openAPIV3Schema.properties[spec].properties[color].type"
    );
    assert_eq!(e["detail"], "must not be empty for specified object fields");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with(e["field"].as_str().unwrap())
    );
}

#[test]
fn check_bare_schema_from_stdin_has_root_relative_paths() {
    let out = run(
        &["check", "-"],
        Some(b"type: object\nproperties:\n  foo: {}\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains(
            "<stdin>:3:3: error: properties[foo].type: Required value: must not be empty for specified object fields"
        ),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn fmt_writes_json_and_lists() {
    let f = examples().join("widget-crd.yaml");
    let out = run(&["fmt", "--output", "json", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kind"], "CustomResourceDefinition");

    let two = b"type: object\n---\ntype: object\nproperties:\n  a: {type: string}\n";
    let out = run(&["fmt", "--output", "json", "-"], Some(two));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kind"], "List");
    assert_eq!(v["items"].as_array().unwrap().len(), 2);
}

#[test]
fn fmt_yaml_round_trips() {
    let f = examples().join("widget-crd.yaml");
    let out = run(&["fmt", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0));
    let again = run(&["fmt", "--output", "json", "-"], Some(&out.stdout));
    let direct = run(&["fmt", "--output", "json", f.to_str().unwrap()], None);
    assert_eq!(again.stdout, direct.stdout);
}

#[test]
fn fmt_keeps_unknown_fields_and_warns() {
    let out = run(
        &["fmt", "--output", "json", "-"],
        Some(b"type: object\nx-custom: 1\nproperties:\n  a: {type: string, bogus: true}\n"),
    );
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["x-custom"], 1);
    assert_eq!(v["properties"]["a"]["bogus"], true);
    let err = text(&out.stderr);
    assert!(err.contains("unknown field \"x-custom\""), "{err}");
    assert!(
        err.contains("unknown field \"properties[a].bogus\""),
        "{err}"
    );
}

#[test]
fn parse_errors_name_file_line_and_column() {
    let p = tmp("bad.yaml", b"type: object\nproperties:\n  a: [1, 2\n");
    let out = run(&["check", p.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("bad.yaml:"), "{err}");
    assert!(err.chars().filter(|c| *c == ':').count() >= 3, "{err}");
}

#[test]
fn wrong_field_types_are_reported_with_positions() {
    let out = run(
        &["check", "-"],
        Some(b"type: object\nproperties:\n  a:\n    type: 5\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("<stdin>:4:"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stderr).contains("properties[a].type: expected a string"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn missing_file_is_exit_2() {
    let out = run(&["check", "/nonexistent/crd.yaml"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/crd.yaml"));
}

#[test]
fn prune_removes_unknown_fields_and_reports_them() {
    let crd = examples().join("widget-crd.yaml");
    let obj = examples().join("widget.yaml");
    let out = run(
        &[
            "prune",
            "--crd",
            crd.to_str().unwrap(),
            "-o",
            "json",
            obj.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["objects"][0]["pruned"], serde_json::json!(["spec.color"]));
    assert!(v["objects"][0]["object"]["spec"].get("color").is_none());
    assert_eq!(v["objects"][0]["object"]["metadata"]["name"], "my-widget");
}

#[test]
fn default_fills_gaps_from_a_bare_schema() {
    let schema = b"type: object\nproperties:\n  replicas: {type: integer, default: 1}\n  name: {type: string}\n";
    let p = tmp("schema.yaml", schema);
    let out = run(
        &[
            "default",
            "--schema",
            p.to_str().unwrap(),
            "-o",
            "json",
            "-",
        ],
        Some(b"name: x\n---\nname: y\nreplicas: 3\n"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["objects"][0]["object"]["replicas"], 1);
    assert_eq!(v["objects"][1]["object"]["replicas"], 3);
}

#[test]
fn objects_of_an_unknown_kind_are_exit_2() {
    let crd = examples().join("widget-crd.yaml");
    let out = run(
        &["prune", "--crd", crd.to_str().unwrap(), "-"],
        Some(b"apiVersion: other.io/v1\nkind: Gizmo\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no CustomResourceDefinition for apiVersion \"other.io/v1\""),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn openapi_publishes_v2_and_v3() {
    let crd = examples().join("widget-crd.yaml");
    let out = run(&["openapi", "--v3", crd.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let widget = &v["components"]["schemas"]["com.example.v1.Widget"];
    assert_eq!(
        widget["x-kubernetes-group-version-kind"][0]["kind"],
        "Widget"
    );
    // int-or-string is unfolded.
    assert_eq!(
        widget["properties"]["spec"]["properties"]["port"]["anyOf"],
        serde_json::json!([{"type": "integer"}, {"type": "string"}])
    );
    let out = run(&["openapi", "--v2", crd.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["swagger"], "2.0");
    let spec = &v["definitions"]["com.example.v1.Widget"]["properties"]["spec"];
    // v2 drops junctors and defaults.
    assert!(spec["properties"]["port"].get("anyOf").is_none());
    assert!(spec["properties"]["replicas"].get("default").is_none());
}

#[test]
fn validate_accepts_prunes_and_defaults_a_valid_object() {
    let crd = examples().join("widget-crd.yaml");
    let obj = examples().join("widget.yaml");
    let args = [
        "validate",
        "--crd",
        crd.to_str().unwrap(),
        obj.to_str().unwrap(),
    ];
    let out = run(&args, None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    let err = text(&out.stderr);
    assert!(
        err.contains("widget.yaml:9:3: warning: unknown field \"spec.color\""),
        "{err}"
    );
    assert!(err.contains("Widget \"my-widget\": valid"), "{err}");

    let out = run(&[&args[..], &["-o", "json"]].concat(), None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let o = &v["objects"][0];
    assert_eq!(o["pruned"], serde_json::json!(["spec.color"]));
    assert_eq!(o["object"]["spec"]["replicas"], 1);
    assert_eq!(o["errors"], serde_json::json!([]));
}

#[test]
fn validate_reports_every_error_as_the_server_does() {
    let crd = examples().join("widget-crd.yaml");
    let obj = examples().join("widget-invalid.yaml");
    let out = run(
        &[
            "validate",
            "--crd",
            crd.to_str().unwrap(),
            obj.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| l.split_once(": error: ").unwrap().1.to_string())
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].starts_with(
        "metadata.name: Invalid value: \"Broken_Widget\": a lowercase RFC 1123 subdomain"
    ));
    assert_eq!(
        lines[1..],
        [
            // Properties in sorted order, as kube-openapi validates them.
            "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
            r#"spec.size: Unsupported value: "huge": supported values: "small", "medium", "large""#,
            r#"spec.tags[1]: Duplicate value: "a""#,
        ]
    );
    // Each error points at its line.
    assert!(text(&out.stdout).contains("widget-invalid.yaml:9:3: error: spec.replicas"));
}

#[test]
fn validate_with_a_bare_schema_and_stdin() {
    let schema = b"type: object\nrequired: [name]\nproperties:\n  name: {type: string, maxLength: 3}\n  n: {type: integer, default: 2}\n";
    let p = tmp("validate-schema.yaml", schema);
    let out = run(
        &[
            "validate",
            "--schema",
            p.to_str().unwrap(),
            "-o",
            "json",
            "-",
        ],
        Some(b"name: abcd\nextra: 1\n---\nname: ok\n"),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["objects"][0]["errors"][0]["message"],
        "name: Too long: may not be more than 3 bytes"
    );
    assert_eq!(v["objects"][0]["pruned"], serde_json::json!(["extra"]));
    assert_eq!(v["objects"][1]["errors"], serde_json::json!([]));
    assert_eq!(v["objects"][1]["object"]["n"], 2);
}

#[test]
fn validate_without_a_matching_crd_is_an_error() {
    let crd = examples().join("widget-crd.yaml");
    let out = run(
        &["validate", "--crd", crd.to_str().unwrap(), "-"],
        Some(b"apiVersion: other.io/v1\nkind: Gadget\nmetadata: {name: g}\n"),
    );
    // The object was read: a problem (1), not a failure to read (2).
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "<stdin>:1:1: error: no CustomResourceDefinition or built-in kind for apiVersion \"other.io/v1\", kind \"Gadget\"\n"
    );
}

const CRD_WITH_A_TYPO_IN_A_RULE: &[u8] = b"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
            x-kubernetes-validations:
            - rule: self.replics > 0
";

#[test]
fn validate_reports_a_rule_that_does_not_compile_as_crd_validation_does() {
    let crd = tmp("typo-crd.yaml", CRD_WITH_A_TYPO_IN_A_RULE);
    let out = run(
        &["validate", "--crd", crd.to_str().unwrap(), "-"],
        Some(
            b"apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {replicas: 1}\n",
        ),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let compile_error = "compilation failed: ERROR: <input>:1:5: undefined field 'replics'\n | self.replics > 0\n | ....^";
    assert!(
        text(&out.stdout).contains(&format!(
            "error: spec: Invalid value: \"object\": rule compile error: {compile_error}"
        )),
        "{}",
        text(&out.stdout)
    );
    // The message `check` gives for the CRD.
    let out = run(&["check", crd.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(compile_error),
        "{}",
        text(&out.stdout)
    );
}

const RULES_SCHEMA: &[u8] = b"type: object
properties:
  name:
    type: string
    x-kubernetes-validations:
    - rule: self == oldSelf
      message: name is immutable
  size:
    type: integer
    x-kubernetes-validations:
    - rule: self >= oldSelf
      messageExpression: \"'size may not shrink from ' + string(oldSelf)\"
x-kubernetes-validations:
- rule: self.size <= 10
  message: size must be at most 10
";

#[test]
fn validate_evaluates_rules_on_create() {
    let p = tmp("rules-create.yaml", RULES_SCHEMA);
    let out = run(
        &["validate", "--schema", p.to_str().unwrap(), "-"],
        Some(b"name: a\nsize: 11\n"),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("error: <nil>: Invalid value: size must be at most 10"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn rust_generates_formatted_types_for_the_example() {
    let f = examples().join("widget-crd.yaml");
    let out = run(&["rust", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let src = text(&out.stdout);
    assert!(
        src.starts_with("// @generated by schema-gen from widget-crd."),
        "{src}"
    );
    assert!(src.contains("pub mod v1 {"), "{src}");
    assert!(src.contains("object_root"), "{src}");
    assert!(src.contains("pub fn crds()"), "{src}");
    // Valid Rust.
    syn::parse_file(&src).unwrap();
    // The same from stdin, into a file.
    let dest = tmp("widget.rs", b"");
    let bytes = std::fs::read(&f).unwrap();
    let out = run(
        &["rust", "-", "--out", dest.to_str().unwrap()],
        Some(&bytes),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&dest).unwrap();
    assert!(written.contains("pub mod v1 {"));
}

#[test]
fn rust_rejects_bad_input_and_bad_derives() {
    let out = run(&["rust", "-"], Some(b"kind: [unclosed"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: "),
        "{}",
        text(&out.stderr)
    );
    let f = examples().join("widget-crd.yaml");
    let out = run(
        &["rust", f.to_str().unwrap(), "--derive", "Not A Path"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("\"Not A Path\" is not a Rust path"),
        "{}",
        text(&out.stderr)
    );
}

/// Two CRDs of one group: `Widget` (v1) and `Gadget` (v1 and v2, each
/// with a defaulted field).
const TWO_CRDS: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string, maxLength: 5}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Cluster
  versions:
  - name: v1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              count: {type: integer, default: 3}
  - name: v2
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              total: {type: integer, default: 4}
";

/// Objects of [`TWO_CRDS`]: an invalid Widget, a Gadget of each version,
/// and a Gadget of a version the CRD does not have.
const TWO_KINDS: &str = "\
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {size: enormous, x: 1}
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: g}
spec: {}
---
apiVersion: example.com/v2
kind: Gadget
metadata: {name: g2}
spec: {}
---
apiVersion: example.com/v3
kind: Gadget
metadata: {name: g3}
";

fn keys(v: &serde_json::Value) -> Vec<&str> {
    v.as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn check_json_reports_decode_errors_and_documents_of_multi_document_files() {
    let input =
        b"- 1\n---\ntype: object\nproperties:\n  foo: {}\n  bar: {type: string, format: x-nope}\n";
    let out = run(&["check", "-o", "json", "-"], Some(input));
    assert_eq!(out.status.code(), Some(2));
    let want = r#"{
  "files": [
    {
      "file": "<stdin>",
      "errors": [
        {
          "document": 0,
          "field": "",
          "type": "DecodeError",
          "detail": "expected a CustomResourceDefinition or a schema object, found array",
          "message": "expected a CustomResourceDefinition or a schema object, found array"
        },
        {
          "field": "properties[foo].type",
          "type": "FieldValueRequired",
          "detail": "must not be empty for specified object fields",
          "message": "properties[foo].type: Required value: must not be empty for specified object fields",
          "line": 5,
          "column": 3,
          "document": 1
        }
      ],
      "warnings": [
        {
          "field": "properties[bar].format",
          "message": "properties[bar].format: unrecognized format \"x-nope\" for type \"string\": the API server does not validate it",
          "line": 6,
          "column": 23,
          "document": 1
        }
      ]
    }
  ]
}
"#;
    assert_eq!(text(&out.stdout), want);
    assert_eq!(
        text(&out.stderr),
        "<stdin>:1:1: error: expected a CustomResourceDefinition or a schema object, found array\n"
    );
    let missing = run(&["check", "-o", "json", "/nonexistent/crd.yaml"], None);
    assert_eq!(missing.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&missing.stdout).unwrap();
    assert_eq!(
        keys(&v["files"][0]),
        ["file", "error", "errors", "warnings"]
    );
}

#[test]
fn openapi_merges_the_documents_of_several_crds() {
    let crds = tmp("two-crds.yaml", TWO_CRDS.as_bytes());
    let crds = crds.to_str().unwrap();
    let out = run(&["openapi", "--v2", crds], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let models = keys(&v["definitions"]);
    for model in [
        "com.example.v1.Widget",
        "com.example.v1.Gadget",
        "com.example.v2.Gadget",
    ] {
        assert!(models.contains(&model), "{models:?}");
    }
    let meta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    assert_eq!(models.iter().filter(|m| **m == meta).count(), 1);

    let out = run(&["openapi", "--v3", crds], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(keys(&v), ["apis/example.com/v1", "apis/example.com/v2"]);
    let v1 = keys(&v["apis/example.com/v1"]["components"]["schemas"]);
    assert!(v1.contains(&"com.example.v1.Widget") && v1.contains(&"com.example.v1.Gadget"));

    // One group-version left: its document itself.
    let out = run(&["openapi", "--v3", "--version", "v2", crds], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(keys(&v), ["openapi", "info", "paths", "components"]);
    assert_eq!(
        keys(&v["components"]["schemas"])[..2],
        ["com.example.v2.Gadget", "com.example.v2.GadgetList"]
    );
}

#[test]
fn validate_admits_each_object_as_the_crd_version_it_belongs_to() {
    let crds = tmp("two-crds-validate.yaml", TWO_CRDS.as_bytes());
    let out = run(
        &["validate", "--crd", crds.to_str().unwrap(), "-"],
        Some(TWO_KINDS.as_bytes()),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "<stdin>:4:8: error: spec.size: Too long: may not be more than 5 bytes\n\
         <stdin>:15:1: error: the CustomResourceDefinition \"gadgets.example.com\" has no version \"v3\"\n"
    );
    assert_eq!(
        untimed(&out.stderr),
        "<stdin>:4:24: warning: unknown field \"spec.x\"\n\
         <stdin>:1:1: Widget \"w\": invalid (1 error)\n\
         <stdin>:5:1: Gadget \"g\": valid\n\
         <stdin>:10:1: Gadget \"g2\": valid\n\
         4 objects: 2 valid, 1 invalid, 0 skipped, 1 error (T s)\n"
    );

    let out = run(
        &[
            "validate",
            "-o",
            "json",
            "--crd",
            crds.to_str().unwrap(),
            "-",
        ],
        Some(TWO_KINDS.as_bytes()),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let objects = v["objects"].as_array().unwrap();
    assert_eq!(objects.len(), 3);
    assert_eq!(
        keys(&objects[0]),
        ["file", "line", "object", "pruned", "errors", "warnings"]
    );
    assert_eq!(
        keys(&objects[0]["errors"][0]),
        ["field", "type", "detail", "message", "line", "column"]
    );
    assert_eq!(objects[0]["pruned"], serde_json::json!(["spec.x"]));
    assert_eq!(
        objects[1]["object"]["spec"],
        serde_json::json!({"count": 3})
    );
    assert_eq!(
        objects[2]["object"]["spec"],
        serde_json::json!({"total": 4})
    );
}

#[test]
fn prune_and_default_json_list_each_object() {
    let crds = tmp("two-crds-objects.yaml", TWO_CRDS.as_bytes());
    let crds = crds.to_str().unwrap();
    let gadgets = TWO_KINDS.split("---\n").skip(1).take(2).collect::<Vec<_>>();
    let input = gadgets.join("---\n");
    let out = run(
        &["prune", "-o", "json", "--crd", crds, "-"],
        Some(input.as_bytes()),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(keys(&v["objects"][0]), ["object", "pruned"]);
    let out = run(
        &["default", "-o", "json", "--crd", crds, "-"],
        Some(input.as_bytes()),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(keys(&v["objects"][0]), ["object"]);
    assert_eq!(v["objects"][0]["object"]["spec"]["count"], 3);
    assert_eq!(v["objects"][1]["object"]["spec"]["total"], 4);
}

#[test]
fn lint_json_reports_a_schema_it_cannot_read() {
    let out = run(
        &["lint", "-o", "json", "/nonexistent/values.schema.json"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(keys(&v), ["file", "rule_set", "error"]);
    assert_eq!(v["rule_set"], "cluster-app");
}

#[test]
fn kube_version_selects_the_release_that_judges() {
    let crd = tmp(
        "kube-version-crd.yaml",
        br#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: endpoints.example.com
spec:
  group: example.com
  names: {kind: Endpoint, plural: endpoints}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          address:
            type: string
            maxLength: 64
            x-kubernetes-validations:
            - rule: isIP(self)
"#,
    );
    let f = crd.to_str().unwrap();
    let out = run(&["check", f], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let out = run(&["check", "--kube-version", "1.31", f], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    // 1.30 compiles new rules as 1.29 did, without the ip library.
    let out = run(&["check", "--kube-version", "1.30", f], None);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(":21:15: error: spec.validation.openAPIV3Schema.properties[address].x-kubernetes-validations[0].rule: Invalid value: {\"rule\":\"isIP(self)\"}: compilation failed: ERROR: <input>:1:5: undeclared reference to 'isIP' (in container '')"),
        "{stdout}"
    );
    let out = run(&["check", "--kube-version", "1.29", f], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(
            "unsupported Kubernetes version \"1.29\": expected one of 1.30..1.37 (e.g. \"1.37\")"
        ),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn floats_are_read_and_written_exactly_in_every_command() {
    let (wide, tricky) = ("3.4028234663852886e+38", "0.30000000000000004");
    let crd = tmp(
        "floats-crd.yaml",
        format!(
            r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gauges.example.com
spec:
  group: example.com
  names: {{kind: Gauge, plural: gauges}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              max: {{type: number, maximum: {wide}, default: {tricky}}}
              value:
                type: number
                x-kubernetes-validations:
                - rule: self == {wide}
"#
        )
        .as_bytes(),
    );
    let object = tmp(
        "floats.yaml",
        format!("apiVersion: example.com/v1\nkind: Gauge\nmetadata: {{name: g}}\nspec: {{value: {wide}}}\n")
            .as_bytes(),
    );
    let (c, o) = (crd.to_str().unwrap(), object.to_str().unwrap());
    for args in [
        vec!["fmt", c],
        vec!["fmt", "-o", "json", c],
        vec!["openapi", "--v3", c],
    ] {
        let out = run(&args, None);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let stdout = text(&out.stdout);
        assert!(stdout.contains(wide), "{args:?}: {stdout}");
    }
    let out = run(&["validate", "-o", "json", "--crd", c, o], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!("\"max\": {tricky}"))
            && stdout.contains(&format!("\"value\": {wide}")),
        "{stdout}"
    );
    let ytt = tmp(
        "floats-ytt.yml",
        format!("#@data/values-schema\n---\nratio: {wide}\nsmall: {tricky}\n").as_bytes(),
    );
    let out = run(
        &["convert", "ytt", ytt.to_str().unwrap(), "--to", "defaults"],
        None,
    );
    assert_eq!(
        text(&out.stdout),
        format!("ratio: {wide}\nsmall: {tricky}\n")
    );
}

/// A fresh directory below the temporary folder.
fn tmp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("schema-gen-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp dir");
    dir
}

#[test]
fn validate_takes_crds_and_objects_from_several_files_and_directories() {
    let (widget_crd, gadget_crd) = TWO_CRDS.split_once("---\n").unwrap();
    // CRDs: one named file, one directory holding a CRD and a manifest that
    // is not one (reported, and passed over).
    let crds = tmp_dir("crd-dir");
    std::fs::create_dir_all(crds.join("nested")).unwrap();
    std::fs::write(crds.join("nested/gadget.yaml"), gadget_crd).unwrap();
    std::fs::write(crds.join("kustomization.yaml"), "kind: Kustomization\n").unwrap();
    std::fs::write(crds.join("notes.txt"), "not read").unwrap();
    let widget = tmp("widget-only-crd.yaml", widget_crd.as_bytes());
    // Objects: a directory with a List and a stray empty document.
    let objects = tmp_dir("object-dir");
    std::fs::write(
        objects.join("list.yaml"),
        "apiVersion: v1\nkind: List\nitems:\n\
         - apiVersion: example.com/v1\n  kind: Widget\n  metadata: {name: w}\n  spec: {size: enormous}\n\
         - apiVersion: example.com/v2\n  kind: Gadget\n  metadata: {name: g}\n\
         - apiVersion: apps/v1beta1\n  kind: Deployment\n  metadata: {name: d}\n---\n",
    )
    .unwrap();
    std::fs::write(objects.join("loose.json"), r#"{"metadata": {"name": "x"}}"#).unwrap();
    let out = run(
        &[
            "validate",
            "--crd",
            widget.to_str().unwrap(),
            "--crd",
            crds.to_str().unwrap(),
            objects.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let list = objects.join("list.yaml").display().to_string();
    let loose = objects.join("loose.json").display().to_string();
    assert_eq!(
        text(&out.stdout),
        format!(
            "{list}:7:10: error: spec.size: Too long: may not be more than 5 bytes\n\
             {list}:11:3: error: no CustomResourceDefinition or built-in kind for apiVersion \"apps/v1beta1\", kind \"Deployment\"\n\
             {loose}:1:1: error: not a Kubernetes object: it has no apiVersion and no kind\n"
        )
    );
    assert_eq!(
        untimed(&out.stderr),
        format!(
            "{}:1:1: warning: not a CustomResourceDefinition: skipped\n\
             {list}:4:3: Widget \"w\": invalid (1 error)\n\
             {list}:8:3: Gadget \"g\": valid\n\
             4 objects: 1 valid, 1 invalid, 0 skipped, 2 errors (T s)\n",
            crds.join("kustomization.yaml").display()
        )
    );

    // --skip and --ignore-missing count objects as skipped, and JSON
    // output lists every object that was not validated.
    let out = run(
        &[
            "validate",
            "--crd",
            widget.to_str().unwrap(),
            "--crd",
            crds.to_str().unwrap(),
            "--skip",
            "Widget",
            "--ignore-missing",
            "-o",
            "json",
            list.as_str(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["objects"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["unprocessed"],
        serde_json::json!([
            {"file": list, "line": 4, "column": 3, "message": "Widget \"w\": skipped (--skip)", "skipped": true},
            {"file": list, "line": 11, "column": 3, "message": "no CustomResourceDefinition or built-in kind for apiVersion \"apps/v1beta1\", kind \"Deployment\"", "skipped": true},
        ])
    );
    let summary = &v["summary"];
    assert_eq!(
        [
            &summary["objects"],
            &summary["valid"],
            &summary["invalid"],
            &summary["skipped"],
            &summary["errors"]
        ],
        [3, 1, 0, 2, 0]
    );
}

#[test]
fn a_crd_defined_twice_is_an_error() {
    let a = tmp("twice-a.yaml", TWO_CRDS.as_bytes());
    let b = tmp("twice-b.yaml", TWO_CRDS.as_bytes());
    let out = run(
        &[
            "validate",
            "--crd",
            a.to_str().unwrap(),
            "--crd",
            b.to_str().unwrap(),
            "-",
        ],
        Some(b"{}"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {}:1:1: the CustomResourceDefinition \"widgets.example.com\" is also defined at {}:1:1\n",
            b.display(),
            a.display()
        )
    );
}

#[test]
fn strict_makes_unknown_fields_errors() {
    let ex = examples();
    let crd = ex.join("widget-crd.yaml");
    let widget = ex.join("widget.yaml");
    let args = |strict: bool, json: bool| {
        let mut a = vec!["validate", "--crd", crd.to_str().unwrap()];
        if strict {
            a.push("--strict");
        }
        if json {
            a.extend(["-o", "json"]);
        }
        a.push(widget.to_str().unwrap());
        a.into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    let run_with = |a: Vec<String>| run(&a.iter().map(String::as_str).collect::<Vec<_>>(), None);
    // The server's default: a warning, and the field pruned.
    let out = run_with(args(false, false));
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains(":9:3: warning: unknown field \"spec.color\""));
    // Strict: an error at the field.
    let out = run_with(args(true, false));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!(
            "{}:9:3: error: unknown field \"spec.color\"\n",
            widget.display()
        )
    );
    assert!(
        untimed(&out.stderr).ends_with("1 object: 0 valid, 1 invalid, 0 skipped, 0 errors (T s)\n"),
        "{}",
        text(&out.stderr)
    );
    let out = run_with(args(true, true));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["objects"][0]["errors"],
        serde_json::json!([{
            "field": "spec.color",
            "type": "UnknownField",
            "detail": "",
            "message": "unknown field \"spec.color\"",
            "line": 9,
            "column": 3,
        }])
    );
}

#[test]
fn exclude_leaves_files_of_object_directories_out() {
    let ex = examples();
    let crd = ex.join("widget-crd.yaml");
    let dir = tmp_dir("exclude");
    std::fs::create_dir_all(dir.join("charts/sub")).unwrap();
    std::fs::copy(
        ex.join("widget-invalid.yaml"),
        dir.join("charts/sub/bad.yaml"),
    )
    .unwrap();
    std::fs::copy(ex.join("widget-invalid.yaml"), dir.join("bad.json")).unwrap();
    std::fs::copy(ex.join("widget.yaml"), dir.join("good.yaml")).unwrap();
    let out = run(
        &[
            "validate",
            "--crd",
            crd.to_str().unwrap(),
            "--exclude",
            "charts/**",
            "--exclude",
            "*.json",
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        untimed(&out.stderr).ends_with("1 object: 1 valid, 0 invalid, 0 skipped, 0 errors (T s)\n"),
        "{}",
        text(&out.stderr)
    );
    let out = run(
        &[
            "validate",
            "--crd",
            crd.to_str().unwrap(),
            "--exclude",
            "a[",
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: --exclude \"a[\": "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn completions_complete_subcommands_in_bash() {
    let out = run(&["completions", "bash"], None);
    assert_eq!(out.status.code(), Some(0));
    let script = tmp("completions.bash", &out.stdout);
    // Bash reads the script, registers it for `schema-gen` and completes
    // `schema-gen val` to `validate`.
    let probe = format!(
        "source {}; f=$(complete -p schema-gen | sed -E 's/.*-F ([^ ]+).*/\\1/'); \
         COMP_WORDS=(schema-gen val); COMP_CWORD=1; $f schema-gen val schema-gen; \
         echo \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let Ok(bash) = std::process::Command::new("bash")
        .args(["-c", &probe])
        .output()
    else {
        eprintln!("notice: no bash here; completion script not exercised");
        return;
    };
    assert!(bash.status.success(), "{}", text(&bash.stderr));
    assert_eq!(text(&bash.stdout), "validate\n");
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let out = run(&["completions", shell], None);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        assert!(text(&out.stdout).contains("schema-gen"), "{shell}");
    }
}

/// Objects of the kinds the API server serves itself need no CRD: they
/// are admitted against the kind's schema, with its list semantics.
#[test]
fn validate_admits_built_in_kinds() {
    let manifests = b"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - {name: web, image: nginx, bogus: 1}\n\
---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: empty}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {}\n\
---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {mode: fast}\n\
---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports:\n  - {port: 80, protocol: TCP}\n  - {port: 80, protocol: TCP}\n\
---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: typo}\nspec:\n  replicas: three\n  selector: {matchLabels: {app: web}}\n  template:\n    spec:\n      containers:\n      - {name: web, image: nginx, bogus: 1}\n";
    let out = run(&["validate", "--strict", "-"], Some(manifests));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // A value of the wrong type keeps a built-in object from decoding into
    // its Go type: the server rejects the request with the decoder's
    // message and checks nothing else.
    assert_eq!(
        text(&out.stdout),
        "<stdin>:11:35: error: unknown field \"spec.template.spec.containers[0].bogus\"\n\
         <stdin>:20:5: error: spec.template.spec.containers: Required value\n\
         <stdin>:33:5: error: spec.ports[1]: Duplicate value: {\"port\":80,\"protocol\":\"TCP\"}\n\
         <stdin>:39:3: error: Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32\n"
    );
    assert_eq!(
        untimed(&out.stderr),
        "<stdin>:1:1: Deployment \"web\": invalid (1 error)\n\
         <stdin>:12:1: Deployment \"empty\": invalid (1 error)\n\
         <stdin>:21:1: ConfigMap \"settings\": valid\n\
         <stdin>:26:1: Service \"web\": invalid (1 error)\n\
         <stdin>:34:1: Deployment \"typo\": rejected\n\
         5 objects: 1 valid, 4 invalid, 0 skipped, 0 errors (T s)\n"
    );
}

/// Files validated on several threads print in the order given: the same
/// output as one thread.
#[test]
fn validate_output_keeps_the_order_of_the_files_on_any_number_of_threads() {
    let dir = tmp_dir("ordered");
    for i in 0..40 {
        let replicas = if i % 3 == 0 { "many" } else { "2" };
        std::fs::write(
            dir.join(format!("m{i:02}.yaml")),
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{i}}}\ndata: {{k: v}}\n---\n\
                 apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: s{i}}}\nspec:\n  replicas: {replicas}\n  selector: {{}}\n  template: {{}}\n"
            ),
        )
        .unwrap();
    }
    let one = run(&["validate", "-j", "1", dir.to_str().unwrap()], None);
    let two = run(&["validate", "-j", "2", dir.to_str().unwrap()], None);
    let eight = run(&["validate", "--jobs", "8", dir.to_str().unwrap()], None);
    assert_eq!(one.status.code(), Some(1), "{}", text(&one.stderr));
    assert_eq!(text(&one.stdout).lines().count(), 14);
    assert!(
        untimed(&one.stderr)
            .ends_with("80 objects: 66 valid, 14 invalid, 0 skipped, 0 errors (T s)\n")
    );
    for other in [&two, &eight] {
        assert_eq!(other.status.code(), one.status.code());
        assert_eq!(text(&other.stdout), text(&one.stdout));
        assert_eq!(untimed(&other.stderr), untimed(&one.stderr));
    }
    let zero = run(&["validate", "-j", "0", dir.to_str().unwrap()], None);
    assert_eq!(zero.status.code(), Some(2));
}

/// `--color always` styles the words that carry verdicts; `never` (and a
/// pipe, with `auto`) leaves plain text.
#[test]
fn validate_colors_on_request_only() {
    let doc = b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: 1}\n";
    let always = run(&["validate", "--color", "always", "-"], Some(doc));
    assert_eq!(
        text(&always.stdout),
        "<stdin>:4:8: \u{1b}[1;31merror\u{1b}[0m: ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string\n"
    );
    assert!(text(&always.stderr).contains("ConfigMap \"c\": \u{1b}[31mrejected\u{1b}[0m"));
    for plain in [
        run(&["validate", "--color", "never", "-"], Some(doc)),
        run(&["validate", "-"], Some(doc)),
    ] {
        assert!(!text(&plain.stdout).contains('\u{1b}'));
        assert!(!text(&plain.stderr).contains('\u{1b}'));
    }
}

/// `--version` names the Kubernetes releases reproduced; usage lines name
/// the real alternatives.
#[test]
fn version_and_usage_lines() {
    let out = run(&["--version"], None);
    let oldest = schema_core::KubeVersion::OLDEST.minor();
    let newest = schema_core::KubeVersion::NEWEST.minor();
    assert_eq!(
        text(&out.stdout),
        format!(
            "schema-gen {} (Kubernetes 1.{oldest} to 1.{newest}; built-in kinds: Kubernetes 1.35)\n",
            env!("CARGO_PKG_VERSION")
        )
    );
    let crd = examples().join("widget-crd.yaml");
    let out = run(&["openapi", crd.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Usage: schema-gen openapi <--v2|--v3> <FILE>"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["prune", "-"], Some(b"{}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Usage: schema-gen prune <--schema <SCHEMA>|--crd <FILE|DIR>>"),
        "{}",
        text(&out.stderr)
    );
}

/// `check` takes directories, as `validate` does.
#[test]
fn check_takes_directories() {
    let dir = tmp_dir("check-dir");
    std::fs::create_dir_all(dir.join("nested")).unwrap();
    std::fs::copy(
        examples().join("widget-crd.yaml"),
        dir.join("nested/widget.yaml"),
    )
    .unwrap();
    let out = run(&["check", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        format!(
            "{}: ok (1 document)\n",
            dir.join("nested/widget.yaml").display()
        )
    );
}

/// A directory's hidden entries (`.github`, `.git`) are not read: they
/// hold workflow files and the like, not manifests.
#[test]
fn validate_passes_over_hidden_entries_of_directories() {
    let dir = tmp_dir("hidden");
    std::fs::create_dir_all(dir.join(".github/workflows")).unwrap();
    std::fs::write(dir.join(".github/workflows/ci.yml"), "on: push\njobs: {}\n").unwrap();
    std::fs::write(dir.join(".hidden.yaml"), "on: push\n").unwrap();
    std::fs::write(
        dir.join("cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
    )
    .unwrap();
    let out = run(&["validate", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        untimed(&out.stderr).ends_with("1 object: 1 valid, 0 invalid, 0 skipped, 0 errors (T s)\n")
    );
}

/// A field `ObjectMeta` has no place for is an unknown field too, for a
/// built-in kind and a custom resource alike: a warning, an error under
/// `--strict`.
#[test]
fn validate_reports_unknown_metadata_fields() {
    let crd = examples().join("widget-crd.yaml");
    let doc = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  label: {a: b}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  ownerReferences:\n  - {apiVersion: v1, kind: ConfigMap, name: c, uid: u, ctrl: true}\nspec: {size: small}\n";
    let out = run(
        &["validate", "--crd", crd.to_str().unwrap(), "-"],
        Some(doc),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        untimed(&out.stderr).starts_with(
            "<stdin>:5:3: warning: unknown field \"metadata.label\"\n<stdin>:1:1: ConfigMap \"c\": valid\n"
        ),
        "{}",
        text(&out.stderr)
    );
    let out = run(
        &["validate", "--strict", "--crd", crd.to_str().unwrap(), "-"],
        Some(doc),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "<stdin>:5:3: error: unknown field \"metadata.label\"\n\
         <stdin>:12:56: error: unknown field \"metadata.ownerReferences[0].ctrl\"\n"
    );
}
