#![allow(clippy::unwrap_used, clippy::panic)]

use serde_json::{Value, json};

use super::{FormatCompat, SchemaValidator};
use crate::go::fmt::format_float;
use crate::go::formats::{check, is_date, is_date_time, is_duration, parse_duration};
use crate::go::json::{go_f64_to_i64, go_json, go_v, has_duplicates, is_float64_a_json_integer};
use crate::model::field::Path;
use crate::model::wire::JsonSchemaProps;
use crate::model::wire::codec::{DecodeCx, Wire};

fn schema(v: &Value) -> JsonSchemaProps {
    let mut cx = DecodeCx::default();
    let s = JsonSchemaProps::decode(v, &Path::root(), &mut cx);
    assert!(cx.errors.is_empty(), "{:?}", cx.errors);
    s.unwrap()
}

fn errors(schema_v: Value, obj: Value) -> Vec<String> {
    let v = SchemaValidator::new(&schema(&schema_v));
    v.validate(&obj, &Path::root())
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn float_formatting_matches_go() {
    for (f, s) in [
        (1e6, "1e+06"),
        (1.5, "1.5"),
        (100000.0, "100000"),
        (1e-5, "1e-05"),
        (-0.5, "-0.5"),
    ] {
        assert_eq!(format_float(f), s);
    }
    assert_eq!(go_json(&json!(1.0), true), "1");
    assert_eq!(go_json(&json!(1e21), true), "1e+21");
    assert_eq!(go_json(&json!(1e-7), true), "1e-7");
    assert_eq!(go_json(&json!(123456789.0), true), "123456789");
    assert_eq!(
        go_json(&json!({"b": 1, "a": "<&>"}), true),
        r#"{"a":"\u003c\u0026\u003e","b":1}"#
    );
    assert_eq!(
        go_v(&json!([1, "a", null, {"z": 1.5, "y": true}])),
        "[1 a <nil> map[y:true z:1.5]]"
    );
}

#[test]
fn go_number_helpers() {
    assert!(is_float64_a_json_integer(3.0));
    assert!(is_float64_a_json_integer(3.0000000001));
    assert!(!is_float64_a_json_integer(0.5));
    assert!(!is_float64_a_json_integer(1e16));
    assert_eq!(go_f64_to_i64(1.9), 1);
    assert_eq!(go_f64_to_i64(-1.9), -1);
    assert_eq!(go_f64_to_i64(1e30), i64::MIN);
}

#[test]
fn unique_items_uses_go_equality() {
    assert!(has_duplicates(&[
        json!({"a": [1, 2]}),
        json!({"a": [1, 2]})
    ]));
    assert!(!has_duplicates(&[json!(1), json!(1.0)]));
    assert!(has_duplicates(&[
        json!({"a": 1, "b": 2}),
        json!({"b": 2, "a": 1})
    ]));
    assert!(!has_duplicates(&[json!({"a": 1}), json!({"a": 1, "b": 2})]));
    let many: Vec<Value> = (0..100_000).map(|i| json!({"k": i})).collect();
    assert!(!has_duplicates(&many));
}

#[test]
fn formats_as_strfmt_checks_them() {
    let ok = |f: &str, s: &str| check(f, s) == Some(true);
    assert!(ok("uuid", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"));
    assert!(ok("uuid", "6BA7B8109DAD11D180B400C04FD430C8"));
    assert!(!ok("uuid", "6ba7b810-9dad-11d1-80b4-00c04fd430c"));
    assert!(ok("uuid4", "6ba7b810-9dad-41d1-80b4-00c04fd430c8"));
    assert!(!ok("uuid4", "6ba7b810-9dad-41d1-c0b4-00c04fd430c8"));
    assert!(is_date("2020-02-29"));
    assert!(!is_date("2021-02-29"));
    assert!(!is_date("2021-2-09"));
    assert!(is_date_time("2014-12-15T19:30:20.000Z"));
    assert!(is_date_time("2014-12-15t19:30:20+01:00"));
    assert!(!is_date_time("2014-12-15 19:30:20Z"));
    assert!(!is_date_time("2014-12-15T24:30:20Z"));
    assert!(!is_date_time("2014-12-15T19:30:20"));
    assert!(is_duration("1h30m"));
    assert!(is_duration("22 ns"));
    assert!(is_duration("3 days"));
    assert!(is_duration("-5s"));
    assert!(!is_duration("forever"));
    assert!(!is_duration("5"));
    // The values strfmt gives (CEL sees them as durations).
    assert_eq!(parse_duration("1h30m"), Some(5_400_000_000_000));
    assert_eq!(parse_duration("3 days"), Some(259_200_000_000_000));
    assert_eq!(parse_duration("-1 wk 2d"), Some(-432_000_000_000_000));
    assert_eq!(parse_duration("5 minutes"), Some(300_000_000_000));
    assert_eq!(parse_duration("99999999999999999999s"), None);
    assert!(!ok("byte", "aGVs\nbG8="));
    assert!(ok("byte", "aGVsbG8="));
    assert!(!ok("byte", "aGVsbG8"));
    assert!(!ok("byte", ""));
    assert!(ok("ipv4", "192.168.001.1"));
    assert!(!ok("ipv4", "192.168.1"));
    assert!(!ok("ipv4", "::1"));
    assert!(ok("ipv6", "::1"));
    assert!(ok("ipv6", "2001:db8::ff00:42:8329"));
    assert!(!ok("ipv6", "2001:db8::1%eth0"));
    assert!(!ok("ipv6", "1.2.3.4"));
    assert!(ok("cidr", "10.0.0.0/8"));
    assert!(ok("cidr", "2001:db8::/32"));
    assert!(!ok("cidr", "10.0.0.0/33"));
    assert!(ok("mac", "00:1a:2b:3c:4d:5e"));
    assert!(ok("mac", "001a.2b3c.4d5e"));
    assert!(!ok("mac", "00:1a:2b:3c:4d"));
    assert!(ok("email", "a@b.com"));
    assert!(ok("email", "John Doe <john@example.com>"));
    assert!(!ok("email", "john"));
    assert!(!ok("email", "john@"));
    assert!(ok("hostname", "example.com"));
    assert!(ok("hostname", "localhost"));
    assert!(!ok("hostname", "-bad.com"));
    assert!(!ok("hostname", "example.c0m"));
    assert!(ok("uri", "https://example.com/a?b=c"));
    assert!(ok("uri", "/relative/path"));
    assert!(!ok("uri", "example.com"));
    assert!(!ok("uri", "http://exa mple.com/"));
    assert!(ok("k8s-short-name", "abc-1"));
    assert!(!ok("k8s-short-name", "a-"));
    assert!(!ok("k8s-short-name", &"a".repeat(64)));
    assert!(ok("k8s-long-name", "a.b-c.d"));
    assert!(!ok("k8s-long-name", "a.-"));
    assert!(ok("isbn10", "0-321-75104-3"));
    assert!(ok("isbn13", "978-0321751041"));
    assert!(ok("creditcard", "4111 1111 1111 1111"));
    assert!(!ok("creditcard", "4111 1111 1111 1112"));
    assert!(ok("ssn", "123-45-6789"));
    assert!(ok("hexcolor", "#fff"));
    assert!(ok("rgbcolor", "rgb(0, 128, 255)"));
    assert!(!ok("rgbcolor", "rgb(0,256,0)"));
    assert!(ok("bsonobjectid", "507f1f77bcf86cd799439011"));
    assert!(ok("password", ""));
    assert_eq!(check("foo", "x"), None);
}

#[test]
fn format_support_depends_on_version() {
    let s = json!({"type": "object", "properties": {"n": {"type": "string", "format": "k8s-short-name"}}});
    let obj = json!({"n": "A"});
    let old = SchemaValidator::with_compat(&schema(&s), FormatCompat::Version(1, 33));
    assert!(old.validate(&obj, &Path::root()).is_empty());
    let new = SchemaValidator::with_compat(&schema(&s), FormatCompat::Version(1, 34));
    assert_eq!(new.validate(&obj, &Path::root()).len(), 1);
}

#[test]
fn numbers_keep_int_float_distinction() {
    let s =
        json!({"type": "object", "properties": {"n": {"type": "number", "maximum": 1000000.0}}});
    assert_eq!(
        errors(s.clone(), json!({"n": 2000000.5})),
        vec!["n: Invalid value: 2.0000005e+06: n in body should be less than or equal to 1e+06"]
    );
    assert_eq!(
        errors(s, json!({"n": 2000000})),
        vec!["n: Invalid value: 2000000: n in body should be less than or equal to 1000000"]
    );
    let s = json!({"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 3}}});
    assert_eq!(
        errors(s, json!({"n": 7})),
        vec!["n: Invalid value: 7: n in body should be a multiple of 3"]
    );
}

#[test]
fn root_level_messages() {
    let s = json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}, "required": ["b"]});
    assert_eq!(
        errors(s, json!({"a": "x", "c": 1})),
        vec![
            "<nil>: Invalid value: \"c\": .c in body is a forbidden property",
            "b: Required value",
        ]
    );
    let s =
        json!({"type": "array", "items": {"type": "integer"}, "uniqueItems": true, "maxItems": 2});
    assert_eq!(
        errors(s, json!([1, "x", 1])),
        vec![
            "[1]: Invalid value: \"string\": [1] in body must be of type integer: \"string\"",
            "<nil>: Too many: 3: must have at most 2 items",
            "<nil>: Invalid value: \"\":  in body shouldn't contain duplicates",
        ]
    );
}

#[test]
fn one_of_and_not() {
    let s = json!({"type": "object", "properties": {"x": {"oneOf": [{"type": "string"}, {"type": "string", "minLength": 1}]}}});
    assert_eq!(
        errors(s, json!({"x": "a"})),
        vec![
            "<nil>: Invalid value: \"\": \"x\" must validate one and only one schema (oneOf). Found 2 valid alternatives"
        ]
    );
    let s = json!({"type": "object", "properties": {"x": {"not": {"type": "string"}}}});
    assert_eq!(
        errors(s, json!({"x": "a"})),
        vec!["<nil>: Invalid value: \"\": \"x\" must not validate the schema (not)"]
    );
}

#[test]
fn deep_values_do_not_overflow() {
    // A 100,000-deep value under a schema that preserves unknown fields
    // and checks the whole value (enum, uniqueItems).
    let mut deep = json!(1);
    for _ in 0..100_000 {
        deep = Value::Array(vec![deep]);
    }
    let s = json!({
        "type": "object",
        "properties": {
            "d": {"x-kubernetes-preserve-unknown-fields": true, "enum": [[1]]},
            "u": {"type": "array", "uniqueItems": true}
        }
    });
    let v = SchemaValidator::new(&schema(&s));
    let mut map = serde_json::Map::new();
    map.insert("d".into(), deep);
    map.insert("u".into(), json!([]));
    let obj = Value::Object(map);
    let errs = v.validate(&obj, &Path::root());
    assert_eq!(errs.len(), 1);
    // serde_json drops recursively: leak the value instead.
    std::mem::forget(errs);
    std::mem::forget(obj);
}

#[test]
fn large_object_is_linear() {
    let items: Vec<Value> = (0..20_000)
        .map(|i| json!({"name": format!("item-{i}"), "port": i, "tags": ["a", "b"], "spec": {"x": "y", "n": 1.5}}))
        .collect();
    let obj = json!({"spec": {"items": items}});
    let s = json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"items": {
            "type": "array",
            "items": {"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string", "maxLength": 63, "pattern": "^[a-z0-9-]+$"},
                "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
                "spec": {"type": "object", "additionalProperties": true, "properties": {"n": {"type": "number", "minimum": 0}}}
            }}
        }}}}
    });
    let v = SchemaValidator::new(&schema(&s));
    let start = std::time::Instant::now();
    let errs = v.validate(&obj, &Path::root());
    let took = start.elapsed();
    assert!(errs.is_empty(), "{errs:?}");
    println!("validated {} bytes in {took:?}", obj.to_string().len());
}

#[test]
fn deep_schema_within_decoder_limit() {
    // 120 nested properties (the decoder stops at 128 levels), each also
    // carrying an allOf, validated on a default-sized test thread.
    let depth = 120;
    let mut s = json!({"type": "string", "maxLength": 1});
    let mut obj = json!("too long");
    for _ in 0..depth {
        s = json!({"type": "object", "allOf": [{"required": ["a"]}], "properties": {"a": s}});
        obj = json!({"a": obj});
    }
    let props = schema(&s);
    let v = SchemaValidator::new(&props);
    let errs = v.validate(&obj, &Path::root());
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0]
            .to_string()
            .ends_with("Too long: may not be more than 1 byte")
    );
    drop(props);
}

#[test]
fn typeless_format_and_null_enum() {
    // A string format without a type rejects non-string, non-array values.
    let s = json!({"type": "object", "properties": {"u": {"format": "uuid"}}});
    assert_eq!(
        errors(s.clone(), json!({"u": {}})),
        vec!["u: Invalid value: \"\": u in body must be of type uuid: \"\""]
    );
    assert_eq!(
        errors(s, json!({"u": 5})),
        vec!["u: Invalid value: \"int64\": u in body must be of type uuid: \"int64\""]
    );
    // null never matches an enum, even when nullable.
    let s = json!({"type": "object", "properties": {"e": {"type": "string", "nullable": true, "enum": ["a"]}}});
    assert_eq!(
        errors(s, json!({"e": null})),
        vec!["e: Unsupported value: null: supported values: \"a\""]
    );
    // int64 converts to a one-rune string for a string enum member.
    let s = json!({"type": "object", "properties": {"e": {"enum": ["a"]}}});
    assert!(errors(s, json!({"e": 97})).is_empty());
}

#[test]
fn additional_properties_and_dependencies() {
    let s = json!({
        "type": "object",
        "additionalProperties": {"type": "integer"},
        "dependencies": {"a": ["b"]}
    });
    assert_eq!(
        errors(s, json!({"a": 1, "c": "x"})),
        vec![
            "<nil>: Invalid value: \"\": \"\" has a dependency on b",
            "c: Invalid value: \"string\": .c in body must be of type integer: \"string\"",
        ]
    );
}
