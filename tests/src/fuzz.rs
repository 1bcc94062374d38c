//! Random structural schemas, CRDs, objects and CEL rules for the
//! differential tests: generated with proptest from a seed, each case sent
//! to the oracle and to schema-gen as several requests; a case whose
//! answers differ is shrunk to a smallest one that still differs, and its
//! differing requests are written as regression inputs.

use std::cell::RefCell;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;
use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::{Map, Value, json};

use crate::oracle::Oracle;

/// What a fuzzing run did.
#[derive(Debug, Default)]
pub struct Report {
    /// Random cases generated and compared (shrinking steps not counted).
    pub cases: usize,
    /// Requests sent to both sides, shrinking included.
    pub requests: usize,
    /// One entry per shrunk difference: the requests and what differs.
    pub failures: Vec<String>,
}

/// A seed from the clock, for runs that do not name one.
pub fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs())
}

/// Runs random cases against `oracle` until `deadline` or, when given,
/// `max_cases` (in batches of 64), starting from `seed` (the same seed
/// gives the same cases). Shrunk differences are written to `out_dir` as
/// `<op>-<hash>.json`.
pub fn run(
    oracle: &mut Oracle,
    seed: u64,
    deadline: Instant,
    max_cases: Option<usize>,
    out_dir: &Path,
) -> Report {
    let oracle = RefCell::new(oracle);
    let mut report = Report::default();
    let requests = RefCell::new(0usize);
    let mut batch = 0u64;
    while Instant::now() < deadline
        && report.failures.is_empty()
        && max_cases.is_none_or(|m| report.cases < m)
    {
        let mut seed_bytes = [0u8; 32];
        seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
        seed_bytes[8..16].copy_from_slice(&batch.to_le_bytes());
        let config = Config {
            cases: 64,
            failure_persistence: None,
            max_shrink_iters: 2048,
            ..Config::default()
        };
        let mut runner = TestRunner::new_with_rng(
            config,
            TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
        );
        let cases = RefCell::new(0usize);
        let result = runner.run(&case(), |c| {
            *cases.borrow_mut() += 1;
            let mut o = oracle.borrow_mut();
            let mut diffs = Vec::new();
            for req in c.requests() {
                *requests.borrow_mut() += 1;
                let d = compared(&mut o, &req);
                if !d.is_empty() {
                    diffs.push((req, d));
                }
            }
            if diffs.is_empty() {
                Ok(())
            } else {
                Err(TestCaseError::fail(render(&diffs)))
            }
        });
        report.cases += (*cases.borrow()).min(64);
        if let Err(e) = result {
            let shrunk = match &e {
                proptest::test_runner::TestError::Fail(_, c) => Some(c.clone()),
                proptest::test_runner::TestError::Abort(_) => None,
            };
            let mut text = format!("random case (seed {seed}, batch {batch}) differs: {e}");
            if let Some(c) = shrunk {
                for req in c.requests() {
                    if !compared(&mut oracle.borrow_mut(), &req).is_empty() {
                        match write_regression(out_dir, &req) {
                            Ok(p) => text.push_str(&format!("\n  written to {}", p.display())),
                            Err(err) => text.push_str(&format!("\n  not written: {err}")),
                        }
                    }
                }
            }
            report.failures.push(text);
        }
        batch += 1;
    }
    report.requests = *requests.borrow();
    report
}

/// The differences of one request's comparable answers.
fn compared(oracle: &mut Oracle, req: &Value) -> Vec<String> {
    crate::oracle::compare(oracle, req)
}

fn render(diffs: &[(Value, Vec<String>)]) -> String {
    let mut s = String::new();
    for (req, d) in diffs {
        s.push_str(&format!("\n  request: {req}\n    {}", d.join("\n    ")));
    }
    s
}

fn write_regression(dir: &Path, req: &Value) -> std::io::Result<std::path::PathBuf> {
    std::fs::create_dir_all(dir)?;
    let text = serde_json::to_string_pretty(req).unwrap_or_default();
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    let op = req["op"].as_str().unwrap_or("request");
    let path = dir.join(format!("{op}-{:016x}.json", h.finish()));
    std::fs::write(&path, text + "\n")?;
    Ok(path)
}

/// One random case: a schema for the `spec` of a resource, an object for
/// it, and an old object for updates.
#[derive(Clone, Debug)]
pub struct Case {
    /// The schema of `spec`.
    pub spec_schema: Value,
    /// A value for `spec`.
    pub spec: Value,
    /// A value for `spec` of the old object.
    pub old_spec: Value,
    /// Whether the resource is namespaced.
    pub namespaced: bool,
}

impl Case {
    /// The root schema of the resource.
    pub fn root_schema(&self) -> Value {
        json!({"type": "object", "properties": {"spec": self.spec_schema}})
    }

    /// A CRD serving the root schema as `v1` of `widgets.fuzz.example.com`.
    pub fn crd(&self) -> Value {
        json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.fuzz.example.com"},
            "spec": {
                "group": "fuzz.example.com",
                "names": {"kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget"},
                "scope": if self.namespaced { "Namespaced" } else { "Cluster" },
                "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": self.root_schema()}}],
            },
        })
    }

    fn resource(&self, spec: &Value) -> Value {
        // An update names the resource version it replaces.
        let mut meta = json!({"name": "w", "resourceVersion": "1"});
        if self.namespaced {
            meta["namespace"] = json!("default");
        }
        json!({"apiVersion": "fuzz.example.com/v1", "kind": "Widget", "metadata": meta, "spec": spec})
    }

    /// The requests the case sends to both sides.
    pub fn requests(&self) -> Vec<Value> {
        let schema = &self.spec_schema;
        let ns = if self.namespaced { "default" } else { "" };
        vec![
            json!({"op": "structural", "schema": schema}),
            json!({"op": "validate_crd", "crd": self.crd()}),
            json!({"op": "prune", "schema": schema, "object": self.spec, "isResourceRoot": false, "trackUnknownFieldPaths": true}),
            json!({"op": "default", "schema": schema, "object": self.spec, "operation": "Default"}),
            json!({"op": "validate_value", "schema": schema, "object": self.spec, "oldObject": self.old_spec}),
            json!({"op": "cel_compile", "schema": schema}),
            json!({"op": "publish", "crd": self.crd(), "v2": true}),
            json!({"op": "publish", "crd": self.crd(), "v2": false}),
            json!({"op": "admit", "crd": self.crd(), "version": "v1", "object": self.resource(&self.spec), "namespace": ns}),
            json!({"op": "admit", "crd": self.crd(), "version": "v1", "object": self.resource(&self.spec), "oldObject": self.resource(&self.old_spec), "namespace": ns}),
        ]
    }
}

/// The strategy of a whole case.
pub fn case() -> impl Strategy<Value = Case> {
    (object_schema(3), any::<bool>()).prop_flat_map(|(schema, namespaced)| {
        let v = value_for(&schema, 3);
        let old = value_for(&schema, 3);
        (Just(schema), v, old, Just(namespaced)).prop_map(
            |(spec_schema, spec, old_spec, namespaced)| Case {
                spec_schema,
                spec,
                old_spec,
                namespaced,
            },
        )
    })
}

const NAMES: &[&str] = &["a", "b", "name", "port", "items", "x-y"];

/// A structural schema of `type: object` with properties, or a map.
fn object_schema(depth: u32) -> BoxedStrategy<Value> {
    let props = prop::collection::btree_map(
        prop::sample::select(NAMES),
        schema(depth.saturating_sub(1)),
        0..4,
    );
    let map_of = schema(depth.saturating_sub(1));
    (
        props,
        prop::option::weighted(0.15, map_of),
        prop::option::weighted(0.2, object_rule()),
        any::<bool>(),
        prop::option::weighted(0.1, Just(json!({}))),
    )
        .prop_map(|(props, additional, rule, require_first, default)| {
            let mut m = Map::new();
            m.insert("type".into(), json!("object"));
            if let Some(ap) = additional {
                m.insert("additionalProperties".into(), ap);
            } else if !props.is_empty() {
                if require_first {
                    let first = props.keys().next().copied().unwrap_or("a");
                    m.insert("required".into(), json!([first]));
                }
                m.insert(
                    "properties".into(),
                    Value::Object(props.into_iter().map(|(k, v)| (k.to_string(), v)).collect()),
                );
            }
            if let Some(r) = rule {
                m.insert("x-kubernetes-validations".into(), json!([r]));
            }
            if let Some(d) = default {
                m.insert("default".into(), d);
            }
            Value::Object(m)
        })
        .boxed()
}

fn object_rule() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        json!({"rule": "size(self) <= 2", "message": "too many"}),
        json!({"rule": "has(self.a) || !has(self.b)"}),
        json!({"rule": "self == oldSelf", "message": "immutable"}),
        json!({"rule": "!has(self.name) || self.name != 'x'", "messageExpression": "'bad name ' + self.name"}),
        // Over a map's keys: `exists_one` reads every key, so its cost
        // does not depend on Go's random map order (an `all` stopping at
        // the first failing key would).
        json!({"rule": "!self.exists_one(k, k.size() >= 5)"}),
        json!({"rule": "self.all(k, k.size() < 10)"}),
    ])
}

/// Any structural schema.
fn schema(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        string_schema(),
        integer_schema(),
        Just(json!({"type": "number", "maximum": 10.5})),
        Just(json!({"type": "boolean"})),
        Just(json!({"x-kubernetes-int-or-string": true})),
        Just(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})),
        Just(json!({"type": "string", "nullable": true})),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    prop_oneof![
        4 => leaf,
        2 => object_schema(depth),
        2 => array_schema(depth),
    ]
    .boxed()
}

fn string_schema() -> impl Strategy<Value = Value> {
    (
        prop::option::weighted(0.3, 0u64..4),
        prop::option::weighted(0.2, prop::sample::select(vec!["^[a-z]+$", "^a", "[0-9]"])),
        prop::option::weighted(0.2, Just(json!(["a", "bb", "ccc"]))),
        prop::option::weighted(0.2, prop::sample::select(vec!["date-time", "int-or-string", "uuid", "email", "hostname", "byte", "duration", "ipv4"])),
        prop::option::weighted(0.3, prop::sample::select(vec![
            json!({"rule": "self.size() < 3"}),
            json!({"rule": "self.startsWith('a')", "message": "must start with a"}),
            json!({"rule": "self.matches('^[a-c]*$')"}),
            json!({"rule": "self == oldSelf"}),
            json!({"rule": "self.lowerAscii() == self", "messageExpression": "self + ' is not lowercase'"}),
        ])),
        prop::option::weighted(0.15, prop::sample::select(vec!["a", "bb", "zzzz"])),
    )
        .prop_map(|(max_len, pattern, en, format, rule, default)| {
            let mut m = Map::new();
            m.insert("type".into(), json!("string"));
            if let Some(n) = max_len {
                m.insert("maxLength".into(), json!(n));
            }
            if let Some(p) = pattern {
                m.insert("pattern".into(), json!(p));
            }
            if let Some(e) = en {
                m.insert("enum".into(), e);
            }
            if let Some(f) = format {
                m.insert("format".into(), json!(f));
            }
            if let Some(r) = rule {
                m.insert("x-kubernetes-validations".into(), json!([r]));
            }
            if let Some(d) = default {
                m.insert("default".into(), json!(d));
            }
            Value::Object(m)
        })
}

fn integer_schema() -> impl Strategy<Value = Value> {
    (
        prop::option::weighted(0.3, -2i64..3),
        prop::option::weighted(0.3, 0i64..100),
        any::<bool>(),
        prop::option::weighted(0.2, prop::sample::select(vec!["int32", "int64"])),
        prop::option::weighted(0.2, 2i64..4),
        prop::option::weighted(
            0.3,
            prop::sample::select(vec![
                json!({"rule": "self < 50"}),
                json!({"rule": "self % 2 == 0", "message": "must be even"}),
                json!({"rule": "self >= oldSelf", "message": "cannot decrease"}),
            ]),
        ),
        prop::option::weighted(0.15, 0i64..10),
    )
        .prop_map(|(min, max, exclusive, format, multiple, rule, default)| {
            let mut m = Map::new();
            m.insert("type".into(), json!("integer"));
            if let Some(n) = min {
                m.insert("minimum".into(), json!(n));
            }
            if let Some(n) = max {
                m.insert("maximum".into(), json!(n));
                if exclusive {
                    m.insert("exclusiveMaximum".into(), json!(true));
                }
            }
            if let Some(f) = format {
                m.insert("format".into(), json!(f));
            }
            if let Some(n) = multiple {
                m.insert("multipleOf".into(), json!(n));
            }
            if let Some(r) = rule {
                m.insert("x-kubernetes-validations".into(), json!([r]));
            }
            if let Some(d) = default {
                m.insert("default".into(), json!(d));
            }
            Value::Object(m)
        })
}

fn array_schema(depth: u32) -> impl Strategy<Value = Value> {
    let keyed_item = Just(json!({
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string"}, "port": {"type": "integer"}},
    }));
    prop_oneof![
        (schema(depth - 1), prop::option::of(0u64..3), prop::option::weighted(0.3, prop::sample::select(vec![
            json!({"rule": "self.size() <= 2"}),
            json!({"rule": "self.all(x, x == x)"}),
        ])))
            .prop_map(|(items, max_items, rule)| {
                let mut m = Map::new();
                m.insert("type".into(), json!("array"));
                m.insert("items".into(), items);
                if let Some(n) = max_items {
                    m.insert("maxItems".into(), json!(n));
                }
                if let Some(r) = rule {
                    m.insert("x-kubernetes-validations".into(), json!([r]));
                }
                Value::Object(m)
            }),
        prop::sample::select(vec!["string", "integer"]).prop_map(|t| json!({
            "type": "array", "x-kubernetes-list-type": "set", "items": {"type": t},
        })),
        keyed_item.prop_map(|item| json!({
            "type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], "items": item,
        })),
    ]
}

/// A value for `schema`: mostly what it describes, sometimes not (a wrong
/// type, an unknown field, a null, a value out of bounds).
fn value_for(schema: &Value, depth: u32) -> BoxedStrategy<Value> {
    let wrong = prop_oneof![
        Just(Value::Null),
        Just(json!("s")),
        Just(json!(7)),
        Just(json!(true)),
        Just(json!({"zz": 1})),
        Just(json!([1])),
    ];
    let right = fitting_value(schema, depth);
    prop_oneof![9 => right, 1 => wrong].boxed()
}

fn fitting_value(schema: &Value, depth: u32) -> BoxedStrategy<Value> {
    if schema["x-kubernetes-int-or-string"] == true {
        return prop_oneof![(-3i64..100).prop_map(|n| json!(n)), Just(json!("50%"))].boxed();
    }
    match schema["type"].as_str().unwrap_or("") {
        "string" => {
            if let Some(e) = schema["enum"].as_array().cloned() {
                return prop_oneof![prop::sample::select(e), Just(json!("dd"))].boxed();
            }
            prop::sample::select(vec![
                "",
                "a",
                "ab",
                "abc",
                "ABC",
                "zzzz",
                "2024-01-01T00:00:00Z",
                "not a date",
                "1s",
                "10.0.0.1",
                "aGk=",
                "a@b.c",
                "a-b",
            ])
            .prop_map(|s| json!(s))
            .boxed()
        }
        "integer" => (-5i64..120).prop_map(|n| json!(n)).boxed(),
        "number" => prop_oneof![
            (-5i64..20).prop_map(|n| json!(n)),
            Just(json!(1.5)),
            Just(json!(11.25))
        ]
        .boxed(),
        "boolean" => any::<bool>().prop_map(|b| json!(b)).boxed(),
        "array" if depth > 0 => {
            let item = schema["items"].clone();
            prop::collection::vec(value_for(&item, depth - 1), 0..4)
                .prop_map(Value::Array)
                .boxed()
        }
        "object" if depth > 0 => {
            if schema["x-kubernetes-preserve-unknown-fields"] == true {
                return prop::sample::select(vec![json!({}), json!({"k": {"n": [1, null]}})])
                    .boxed();
            }
            if let Some(ap) = schema.get("additionalProperties") {
                return prop::collection::btree_map(
                    prop::sample::select(vec!["k1", "k2", "toolong"]),
                    value_for(ap, depth - 1),
                    0..3,
                )
                .prop_map(|m| {
                    Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
                })
                .boxed();
            }
            let props: Vec<(String, Value)> = schema["properties"]
                .as_object()
                .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default();
            let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = props
                .into_iter()
                .map(|(k, s)| {
                    prop::option::weighted(
                        0.7,
                        value_for(&s, depth - 1).prop_map(move |v| (k.clone(), v)),
                    )
                    .boxed()
                })
                .collect();
            (
                fields,
                prop::option::weighted(0.1, Just(("unknown".to_string(), json!(1)))),
            )
                .prop_map(|(fields, extra)| {
                    Value::Object(fields.into_iter().flatten().chain(extra).collect())
                })
                .boxed()
        }
        _ => Just(json!({})).boxed(),
    }
}
