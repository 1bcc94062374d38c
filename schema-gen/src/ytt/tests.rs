#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;

use super::*;
use schema_core::model::structural::Structural;

fn schema(src: &str) -> YttSchema {
    parse("schema.yml", src.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn error(src: &str) -> YttError {
    match parse("schema.yml", src.as_bytes()) {
        Ok(s) => panic!("expected an error, got {s:?}"),
        Err(e) => e,
    }
}

#[test]
fn infers_types_and_defaults() {
    let s = schema(
        "#@data/values-schema\n---\nname: x\nport: 8080\nratio: 0.5\nenabled: yes\nlist:\n- a: 1\n  b: \"\"\nmap:\n  k: v\n",
    );
    assert_eq!(
        s.default_values(),
        json!({"name": "x", "port": 8080, "ratio": 0.5, "enabled": true, "list": [], "map": {"k": "v"}})
    );
    let doc = s.openapi_document();
    let props = &doc["components"]["schemas"]["dataValues"]["properties"];
    assert_eq!(
        props["ratio"],
        json!({"type": "number", "format": "float", "default": 0.5})
    );
    assert_eq!(props["list"]["items"]["properties"]["a"]["type"], "integer");
}

#[test]
fn defaults_fill_missing_keys_and_type_check() {
    let s = schema(
        "#@data/values-schema\n---\n#@schema/default [{\"bar\": \"x\"}]\narr:\n- bar: \"\"\n  ree: d\n",
    );
    assert_eq!(
        s.default_values(),
        json!({"arr": [{"bar": "x", "ree": "d"}]})
    );
    let e = error("#@data/values-schema\n---\n#@schema/default {'nope': 1}\nm:\n  k: v\n");
    assert_eq!(
        e.headline(),
        "Invalid schema - @schema/default is wrong type"
    );
    assert!(
        e.to_string()
            .contains("Given data value is not declared in schema"),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("a map item with the key named \"k\""),
        "{e}"
    );
}

#[test]
fn nullable_any_and_docs() {
    let s = schema(
        "#@data/values-schema\n---\n#@schema/nullable\n#@schema/desc \"D\"\na: 1\n#@schema/type any=True\n#@schema/nullable\nb: [1, x]\n#@schema/deprecated \"old\"\n#@schema/examples (\"e\", 3)\nc: 2\n",
    );
    assert_eq!(s.default_values(), json!({"a": null, "b": null, "c": 2}));
    let dv = &s.openapi_document()["components"]["schemas"]["dataValues"]["properties"];
    assert_eq!(
        serde_json::to_string(&dv["a"]).unwrap(),
        r#"{"type":"integer","nullable":true,"description":"D","default":null}"#
    );
    assert_eq!(dv["b"], json!({"nullable": true, "default": null}));
    assert_eq!(
        serde_json::to_string(&dv["c"]).unwrap(),
        r#"{"type":"integer","deprecated":true,"x-example-description":"e","example":3,"default":2}"#
    );
}

#[test]
fn validations_export() {
    let s = schema(
        "#@data/values-schema\n---\n#@schema/validation min_len=1, max_len=3\nl:\n- 1\n#@schema/validation (\"even\", lambda v: v % 2 == 0), min=0, when=lambda v: True\nn: 2\n",
    );
    let dv = &s.openapi_document()["components"]["schemas"]["dataValues"]["properties"];
    assert_eq!(dv["l"]["minItems"], 1);
    assert_eq!(dv["l"]["maxItems"], 3);
    assert!(dv["n"].get("minimum").is_none());
    let e = error("#@data/values-schema\n---\n#@schema/validation format=\"uri\"\nu: \"\"\n");
    assert!(
        e.headline().contains("unknown keyword argument \"format\""),
        "{e}"
    );
}

#[test]
fn structural_and_crd() {
    let s = schema(
        "#@data/values-schema\n---\nname: x\n#@schema/type any=True\nextra: {}\n#@schema/nullable\nopt:\n  k: 1\nlist:\n- 1\n",
    );
    let props = s.json_schema_props().unwrap();
    let st = Structural::from_props(&props).unwrap();
    assert!(st.properties.contains_key("extra"));
    let crd = s.crd(&CrdNames::default());
    assert_eq!(crd["metadata"]["name"], "datavalues.values.example.com");
    let input = schema_core::model::wire::input::read_input_owned(crd)
        .unwrap()
        .0;
    let report = schema_core::crd::check::check(&input, &schema_core::Options::default());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
}

#[test]
fn bad_input_is_an_error_with_a_line() {
    for (src, line) in [
        ("#@data/values-schema\n---\n#@schema/defualt 1\na: 1\n", 3),
        ("#@data/values-schema\n---\n#@schema/default 1 +\na: 1\n", 3),
        ("#@data/values-schema\n---\n#@ load(\"x\")\na: 1\n", 3),
        ("#@data/values-schema\n---\na: [1\n", 0),
        ("#@data/values-schema\n---\na: 1\n---\nb: 2\n", 4),
        ("a: 1\n", 0),
    ] {
        let e = error(src);
        let (file, l) = e.location();
        assert_eq!(file, "schema.yml", "{e}");
        if line > 0 {
            assert_eq!(l, line, "{e}");
        }
    }
}

#[test]
fn hostile_nesting_is_an_error() {
    let deep = format!(
        "#@data/values-schema\n---\na: {}1{}\n",
        "[".repeat(300),
        "]".repeat(300)
    );
    assert!(parse("s.yml", deep.as_bytes()).is_err());
    let mut block = String::from("#@data/values-schema\n---\n");
    for i in 0..150 {
        block.push_str(&" ".repeat(i * 2));
        block.push_str("k:\n");
    }
    block.push_str(&" ".repeat(300));
    block.push_str("v: 1\n");
    let e = parse("s.yml", block.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("nesting"), "{e}");
    let flow = format!(
        "#@data/values-schema\n---\n#@schema/default {}\na: 1\n",
        "[".repeat(100)
    );
    assert!(parse("s.yml", flow.as_bytes()).is_err());
}

#[test]
fn renders_like_ytt() {
    let e = error("#@data/values-schema\n---\nvpc:\n  subnet_ids: []\n");
    assert_eq!(
        e.to_string(),
        "\nInvalid schema - wrong number of items in array definition\n==========================================================\n\nschema.yml:\n    |\n  4 |   subnet_ids: []\n    |\n\n    = found: 0 array items\n    = expected: exactly 1 array item, of the desired type\n    = hint: in schema, the one item of the array implies the type of its elements.\n    = hint: in schema, the default value for an array is always an empty list.\n    = hint: default values can be overridden via a data values overlay.\n\n"
    );
    assert_eq!(e.location(), ("schema.yml".to_string(), 4));
}
