//! `schema-gen lint` end to end: output formats, exit codes, `$ref`s to
//! sibling files, and inputs that cannot be linted (exit 2 with a message
//! naming the file and the position or JSON path, never a panic).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{examples, run, text};

fn example() -> PathBuf {
    examples().join("values.schema.json")
}

/// A fresh directory for one test's files.
fn dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("schema-gen-lint-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).expect("tmp dir");
    d
}

fn write(dir: &Path, name: &str, content: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, content).expect("write tmp");
    p
}

fn lint(file: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["lint", "--rule-set", "cluster-app", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args, None)
}

#[test]
fn the_example_has_recommendations_only() {
    let out = lint(&example(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "DescriptionExists recommendation /properties/metadata/properties/organization Property should have a description\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.lines().all(|l| l.contains(" recommendation ")),
        "{stdout}"
    );
    assert!(
        text(&out.stderr)
            .ends_with("values.schema.json: 0 errors, 6 recommendations (rule set cluster-app)\n"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn json_output() {
    let out = lint(&example(), &["--output", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["rule_set"], "cluster-app");
    assert_eq!(v["errors"], 0);
    assert_eq!(v["recommendations"], 6);
    let first = &v["findings"][0];
    assert_eq!(first["rule"], "DescriptionExists");
    assert_eq!(first["severity"], "recommendation");
    assert_eq!(
        first["location"],
        "/properties/metadata/properties/organization"
    );
    assert_eq!(first["message"], "Property should have a description");
}

#[test]
fn errors_exit_1() {
    let d = dir("errors");
    let f = write(
        &d,
        "values.schema.json",
        r#"{"type": "object", "properties": {"age": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}"#,
    );
    let out = lint(&f, &[]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("MustUseCorrectDialect error \"\" Schema does not specify a draft/dialect, but must use 'https://json-schema.org/draft/2020-12/schema'.\n"),
        "{stdout}"
    );
    // Multi-line messages stay on one line.
    assert!(
        stdout.contains("AvoidXOf error /properties/age Schema must only use anyOf for one of the following purposes: 1. Validation constraints:"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().count(), stdout.matches('\n').count());
}

#[test]
fn the_strict_rule_set_adds_three_rules() {
    let d = dir("strict");
    let schema = r#"{
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": false,
        "required": ["metadata"],
        "properties": {
            "metadata": {"type": "object", "title": "Metadata", "properties": {
                "name": {"type": "string", "title": "Name", "maxLength": 10, "default": ""}
            }},
            "connectivity": {"type": "object", "title": "Connectivity", "properties": {
                "mode": {"type": "string", "title": "Mode", "pattern": "^(public|private)$"}
            }},
            "controlPlane": {"type": "object", "title": "Control plane", "properties": {
                "replicas": {"type": "integer", "title": "Replicas", "minimum": 1}
            }},
            "nodePools": {"type": "array", "title": "Node pools", "items": {"type": "string", "maxLength": 10}}
        }
    }"#;
    let f = write(&d, "values.schema.json", schema);
    let app = lint(&f, &[]);
    assert_eq!(app.status.code(), Some(0), "{}", text(&app.stdout));
    let strict = run(
        &[
            "lint",
            "--rule-set",
            "cluster-app-strict",
            f.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(strict.status.code(), Some(1), "{}", text(&strict.stdout));
    let stdout = text(&strict.stdout);
    assert!(
        stdout.contains("DefaultsMustNotBeEmpty error /properties/metadata/properties/name "),
        "{stdout}"
    );
    assert!(
        stdout.contains("StringValuesShouldBeEnumerated recommendation /properties/connectivity/properties/mode "),
        "{stdout}"
    );
    assert!(
        !stdout.contains("RequiredPropertiesMustBeDefined"),
        "{stdout}"
    );
}

#[test]
fn refs_to_sibling_files_and_yaml() {
    let d = dir("siblings");
    write(
        &d,
        "defs.yaml",
        "$defs:\n  size:\n    type: integer\n    title: Size\n",
    );
    let f = write(
        &d,
        "values.schema.yaml",
        "type: object\nproperties:\n  size:\n    $ref: defs.yaml#/$defs/size\n",
    );
    let out = lint(&f, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("NumbersShouldBeConstrained recommendation /properties/size "),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn stdin() {
    let out = run(
        &["lint", "--rule-set", "cluster-app", "-"],
        Some(br#"{"type": "object", "properties": {"a": {"type": "string", "title": "A"}}}"#),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("<stdin>: 7 errors, 5 recommendations"),
        "{}",
        text(&out.stderr)
    );
}

/// Lints a file that cannot be linted; returns stderr.
fn unprocessable(test: &str, name: &str, content: &str) -> String {
    let d = dir(test);
    let f = write(&d, name, content);
    let out = lint(&f, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn malformed_yaml() {
    let e = unprocessable(
        "yaml",
        "values.schema.yaml",
        "type: object\nproperties:\n  a: [1\n",
    );
    assert!(
        e.starts_with("error: ") && e.contains("values.schema.yaml:4:1: "),
        "{e}"
    );
}

#[test]
fn unresolvable_ref() {
    let e = unprocessable(
        "ref",
        "values.schema.json",
        "{\n  \"type\": \"object\",\n  \"properties\": {\"a\": {\"$ref\": \"#/$defs/nope\"}}\n}\n",
    );
    assert!(
        e.contains("values.schema.json:3:24: cannot resolve $ref \"#/$defs/nope\": ")
            && e.contains("(in the schema at /properties/a)"),
        "{e}"
    );
    let e = unprocessable(
        "ref-file",
        "values.schema.json",
        r#"{"properties": {"a": {"$ref": "missing.json"}}}"#,
    );
    assert!(
        e.contains("cannot read the referenced file ") && e.contains("missing.json"),
        "{e}"
    );
}

#[test]
fn ref_cycles() {
    let e = unprocessable(
        "cycle",
        "values.schema.json",
        r##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "properties": {"x": {"$ref": "#/$defs/a"}}}"##,
    );
    assert!(e.contains("$ref cycle at /$defs/a: "), "{e}");
    assert!(e.contains("values.schema.json#/$defs/a -> "), "{e}");
}

#[test]
fn non_object_schemas() {
    let e = unprocessable(
        "nonobject",
        "values.schema.yaml",
        "type: object\nproperties:\n  a: 5\n",
    );
    assert!(
        e.contains("values.schema.yaml:3:") && e.contains("invalid schema at /properties/a: a schema must be an object or a boolean, found a number"),
        "{e}"
    );
    let e = unprocessable("array", "values.schema.json", "[]");
    assert!(e.contains("invalid schema at /: "), "{e}");
}

#[test]
fn missing_file_and_bad_rule_set() {
    let out = run(
        &[
            "lint",
            "--rule-set",
            "cluster-app",
            "/nonexistent/values.schema.json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/values.schema.json: cannot read: "));
    let out = run(&["lint", "--rule-set", "nope", "x.json"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cluster-app-strict"));
}

#[test]
fn deep_recursion_and_ref_fan_out_end_quickly() {
    // Each definition references the next one twice: 2^40 paths if the
    // walk expanded them all; the limit ends it with a message.
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        defs.insert(
            format!("d{i}"),
            serde_json::json!({"type": "object", "properties": {
                "a": {"$ref": format!("#/$defs/d{}", i + 1)},
                "b": {"$ref": format!("#/$defs/d{}", i + 1)}
            }}),
        );
    }
    defs.insert("d40".into(), serde_json::json!({"type": "string"}));
    let schema = serde_json::json!({"$ref": "#/$defs/d0", "$defs": defs});
    let d = dir("fanout");
    let f = write(&d, "values.schema.json", &schema.to_string());
    let started = std::time::Instant::now();
    let out = lint(&f, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("subschemas through $ref"),
        "{}",
        text(&out.stderr)
    );
    assert!(started.elapsed().as_secs() < 60);
}
