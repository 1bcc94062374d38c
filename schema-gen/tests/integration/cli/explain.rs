//! `schema-gen explain`: kubectl's layout, names, errors and the JSON
//! output.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{examples, run, text};

#[test]
fn explain_prints_kubectls_layout_with_marked_extra_lines() {
    let crd = examples().join("widget-crd.yaml");
    let out = run(&["explain", crd.to_str().unwrap(), "wdg.spec"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expected = "GROUP:      example.com
KIND:       Widget
VERSION:    v1

FIELD: spec <Object>


DESCRIPTION:
    <empty>
FIELDS:
  labels\t<map[string]string>
    <no description>

  port\t<Object>
    <no description>
    ~ type: int-or-string (an integer or a string)

  replicas\t<integer>
    <no description>
    ~ format: int32
    ~ default: 1
    ~ minimum: 1

  size\t<string> -required-
  enum: small, medium, large
    <no description>

  tags\t<[]string>
    <no description>
    ~ list type: set


";
    assert_eq!(text(&out.stdout), expected);
    // `-o kubectl`: the same without the marked lines.
    let kubectl = run(
        &[
            "explain",
            crd.to_str().unwrap(),
            "wdg.spec",
            "-o",
            "kubectl",
        ],
        None,
    );
    let without: String = expected
        .split_inclusive('\n')
        .filter(|l| !l.trim_start().starts_with("~ "))
        .collect();
    assert_eq!(text(&kubectl.stdout), without);
}

#[test]
fn explain_names_resources_as_kubectl_and_reads_stdin() {
    let crd = std::fs::read(examples().join("widget-crd.yaml")).unwrap();
    for name in [
        "widgets",
        "Widget",
        "WIDGET",
        "wdg",
        "widgets.example.com",
        "widget",
    ] {
        let request = format!("{name}.spec.size");
        let out = run(&["explain", "-", &request], Some(&crd));
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout)
                .contains("FIELD: size <string>\nENUM:\n    small\n    medium\n    large\n"),
            "{name}: {}",
            text(&out.stdout)
        );
    }
    // Without a resource: the input's only one, recursively.
    let out = run(
        &["explain", "-", "--recursive", "--max-depth", "1"],
        Some(&crd),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("FIELDS:\n  apiVersion\t<string>\n  kind\t<string>\n  metadata\t<ObjectMeta>\n  spec\t<Object>\n  status\t<Object>\n"));
}

#[test]
fn explain_errors_are_kubectls_with_a_suggestion() {
    let crd = examples().join("widget-crd.yaml");
    let crd = crd.to_str().unwrap();
    let out = run(&["explain", crd, "widgets.spec.sise"], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "GROUP:      example.com\nKIND:       Widget\nVERSION:    v1\n\n"
    );
    assert_eq!(
        text(&out.stderr),
        "error: field \"sise\" does not exist\n  widgets.spec has no field \"sise\"; did you mean \"widgets.spec.size\"?\n"
    );
    // kubectl names the last element; the hint names the missing one.
    let out = run(&["explain", crd, "widgets.spek.size"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with(
        "error: field \"size\" does not exist\n  widgets has no field \"spek\"; did you mean \"widgets.spec\"?"
    ));
    let out = run(&["explain", crd, "sprockets"], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: the server doesn't have a resource type \"sprockets\"\n"
    );
    let out = run(&["explain", crd, "widgts"], None);
    assert!(text(&out.stderr).contains("did you mean \"widgets\"?"));
    let out = run(
        &["explain", crd, "widgets", "--api-version", "example.com/v2"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: couldn't find resource for \"example.com/v2, Resource=widgets\"\n"
    );
    let broken = examples().join("broken-crd.yaml");
    let out = run(&["explain", broken.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).starts_with("warning: the API server rejects this CRD (3 errors;"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["explain", "missing.yaml", crd, "widgets"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("missing.yaml: no such file or directory"));
}

#[test]
fn explain_json_has_the_fields_and_their_facts() {
    let crd = examples().join("widget-crd.yaml");
    let out = run(
        &[
            "explain",
            crd.to_str().unwrap(),
            "widgets.spec",
            "-o",
            "json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kind"], "Widget");
    assert_eq!(v["field"]["path"], "spec");
    let replicas = v["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "replicas")
        .unwrap();
    assert_eq!(replicas["type"], "integer");
    assert!(
        replicas["facts"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"label": "default", "value": "1"}))
    );
    let size = v["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "size")
        .unwrap();
    assert_eq!(size["required"], true);
}
