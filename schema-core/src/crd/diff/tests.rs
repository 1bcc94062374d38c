//! One fixture per rule, in a module per subject (each test is named after
//! its rule id; a test checks that every rule has one), then ordering,
//! paths, rendering and stored objects here, and hostile inputs.

use serde_json::{Value, json};

use super::rules::{self, Rule};
use super::{DiffOptions, DiffReport, Finding, Severity, diff};
use crate::crd::fixtures::decode;
use crate::model::wire::{CustomResourceDefinition, JsonSchemaProps};

use Severity::{Error, Info, Warning};

mod crds_and_versions;
mod defaults_lists_subresources;
mod fields;
mod hostile;
mod value_validations;

/// A v1 CRD `widgets.example.com` with one version `v1`, whose `spec`
/// property has the schema `spec`.
fn base_with_spec(spec: Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {
                "plural": "widgets", "singular": "widget", "kind": "Widget",
                "listKind": "WidgetList", "shortNames": ["wd"], "categories": ["all"]
            },
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {"spec": spec}
                }}
            }]
        }
    })
}

fn base() -> Value {
    base_with_spec(json!({"type": "object", "properties": {"size": {"type": "integer"}}}))
}

/// `base()` changed by `f`.
fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut v = base();
    f(&mut v);
    v
}

fn run_with(old: &[Value], new: &[Value], options: &DiffOptions) -> DiffReport {
    let old: Vec<CustomResourceDefinition> = old.iter().map(decode).collect();
    let new: Vec<CustomResourceDefinition> = new.iter().map(decode).collect();
    diff(&old, &new, options)
}

fn run(old: &Value, new: &Value) -> DiffReport {
    run_with(
        std::slice::from_ref(old),
        std::slice::from_ref(new),
        &DiffOptions::default(),
    )
}

/// The one finding of `rule` in `report`, which must hold findings of
/// `rule` and of `also` only.
fn only<'r>(report: &'r DiffReport, rule: &Rule, also: &[&Rule]) -> &'r Finding {
    let mut want: Vec<&str> = std::iter::once(rule.id)
        .chain(also.iter().map(|r| r.id))
        .collect();
    want.sort_unstable();
    let mut got: Vec<&str> = report.findings.iter().map(|f| f.rule).collect();
    got.sort_unstable();
    assert_eq!(got, want, "{report:#?}");
    let mut of_rule = report.findings.iter().filter(|f| f.rule == rule.id);
    let f = of_rule.next().expect("a finding");
    assert!(of_rule.next().is_none(), "one finding of {}", rule.id);
    f
}

/// Asserts the finding's rule, severity, version, paths and ratcheting.
#[allow(clippy::too_many_arguments)]
fn check(
    old: Value,
    new: Value,
    rule: &Rule,
    severity: Severity,
    version: Option<&str>,
    old_path: Option<&str>,
    new_path: Option<&str>,
    ratcheted: bool,
) -> Finding {
    let report = run(&old, &new);
    let f = only(&report, rule, &[]).clone();
    assert_eq!(f.rule, rule.id);
    assert_eq!(f.severity, severity, "{f}");
    assert_eq!(f.crd, "widgets.example.com");
    assert_eq!(f.version.as_deref(), version, "{f}");
    assert_eq!(f.old_path.as_deref(), old_path, "{f}");
    assert_eq!(f.new_path.as_deref(), new_path, "{f}");
    assert_eq!(f.ratcheted, ratcheted, "{f}");
    assert_eq!(
        f.message.contains("ratcheted"),
        ratcheted,
        "the message says whether it is ratcheted: {f}"
    );
    assert!(!f.to_string().contains('\n'), "one line: {f}");
    // Comparing the other way round never panics either.
    let _ = run(&new, &old);
    f
}

/// A change of the `spec` schema: one finding at `path` on both sides.
fn field_case(
    old_spec: Value,
    new_spec: Value,
    rule: &Rule,
    severity: Severity,
    path: &str,
    ratcheted: bool,
) -> Finding {
    check(
        base_with_spec(old_spec),
        base_with_spec(new_spec),
        rule,
        severity,
        Some("v1"),
        Some(path),
        Some(path),
        ratcheted,
    )
}

/// A change of the property `spec.f`'s schema.
fn prop_case(old: Value, new: Value, rule: &Rule, severity: Severity, ratcheted: bool) -> Finding {
    field_case(
        json!({"type": "object", "properties": {"f": old}}),
        json!({"type": "object", "properties": {"f": new}}),
        rule,
        severity,
        "spec.f",
        ratcheted,
    )
}

/// A CRD-level change: no version, no path.
fn crd_case(new: Value, rule: &Rule, severity: Severity) -> Finding {
    check(base(), new, rule, severity, None, None, None, false)
}

/// A version-level change: a version, no path.
fn version_case(old: Value, new: Value, rule: &Rule, severity: Severity, version: &str) -> Finding {
    check(old, new, rule, severity, Some(version), None, None, false)
}

fn versions(v: Value) -> Value {
    with(|c| c["spec"]["versions"] = v)
}

fn version(name: &str, served: bool, storage: bool) -> Value {
    json!({
        "name": name, "served": served, "storage": storage,
        "schema": {"openAPIV3Schema": {"type": "object"}}
    })
}

fn list(extra: Value) -> Value {
    let mut v = json!({"type": "array", "items": {"type": "string"}});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

fn obj(extra: Value) -> Value {
    let mut v = json!({"type": "object", "additionalProperties": {"type": "string"}});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

// ----- every rule has a fixture -----

#[test]
fn every_rule_has_a_fixture() {
    let source = [
        include_str!("tests.rs"),
        include_str!("tests/crds_and_versions.rs"),
        include_str!("tests/fields.rs"),
        include_str!("tests/value_validations.rs"),
        include_str!("tests/defaults_lists_subresources.rs"),
        include_str!("tests/hostile.rs"),
    ]
    .concat();
    let mut missing = Vec::new();
    for r in rules::ALL {
        let name = format!("fn {}()", r.id.replace('-', "_"));
        if !source.contains(&name) {
            missing.push(r.id);
        }
    }
    assert!(missing.is_empty(), "rules without a fixture: {missing:?}");
}

#[test]
fn rule_ids_are_unique_kebab_case() {
    let mut seen = std::collections::HashSet::new();
    for r in rules::ALL {
        assert!(seen.insert(r.id), "duplicate {}", r.id);
        assert!(
            !r.id.is_empty()
                && r.id.split('-').all(|w| {
                    !w.is_empty()
                        && w.bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                }),
            "{}",
            r.id
        );
        assert_eq!(rules::by_id(r.id), Some(r));
        assert!(!r.summary.is_empty());
    }
    assert_eq!(rules::by_id("no-such-rule"), None);
}

// ----- Report, order, paths, rendering -----

#[test]
fn identical_crds_give_no_findings() {
    let report = run(&base(), &base());
    assert!(report.is_empty());
    assert_eq!(report.max_severity(), None);
    assert!(!report.has_errors());
}

#[test]
fn counts_and_max_severity() {
    // A removed field (error), an added one (info), a lowered maximum
    // (warning).
    let old = base_with_spec(json!({"type": "object", "properties": {
        "a": {"type": "string"}, "n": {"type": "integer", "maximum": 9}
    }}));
    let new = base_with_spec(json!({"type": "object", "properties": {
        "b": {"type": "string"}, "n": {"type": "integer", "maximum": 5}
    }}));
    let report = run(&old, &new);
    assert_eq!(
        (report.errors(), report.warnings(), report.infos()),
        (1, 1, 1),
        "{report:#?}"
    );
    assert_eq!(report.max_severity(), Some(Error));
    assert!(report.has_errors());
}

#[test]
fn findings_are_sorted_and_independent_of_input_order() {
    let a = base();
    let mut b = base();
    b["metadata"]["name"] = json!("apples.example.com");
    let mut b2 = b.clone();
    b2["spec"]["scope"] = json!("Cluster");
    let a2 = base_with_spec(json!({"type": "object", "properties": {
        "z": {"type": "string"}, "m": {"type": "string"}
    }}));
    let one = run_with(
        &[a.clone(), b.clone()],
        &[a2.clone(), b2.clone()],
        &DiffOptions::default(),
    );
    let two = run_with(&[b, a], &[b2, a2], &DiffOptions::default());
    assert_eq!(one, two);
    let names: Vec<(&str, Option<&str>, Option<&str>, &str)> = one
        .findings
        .iter()
        .map(|f| {
            (
                f.crd.as_str(),
                f.version.as_deref(),
                f.old_path.as_deref().or(f.new_path.as_deref()),
                f.rule,
            )
        })
        .collect();
    assert_eq!(
        names,
        vec![
            ("apples.example.com", None, None, "scope-changed"),
            (
                "widgets.example.com",
                Some("v1"),
                Some("spec.m"),
                "field-added"
            ),
            (
                "widgets.example.com",
                Some("v1"),
                Some("spec.size"),
                "field-removed"
            ),
            (
                "widgets.example.com",
                Some("v1"),
                Some("spec.z"),
                "field-added"
            ),
        ]
    );
}

#[test]
fn path_syntax() {
    let old = base_with_spec(json!({"type": "object", "properties": {
        "containers": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "string"}
        }}},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "a.b": {"type": "object", "properties": {"\"q\"\n": {"type": "string"}}}
    }}));
    let new = base_with_spec(json!({"type": "object", "properties": {
        "containers": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "integer"}
        }}},
        "labels": {"type": "object", "additionalProperties": {"type": "integer"}},
        "a.b": {"type": "object", "properties": {"\"q\"\n": {"type": "integer"}}}
    }}));
    let report = run(&old, &new);
    let paths: Vec<&str> = report
        .findings
        .iter()
        .filter_map(|f| f.old_path.as_deref())
        .collect();
    assert_eq!(
        paths,
        vec![
            "spec.containers[*].name",
            "spec.labels{*}",
            r#"spec["a.b"]["\"q\"\n"]"#,
        ]
    );
    // The root.
    let old = with(|c| {
        c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["x-kubernetes-validations"] =
            json!([{"rule": "true"}])
    });
    let report = run(&old, &base());
    assert_eq!(report.findings[0].old_path.as_deref(), Some("."));
}

#[test]
fn display_is_one_line() {
    let report = run(&base(), &base_with_spec(json!({"type": "object"})));
    let line = report.findings[0].to_string();
    assert!(
        line.starts_with(
            "error[field-removed] widgets.example.com/v1 spec.size: the field leaves the schema"
        ),
        "{line}"
    );
    let mut f = report.findings[0].clone();
    f.crd = "a\nb".into();
    f.new_path = Some("spec.other".into());
    let line = f.to_string();
    assert!(!line.contains('\n'), "{line}");
    assert!(
        line.contains("a\\nb/v1 spec.size -> spec.other: "),
        "{line}"
    );
}

#[test]
fn crd_without_spec_or_versions_never_panics() {
    let bare = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                      "metadata": {"name": "x.example.com"}});
    let report = run(&bare, &base());
    assert!(
        report
            .findings
            .iter()
            .all(|f| f.crd == "widgets.example.com" || f.crd == "x.example.com")
    );
    let _ = run(&base(), &bare);
    let nameless =
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition"});
    let _ = run(&nameless, &nameless);
}

// ----- stored objects -----

/// A Widget object of `base()`'s CRD with `spec`.
fn widget(spec: Value) -> Value {
    json!({
        "apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "default"},
        "spec": spec,
    })
}

fn evidence_of(old: &Value, new: &Value, obj: Value) -> Vec<super::ObjectEvidence> {
    super::evidence(&[decode(old)], &[decode(new)], &[obj])
}

fn only_object_finding(ev: &[super::ObjectEvidence], rule: &Rule) -> Finding {
    assert_eq!(ev.len(), 1, "{ev:#?}");
    let fs: Vec<&Finding> = ev[0]
        .findings
        .iter()
        .filter(|f| f.rule == rule.id)
        .collect();
    assert_eq!(fs.len(), 1, "{ev:#?}");
    assert_eq!(fs[0].severity, rule.severity);
    assert_eq!(ev[0].object, "Widget default/w");
    fs[0].clone()
}

fn spec_schema(props: Value) -> Value {
    base_with_spec(json!({"type": "object", "properties": props}))
}

#[test]
fn object_kind_removed() {
    let other = with(|c| c["spec"]["names"]["kind"] = json!("Gadget"));
    let ev = evidence_of(&base(), &other, widget(json!({"size": 1})));
    only_object_finding(&ev, &rules::OBJECT_KIND_REMOVED);
}

#[test]
fn object_version_not_served() {
    let new = versions(json!([version("v2", true, true)]));
    let ev = evidence_of(&base(), &new, widget(json!({"size": 1})));
    only_object_finding(&ev, &rules::OBJECT_VERSION_NOT_SERVED);
}

#[test]
fn object_update_rejected() {
    // A new transition rule (it reads `oldSelf`, so the server does not
    // ratchet it): the stored object, written back unchanged, breaks it.
    let old = spec_schema(json!({"size": {"type": "integer"}}));
    let mut new = old.clone();
    new["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"] = json!([{
        "rule": "self.size < 5 || self.size != oldSelf.size",
        "message": "a size of 5 or more must change on every update"
    }]);
    let ev = evidence_of(&old, &new, widget(json!({"size": 8})));
    let f = only_object_finding(&ev, &rules::OBJECT_UPDATE_REJECTED);
    assert_eq!(f.new_path.as_deref(), Some("spec"));
    assert!(
        f.message.contains("a size of 5 or more must change"),
        "{}",
        f.message
    );
    // A newly required field is ratcheted for the unchanged object: invalid
    // only.
    let mut required =
        spec_schema(json!({"size": {"type": "integer"}, "color": {"type": "string"}}));
    required["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["required"] =
        json!(["color"]);
    let ev = evidence_of(&old, &required, widget(json!({"size": 1})));
    assert!(
        ev[0]
            .findings
            .iter()
            .all(|f| f.rule == rules::OBJECT_INVALID.id),
        "{ev:#?}"
    );
}

#[test]
fn object_invalid() {
    // A lowered maximum: refused on create, ratcheted on an unchanged update.
    let old = spec_schema(json!({"size": {"type": "integer", "maximum": 10}}));
    let new = spec_schema(json!({"size": {"type": "integer", "maximum": 5}}));
    let ev = evidence_of(&old, &new, widget(json!({"size": 8})));
    let f = only_object_finding(&ev, &rules::OBJECT_INVALID);
    assert_eq!(f.new_path.as_deref(), Some("spec.size"));
    assert!(f.ratcheted);
    assert!(
        !ev[0]
            .findings
            .iter()
            .any(|f| f.rule == rules::OBJECT_UPDATE_REJECTED.id)
    );
}

#[test]
fn object_fields_pruned() {
    let old = spec_schema(json!({"size": {"type": "integer"}, "color": {"type": "string"}}));
    let new = spec_schema(json!({"size": {"type": "integer"}}));
    let ev = evidence_of(&old, &new, widget(json!({"size": 1, "color": "red"})));
    let f = only_object_finding(&ev, &rules::OBJECT_FIELDS_PRUNED);
    assert_eq!(f.new_path.as_deref(), Some("spec.color"));
}

#[test]
fn object_defaulted() {
    let old = spec_schema(json!({"size": {"type": "integer"}, "color": {"type": "string"}}));
    let new = spec_schema(
        json!({"size": {"type": "integer"}, "color": {"type": "string", "default": "blue"}}),
    );
    let ev = evidence_of(&old, &new, widget(json!({"size": 1})));
    let f = only_object_finding(&ev, &rules::OBJECT_DEFAULTED);
    assert_eq!(f.new_path.as_deref(), Some("spec.color"));
    assert!(f.message.contains("\"blue\""), "{}", f.message);
    // Nothing changes for an object the rollout leaves alone.
    let same = evidence_of(&old, &old, widget(json!({"size": 1})));
    assert!(same.is_empty(), "{same:#?}");
}
