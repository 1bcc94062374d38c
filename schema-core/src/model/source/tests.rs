//! Tests of reading inputs: scalars, tags, keys, merges, anchors,
//! positions, JSON, limits and errors through [`parse_documents`], and
//! differential tests of the block reader and of [`GuardedInput`] against
//! `saphyr-parser` reading the same text.

use super::guarded_input::{GuardedInput, Lookahead};
use super::*;
use saphyr_parser::Parser;
use serde_json::{Value, json};

fn parse(s: &str) -> Result<Vec<Document>, SourceError> {
    parse_documents("t.yaml", s.as_bytes(), &Limits::default())
}

fn one(s: &str) -> Document {
    let mut docs = parse(s).unwrap();
    assert_eq!(docs.len(), 1, "{s:?}");
    docs.remove(0)
}

fn err(s: &str) -> SourceError {
    parse(s).unwrap_err()
}

fn path(segs: &[&str]) -> Vec<PathSegment> {
    segs.iter()
        .map(|s| match s.parse::<usize>() {
            Ok(i) => PathSegment::Index(i),
            Err(_) => PathSegment::Key((*s).to_string()),
        })
        .collect()
}

fn loc(line: usize, column: usize) -> Option<Location> {
    Some(Location { line, column })
}

fn is_i64(v: &Value) -> bool {
    v.as_number().is_some_and(|n| n.is_i64())
}

fn is_f64(v: &Value) -> bool {
    v.as_number().is_some_and(|n| n.is_f64())
}

#[test]
fn core_schema_scalars() {
    let d = one(
        "n1: null\nn2: ~\nn3:\nn4: NULL\nb1: true\nb2: False\nb3: TRUE\n\
         s1: yes\ns2: on\ns3: 1_000\ns4: 0777x\ns5: '1'\ns6: \"true\"\ns7: |\n  12\n\
         s8: -0x1\ns9: 2001-12-14\ns10: .\ns11: 1e\n",
    );
    let v = &d.value;
    for k in ["n1", "n2", "n3", "n4"] {
        assert_eq!(v[k], Value::Null, "{k}");
    }
    assert_eq!(v["b1"], json!(true));
    assert_eq!(v["b2"], json!(false));
    assert_eq!(v["b3"], json!(true));
    let strings = [
        ("s1", "yes"),
        ("s2", "on"),
        ("s3", "1_000"),
        ("s4", "0777x"),
        ("s5", "1"),
        ("s6", "true"),
        ("s7", "12\n"),
        ("s8", "-0x1"),
        ("s9", "2001-12-14"),
        ("s10", "."),
        ("s11", "1e"),
    ];
    for (k, s) in strings {
        assert_eq!(v[k], json!(s), "{k}");
    }
}

#[test]
fn numbers_decode_like_the_api_server() {
    let d = one(
        "i: 42\nneg: -7\nplus: +3\nlead: 0777\nhex: 0x1F\noct: 0o17\n\
         max: 9223372036854775807\nbig: 9223372036854775808\nhuge: 0xFFFFFFFFFFFFFFFFFF\n\
         f1: 1.0\nf2: 1e3\nf3: .5\nf4: -2.5E-3\nf5: 1.\nf6: 0.1\n",
    );
    let v = &d.value;
    for (k, want) in [
        ("i", 42),
        ("neg", -7),
        ("plus", 3),
        ("lead", 777),
        ("hex", 31),
        ("oct", 15),
    ] {
        assert!(is_i64(&v[k]), "{k}");
        assert_eq!(v[k], json!(want), "{k}");
    }
    assert!(is_i64(&v["max"]));
    assert_eq!(v["max"].as_i64(), Some(i64::MAX));
    assert!(is_f64(&v["big"]));
    assert_eq!(v["big"].as_f64(), Some(9_223_372_036_854_775_808.0));
    assert!(is_f64(&v["huge"]));
    for (k, want) in [
        ("f1", 1.0),
        ("f2", 1000.0),
        ("f3", 0.5),
        ("f4", -0.0025),
        ("f5", 1.0),
        ("f6", 0.1),
    ] {
        assert!(is_f64(&v[k]), "{k}");
        assert_eq!(v[k].as_f64(), Some(want), "{k}");
    }
}

#[test]
fn non_finite_floats_are_errors_with_locations() {
    for (s, what) in [
        ("a:\n  b: .inf\n", ".inf cannot be represented in JSON"),
        ("a:\n  b: -.Inf\n", "-.Inf cannot be represented in JSON"),
        ("a:\n  b: .nan\n", ".nan cannot be represented in JSON"),
        (
            "a:\n  b: 1e999\n",
            "number 1e999 is out of the range of a float64",
        ),
    ] {
        let e = err(s);
        assert_eq!((e.line, e.column), (2, 6), "{s}");
        assert_eq!(e.message, what);
        assert_eq!(e.kind, SourceErrorKind::Value);
    }
}

#[test]
fn tags() {
    let d = one(
        "a: !!str 12\nb: !!int \"12\"\nc: !!float 3\nd: !!bool \"false\"\ne: !!null ''\n\
         f: !!binary aGVsbG8gd29ybGQ=\ng: ! 12\nh: !!map {x: 1}\ni: !!seq [1]\n\
         j: !<tag:yaml.org,2002:int> 7\nk: !!binary |\n  aGVs\n  bG8=\nl: !!binary /w==\nm: !!str\n",
    );
    assert_eq!(
        d.value,
        json!({"a": "12", "b": 12, "c": 3.0, "d": false, "e": null, "f": "hello world",
               "g": "12", "h": {"x": 1}, "i": [1], "j": 7, "k": "hello", "l": "\u{FFFD}", "m": ""})
    );
    assert!(is_f64(&d.value["c"]));
    for (s, msg) in [
        ("a: !!int x\n", "invalid value \"x\" for tag !!int"),
        ("a: !!bool yes\n", "invalid value \"yes\" for tag !!bool"),
        ("a: !!null 0\n", "invalid value \"0\" for tag !!null"),
        ("a: !!float x\n", "invalid value \"x\" for tag !!float"),
        ("a: !custom x\n", "unknown tag !custom"),
        ("a: !!timestamp 2001-12-14\n", "unknown tag !!timestamp"),
        ("a: !!map x\n", "tag !!map cannot be applied to a scalar"),
        (
            "a: !!str [1]\n",
            "tag !!str cannot be applied to a sequence",
        ),
        (
            "a: !!seq {b: 1}\n",
            "tag !!seq cannot be applied to a mapping",
        ),
        (
            "a: !!binary \"not base64!\"\n",
            "invalid base64 data for tag !!binary: \"not base64!\"",
        ),
    ] {
        let e = err(s);
        assert_eq!(e.message, msg, "{s}");
        assert_eq!(
            (e.line, e.column, e.kind),
            (1, 4, SourceErrorKind::Value),
            "{s}"
        );
    }
}

#[test]
fn non_string_keys_take_their_string_form() {
    let d = one(
        "1: a\ntrue: b\n0x10: c\n1.5: d\n1e6: e\n123456.0: f\n0.00001: g\n.inf: h\n\
         -0.0: i\n\"2\": j\nFalse: k\n1.1234567891: l\n",
    );
    let keys: Vec<&str> = d
        .value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "1",
            "true",
            "16",
            "1.5",
            "1e+06",
            "123456",
            "1e-05",
            ".inf",
            "-0",
            "2",
            "false",
            "1.1234568"
        ]
    );
    let e = err("~: a\n");
    assert_eq!((e.line, e.column, e.kind), (1, 1, SourceErrorKind::Value));
    assert_eq!(e.message, "mapping keys must not be null");
}

#[test]
fn complex_keys_are_errors() {
    let e = err("a: 1\n? [1, 2]\n: x\n");
    assert_eq!((e.line, e.column), (2, 3));
    assert!(e.message.contains("mapping keys must be scalars"), "{e}");
    let e = err("{[1]: 2}");
    assert!(e.message.contains("mapping keys must be scalars"), "{e}");
    let e = err("a: &m {x: 1}\n*m : 2\n");
    assert!(e.message.contains("mapping keys must be scalars"), "{e}");
}

#[test]
fn duplicate_keys_are_errors_at_the_second_key() {
    let e = err("a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n");
    assert_eq!(
        e.to_string(),
        "t.yaml:5:3: mapping key \"c\" already defined at line 3"
    );
    assert_eq!(e.kind, SourceErrorKind::DuplicateKey);
    assert_eq!(e.earlier, Some(Location { line: 3, column: 3 }));
    // Keys compare by their string form.
    let e = err("1: a\n\"1\": b\n");
    assert_eq!((e.line, e.column), (2, 1));
    let e = err("{\"x\": 1,\n \"x\": 2}");
    assert_eq!(
        e.to_string(),
        "t.yaml:2:2: mapping key \"x\" already defined at line 1"
    );
    assert_eq!(e.earlier, Some(Location { line: 1, column: 2 }));
    // Order otherwise follows the source.
    let d = one("z: 1\na: 2\nm: 3\n");
    let keys: Vec<&String> = d.value.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["z", "a", "m"]);
}

#[test]
fn merge_keys() {
    let d = one("base: &b {x: 1, y: 2}\nother: &o {y: 3, w: 4}\n\
         m:\n  y: 9\n  <<: [*b, *o]\n  z: 3\n\
         n:\n  <<: {p: 1}\n  q: 2\n\
         quoted:\n  \"<<\": 5\n");
    assert_eq!(d.value["m"], json!({"y": 9, "x": 1, "w": 4, "z": 3}));
    let keys: Vec<&String> = d.value["m"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["y", "x", "w", "z"]);
    assert_eq!(d.value["n"], json!({"p": 1, "q": 2}));
    assert_eq!(d.value["quoted"], json!({"<<": 5}));
    // Merged entries locate where they are written.
    assert_eq!(d.map.locate(&path(&["m", "x"])), loc(1, 11));
    assert_eq!(d.map.locate(&path(&["m", "w"])), loc(2, 18));
    assert_eq!(d.map.locate(&path(&["m", "y"])), loc(4, 3));
    assert_eq!(d.map.locate(&path(&["n", "p"])), loc(8, 8));
    assert_eq!(d.map.locate(&path(&["m", "nope"])), None);

    let e = err("m:\n  <<: 5\n");
    assert_eq!((e.line, e.column, e.kind), (2, 3, SourceErrorKind::Value));
    let e = err("m:\n  <<: [{a: 1}, 2]\n");
    assert_eq!((e.line, e.column), (2, 3));
}

#[test]
fn anchors_and_aliases() {
    let d = one("a: &x {k: [1, 2]}\nb: *x\nc: &s str\nd: *s\n&k key: v\ne: *k\n");
    assert_eq!(
        d.value,
        json!({"a": {"k": [1, 2]}, "b": {"k": [1, 2]}, "c": "str", "d": "str", "key": "v", "e": "key"})
    );
    // The copy's root locates to the alias, its inside to the anchored node.
    assert_eq!(d.map.locate_value(&path(&["b"])), loc(2, 4));
    assert_eq!(d.map.locate(&path(&["b", "k"])), loc(1, 8));
    let e = err("a: &a [1, *a]\n");
    assert!(e.message.contains("recursive alias"), "{e}");
    let e = err("a: &a 1\n---\nb: *a\n");
    assert_eq!((e.line, e.column), (3, 4));
    assert!(e.message.contains("another document"), "{e}");
    let e = err("b: *nope\n");
    assert_eq!(e.kind, SourceErrorKind::Syntax);
}

#[test]
fn alias_bomb_fails_fast() {
    let mut y = String::from("a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n");
    let mut prev = 'a';
    for c in 'b'..='z' {
        let refs = vec![format!("*{prev}"); 9].join(",");
        y.push_str(&format!("{c}: &{c} [{refs}]\n"));
        prev = c;
    }
    let e = err(&y);
    assert_eq!(e.kind, SourceErrorKind::Limit);
    assert!(
        e.message
            .contains("alias expansion exceeds the limit of 250000 nodes"),
        "{e}"
    );

    // A long string copied many times hits the byte budget.
    let limits = Limits {
        max_alias_bytes: 1000,
        ..Limits::default()
    };
    let s = format!(
        "a: &a \"{}\"\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n",
        "x".repeat(100)
    );
    let e = parse_documents("t", s.as_bytes(), &limits).unwrap_err();
    assert!(
        e.message
            .contains("alias expansion exceeds the limit of 1000 bytes"),
        "{e}"
    );
    assert_eq!((e.line, e.column), (2, 45));
}

#[test]
fn deep_flow_nesting_fails_fast() {
    let y = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = err(&y);
    assert_eq!(e.kind, SourceErrorKind::Limit);
    assert_eq!(
        e.to_string(),
        "t.yaml:1:1001: document exceeds the nesting limit of 1000 levels"
    );

    // In YAML (not JSON), saphyr-parser's scanner stops flow nesting at 255.
    let y = format!("a: {}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = err(&y);
    assert_eq!(e.kind, SourceErrorKind::Limit);
    assert!(e.message.contains("nesting limit of 255"), "{e}");
    assert_eq!(e.line, 1);

    let y = format!("a: {}", "{a: ".repeat(100_000));
    assert!(err(&y).message.contains("nesting limit"));
}

fn block_mapping(depth: usize) -> String {
    let mut y = String::new();
    for i in 0..depth {
        y.push_str(&" ".repeat(i));
        y.push_str("k:\n");
    }
    y.push_str(&" ".repeat(depth));
    y.push_str("leaf\n");
    y
}

#[test]
fn deep_block_nesting_up_to_the_limit() {
    // 1000 nested mappings: exactly at the default limit.
    let d = one(&block_mapping(1000));
    let mut v = &d.value;
    for _ in 0..1000 {
        v = &v["k"];
    }
    assert_eq!(v, &json!("leaf"));
    let deep = vec!["k"; 1000];
    assert_eq!(d.map.locate(&path(&deep)), loc(1000, 1000));
    drop(d);
    let e = err(&block_mapping(1001));
    assert_eq!(
        e.to_string(),
        "t.yaml:1001:1001: document exceeds the nesting limit of 1000 levels"
    );
    // A block sequence nested 100,000 deep on one line.
    let e = err(&format!("{}x\n", "- ".repeat(100_000)));
    assert_eq!(e.kind, SourceErrorKind::Limit);
}

#[test]
fn a_1000_deep_schema_fails_cleanly() {
    // Each schema level is two levels of JSON nesting.
    let mut s = String::from("{\"type\":\"object\"");
    for _ in 0..1000 {
        s.push_str(",\"properties\":{\"a\":{\"type\":\"object\"");
    }
    s.push_str(&"}}".repeat(1000));
    s.push('}');
    let e = err(&s);
    assert_eq!(e.kind, SourceErrorKind::Limit);
    assert!(e.message.contains("nesting limit of 1000"), "{e}");
    // ... while a 400-deep one loads.
    let mut s = String::from("{\"type\":\"object\"");
    for _ in 0..400 {
        s.push_str(",\"properties\":{\"a\":{\"type\":\"object\"");
    }
    s.push_str(&"}}".repeat(400));
    s.push('}');
    assert_eq!(parse(&s).unwrap().len(), 1);
}

#[test]
fn positions_of_keys_and_items() {
    let y = "\
apiVersion: v1
spec:
  versions:
    - name: v1
      schema:
        openAPIV3Schema:
          type: object
    - name: v2
      flow: {a: 1, b: [x, y]}
  empty: []
";
    let d = one(y);
    let m = &d.map;
    assert_eq!(m.locate(&[]), loc(1, 1));
    assert_eq!(m.locate(&path(&["apiVersion"])), loc(1, 1));
    assert_eq!(m.locate_value(&path(&["apiVersion"])), loc(1, 13));
    assert_eq!(m.locate(&path(&["spec", "versions"])), loc(3, 3));
    assert_eq!(m.locate(&path(&["spec", "versions", "0"])), loc(4, 7));
    assert_eq!(
        m.locate(&path(&["spec", "versions", "0", "name"])),
        loc(4, 7)
    );
    assert_eq!(
        m.locate_value(&path(&["spec", "versions", "0", "name"])),
        loc(4, 13)
    );
    assert_eq!(
        m.locate(&path(&[
            "spec",
            "versions",
            "0",
            "schema",
            "openAPIV3Schema",
            "type"
        ])),
        loc(7, 11)
    );
    assert_eq!(
        m.locate(&path(&["spec", "versions", "1", "name"])),
        loc(8, 7)
    );
    assert_eq!(
        m.locate(&path(&["spec", "versions", "1", "flow", "b"])),
        loc(9, 20)
    );
    assert_eq!(
        m.locate_value(&path(&["spec", "versions", "1", "flow"])),
        loc(9, 13)
    );
    assert_eq!(
        m.locate(&path(&["spec", "versions", "1", "flow", "b", "1"])),
        loc(9, 27)
    );
    assert_eq!(m.locate(&path(&["spec", "empty"])), loc(10, 3));
    // Missing paths and kind mismatches.
    assert_eq!(m.locate(&path(&["spec", "versions", "2"])), None);
    assert_eq!(m.locate(&path(&["spec", "nope"])), None);
    assert_eq!(m.locate(&path(&["apiVersion", "x"])), None);
    assert_eq!(m.locate(&path(&["spec", "0"])), None);
    assert_eq!(m.locate(&path(&["spec", "empty", "0"])), None);
    assert_eq!(d.locate(&path(&["spec"])), loc(2, 1));
    assert_eq!(m.len(), 17);
}

#[test]
fn columns_count_characters() {
    let d = one("é: {ü: 1, k: 2}\n");
    assert_eq!(d.map.locate(&path(&["é", "k"])), loc(1, 11));
    let d = one("{\"é\": {\"ü\": 1, \"k\": 2}}");
    assert_eq!(d.map.locate(&path(&["é", "k"])), loc(1, 16));
}

#[test]
fn malformed_yaml_errors_name_file_line_column() {
    for (y, line, column) in [
        ("a: 1\nb: [1, 2\n", 3, 1),
        ("a:\n  b: 1\n c: 2\n", 3, 2),
        ("a: \"open\n", 1, 4),
        ("a: b: c\n", 1, 5),
        ("- a\nb: c\n", 2, 1),
        ("a: 1\n\tb: 2\n", 1, 4),
    ] {
        let e = err(y);
        assert_eq!(e.kind, SourceErrorKind::Syntax, "{y:?}: {e}");
        assert_eq!((e.line, e.column), (line, column), "{y:?}: {e}");
        assert!(
            e.to_string()
                .starts_with(&format!("t.yaml:{line}:{column}: ")),
            "{e}"
        );
    }
}

#[test]
fn multi_document_streams() {
    let docs = parse("---\n# nothing\n---\na: 1\n---\n...\n---\n- 2\n--- null\n---\n").unwrap();
    let values: Vec<&Value> = docs.iter().map(|d| &d.value).collect();
    assert_eq!(values, [&json!({"a": 1}), &json!([2]), &Value::Null]);
    assert_eq!(docs[0].start, Location { line: 3, column: 1 });
    assert_eq!(docs[1].start, Location { line: 7, column: 1 });
    assert_eq!(docs[1].map.locate(&path(&["0"])), loc(8, 3));
    // Implicit first document.
    let docs = parse("# c\na: 1\n---\nb: 2\n").unwrap();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0].start, Location { line: 2, column: 1 });
    assert_eq!(docs[1].map.locate(&path(&["b"])), loc(4, 1));
    // Quoted empty documents are kept.
    assert_eq!(one("--- ''\n").value, json!(""));
}

#[test]
fn empty_inputs_give_no_documents() {
    for s in [
        "",
        "\n\n",
        "# only a comment\n",
        "---\n",
        "---\n...\n---\n",
        "\u{feff}",
        "   ",
    ] {
        assert!(parse(s).unwrap().is_empty(), "{s:?}");
    }
}

#[test]
fn json_input() {
    let s = "{\n  \"a\": 1,\n  \"b\": [1, 2.0, -0, 1e2, 9223372036854775807, 9223372036854775808,\n  \
             18446744073709551616, -9223372036854775809, 0.5],\n  \"s\": \"\\ud83d\\ude00 \\ud800x \\u00e9\\n\\/\",\n  \
             \"t\": true, \"f\": false, \"n\": null, \"o\": {}, \"e\": []\n}\n";
    let d = one(s);
    let b = d.value["b"].as_array().unwrap();
    assert!(is_i64(&b[0]) && is_i64(&b[2]) && is_i64(&b[4]));
    assert!(is_f64(&b[1]) && is_f64(&b[3]) && is_f64(&b[5]) && is_f64(&b[6]) && is_f64(&b[7]));
    assert_eq!(b[5].as_f64(), Some(9_223_372_036_854_775_808.0));
    assert_eq!(d.value["s"], json!("\u{1F600} \u{FFFD}x \u{e9}\n/"));
    assert_eq!(d.value["o"], json!({}));
    assert_eq!(d.map.locate(&path(&["b"])), loc(3, 3));
    assert_eq!(d.map.locate_value(&path(&["b"])), loc(3, 8));
    assert_eq!(d.map.locate(&path(&["b", "2"])), loc(3, 17));
    assert_eq!(d.map.locate(&path(&["b", "8"])), loc(4, 47));
    assert_eq!(d.map.locate(&path(&["s"])), loc(5, 3));
    assert_eq!(d.map.locate(&path(&["t"])), loc(6, 3));
    // A stream of values.
    let docs = parse("{\"a\":1}{\"b\":2}\n[3] \"x\"").unwrap();
    assert_eq!(docs.len(), 4);
    assert_eq!(docs[2].start, Location { line: 2, column: 1 });
    assert_eq!(docs[3].value, json!("x"));
    // JSON-looking YAML falls back to YAML.
    assert_eq!(one("{a: 1, b: [x]}").value, json!({"a": 1, "b": ["x"]}));
    let docs = parse("[1]\n---\nb: 2\n").unwrap();
    assert_eq!(docs.len(), 2);
    // Errors that are not JSON syntax errors are final.
    let e = err("{\"a\": 1e400}");
    assert_eq!((e.line, e.column, e.kind), (1, 7, SourceErrorKind::Value));
    // Invalid in both: the JSON error is reported.
    let e = err("{\"a\": 1,\n \"b\": [1, 2}");
    assert_eq!(
        e.to_string(),
        "t.yaml:2:12: invalid character '}' after array element"
    );
    let e = err("{\"a\": ");
    assert_eq!(e.message, "unexpected end of JSON input");
    let e = err("[\"a");
    assert_eq!((e.line, e.column), (1, 4));
    // After two JSON documents the stream is JSON.
    let e = err("{}\n{}\n{a: 1}");
    assert_eq!(
        e.to_string(),
        "t.yaml:3:2: invalid character 'a' looking for beginning of object key string"
    );
}

#[test]
fn invalid_utf8_names_the_byte_offset() {
    let e = parse_documents(
        "x.yaml",
        b"type: object\ndescription: ab\xff\xfe\n",
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "x.yaml:2:16: invalid UTF-8 at byte offset 28"
    );
    assert_eq!(e.kind, SourceErrorKind::Encoding);
    let e =
        parse_documents("x.yaml", b"\xef\xbb\xbfa: \xc3\xa9\xc3", &Limits::default()).unwrap_err();
    assert_eq!(e.to_string(), "x.yaml:1:5: invalid UTF-8 at byte offset 8");
    let e = parse_documents("x.yaml", b"\xff\xfea\x00", &Limits::default()).unwrap_err();
    assert!(e.message.contains("UTF-16"), "{e}");
}

#[test]
fn byte_order_mark_is_accepted() {
    let d = parse_documents("b", b"\xef\xbb\xbfa:\n  b: 1\n", &Limits::default()).unwrap();
    assert_eq!(d[0].value, json!({"a": {"b": 1}}));
    assert_eq!(d[0].map.locate(&path(&["a", "b"])), loc(2, 3));
    let d = parse_documents("b", b"\xef\xbb\xbf{\"a\": 1}", &Limits::default()).unwrap();
    assert_eq!(d[0].map.locate(&path(&["a"])), loc(1, 2));
}

#[test]
fn limits_are_reported_by_name() {
    let small = Limits {
        max_bytes: 10,
        ..Limits::default()
    };
    let e = parse_documents("big", b"a: 12345678901", &small).unwrap_err();
    assert_eq!(
        e.to_string(),
        "big: input is 14 bytes, more than the size limit of 10 bytes"
    );
    assert_eq!(
        (e.line, e.kind, e.location()),
        (0, SourceErrorKind::Limit, None)
    );

    let few = Limits {
        max_nodes: 5,
        ..Limits::default()
    };
    assert!(parse_documents("n", b"[1, 2, 3, 4]", &few).is_ok());
    let e = parse_documents("n", b"a: [1, 2, 3, 4]", &few).unwrap_err();
    assert_eq!(e.to_string(), "n:1:14: input exceeds the limit of 5 nodes");
    // Counted over all documents.
    let e = parse_documents("n", b"[1, 2]\n---\n[3, 4]\n", &few).unwrap_err();
    assert_eq!(e.line, 3);

    let shallow = Limits {
        max_depth: 2,
        ..Limits::default()
    };
    assert!(parse_documents("d", b"a: {b: 1}", &shallow).is_ok());
    let e = parse_documents("d", b"a: {b: [1]}", &shallow).unwrap_err();
    assert_eq!(
        e.to_string(),
        "d:1:8: document exceeds the nesting limit of 2 levels"
    );
    // Alias copies count towards depth too.
    let e = parse_documents("d", b"x: &x {b: 1}\ny: [*x]\n", &shallow).unwrap_err();
    assert_eq!((e.line, e.column), (2, 5));

    let no_alias = Limits {
        max_alias_expansion: 3,
        ..Limits::default()
    };
    assert!(parse_documents("a", b"x: &x [1, 2]\ny: *x\n", &no_alias).is_ok());
    let e = parse_documents("a", b"x: &x [1, 2]\ny: *x\nz: *x\n", &no_alias).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a:3:4: alias expansion exceeds the limit of 3 nodes"
    );
}

#[test]
fn deterministic() {
    let y = "b: &x {k: 1, j: [1, 2]}\na: *x\nc:\n  <<: *x\n  z: 1\n";
    let first = parse(y).unwrap();
    for _ in 0..5 {
        assert_eq!(parse(y).unwrap(), first);
    }
}

/// The events (with spans) of `text` through `StrInput` and through
/// `GuardedInput` with an unreachable limit.
fn same_events(text: &str) -> bool {
    let watch = Lookahead::new(usize::MAX);
    let guarded = Parser::new(GuardedInput::new(text, &watch));
    let plain = Parser::new_from_str(text);
    // After an error the parser repeats it: stop at the first.
    fn upto_error<I: Iterator<Item = Result<T, E>>, T, E>(it: I) -> Vec<Result<T, E>> {
        let mut out = Vec::new();
        for x in it {
            let stop = x.is_err();
            out.push(x);
            if stop {
                break;
            }
        }
        out
    }
    upto_error(guarded) == upto_error(plain)
}

/// The text files of the CRD corpus, when it is present, with one of
/// `exts` (any when empty).
fn corpus_texts(exts: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    let mut dirs: Vec<std::path::PathBuf> = crate::model::test_corpus::dir("source tests")
        .into_iter()
        .collect();
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(d) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            let ext = p.extension().and_then(|x| x.to_str()).unwrap_or_default();
            if p.is_dir() {
                dirs.push(p);
            } else if exts.is_empty() || exts.contains(&ext) {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    files.push(t);
                }
            }
        }
    }
    files
}

/// What the block reader makes of `text`, if it takes it, and what
/// `saphyr-parser` makes of it.
fn block_and_saphyr(text: &str) -> (Option<Vec<Document>>, Result<Vec<Document>, SourceError>) {
    let limits = Limits::default();
    let mut fast = Vec::new();
    let taken = block::read(
        text,
        &mut Sink::new(&mut Builder::new("f", &limits), &mut fast),
    )
    .is_ok();
    let mut slow = Vec::new();
    let r = read_yaml(text, &mut Builder::new("f", &limits), &mut slow)
        .map(|()| slow)
        .map_err(|y| y.error);
    (taken.then_some(fast), r)
}

/// The block reader, when it takes an input, reads it as saphyr does.
fn block_agrees(text: &str) -> bool {
    let limits = Limits::default();
    let mut values = Values::new(&limits);
    let unmapped = block::read(text, &mut values).ok().map(|()| values.docs);
    let (fast, slow) = block_and_saphyr(text);
    // Without maps: the same values and starts.
    let strip = |docs: &[Document]| -> Vec<(Value, Location)> {
        docs.iter().map(|d| (d.value.clone(), d.start)).collect()
    };
    let values_agree = match (&unmapped, &slow) {
        (None, _) => true,
        (Some(u), Ok(s)) => strip(u) == strip(s),
        (Some(_), Err(_)) => false,
    };
    values_agree
        && match (fast, slow) {
            (None, _) => true,
            (Some(fast), Ok(slow)) => fast == slow,
            (Some(_), Err(_)) => false,
        }
}

#[test]
fn block_reader_reads_as_saphyr() {
    let taken = [
        "a: 1\n",
        "# c\napiVersion: v1   # t\nkind: \"Foo\"\nmeta:\n  a: 'it''s'\n  list:\n  - x\n  - y: 1\n    z: 2\n  -   - nested\n  empty: []\n  emptym: {}\n  desc: |-\n    line one\n      more\n\n    last\n  n: null\n  t: true\n---\n- a\n- b: c\n",
        "---\na:\nb: \n  # c\nc:\n- x: 1\n  y:\n  - p\n  -\n    q: 2\n  -\n  - - - deep\n- \"k\": v\n  'k2': |+\n   keep\n\n  z: ''\nd: {}\n---\n# only comment\n---\n",
        "é: ü\nß: \"\\u00e9\\x41\\U0001F600\\N\\_\\\"\"\n\"k\" : 'v'  # c\n",
        "a: |\n  x\n\n\nb: |+\n  y\n\n\nc: |-\n  z\n\n",
        "a:\n  b:\n    - 1\n    - -2\n    - .5\n    - ~\n    - 0x1F\n    - 'x'\n  c: x:y\n  d: -x\n  e: ?x\n  f: :x\n  g: a#b\n",
        "key:\n  value\nk2:\n- a\n-\n- b\n",
        "<<: {}\na: 1\n",
        "---\n---\n",
        "",
        "# only\n\n",
        "- |\n  text\n- |\n   more\n",
        "a: [1, 'b', \"c\" , d e]\nb: [ ]\nc:\n- x\n- # c\nd: |2-\n\n     x\n    y\n",
        "a: b\n  c\n\n   d\nk: 'q\n\n\n  r  \n s'\nm: \"x\\ty\n  z\"\n",
    ];
    for text in taken {
        let limits = Limits::default();
        let mut values = Values::new(&limits);
        // Merge keys are left to the builder.
        assert!(
            block::read(text, &mut values).is_ok() || text.contains("<<"),
            "{text:?}"
        );
        let (fast, slow) = block_and_saphyr(text);
        assert!(fast.is_some(), "not taken: {text:?}");
        assert!(block_agrees(text), "{text:?}: {fast:#?} {slow:#?}");
    }
    // Left to saphyr.
    for text in [
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: [1, {b: c}]\n",
        "- [a]\n",
        "a: 'b\n  c' d\n",
        "a: >\n  b\n",
        "a:\tb\n",
        "a: b\r\n",
        "? a\n: b\n",
        "%YAML 1.2\n---\na: 1\n",
        "a: 1\n...\n",
        "a: b: c\n",
        "a:\n  - x\n  b: 1\n",
        "|\n  root\n",
        "a: |\n\n  x\n",
        "a: \"x\\q\"\n",
        "  a: 1\n",
        "a: 1\n    # deeper comment\n",
        // Errors are saphyr's to report.
        "a: 1\na: 2\n",
    ] {
        assert!(block_and_saphyr(text).0.is_none(), "taken: {text:?}");
    }
}

/// Every corpus CRD is read by the block reader (so its speed is not
/// lost silently), as saphyr reads it; and random edits of corpus lines
/// are either left to saphyr or read as saphyr reads them.
/// `SOURCE_DIFF_ITERATIONS` raises the number of random inputs.
#[test]
fn block_reader_differential() {
    let files = corpus_texts(&["yaml"]);
    for t in &files {
        let (fast, slow) = block_and_saphyr(t);
        let limits = Limits::default();
        let mut sink_docs = Vec::new();
        let at = block::read(
            t,
            &mut Sink::new(&mut Builder::new("f", &limits), &mut sink_docs),
        );
        assert!(
            at.is_ok(),
            "the block reader stops at line {at:?} of a corpus file"
        );
        assert!(
            fast == slow.ok(),
            "the block reader reads a corpus file differently"
        );
        let mut values = Values::new(&limits);
        assert!(block::read(t, &mut values).is_ok());
        assert!(block_agrees(t));
    }
    let mut lines: Vec<&str> = files.iter().flat_map(|f| f.lines()).collect();
    lines.extend([
        "a: 1",
        "- x",
        "-",
        "- - y",
        "  k: |",
        "  k: |-",
        "  k: |+",
        "    text",
        "",
        "   ",
        "# c",
        "---",
        "...",
        "k: 'q''s'",
        "k: \"e\\u00e9\"",
        "'k': v",
        "\"k\": v # c",
        "k: []",
        "k: {}",
        "k:",
        "<<: {}",
        "é: ü",
    ]);
    const EDITS: &[&str] = &[
        " ", "  ", "- ", "-", ": ", ":", "#", " #", "'", "\"", "|", "|-", "[]", "{}", "é", "\\",
    ];
    let mut x: u64 = std::env::var("SOURCE_DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x2545_f491_4f6c_dd1d);
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n.max(1) as u64) as usize
    };
    let iterations = std::env::var("SOURCE_DIFF_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000);
    let mut taken = 0;
    for _ in 0..iterations {
        // A subtree of a corpus file (a line and the lines below it,
        // unindented), or lines picked at random.
        let mut doc: Vec<String> = if next(4) != 0 {
            let start = next(lines.len());
            let first = lines[start];
            let k = first.len() - first.trim_start().len();
            let mut doc = vec![first.get(k..).unwrap_or_default().to_string()];
            for l in lines.iter().skip(start + 1).take(next(60)) {
                let i = l.len() - l.trim_start().len();
                if !l.trim().is_empty() && i < k {
                    break;
                }
                doc.push(l.get(k.min(l.len())..).unwrap_or_default().to_string());
            }
            doc
        } else {
            (0..1 + next(12))
                .map(|_| lines[next(lines.len())].to_string())
                .collect()
        };
        for _ in 0..next(4) {
            if doc.is_empty() {
                break;
            }
            let i = next(doc.len());
            match next(4) {
                0 => {
                    let l = &mut doc[i];
                    let at = (0..=l.len())
                        .filter(|p| l.is_char_boundary(*p))
                        .nth(next(l.len() + 1))
                        .unwrap_or(0);
                    l.insert_str(at, EDITS[next(EDITS.len())]);
                }
                1 => {
                    doc.remove(i);
                }
                2 => {
                    let l = doc[i].clone();
                    doc.insert(i, l);
                }
                _ => {
                    let l = &mut doc[i];
                    if l.starts_with(' ') && next(2) == 0 {
                        l.remove(0);
                    } else {
                        l.insert(0, ' ');
                    }
                }
            }
        }
        let mut text = doc.join("\n");
        if next(4) != 0 {
            text.push('\n');
        }
        assert!(block_agrees(&text), "{text:?}");
        let (fast, slow) = block_and_saphyr(&text);
        if let Some(fast) = fast {
            taken += 1;
            assert!(
                slow.as_ref().ok() == Some(&fast),
                "{text:?}\n{fast:#?}\n{slow:#?}"
            );
        }
    }
    // The random inputs do exercise the block reader: a fifth of them
    // with the corpus lines, a tenth with the built-in lines alone (which
    // break into shapes it leaves to saphyr more often).
    let share = if files.is_empty() { 10 } else { 5 };
    assert!(taken * share > iterations, "{taken} of {iterations}");
}

#[test]
fn guarded_input_reads_as_str_input() {
    for text in [
        "a: 1\n",
        "a: [1, {b: c}, 'x''y', \"z\\\"\"]\n# comment: [\nb: |\n  lit [\n  ]\nc: >-\n  fold\n\n  ed\n",
        "- &a !!str x\n- *a\n- ? k\n  : v\n--- \n%YAML 1.2\n---\n...\n",
        "a:\t1 #c\nb: \"multi\n  line\"\n\u{feff}",
        "{a: [b, c]: d}\n",
        "\t- x\n",
        "é: ü\r\nß: \"\\u00e9\\x41\"\n",
        "a: b #c\n  d\n",
        "key:    # comment\n  - 1\n",
        "!<tag:x> a: !t!b c",
        "[a, b\n",
        "x: \0",
    ] {
        assert!(same_events(text), "{text:?}");
    }
}

#[test]
fn large_flow_collections_hit_the_lookahead_limit() {
    let limits = Limits {
        max_yaml_lookahead: 1000,
        ..Limits::default()
    };
    // 400 entries of `k: 1, ` are 800 indicators: fine.
    let ok = format!("a: {{{}}}\n", "k: 1, ".repeat(400).replace("k:", "k0:"));
    let ok = ok.replacen("k0", "k1", 1);
    let r = parse_documents("f", ok.as_bytes(), &limits);
    assert!(
        matches!(r, Err(ref e) if e.kind == SourceErrorKind::DuplicateKey),
        "{r:?}"
    );
    // saphyr-parser buffers a flow collection at the root, in a block
    // sequence or as a key, not as a mapping value.
    for prefix in ["- ", "? ", "&x ", "!!seq "] {
        let big = format!("{prefix}[{}]\n", "1, ".repeat(2000));
        let e = parse_documents("f", big.as_bytes(), &limits).err().unwrap();
        assert_eq!(e.kind, SourceErrorKind::Limit);
        assert!(
            e.message.contains("look-ahead exceeds the limit of 1000"),
            "{e}"
        );
        // Where the 1001st indicator was read.
        assert_eq!(e.line, 1);
        assert!((2990..3010).contains(&e.column), "{prefix:?}: {e}");
    }
    let value = format!("a: [{}]\n", "1, ".repeat(2000));
    assert!(parse_documents("f", value.as_bytes(), &limits).is_ok());
    // Block YAML is delivered as it is scanned: no limit.
    let block: String = (0..5000).map(|i| format!("k{i}: [a, b]\n")).collect();
    assert!(parse_documents("f", block.as_bytes(), &limits).is_ok());
    // Comments are not counted.
    let comments = format!("# {}\na: 1\n", "[,:]".repeat(10_000));
    assert!(parse_documents("f", comments.as_bytes(), &limits).is_ok());
    // Invalid JSON falling back to YAML reports the JSON error.
    let json = format!("[{}1,]", "1,".repeat(2000));
    let e = parse_documents("f", json.as_bytes(), &limits).unwrap_err();
    assert_eq!(
        e.message,
        "invalid character ']' looking for beginning of value"
    );
}

/// Differential check of `GuardedInput` against `StrInput` on the corpus
/// (when present) and on random inputs; `SOURCE_DIFF_ITERATIONS` raises
/// the number of random inputs (e.g. 300000 with `--release`).
#[test]
fn guarded_input_differential() {
    let mut files = vec![String::from("a: [1, {b: c}]\nd: |\n  text\n")];
    files.extend(corpus_texts(&[]));
    for t in &files {
        assert!(same_events(t));
    }
    const FRAGS: &[&str] = &[
        "a",
        ":",
        ": ",
        "- ",
        "-",
        "? ",
        "\n",
        "\n  ",
        " ",
        "\t",
        "[",
        "]",
        "{",
        "}",
        ",",
        "&x ",
        "*x",
        "!!str ",
        "!",
        "'",
        "\"",
        "\\",
        "|",
        ">",
        "|-",
        "#",
        " #c",
        "---",
        "...",
        "%YAML 1.2\n",
        "%TAG ! tag:x:\n",
        "<<",
        "1",
        ".inf",
        "~",
        "\r",
        "\r\n",
        "\u{feff}",
        "é",
        "\"\\u",
        "\0",
    ];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let iterations = std::env::var("SOURCE_DIFF_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000);
    for _ in 0..iterations {
        let mut s = String::new();
        if next(3) == 0 {
            let f = &files[next(files.len())];
            let start = next(f.len());
            let end = (start + next(3000)).min(f.len());
            s.push_str(f.get(start..end).unwrap_or_default());
        }
        for _ in 0..next(40) {
            s.insert_str(
                (0..=s.len())
                    .filter(|i| s.is_char_boundary(*i))
                    .nth(next(s.len() + 1))
                    .unwrap_or(0),
                FRAGS[next(FRAGS.len())],
            );
        }
        assert!(same_events(&s), "{s:?}");
        assert!(block_agrees(&s), "{s:?}");
    }
}
