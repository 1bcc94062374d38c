//! `schema-gen validate --old`: updates, transition rules and ratcheting.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{examples, run, text};

use super::{RULES_SCHEMA, tmp};

#[test]
fn validate_old_runs_transition_rules_paired_by_position() {
    let p = tmp("rules-update.yaml", RULES_SCHEMA);
    let old = tmp(
        "rules-old.yaml",
        b"name: a\nsize: 3\n---\nname: b\nsize: 1\n",
    );
    let out = run(
        &[
            "validate",
            "--schema",
            p.to_str().unwrap(),
            "--old",
            old.to_str().unwrap(),
            "-o",
            "json",
            "-",
        ],
        Some(b"name: changed\nsize: 2\n---\nname: b\nsize: 5\n"),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let messages = |i: usize| -> Vec<String> {
        v["objects"][i]["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["message"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        messages(0),
        [
            "name: Invalid value: \"changed\": name is immutable",
            "size: Invalid value: 2: size may not shrink from 3",
        ]
    );
    assert_eq!(messages(1), [] as [&str; 0]);
}

#[test]
fn validate_old_must_pair_every_object() {
    let p = tmp("rules-pair.yaml", RULES_SCHEMA);
    let old = tmp("rules-pair-old.yaml", b"name: a\nsize: 3\n");
    let out = run(
        &[
            "validate",
            "--schema",
            p.to_str().unwrap(),
            "--old",
            old.to_str().unwrap(),
            "-",
        ],
        Some(b"name: a\nsize: 3\n---\nname: b\nsize: 1\n"),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("has 1 object but the objects have 2"),
        "{}",
        text(&out.stderr)
    );
    let help = run(&["validate", "--help"], None);
    assert!(
        text(&help.stdout).contains("--old <FILE>"),
        "{}",
        text(&help.stdout)
    );
}

#[test]
fn validate_old_rejects_an_update_into_another_namespace() {
    let crd = examples().join("widget-crd.yaml");
    let widget = |ns: &str| {
        format!(
            "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: {ns}\nspec:\n  size: small\n"
        )
    };
    let old = tmp("namespace-old.yaml", widget("team-a").as_bytes());
    let args = |output: &'static str| {
        vec![
            "validate".to_string(),
            "--crd".to_string(),
            crd.to_str().unwrap().to_string(),
            "--old".to_string(),
            old.to_str().unwrap().to_string(),
            "-o".to_string(),
            output.to_string(),
            "-".to_string(),
        ]
    };
    let text_args = args("text");
    let out = run(
        &text_args.iter().map(String::as_str).collect::<Vec<_>>(),
        Some(widget("team-b").as_bytes()),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(
            "<stdin>:1:1: error: the namespace of the provided object does not match the namespace sent on the request"
        ),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("Widget \"w\": rejected"),
        "{}",
        text(&out.stderr)
    );
    let json_args = args("json");
    let out = run(
        &json_args.iter().map(String::as_str).collect::<Vec<_>>(),
        Some(widget("team-b").as_bytes()),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["objects"][0]["rejected"],
        "the namespace of the provided object does not match the namespace sent on the request"
    );
    // The same namespace is an ordinary update.
    let out = run(
        &text_args.iter().map(String::as_str).collect::<Vec<_>>(),
        Some(widget("team-a").as_bytes()),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn update_ratchets_unchanged_values_as_the_readme_shows() {
    let ex = examples();
    let (crd, stored, update) = (
        ex.join("widget-crd.yaml"),
        ex.join("widget-stored.yaml"),
        ex.join("widget-update.yaml"),
    );
    let out = run(
        &[
            "validate",
            "--crd",
            crd.to_str().unwrap(),
            "--old",
            stored.to_str().unwrap(),
            update.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let prefix = format!("{}/", ex.to_str().unwrap());
    let strip = |s: String| s.replace(&prefix, "examples/");
    let (stdout, stderr) = (strip(text(&out.stdout)), strip(text(&out.stderr)));
    let warning = "examples/widget-update.yaml:11:3: warning: spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1 (unchanged by the update: ratcheted)";
    let error = "examples/widget-update.yaml:10:3: error: spec.size: Unsupported value: \"huge\": supported values: \"small\", \"medium\", \"large\"";
    assert_eq!(stdout.trim_end(), error, "{stdout}");
    assert!(stderr.starts_with(warning), "{stderr}");
    let readme = std::fs::read_to_string(ex.join("../README.md")).unwrap();
    assert!(
        readme.contains(&format!("{warning}\n{error}\n")),
        "the README's example is out of date"
    );
}
