//! One fixture per rule (each test is named after its rule id; a test
//! checks that every rule has one), then ordering, paths, rendering and
//! hostile inputs.

use serde_json::{Value, json};

use super::rules::{self, Rule};
use super::{DiffOptions, DiffReport, Finding, Severity, diff};
use crate::crd::fixtures::decode;
use crate::model::wire::{CustomResourceDefinition, JsonSchemaProps};

use Severity::{Error, Info, Warning};

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

// ----- every rule has a fixture -----

#[test]
fn every_rule_has_a_fixture() {
    let source = include_str!("tests.rs");
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

// ----- CRDs -----

#[test]
fn crd_removed() {
    let report = run_with(&[base()], &[], &DiffOptions::default());
    let f = only(&report, &rules::CRD_REMOVED, &[]);
    assert_eq!(f.severity, Error);
    assert_eq!(f.crd, "widgets.example.com");
    assert_eq!(
        (f.version.as_ref(), f.old_path.as_ref(), f.new_path.as_ref()),
        (None, None, None)
    );
}

#[test]
fn crd_added() {
    let report = run_with(&[], &[base()], &DiffOptions::default());
    let f = only(&report, &rules::CRD_ADDED, &[]);
    assert_eq!(f.severity, Info);
    assert_eq!(f.crd, "widgets.example.com");
    assert_eq!(report.max_severity(), Some(Info));
}

#[test]
fn duplicate_crd() {
    // Defined twice in NEW (differently): reported once, the first compared.
    let second = with(|c| c["spec"]["scope"] = json!("Cluster"));
    let report = run_with(
        &[base()],
        &[base(), second.clone(), second],
        &DiffOptions::default(),
    );
    let f = only(&report, &rules::DUPLICATE_CRD, &[]);
    assert_eq!(f.severity, Warning);
    assert!(f.message.contains("NEW"), "{f}");
}

#[test]
fn scope_changed() {
    crd_case(
        with(|c| c["spec"]["scope"] = json!("Cluster")),
        &rules::SCOPE_CHANGED,
        Error,
    );
}

#[test]
fn group_changed() {
    crd_case(
        with(|c| c["spec"]["group"] = json!("example.org")),
        &rules::GROUP_CHANGED,
        Error,
    );
}

#[test]
fn kind_changed() {
    crd_case(
        with(|c| c["spec"]["names"]["kind"] = json!("Gadget")),
        &rules::KIND_CHANGED,
        Error,
    );
}

#[test]
fn plural_changed() {
    crd_case(
        with(|c| c["spec"]["names"]["plural"] = json!("widgetz")),
        &rules::PLURAL_CHANGED,
        Error,
    );
}

#[test]
fn singular_changed() {
    crd_case(
        with(|c| c["spec"]["names"]["singular"] = json!("widgit")),
        &rules::SINGULAR_CHANGED,
        Error,
    );
}

#[test]
fn list_kind_changed() {
    crd_case(
        with(|c| c["spec"]["names"]["listKind"] = json!("Widgets")),
        &rules::LIST_KIND_CHANGED,
        Error,
    );
}

#[test]
fn defaulted_names_are_no_change() {
    // Unset singular and listKind mean their defaults.
    let new = with(|c| {
        let names = c["spec"]["names"].as_object_mut().unwrap();
        names.remove("singular");
        names.remove("listKind");
    });
    assert!(run(&base(), &new).is_empty());
}

#[test]
fn short_name_removed() {
    let f = crd_case(
        with(|c| c["spec"]["names"]["shortNames"] = json!([])),
        &rules::SHORT_NAME_REMOVED,
        Warning,
    );
    assert!(f.message.contains("\"wd\""), "{f}");
}

#[test]
fn category_removed() {
    crd_case(
        with(|c| {
            c["spec"]["names"]
                .as_object_mut()
                .unwrap()
                .remove("categories");
        }),
        &rules::CATEGORY_REMOVED,
        Warning,
    );
}

#[test]
fn preserve_unknown_fields_disabled() {
    let old = with(|c| c["spec"]["preserveUnknownFields"] = json!(true));
    let new = with(|c| c["spec"]["preserveUnknownFields"] = json!(false));
    check(
        old,
        new,
        &rules::PRESERVE_UNKNOWN_FIELDS_DISABLED,
        Error,
        None,
        None,
        None,
        false,
    );
}

// ----- Versions -----

#[test]
fn version_removed_served() {
    let old = versions(json!([
        version("v1", true, true),
        version("v1beta1", true, false)
    ]));
    let new = versions(json!([version("v1", true, true)]));
    version_case(old, new, &rules::VERSION_REMOVED_SERVED, Error, "v1beta1");
}

#[test]
fn version_removed_stored() {
    let mut old = versions(json!([
        version("v1", true, true),
        version("v1beta1", false, false)
    ]));
    old["status"] = json!({"storedVersions": ["v1beta1", "v1"]});
    let new = versions(json!([version("v1", true, true)]));
    let f = version_case(old, new, &rules::VERSION_REMOVED_STORED, Error, "v1beta1");
    assert!(f.message.contains("migrat"), "{f}");
}

#[test]
fn version_removed_served_and_stored_is_two_findings() {
    let old = versions(json!([
        version("v1", true, false),
        version("v2", true, true)
    ]));
    let new = versions(json!([version("v2", true, true)]));
    let opts = DiffOptions {
        stored_versions: Some(vec!["v1".into(), "v2".into()]),
    };
    let report = run_with(&[old], &[new], &opts);
    only(
        &report,
        &rules::VERSION_REMOVED_SERVED,
        &[&rules::VERSION_REMOVED_STORED],
    );
    // And the API server refuses the update: v1 still holds data.
    assert_eq!(report.rejected.len(), 1, "{report:#?}");
    assert_eq!(
        report.rejected[0].new_path.as_deref(),
        Some("status.storedVersions[0]")
    );
    assert_eq!(report.errors(), 3);
}

#[test]
fn update_rejected() {
    // The group is immutable: the server refuses the update, with its
    // message at its field.
    let report = run(
        &base(),
        &with(|c| c["spec"]["group"] = json!("example.org")),
    );
    assert_eq!(report.rejected.len(), 1, "{report:#?}");
    let f = &report.rejected[0];
    assert_eq!((f.rule, f.severity), (rules::UPDATE_REJECTED.id, Error));
    assert_eq!(f.new_path.as_deref(), Some("spec.group"));
    assert!(
        f.message
            .starts_with("the API server refuses the update: spec.group: Invalid value: \"example.org\": field is immutable"),
        "{}",
        f.message
    );
    // A valid change is not refused.
    let report = run(
        &base(),
        &with(|c| c["spec"]["names"]["shortNames"] = json!(["w"])),
    );
    assert!(report.rejected.is_empty(), "{report:#?}");
}

#[test]
fn version_removed() {
    let old = versions(json!([
        version("v1", true, true),
        version("v1alpha1", false, false)
    ]));
    let new = versions(json!([version("v1", true, true)]));
    version_case(old, new, &rules::VERSION_REMOVED, Info, "v1alpha1");
}

#[test]
fn stored_versions_option_overrides_status() {
    let mut old = versions(json!([
        version("v1", true, true),
        version("v1beta1", false, false)
    ]));
    old["status"] = json!({"storedVersions": ["v1beta1", "v1"]});
    let new = versions(json!([version("v1", true, true)]));
    // The cluster says the old version holds no data any more.
    let opts = DiffOptions {
        stored_versions: Some(vec!["v1".into()]),
    };
    let report = run_with(&[old], &[new], &opts);
    only(&report, &rules::VERSION_REMOVED, &[]);
}

#[test]
fn storage_version_changed() {
    let old = versions(json!([
        version("v1", true, true),
        version("v2", true, false)
    ]));
    let new = versions(json!([
        version("v1", true, false),
        version("v2", true, true)
    ]));
    let f = version_case(old, new, &rules::STORAGE_VERSION_CHANGED, Warning, "v2");
    assert!(f.message.contains("\"v1\""), "{f}");
}

#[test]
fn version_unserved() {
    let old = versions(json!([
        version("v1", true, true),
        version("v2", true, false)
    ]));
    let new = versions(json!([
        version("v1", true, true),
        version("v2", false, false)
    ]));
    version_case(old, new, &rules::VERSION_UNSERVED, Warning, "v2");
}

#[test]
fn version_deprecated() {
    let new = with(|c| c["spec"]["versions"][0]["deprecated"] = json!(true));
    version_case(base(), new, &rules::VERSION_DEPRECATED, Info, "v1");
}

#[test]
fn version_added() {
    let new = with(|c| {
        c["spec"]["versions"]
            .as_array_mut()
            .unwrap()
            .push(version("v2", true, false));
    });
    version_case(base(), new, &rules::VERSION_ADDED, Info, "v2");
}

#[test]
fn schema_removed() {
    let new = with(|c| {
        c["spec"]["versions"][0]
            .as_object_mut()
            .unwrap()
            .remove("schema");
    });
    version_case(base(), new, &rules::SCHEMA_REMOVED, Error, "v1");
}

#[test]
fn schema_added() {
    let old = with(|c| {
        c["spec"]["versions"][0]
            .as_object_mut()
            .unwrap()
            .remove("schema");
    });
    version_case(old, base(), &rules::SCHEMA_ADDED, Warning, "v1");
}

// ----- Fields -----

#[test]
fn field_removed() {
    check(
        base(),
        base_with_spec(json!({"type": "object"})),
        &rules::FIELD_REMOVED,
        Error,
        Some("v1"),
        Some("spec.size"),
        None,
        false,
    );
}

#[test]
fn field_removed_preserved() {
    check(
        base_with_spec(json!({
            "type": "object", "x-kubernetes-preserve-unknown-fields": true,
            "properties": {"size": {"type": "integer"}}
        })),
        base_with_spec(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})),
        &rules::FIELD_REMOVED_PRESERVED,
        Warning,
        Some("v1"),
        Some("spec.size"),
        None,
        false,
    );
}

#[test]
fn field_added() {
    let f = check(
        base(),
        base_with_spec(json!({"type": "object", "properties": {
            "size": {"type": "integer"},
            "color": {"type": "string", "default": "red"}
        }})),
        &rules::FIELD_ADDED,
        Info,
        Some("v1"),
        None,
        Some("spec.color"),
        false,
    );
    assert!(f.message.contains("\"red\""), "{f}");
}

#[test]
fn removed_subtree_is_one_finding() {
    let old = base_with_spec(json!({"type": "object", "properties": {
        "size": {"type": "integer"},
        "deep": {"type": "object", "properties": {
            "a": {"type": "string"}, "b": {"type": "array", "items": {"type": "string"}}
        }}
    }}));
    let report = run(&old, &base());
    let f = only(&report, &rules::FIELD_REMOVED, &[]);
    assert_eq!(f.old_path.as_deref(), Some("spec.deep"));
}

#[test]
fn type_changed() {
    let f = prop_case(
        json!({"type": "integer"}),
        json!({"type": "string"}),
        &rules::TYPE_CHANGED,
        Error,
        false,
    );
    assert!(f.message.contains("\"integer\" to \"string\""), "{f}");
}

#[test]
fn type_changed_stops_the_walk_below() {
    let report = run(
        &base_with_spec(json!({"type": "object", "properties": {"f": {
            "type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}
        }}})),
        &base_with_spec(json!({"type": "object", "properties": {"f": {
            "type": "object", "properties": {"b": {"type": "integer"}}
        }}})),
    );
    only(&report, &rules::TYPE_CHANGED, &[]);
}

#[test]
fn type_widened() {
    prop_case(
        json!({"type": "integer"}),
        json!({"type": "number"}),
        &rules::TYPE_WIDENED,
        Warning,
        false,
    );
}

#[test]
fn field_required() {
    check(
        base(),
        base_with_spec(json!({"type": "object", "required": ["size"],
            "properties": {"size": {"type": "integer"}}})),
        &rules::FIELD_REQUIRED,
        Error,
        Some("v1"),
        Some("spec.size"),
        Some("spec.size"),
        false,
    );
}

#[test]
fn new_required_field() {
    let report = run(
        &base(),
        &base_with_spec(
            json!({"type": "object", "required": ["name"], "properties": {
                "size": {"type": "integer"}, "name": {"type": "string"}
            }}),
        ),
    );
    let f = only(&report, &rules::FIELD_REQUIRED, &[&rules::FIELD_ADDED]);
    assert_eq!(f.severity, Error);
    assert_eq!(f.new_path.as_deref(), Some("spec.name"));
    assert!(f.message.contains("new required field"), "{f}");
}

#[test]
fn required_field_with_default_is_not_an_error() {
    // The server defaults before it validates: the field is never missing.
    let report = run(
        &base(),
        &base_with_spec(
            json!({"type": "object", "required": ["size"], "properties": {
                "size": {"type": "integer", "default": 1}
            }}),
        ),
    );
    only(&report, &rules::DEFAULT_ADDED, &[]);
}

#[test]
fn field_optional() {
    check(
        base_with_spec(json!({"type": "object", "required": ["size"],
            "properties": {"size": {"type": "integer"}}})),
        base(),
        &rules::FIELD_OPTIONAL,
        Info,
        Some("v1"),
        Some("spec.size"),
        Some("spec.size"),
        false,
    );
}

#[test]
fn nullable_removed() {
    prop_case(
        json!({"type": "string", "nullable": true}),
        json!({"type": "string"}),
        &rules::NULLABLE_REMOVED,
        Warning,
        false,
    );
}

#[test]
fn preserve_unknown_fields_removed() {
    prop_case(
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        json!({"type": "object"}),
        &rules::PRESERVE_UNKNOWN_FIELDS_REMOVED,
        Error,
        false,
    );
}

#[test]
fn preserve_unknown_fields_added() {
    prop_case(
        json!({"type": "object"}),
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        &rules::PRESERVE_UNKNOWN_FIELDS_ADDED,
        Info,
        false,
    );
}

#[test]
fn embedded_resource_changed() {
    prop_case(
        json!({"type": "object", "x-kubernetes-embedded-resource": true,
               "x-kubernetes-preserve-unknown-fields": true}),
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        &rules::EMBEDDED_RESOURCE_CHANGED,
        Error,
        false,
    );
}

#[test]
fn int_or_string_changed() {
    prop_case(
        json!({"x-kubernetes-int-or-string": true}),
        json!({"type": "string"}),
        &rules::INT_OR_STRING_CHANGED,
        Error,
        false,
    );
}

// ----- Value validations -----

#[test]
fn enum_added() {
    prop_case(
        json!({"type": "string"}),
        json!({"type": "string", "enum": ["a", "b"]}),
        &rules::ENUM_ADDED,
        Warning,
        true,
    );
}

#[test]
fn enum_values_removed() {
    let f = prop_case(
        json!({"type": "string", "enum": ["a", "b", "c"]}),
        json!({"type": "string", "enum": ["a"]}),
        &rules::ENUM_VALUES_REMOVED,
        Warning,
        true,
    );
    assert!(f.message.contains("\"b\", \"c\""), "{f}");
}

#[test]
fn enum_values_added() {
    prop_case(
        json!({"type": "string", "enum": ["a"]}),
        json!({"type": "string", "enum": ["a", "b"]}),
        &rules::ENUM_VALUES_ADDED,
        Info,
        false,
    );
}

#[test]
fn enum_reordered_is_no_change() {
    let report = run(
        &base_with_spec(
            json!({"type": "object", "properties": {"f": {"type": "string", "enum": ["a", "b"]}}}),
        ),
        &base_with_spec(
            json!({"type": "object", "properties": {"f": {"type": "string", "enum": ["b", "a"]}}}),
        ),
    );
    assert!(report.is_empty(), "{report:#?}");
}

#[test]
fn enum_removed() {
    prop_case(
        json!({"type": "string", "enum": ["a"]}),
        json!({"type": "string"}),
        &rules::ENUM_REMOVED,
        Info,
        false,
    );
}

#[test]
fn maximum_lowered() {
    prop_case(
        json!({"type": "integer", "maximum": 10}),
        json!({"type": "integer", "maximum": 5}),
        &rules::MAXIMUM_LOWERED,
        Warning,
        true,
    );
}

#[test]
fn maximum_made_exclusive_is_lowered() {
    let f = prop_case(
        json!({"type": "integer", "maximum": 10}),
        json!({"type": "integer", "maximum": 10, "exclusiveMaximum": true}),
        &rules::MAXIMUM_LOWERED,
        Warning,
        true,
    );
    assert!(f.message.contains("10 (exclusive)"), "{f}");
}

#[test]
fn maximum_raised() {
    prop_case(
        json!({"type": "number", "maximum": 1.5}),
        json!({"type": "number"}),
        &rules::MAXIMUM_RAISED,
        Info,
        false,
    );
}

#[test]
fn minimum_raised() {
    prop_case(
        json!({"type": "integer"}),
        json!({"type": "integer", "minimum": 1}),
        &rules::MINIMUM_RAISED,
        Warning,
        true,
    );
}

#[test]
fn minimum_made_exclusive_is_raised() {
    prop_case(
        json!({"type": "integer", "minimum": 0}),
        json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true}),
        &rules::MINIMUM_RAISED,
        Warning,
        true,
    );
}

#[test]
fn minimum_lowered() {
    prop_case(
        json!({"type": "integer", "minimum": 1, "exclusiveMinimum": true}),
        json!({"type": "integer", "minimum": 1}),
        &rules::MINIMUM_LOWERED,
        Info,
        false,
    );
}

#[test]
fn max_length_lowered() {
    prop_case(
        json!({"type": "string", "maxLength": 63}),
        json!({"type": "string", "maxLength": 40}),
        &rules::MAX_LENGTH_LOWERED,
        Warning,
        true,
    );
}

#[test]
fn max_length_raised() {
    prop_case(
        json!({"type": "string", "maxLength": 40}),
        json!({"type": "string", "maxLength": 63}),
        &rules::MAX_LENGTH_RAISED,
        Info,
        false,
    );
}

#[test]
fn min_length_raised() {
    prop_case(
        json!({"type": "string"}),
        json!({"type": "string", "minLength": 1}),
        &rules::MIN_LENGTH_RAISED,
        Warning,
        true,
    );
}

#[test]
fn min_length_zero_is_no_minimum() {
    let report = run(
        &base_with_spec(json!({"type": "object", "properties": {"f": {"type": "string"}}})),
        &base_with_spec(
            json!({"type": "object", "properties": {"f": {"type": "string", "minLength": 0}}}),
        ),
    );
    assert!(report.is_empty(), "{report:#?}");
}

#[test]
fn min_length_lowered() {
    prop_case(
        json!({"type": "string", "minLength": 3}),
        json!({"type": "string", "minLength": 1}),
        &rules::MIN_LENGTH_LOWERED,
        Info,
        false,
    );
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

#[test]
fn max_items_lowered() {
    prop_case(
        list(json!({})),
        list(json!({"maxItems": 8})),
        &rules::MAX_ITEMS_LOWERED,
        Warning,
        true,
    );
}

#[test]
fn max_items_raised() {
    prop_case(
        list(json!({"maxItems": 8})),
        list(json!({"maxItems": 16})),
        &rules::MAX_ITEMS_RAISED,
        Info,
        false,
    );
}

#[test]
fn min_items_raised() {
    prop_case(
        list(json!({"minItems": 1})),
        list(json!({"minItems": 2})),
        &rules::MIN_ITEMS_RAISED,
        Warning,
        true,
    );
}

#[test]
fn min_items_lowered() {
    prop_case(
        list(json!({"minItems": 1})),
        list(json!({})),
        &rules::MIN_ITEMS_LOWERED,
        Info,
        false,
    );
}

#[test]
fn max_properties_lowered() {
    prop_case(
        obj(json!({"maxProperties": 10})),
        obj(json!({"maxProperties": 3})),
        &rules::MAX_PROPERTIES_LOWERED,
        Warning,
        true,
    );
}

#[test]
fn max_properties_raised() {
    prop_case(
        obj(json!({"maxProperties": 3})),
        obj(json!({})),
        &rules::MAX_PROPERTIES_RAISED,
        Info,
        false,
    );
}

#[test]
fn min_properties_raised() {
    prop_case(
        obj(json!({})),
        obj(json!({"minProperties": 1})),
        &rules::MIN_PROPERTIES_RAISED,
        Warning,
        true,
    );
}

#[test]
fn min_properties_lowered() {
    prop_case(
        obj(json!({"minProperties": 2})),
        obj(json!({"minProperties": 1})),
        &rules::MIN_PROPERTIES_LOWERED,
        Info,
        false,
    );
}

#[test]
fn pattern_changed() {
    prop_case(
        json!({"type": "string", "pattern": "^[a-z]+$"}),
        json!({"type": "string", "pattern": "^[a-z]{1,8}$"}),
        &rules::PATTERN_CHANGED,
        Warning,
        true,
    );
}

#[test]
fn pattern_added_is_changed() {
    prop_case(
        json!({"type": "string"}),
        json!({"type": "string", "pattern": "^x"}),
        &rules::PATTERN_CHANGED,
        Warning,
        true,
    );
}

#[test]
fn pattern_removed() {
    prop_case(
        json!({"type": "string", "pattern": "^x"}),
        json!({"type": "string"}),
        &rules::PATTERN_REMOVED,
        Info,
        false,
    );
}

#[test]
fn format_changed() {
    prop_case(
        json!({"type": "string"}),
        json!({"type": "string", "format": "date-time"}),
        &rules::FORMAT_CHANGED,
        Warning,
        true,
    );
}

#[test]
fn format_changed_unchecked() {
    prop_case(
        json!({"type": "string", "format": "date-time"}),
        json!({"type": "string", "format": "my-own-format"}),
        &rules::FORMAT_CHANGED_UNCHECKED,
        Info,
        false,
    );
}

#[test]
fn format_removed() {
    prop_case(
        json!({"type": "string", "format": "uuid"}),
        json!({"type": "string"}),
        &rules::FORMAT_REMOVED,
        Info,
        false,
    );
}

#[test]
fn multiple_of_changed() {
    prop_case(
        json!({"type": "integer", "multipleOf": 2}),
        json!({"type": "integer", "multipleOf": 3}),
        &rules::MULTIPLE_OF_CHANGED,
        Warning,
        true,
    );
}

#[test]
fn multiple_of_loosened() {
    prop_case(
        json!({"type": "integer", "multipleOf": 4}),
        json!({"type": "integer", "multipleOf": 2}),
        &rules::MULTIPLE_OF_LOOSENED,
        Info,
        false,
    );
}

fn rules_of(rules: &[&str]) -> Value {
    let v: Vec<Value> = rules.iter().map(|r| json!({"rule": r})).collect();
    json!({"type": "object", "properties": {"size": {"type": "integer"}}, "x-kubernetes-validations": v})
}

#[test]
fn validation_rule_added() {
    field_case(
        rules_of(&["self.size > 0"]),
        rules_of(&["self.size > 0", "self.size < 100"]),
        &rules::VALIDATION_RULE_ADDED,
        Warning,
        "spec",
        true,
    );
}

#[test]
fn validation_rule_changed() {
    let f = field_case(
        rules_of(&["self.size > 0", "has(self.size)"]),
        rules_of(&["self.size > 1", "has(self.size)"]),
        &rules::VALIDATION_RULE_CHANGED,
        Warning,
        "spec",
        true,
    );
    assert!(
        f.message
            .contains("\"self.size > 0\" changes to \"self.size > 1\""),
        "{f}"
    );
}

#[test]
fn transition_rule_is_not_ratcheted() {
    let f = field_case(
        rules_of(&[]),
        rules_of(&["self.size >= oldSelf.size"]),
        &rules::VALIDATION_RULE_ADDED,
        Warning,
        "spec",
        false,
    );
    assert!(f.message.contains("oldSelf"), "{f}");
}

#[test]
fn validation_rule_removed() {
    field_case(
        rules_of(&["self.size > 0"]),
        rules_of(&[]),
        &rules::VALIDATION_RULE_REMOVED,
        Info,
        "spec",
        false,
    );
}

#[test]
fn validation_rules_reordered_is_no_change() {
    let report = run(
        &base_with_spec(rules_of(&["a", "b"])),
        &base_with_spec(rules_of(&["b", "a"])),
    );
    assert!(report.findings.is_empty(), "{report:#?}");
}

#[test]
fn old_self_detection_is_lexical() {
    use super::schema::uses_old_self;
    assert!(uses_old_self("self == oldSelf"));
    assert!(uses_old_self("oldSelf.x"));
    assert!(!uses_old_self("self.oldSelfish == 1"));
    assert!(!uses_old_self("self.x == 'oldSelf'"));
    assert!(!uses_old_self(r#"self.x == "a \" oldSelf""#));
    assert!(!uses_old_self("self.x == '''oldSelf'''"));
    assert!(uses_old_self("'''a''' == oldSelf"));
}

#[test]
fn junctor_changed() {
    prop_case(
        json!({"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}),
        json!({"type": "string", "anyOf": [{"format": "ipv4"}]}),
        &rules::JUNCTOR_CHANGED,
        Warning,
        true,
    );
}

// ----- Defaults -----

#[test]
fn default_added() {
    prop_case(
        json!({"type": "integer"}),
        json!({"type": "integer", "default": 3}),
        &rules::DEFAULT_ADDED,
        Warning,
        false,
    );
}

#[test]
fn default_changed() {
    let f = prop_case(
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "default": {"a": "x"}}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "default": {"a": "y"}}),
        &rules::DEFAULT_CHANGED,
        Warning,
        false,
    );
    assert!(f.message.contains(r#"{"a":"x"} to {"a":"y"}"#), "{f}");
}

#[test]
fn default_removed() {
    prop_case(
        json!({"type": "integer", "default": 3}),
        json!({"type": "integer"}),
        &rules::DEFAULT_REMOVED,
        Info,
        false,
    );
}

// ----- List and map semantics -----

fn map_list(keys: &[&str]) -> Value {
    json!({
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": keys,
        "items": {"type": "object", "required": ["name", "port"], "properties": {
            "name": {"type": "string"}, "port": {"type": "integer"}
        }}
    })
}

#[test]
fn list_type_changed() {
    let f = prop_case(
        list(json!({})),
        list(json!({"x-kubernetes-list-type": "set"})),
        &rules::LIST_TYPE_CHANGED,
        Error,
        false,
    );
    assert!(f.message.contains("duplicate"), "{f}");
}

#[test]
fn list_type_changed_to_atomic() {
    let report = run(
        &base_with_spec(json!({"type": "object", "properties": {"f": map_list(&["name"])}})),
        &base_with_spec(json!({"type": "object", "properties": {"f": list(json!({
            "x-kubernetes-list-type": "atomic",
            "items": {"type": "object", "required": ["name", "port"], "properties": {
                "name": {"type": "string"}, "port": {"type": "integer"}
            }}
        }))}})),
    );
    let f = only(&report, &rules::LIST_TYPE_CHANGED, &[]);
    assert!(f.message.contains("conflict"), "{f}");
}

#[test]
fn list_type_equivalent() {
    prop_case(
        list(json!({})),
        list(json!({"x-kubernetes-list-type": "atomic"})),
        &rules::LIST_TYPE_EQUIVALENT,
        Info,
        false,
    );
}

#[test]
fn list_map_keys_changed() {
    prop_case(
        map_list(&["name", "port"]),
        map_list(&["name"]),
        &rules::LIST_MAP_KEYS_CHANGED,
        Error,
        false,
    );
}

#[test]
fn list_map_keys_reordered_is_no_change() {
    let report = run(
        &base_with_spec(
            json!({"type": "object", "properties": {"f": map_list(&["name", "port"])}}),
        ),
        &base_with_spec(
            json!({"type": "object", "properties": {"f": map_list(&["port", "name"])}}),
        ),
    );
    assert!(report.is_empty(), "{report:#?}");
}

#[test]
fn map_type_changed() {
    prop_case(
        obj(json!({"x-kubernetes-map-type": "granular"})),
        obj(json!({"x-kubernetes-map-type": "atomic"})),
        &rules::MAP_TYPE_CHANGED,
        Warning,
        false,
    );
}

#[test]
fn map_type_made_granular() {
    prop_case(
        obj(json!({"x-kubernetes-map-type": "atomic"})),
        obj(json!({})),
        &rules::MAP_TYPE_MADE_GRANULAR,
        Warning,
        false,
    );
}

#[test]
fn map_type_equivalent() {
    prop_case(
        obj(json!({})),
        obj(json!({"x-kubernetes-map-type": "granular"})),
        &rules::MAP_TYPE_EQUIVALENT,
        Info,
        false,
    );
}

// ----- Printer columns, selectable fields, subresources -----

fn with_version(f: impl FnOnce(&mut Value)) -> Value {
    with(|c| f(&mut c["spec"]["versions"][0]))
}

fn column(name: &str, path: &str) -> Value {
    json!({"name": name, "type": "string", "jsonPath": path})
}

#[test]
fn printer_column_removed() {
    let old =
        with_version(|v| v["additionalPrinterColumns"] = json!([column("Size", ".spec.size")]));
    version_case(old, base(), &rules::PRINTER_COLUMN_REMOVED, Warning, "v1");
}

#[test]
fn printer_column_changed() {
    let old =
        with_version(|v| v["additionalPrinterColumns"] = json!([column("Size", ".spec.size")]));
    let new =
        with_version(|v| v["additionalPrinterColumns"] = json!([column("Size", ".status.size")]));
    let f = version_case(old, new, &rules::PRINTER_COLUMN_CHANGED, Info, "v1");
    assert!(
        f.message.contains("\".spec.size\" to \".status.size\""),
        "{f}"
    );
}

#[test]
fn printer_column_added() {
    let new =
        with_version(|v| v["additionalPrinterColumns"] = json!([column("Size", ".spec.size")]));
    version_case(base(), new, &rules::PRINTER_COLUMN_ADDED, Info, "v1");
}

#[test]
fn selectable_field_removed() {
    let old = with_version(|v| v["selectableFields"] = json!([{"jsonPath": ".spec.size"}]));
    check(
        old,
        base(),
        &rules::SELECTABLE_FIELD_REMOVED,
        Warning,
        Some("v1"),
        Some("spec.size"),
        None,
        false,
    );
}

#[test]
fn selectable_field_added() {
    let new = with_version(|v| v["selectableFields"] = json!([{"jsonPath": ".spec.size"}]));
    check(
        base(),
        new,
        &rules::SELECTABLE_FIELD_ADDED,
        Info,
        Some("v1"),
        None,
        Some("spec.size"),
        false,
    );
}

#[test]
fn status_subresource_removed() {
    let old = with_version(|v| v["subresources"] = json!({"status": {}}));
    version_case(old, base(), &rules::STATUS_SUBRESOURCE_REMOVED, Error, "v1");
}

#[test]
fn status_subresource_added() {
    let new = with_version(|v| v["subresources"] = json!({"status": {}}));
    version_case(base(), new, &rules::STATUS_SUBRESOURCE_ADDED, Warning, "v1");
}

fn scale(spec: &str) -> Value {
    json!({"scale": {"specReplicasPath": spec, "statusReplicasPath": ".status.replicas"}})
}

#[test]
fn scale_subresource_removed() {
    let old = with_version(|v| v["subresources"] = scale(".spec.replicas"));
    version_case(old, base(), &rules::SCALE_SUBRESOURCE_REMOVED, Error, "v1");
}

#[test]
fn scale_path_changed() {
    let old = with_version(|v| v["subresources"] = scale(".spec.replicas"));
    let new = with_version(|v| v["subresources"] = scale(".spec.size"));
    check(
        old,
        new,
        &rules::SCALE_PATH_CHANGED,
        Error,
        Some("v1"),
        Some("spec.replicas"),
        Some("spec.size"),
        false,
    );
}

#[test]
fn scale_subresource_added() {
    let new = with_version(|v| v["subresources"] = scale(".spec.replicas"));
    version_case(base(), new, &rules::SCALE_SUBRESOURCE_ADDED, Info, "v1");
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

// ----- Hostile inputs -----

/// A chain of `depth` nested properties `p`, the innermost of `leaf`'s
/// type; built and taken apart without recursion.
fn chain(depth: usize, leaf: &str) -> JsonSchemaProps {
    let mut node = JsonSchemaProps {
        type_: Some(leaf.to_string()),
        ..JsonSchemaProps::default()
    };
    for _ in 0..depth {
        let mut parent = JsonSchemaProps {
            type_: Some("object".to_string()),
            ..JsonSchemaProps::default()
        };
        parent
            .properties
            .get_or_insert_with(Default::default)
            .insert("p".to_string(), node);
        node = parent;
    }
    node
}

/// Drops a schema without recursion.
fn dismantle(s: JsonSchemaProps) {
    let mut stack = vec![s];
    while let Some(mut s) = stack.pop() {
        if let Some(props) = s.properties.take() {
            stack.extend(props.into_values());
        }
        if let Some(not) = s.not.take() {
            stack.push(*not);
        }
    }
}

fn crd_with_schema(schema: JsonSchemaProps) -> CustomResourceDefinition {
    let mut crd = decode(&base());
    if let Some(v) = crd
        .spec
        .as_mut()
        .and_then(|s| s.versions.as_mut())
        .and_then(|v| v.first_mut())
    {
        v.schema = Some(crate::model::wire::CustomResourceValidation {
            open_api_v3_schema: Some(schema),
            ..Default::default()
        });
    }
    crd
}

fn take_schema(mut crd: CustomResourceDefinition) -> Option<JsonSchemaProps> {
    crd.spec
        .as_mut()?
        .versions
        .as_mut()?
        .first_mut()?
        .schema
        .as_mut()?
        .open_api_v3_schema
        .take()
}

#[test]
fn deep_schemas_do_not_overflow_the_stack() {
    const DEPTH: usize = 2000;
    let old = crd_with_schema(chain(DEPTH, "string"));
    let new = crd_with_schema(chain(DEPTH, "integer"));
    // A small stack: the walk must not recurse.
    let report = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn_scoped(s, || {
                diff(
                    std::slice::from_ref(&old),
                    std::slice::from_ref(&new),
                    &DiffOptions::default(),
                )
            })
            .unwrap()
            .join()
            .unwrap()
    });
    let f = only(&report, &rules::TYPE_CHANGED, &[]);
    let want = vec!["p"; DEPTH].join(".");
    assert_eq!(f.old_path.as_deref(), Some(want.as_str()));
    for crd in [old, new] {
        if let Some(s) = take_schema(crd) {
            dismantle(s);
        }
    }
}

#[test]
fn deep_junctors_do_not_overflow_the_stack() {
    const DEPTH: usize = 2000;
    let not_chain = |leaf: &str| {
        let mut node = JsonSchemaProps {
            pattern: Some(leaf.to_string()),
            ..JsonSchemaProps::default()
        };
        for _ in 0..DEPTH {
            node = JsonSchemaProps {
                not: Some(Box::new(node)),
                ..JsonSchemaProps::default()
            };
        }
        JsonSchemaProps {
            type_: Some("string".to_string()),
            not: node.not.take(),
            ..JsonSchemaProps::default()
        }
    };
    let old = crd_with_schema(not_chain("a"));
    let new = crd_with_schema(not_chain("b"));
    let same = crd_with_schema(not_chain("a"));
    let (changed, unchanged) = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn_scoped(s, || {
                let o = std::slice::from_ref(&old);
                (
                    diff(o, std::slice::from_ref(&new), &DiffOptions::default()),
                    diff(o, std::slice::from_ref(&same), &DiffOptions::default()),
                )
            })
            .unwrap()
            .join()
            .unwrap()
    });
    let f = only(&changed, &rules::JUNCTOR_CHANGED, &[]);
    assert_eq!(f.old_path.as_deref(), Some("."));
    assert!(unchanged.findings.is_empty(), "{unchanged:#?}");
    // Deeper than the API server decodes: refused, not validated.
    assert!(
        unchanged.rejected[0]
            .message
            .contains("deeper than the API server decodes")
    );
    for crd in [old, new, same] {
        if let Some(s) = take_schema(crd) {
            dismantle(s);
        }
    }
}

#[test]
fn huge_enums_are_bounded_in_messages() {
    let all: Vec<Value> = (0..100_000).map(|i| json!(format!("value-{i}"))).collect();
    let kept: Vec<Value> = all.iter().step_by(2).cloned().collect();
    let f = prop_case(
        json!({"type": "string", "enum": all}),
        json!({"type": "string", "enum": kept}),
        &rules::ENUM_VALUES_REMOVED,
        Warning,
        true,
    );
    assert!(f.message.contains("and 49995 more"), "{f}");
    assert!(f.message.len() < 400, "{} bytes", f.message.len());
}

#[test]
fn huge_values_are_bounded_in_messages() {
    let long = "x".repeat(1_000_000);
    let f = prop_case(
        json!({"type": "string", "default": long.clone()}),
        json!({"type": "string", "default": format!("{long}y")}),
        &rules::DEFAULT_CHANGED,
        Warning,
        false,
    );
    assert!(f.message.len() < 400, "{} bytes", f.message.len());
    let f = prop_case(
        json!({"type": "string"}),
        json!({"type": "string", "x-kubernetes-validations": [{"rule": format!("self == '{long}'\n")}]}),
        &rules::VALIDATION_RULE_ADDED,
        Warning,
        true,
    );
    assert!(f.message.len() < 400, "{} bytes", f.message.len());
}

#[test]
fn wide_schemas_are_linear() {
    // 20,000 properties, half removed: one pass, one finding each.
    let mut old = serde_json::Map::new();
    let mut new = serde_json::Map::new();
    for i in 0..20_000 {
        old.insert(format!("f{i}"), json!({"type": "string"}));
        if i % 2 == 0 {
            new.insert(format!("f{i}"), json!({"type": "string"}));
        }
    }
    let report = run(
        &base_with_spec(json!({"type": "object", "properties": old})),
        &base_with_spec(json!({"type": "object", "properties": new})),
    );
    assert_eq!(report.errors(), 10_000);
}

#[test]
fn reordered_properties_are_no_change() {
    let ab =
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}});
    let ba =
        json!({"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}});
    assert!(run(&base_with_spec(ab.clone()), &base_with_spec(ba)).is_empty());
    // Same length, one key renamed in place: one removed, one added.
    let ac =
        json!({"type": "object", "properties": {"a": {"type": "string"}, "c": {"type": "string"}}});
    let report = run(&base_with_spec(ab), &base_with_spec(ac));
    let f = only(&report, &rules::FIELD_REMOVED, &[&rules::FIELD_ADDED]);
    assert_eq!(f.old_path.as_deref(), Some("spec.b"));
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
