//! Fixtures of the rules on fields: removed, added, retyped, required,
//! nullable and the `x-kubernetes-*` extensions.

use super::*;

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
