//! Hostile objects end with a result or an error in bounded time and
//! memory: deep nesting through every admission step, huge arrays under
//! `uniqueItems` and list sets, and deep documents through the CLI's reader.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::{admission, deep_object};
use schema_core::object::admission::MAX_VALUE_NESTING;
use serde_json::{Value, json};

/// A value nested `depth` arrays deep around `1`.
fn deep_array(depth: usize) -> Value {
    let mut v = json!(1);
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

#[test]
fn deep_values_pass_every_admission_step() {
    let a = admission(&json!({
        "type": "object",
        "properties": {
            "keep": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            "list": {"type": "array", "x-kubernetes-list-type": "set",
                     "items": {"x-kubernetes-preserve-unknown-fields": true}},
        }
    }));
    // As deep as the server's decoder allows; the walks recurse, so the
    // test gives them the stack the command line gives them.
    let depth = MAX_VALUE_NESTING - 2;
    let run = move || {
        // Built by hand: `json!` would serialize the deep values recursively.
        let keep = object([("o", deep_object(depth)), ("a", deep_array(depth))]);
        let list = Value::Array(vec![deep_array(depth), deep_array(depth)]);
        let obj = object([
            ("keep", keep),
            ("list", list),
            ("dropped", deep_object(depth)),
        ]);
        let admitted = a.create(obj);
        let errors: Vec<String> = admitted.errors.iter().map(ToString::to_string).collect();
        assert_eq!(admitted.pruned, ["dropped"]);
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].starts_with("list[1]: Duplicate value: [[[[[[[["),
            "{}",
            &errors[0][..40]
        );
        // serde_json drops recursively: leak the value instead.
        std::mem::forget(admitted);
    };
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn deeper_than_the_decoder_allows_is_an_error() {
    let a = admission(&json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
    let obj = object([("a", deep_array(1_000_000))]);
    let admitted = a.create(obj);
    let errors: Vec<String> = admitted.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "<nil>: Invalid value: \"\": the object is nested more than 10000 levels deep, the API server's decoding limit"
        ]
    );
}

/// 200,000 compound items: a quadratic check would not finish.
fn many_items(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"name": format!("item-{i}"), "port": i, "tags": ["a", i.to_string()]}))
        .collect()
}

#[test]
fn huge_arrays_under_unique_items_sets_and_maps() {
    let a = admission(&json!({
        "type": "object",
        "properties": {
            "unique": {"type": "array", "uniqueItems": true,
                       "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
            "set": {"type": "array", "x-kubernetes-list-type": "set",
                    "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
            "map": {"type": "array", "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name", "port"],
                    "items": {"type": "object", "required": ["name", "port"],
                              "x-kubernetes-preserve-unknown-fields": true,
                              "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}},
        }
    }));
    let n = 200_000;
    let mut items = many_items(n);
    let clean = object([
        ("unique", Value::Array(items.clone())),
        ("set", Value::Array(items.clone())),
        ("map", Value::Array(items.clone())),
    ]);
    assert!(a.create(clean).errors.is_empty());
    // The last item repeats the first (keys in another order, 0 as 0.0).
    items.push(json!({"tags": ["a", "0"], "port": 0, "name": "item-0"}));
    let dup = object([
        ("unique", Value::Array(items.clone())),
        ("set", Value::Array(items.clone())),
        ("map", Value::Array(items)),
    ]);
    let errors: Vec<String> = a
        .create(dup)
        .errors
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errors,
        [
            "unique: Invalid value: \"\": unique in body shouldn't contain duplicates".to_string(),
            format!(
                "set[{n}]: Duplicate value: {{\"name\":\"item-0\",\"port\":0,\"tags\":[\"a\",\"0\"]}}"
            ),
            format!("map[{n}]: Duplicate value: {{\"name\":\"item-0\",\"port\":0}}"),
        ]
    );
}
