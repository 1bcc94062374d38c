//! Fixtures of the rules on value validations: enums, bounds, lengths,
//! counts, patterns, formats and CEL rules.

use super::*;

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
    use crate::crd::diff::schema::uses_old_self;
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
