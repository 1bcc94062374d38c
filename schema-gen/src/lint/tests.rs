//! Tests of the engine through its public entry points: the rules that
//! only `cluster-app-strict` has, the rule sets, locations through `$ref`,
//! and inputs that cannot be linted.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::*;

/// Lints `files` (the first is the root) with `rules`, giving
/// `(rule, location, message)` of each finding.
fn run_files(
    files: &[(&str, Value)],
    rules: &[Rule],
) -> Result<Vec<(String, String, String)>, LintError> {
    let map: BTreeMap<String, Vec<u8>> = files
        .iter()
        .map(|(n, v)| (n.to_string(), serde_json::to_vec(v).unwrap()))
        .collect();
    let mut loader = |name: &str| {
        map.get(name)
            .cloned()
            .ok_or_else(|| "not found".to_string())
    };
    let root = files.first().map(|(n, _)| *n).unwrap();
    Ok(lint(root, &mut loader, rules, &[])?
        .into_iter()
        .map(|f| (f.rule.id().to_string(), f.location, f.message))
        .collect())
}

fn run(schema: Value, rule: Rule) -> Vec<(String, String)> {
    run_files(&[("values.schema.json", schema)], &[rule])
        .unwrap()
        .into_iter()
        .map(|(_, l, m)| (l, m))
        .collect()
}

fn locations(schema: Value, rule: Rule) -> Vec<String> {
    run(schema, rule).into_iter().map(|(l, _)| l).collect()
}

#[test]
fn rule_sets() {
    let app = RuleSet::ClusterApp.rules();
    let strict = RuleSet::ClusterAppStrict.rules();
    assert_eq!(app.len(), 28);
    assert_eq!(strict.len(), 31);
    for r in STRICT_ONLY {
        assert!(!app.contains(r) && strict.contains(r), "{r}");
    }
    assert_eq!(
        RuleSet::from_name("cluster-app-strict"),
        Some(RuleSet::ClusterAppStrict)
    );
    assert_eq!(Rule::from_id("AvoidXOf"), Some(Rule::AvoidXOf));
    assert_eq!(Rule::AvoidXOf.severity(), Severity::Error);
    assert_eq!(Rule::ExampleExists.severity(), Severity::Recommendation);
}

#[test]
fn required_properties_must_be_defined() {
    let schema = json!({
        "type": "object",
        "required": ["name", "missing", "replicas"],
        "properties": {
            "name": {"type": "string"},
            "replicas": {"type": "integer", "default": 3},
            "spec": {"$ref": "#/$defs/spec"}
        },
        "$defs": {
            "spec": {
                "type": "object",
                "required": ["size", "labels"],
                "properties": {"size": {"type": "integer"}},
                "patternProperties": {}
            }
        }
    });
    let got = run(schema, Rule::RequiredPropertiesMustBeDefined);
    assert_eq!(
        got,
        vec![
            (
                "/".to_string(),
                "Required property 'missing' is not defined in 'properties'".to_string()
            ),
            (
                "/properties/replicas".to_string(),
                "Required property 'replicas' has a default value; a property with a default must not be required"
                    .to_string()
            ),
            (
                "/properties/spec".to_string(),
                "Required property 'labels' is not defined in 'properties'".to_string()
            ),
        ]
    );
}

#[test]
fn required_properties_through_ref_and_open_objects() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/base", "required": ["x"]},
            "map": {"type": "object", "required": ["any"], "additionalProperties": {"type": "string"}},
            "patterned": {"type": "object", "required": ["p_1"], "patternProperties": {"^p_": {"type": "string"}}}
        },
        "$defs": {"base": {"type": "object", "properties": {"x": {"type": "string"}}}}
    });
    assert!(locations(schema, Rule::RequiredPropertiesMustBeDefined).is_empty());
}

#[test]
fn string_values_should_be_enumerated() {
    let schema = json!({
        "type": "object",
        "properties": {
            "provider": {"type": "string", "pattern": "^(aws|azure|vsphere)$"},
            "name": {"type": "string", "pattern": "^[a-z0-9-]+$"},
            "mode": {"type": "string", "enum": ["public", 1]},
            "policy": {"type": "string", "oneOf": [
                {"const": "Always", "title": "Always pull"},
                {"const": "Never"}
            ]},
            "labelled": {"type": "string", "oneOf": [
                {"const": "IfNotPresent", "title": "Pull if not present"},
                {"const": "Always", "title": "Always pull"}
            ]},
            "listed": {"type": "string", "enum": ["a", "b"], "pattern": "^(a|b)$"}
        }
    });
    assert_eq!(
        locations(schema, Rule::StringValuesShouldBeEnumerated),
        vec![
            "/properties/provider",
            "/properties/mode",
            "/properties/policy"
        ]
    );
}

#[test]
fn defaults_must_not_be_empty() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "boolean", "default": false},
            "b": {"type": "string", "default": ""},
            "c": {"type": "integer", "default": 0},
            "d": {"type": "number", "default": 0.0},
            "e": {"type": "array", "items": {"type": "string"}, "default": []},
            "f": {"type": "object", "default": {}},
            "g": {"type": "boolean", "default": true},
            "h": {"type": "string", "default": "x"},
            "i": {"type": "integer", "default": 3},
            "j": {"type": "array", "items": {"type": "string"}, "default": ["x"]},
            "k": {"type": "string"}
        }
    });
    assert_eq!(
        locations(schema, Rule::DefaultsMustNotBeEmpty),
        vec![
            "/properties/a",
            "/properties/b",
            "/properties/c",
            "/properties/d",
            "/properties/e",
            "/properties/f"
        ]
    );
}

#[test]
fn strict_rules_are_not_in_cluster_app() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["nope"],
        "properties": {"a": {"type": "string", "default": ""}}
    });
    let files = [("s.json", schema)];
    let app = run_files(&files, &RuleSet::ClusterApp.rules()).unwrap();
    let strict = run_files(&files, &RuleSet::ClusterAppStrict.rules()).unwrap();
    let has = |v: &[(String, String, String)], id: &str| v.iter().any(|(r, _, _)| r == id);
    assert!(!has(&app, "RequiredPropertiesMustBeDefined"));
    assert!(!has(&app, "DefaultsMustNotBeEmpty"));
    assert!(has(&strict, "RequiredPropertiesMustBeDefined"));
    assert!(has(&strict, "DefaultsMustNotBeEmpty"));
}

#[test]
fn ref_targets_are_rerooted_at_the_referrer() {
    let schema = json!({
        "type": "object",
        "properties": {"affinity": {"$ref": "#/$defs/affinity"}},
        "$defs": {"affinity": {"type": "object", "properties": {"key": {"type": "string"}}}}
    });
    assert_eq!(
        locations(schema, Rule::StringsShouldBeConstrained),
        vec!["/properties/affinity/properties/key"]
    );
    // A `$ref` at the root keeps the reference tool's double slash.
    let schema = json!({
        "$ref": "#/$defs/root",
        "$defs": {"root": {"type": "object", "properties": {"name": {"type": "string"}}}}
    });
    assert_eq!(
        locations(schema, Rule::StringsShouldBeConstrained),
        vec!["//properties/name"]
    );
}

#[test]
fn references_across_files() {
    let files = [
        (
            "dir/values.schema.json",
            json!({"type": "object", "properties": {"x": {"$ref": "defs/x.json#/$defs/x"}}}),
        ),
        (
            "dir/defs/x.json",
            json!({"$defs": {"x": {"type": "number"}}}),
        ),
    ];
    let got = run_files(&files, &[Rule::NumbersShouldBeConstrained]).unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got.first().map(|f| f.1.as_str()), Some("/properties/x"));
}

#[test]
fn recursion_is_reported_and_bounded() {
    let schema = json!({
        "type": "object",
        "properties": {
            "tree": {"$ref": "#/$defs/node"}
        },
        "$defs": {"node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}
    });
    assert_eq!(
        locations(schema, Rule::AvoidRecursion),
        vec!["/properties/tree/properties/children/items/properties/children/items"]
    );
}

#[test]
fn inputs_that_cannot_be_linted() {
    // The message after `file:line:column: `.
    let err = |v: Value| {
        let e = run_files(&[("s.json", v)], &[Rule::TitleExists])
            .unwrap_err()
            .to_string();
        let (at, rest) = e.split_once(": ").unwrap();
        assert!(at.starts_with("s.json:1:"), "{e}");
        rest.to_string()
    };
    assert_eq!(
        err(json!({"properties": {"a": 5}})),
        "invalid schema at /properties/a: a schema must be an object or a boolean, found a number"
    );
    assert_eq!(
        err(json!({"properties": {"a": {"$ref": "#/$defs/none"}}})),
        "cannot resolve $ref \"#/$defs/none\": s.json has nothing at \"/$defs/none\" (in the schema at /properties/a)"
    );
    assert_eq!(
        err(json!({"properties": {"a": {"$ref": "other.json"}}})),
        "cannot read the referenced file \"other.json\": not found (in the schema at /properties/a)"
    );
    assert_eq!(
        err(json!({"properties": {"a": {"$ref": "https://example.com/x.json"}}})),
        "cannot resolve $ref \"https://example.com/x.json\": only references to local files and within a file are supported (in the schema at /properties/a)"
    );
    assert_eq!(
        err(
            json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})
        ),
        "$ref cycle at /$defs/a: s.json#/$defs/a -> s.json#/$defs/b -> s.json#/$defs/a"
    );
    assert_eq!(
        err(json!({"type": "objekt"})),
        "invalid schema at /type: type must name one of array, boolean, integer, null, number, object, string, found \"objekt\""
    );
    assert_eq!(
        err(json!([])),
        "invalid schema at /: a schema must be an object or a boolean, found an array"
    );
    let mut loader = |_: &str| Ok(b"a: [".to_vec());
    let e = lint("y.yaml", &mut loader, &[Rule::TitleExists], &[]).unwrap_err();
    assert!(matches!(e, LintError::Source(_)), "{e}");
    assert!(e.to_string().starts_with("y.yaml:"), "{e}");
    let mut loader = |_: &str| Ok(b"a: 1\n---\nb: 2\n".to_vec());
    let e = lint("y.yaml", &mut loader, &[Rule::TitleExists], &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "y.yaml: invalid schema at /: expected one schema document, found 2"
    );
}

#[test]
fn draft_07_ignores_the_siblings_of_ref() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "a": {"$ref": "#/definitions/a", "title": "Ignored", "type": "string"},
            "b": {"type": "array", "items": [{"type": "string"}], "additionalItems": false}
        },
        "definitions": {"a": {"type": "string", "title": "A"}}
    });
    assert!(locations(schema.clone(), Rule::TitleExists).contains(&"/properties/b".to_string()));
    assert!(!locations(schema.clone(), Rule::TitleExists).contains(&"/properties/a".to_string()));
    assert_eq!(
        locations(schema, Rule::ArrayItemsMustHaveSingleType),
        vec!["/properties/b"]
    );
}

#[test]
fn excluded_locations_are_whole_segments() {
    let schema = json!({
        "type": "object",
        "properties": {
            "internal": {"type": "object", "properties": {"x": {"type": "string"}}},
            "internal2": {"type": "string"}
        }
    });
    let bytes = serde_json::to_vec(&schema).unwrap();
    let mut loader = |_: &str| Ok(bytes.clone());
    let got = lint_with_rule_set("s.json", &mut loader, RuleSet::ClusterApp).unwrap();
    let titled: Vec<&str> = got
        .iter()
        .filter(|f| f.rule == Rule::TitleExists)
        .map(|f| f.location.as_str())
        .collect();
    assert_eq!(titled, vec!["/properties/internal2"]);
}
