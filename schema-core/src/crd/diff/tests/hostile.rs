//! Hostile inputs: deep, wide and huge schemas end in bounded time, stack
//! and message size.

use super::*;

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
