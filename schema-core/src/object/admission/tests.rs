//! The one-walk decoding and validation against the steps one after the
//! other: on objects made from every corpus CRD's schemas, valid ones and
//! ones broken at random, admission with the [`Plan`] and without it must
//! give the same object (in the same key order), pruned paths, errors and
//! warnings. Then the root metadata's `generateName`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Map, Value, json};

use super::*;
use crate::model::options::Options;
use crate::model::source::{Limits, parse_documents};
use crate::model::wire::CustomResourceDefinition;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

fn corpus_crds() -> Vec<(String, CustomResourceDefinition)> {
    let mut out = Vec::new();
    let mut dirs: Vec<std::path::PathBuf> = crate::model::test_corpus::dir("admission tests")
        .into_iter()
        .collect();
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(d) else {
            continue;
        };
        let mut entries: Vec<_> = rd.map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            if !matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("yaml" | "yml" | "json")
            ) {
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            let name = p.display().to_string();
            let Ok(docs) = parse_documents(&name, &bytes, &Limits::default()) else {
                continue;
            };
            for doc in docs {
                if let Ok((input, _)) = crate::model::wire::input::read_input_owned(doc.value) {
                    if let Some(crd) = input.crd() {
                        out.push((name.clone(), crd.clone()));
                    }
                }
            }
        }
    }
    out
}

/// Strings that patterns in real CRDs accept, tried in order.
const CANDIDATES: &[&str] = &[
    "a",
    "abc",
    "web-1",
    "30s",
    "1m",
    "0",
    "1",
    "10",
    "100Mi",
    "1.5",
    "http",
    "https://example.com/x",
    "example.com",
    "a.b.c",
    "10.0.0.1",
    "10.0.0.0/8",
    "::1",
    "Always",
    "true",
    "A",
    "ABC_DEF",
    "a/b",
    "v1",
    "apps/v1",
    "",
];

fn string_for(v: Option<&crate::model::structural::ValueValidation>, rng: &mut Rng) -> Value {
    let Some(v) = v else {
        return json!(CANDIDATES[rng.below(4)]);
    };
    let fmt = match v.format.as_str() {
        "date-time" => Some("2024-01-02T03:04:05Z"),
        "date" => Some("2024-01-02"),
        "duration" => Some("1h"),
        "uri" => Some("https://example.com/x"),
        "hostname" => Some("example.com"),
        "ipv4" => Some("10.0.0.1"),
        "ipv6" => Some("::1"),
        "cidr" => Some("10.0.0.0/8"),
        "email" => Some("a@example.com"),
        "uuid" => Some("123e4567-e89b-12d3-a456-426614174000"),
        "byte" => Some("YWJj"),
        "password" => Some("secret"),
        _ => None,
    };
    if let Some(f) = fmt {
        return json!(f);
    }
    let len_ok = |s: &str| {
        let n = i64::try_from(s.chars().count()).unwrap();
        v.min_length.is_none_or(|m| n >= m) && v.max_length.is_none_or(|m| n <= m)
    };
    if !v.pattern.is_empty() {
        if let Ok(re) = crate::goregex::compile(&v.pattern) {
            let start = rng.below(CANDIDATES.len());
            for i in 0..CANDIDATES.len() {
                let c = CANDIDATES[(start + i) % CANDIDATES.len()];
                if re.is_match(c) && len_ok(c) {
                    return json!(c);
                }
            }
        }
    }
    let mut s = String::from(CANDIDATES[rng.below(3)]);
    let min = usize::try_from(v.min_length.unwrap_or(0))
        .unwrap_or(0)
        .min(64);
    while s.chars().count() < min {
        s.push('a');
    }
    if let Some(max) = v.max_length {
        let max = usize::try_from(max).unwrap_or(0);
        s = s.chars().take(max).collect();
    }
    json!(s)
}

fn number_for(v: Option<&crate::model::structural::ValueValidation>, integer: bool) -> Value {
    let min = v
        .and_then(|v| v.minimum.as_ref())
        .and_then(serde_json::Number::as_f64);
    let max = v
        .and_then(|v| v.maximum.as_ref())
        .and_then(serde_json::Number::as_f64);
    let x = match (min, max) {
        (Some(a), _) => a.ceil() + 1.0,
        (None, Some(b)) => b.floor() - 1.0,
        (None, None) => 3.0,
    };
    let x = match max {
        Some(b) if x > b => b.floor(),
        _ => x,
    };
    if integer {
        json!(x as i64)
    } else {
        json!(x + 0.5)
    }
}

/// A value for `s`, valid as far as a few simple rules make it.
fn make(s: &Structural, rng: &mut Rng, depth: usize) -> Value {
    let vv = s.value_validation.as_deref();
    if let Some(d) = &s.generic.default {
        if rng.one_in(4) {
            return d.clone();
        }
    }
    if let Some(e) = vv.map(|v| &v.enum_).filter(|e| !e.is_empty()) {
        return e[rng.below(e.len())].clone();
    }
    if s.extensions.int_or_string {
        return if rng.one_in(2) { json!(1) } else { json!("1") };
    }
    if s.extensions.embedded_resource {
        return json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}});
    }
    match s.generic.type_.as_str() {
        "object" => {
            let mut m = Map::new();
            if depth < 12 {
                let required: &[String] = vv.map_or(&[], |v| &v.required);
                for (k, p) in &s.properties {
                    if p.generic.default.is_some() && rng.one_in(3) {
                        // Replaced by its default in place.
                        m.insert(k.clone(), Value::Null);
                    } else if required.contains(k) || rng.one_in(2) {
                        m.insert(k.clone(), make(p, rng, depth + 1));
                    }
                }
                if let Some(ap) = s
                    .generic
                    .additional_properties
                    .as_ref()
                    .and_then(|a| a.structural.as_deref())
                {
                    for i in 0..rng.below(3) {
                        m.insert(format!("k{i}"), make(ap, rng, depth + 1));
                    }
                }
            }
            if s.properties.is_empty() && s.extensions.preserve_unknown_fields && rng.one_in(2) {
                m.insert("kept".into(), json!({"any": [1, "x", null]}));
            }
            Value::Object(m)
        }
        "array" => {
            let min = vv.and_then(|v| v.min_items).unwrap_or(0);
            let max = vv.and_then(|v| v.max_items).unwrap_or(3);
            let n = i64::try_from(rng.below(3))
                .unwrap()
                .max(min)
                .min(max)
                .min(4);
            let items = s.items.as_deref();
            let list: Vec<Value> = (0..n)
                .map(|_| {
                    items.map_or(json!("x"), |i| {
                        if depth < 12 {
                            make(i, rng, depth + 1)
                        } else {
                            Value::Null
                        }
                    })
                })
                .collect();
            Value::Array(list)
        }
        "string" => string_for(vv, rng),
        "integer" => number_for(vv, true),
        "number" => number_for(vv, false),
        "boolean" => json!(rng.one_in(2)),
        _ => json!({"free": "form"}),
    }
}

/// Breaks `v` at one random place (or not at all).
fn mutate(v: &mut Value, rng: &mut Rng) {
    match v {
        Value::Object(m) if !m.is_empty() && rng.below(3) != 0 => {
            let i = rng.below(m.len());
            let key = m.keys().nth(i).cloned().unwrap();
            match rng.below(8) {
                0 => {
                    m.shift_remove(&key);
                }
                1 => {
                    m.insert(key, Value::Null);
                }
                2 => {
                    m.insert("zzUnknown".into(), json!({"deep": [{"a": null}]}));
                }
                3 => {
                    m.insert(key, json!(7));
                }
                4 => {
                    m.insert(key, json!("seven"));
                }
                5 => {
                    m.insert(key, json!([null, {}]));
                }
                _ => {
                    if let Some(c) = m.get_mut(&key) {
                        mutate(c, rng);
                    }
                }
            }
        }
        Value::Array(a) if !a.is_empty() => match rng.below(4) {
            0 => a.push(Value::Null),
            1 => {
                let c = a[0].clone();
                a.push(c);
            }
            _ => {
                let i = rng.below(a.len());
                mutate(&mut a[i], rng);
            }
        },
        _ => {}
    }
}

fn render(a: &Admitted) -> String {
    format!(
        "object: {}\npruned: {:?}\nerrors: {:?}\nratcheted: {:?}\nwarnings: {:?}",
        serde_json::to_string(&a.object).unwrap(),
        a.pruned,
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        a.ratcheted
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        a.warnings
    )
}

#[test]
fn one_walk_admits_as_the_steps_do() {
    if crate::model::test_corpus::dir("one_walk_admits_as_the_steps_do").is_none() {
        return;
    }
    let crds = corpus_crds();
    assert!(crds.len() >= 30, "the corpus has {} CRDs", crds.len());
    let mut rng = Rng(std::env::var("ONE_WALK_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x9e37_79b9_7f4a_7c15));
    let rounds: usize = std::env::var("ONE_WALK_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let (mut objects, mut valid, mut proven) = (0, 0, 0);
    for (file, crd) in &crds {
        let spec = crd.spec.as_ref().unwrap();
        let group = spec.group.clone().unwrap_or_default();
        let kind = spec
            .names
            .as_ref()
            .and_then(|n| n.kind.clone())
            .unwrap_or_default();
        for v in spec.versions.iter().flatten() {
            let version = v.name.clone().unwrap_or_default();
            let Ok(fast) = Admission::for_crd(crd, &version, &Options::default()) else {
                continue;
            };
            let Ok(mut slow) = Admission::for_crd(crd, &version, &Options::default()) else {
                continue;
            };
            slow.plan = None;
            let Some(structural) = fast.structural.as_ref() else {
                continue;
            };
            for round in 0..rounds {
                let mut obj = make(structural.structural(), &mut rng, 0);
                let Value::Object(m) = &mut obj else { continue };
                m.insert("apiVersion".into(), json!(format!("{group}/{version}")));
                m.insert("kind".into(), json!(kind));
                m.insert(
                    "metadata".into(),
                    json!({"name": "x", "namespace": "default", "labels": {"a": "b"}}),
                );
                if round % 2 == 1 {
                    for _ in 0..=rng.below(3) {
                        mutate(&mut obj, &mut rng);
                    }
                }
                let want = slow.create(obj.clone());
                let got = fast.create(obj.clone());
                assert_eq!(
                    render(&got),
                    render(&want),
                    "{file} {version}: {}",
                    serde_json::to_string(&obj).unwrap()
                );
                let old = want.object.clone();
                if round % 3 == 0 && old.is_object() {
                    let mut new = old.clone();
                    mutate(&mut new, &mut rng);
                    let want = slow.update(new.clone(), old.clone());
                    let got = fast.update(new.clone(), old);
                    assert_eq!(render(&got), render(&want), "{file} {version} update");
                }
                objects += 1;
                if want.errors.is_empty() {
                    valid += 1;
                    let s = fast.structural.as_ref().map(IndexedSchema::view).unwrap();
                    let mut o = obj.clone();
                    if crate::object::prune_default_walk::checkable(&o, s) {
                        let plan = fast.plan.as_ref().unwrap();
                        if decode_resource_checked(&mut o, s, plan).valid && plan.root_passes(&o) {
                            proven += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!("{objects} objects, {valid} valid, {proven} of those proven in one walk");
    assert!(
        valid * 4 >= objects,
        "too few valid objects: {valid} of {objects}"
    );
    assert!(
        proven * 10 >= valid * 9,
        "one walk proved {proven} of {valid}"
    );
}

fn small_crd() -> CustomResourceDefinition {
    let doc = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "things.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList"},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}},
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "required": ["spec"],
                    "properties": {
                        "spec": {
                            "type": "object",
                            "properties": {
                                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                                "open": {"type": "object", "additionalProperties": true},
                                "list": {"type": "array", "items": {"type": "array", "items": {"type": "object"}}},
                                "n": {"type": "integer", "default": 3, "minimum": 1},
                                "tags": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 3}},
                            },
                        },
                        "status": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
                    },
                }},
            }],
        },
    });
    let (input, _) = crate::model::wire::input::read_input_owned(doc).unwrap();
    input.crd().unwrap().clone()
}

fn nest(levels: usize) -> Value {
    let mut v = json!(1);
    for i in 0..levels {
        // Not `json!`, which copies its operand through serialization.
        v = if i % 2 == 0 {
            Value::Array(vec![v])
        } else {
            Value::Object(Map::from_iter([("x".to_string(), v)]))
        };
    }
    v
}

#[test]
fn one_walk_keeps_the_depth_limit_and_the_edges() {
    // Values nested 10,000 levels deep are cloned, compared and printed
    // recursively here.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(depth_and_edges)
        .unwrap()
        .join()
        .unwrap();
}

fn depth_and_edges() {
    let crd = small_crd();
    let fast = Admission::for_crd(&crd, "v1", &Options::default()).unwrap();
    let mut slow = Admission::for_crd(&crd, "v1", &Options::default()).unwrap();
    slow.plan = None;
    assert!(fast.plan.is_some());
    let base = json!({"apiVersion": "example.com/v1", "kind": "Thing", "metadata": {"name": "a"}});
    let with = |path: &[&str], v: Value| {
        let mut o = base.clone();
        let mut cur = &mut o;
        for (i, k) in path.iter().enumerate() {
            let m = cur.as_object_mut().unwrap();
            if i + 1 == path.len() {
                m.insert((*k).to_string(), v.clone());
                break;
            }
            cur = m.entry(k.to_string()).or_insert_with(|| json!({}));
        }
        o
    };
    // Deep values where the walk follows the schema, where it keeps
    // unknown fields, where it prunes, under a boolean
    // additionalProperties, and in the metadata; at and just past the
    // limit.
    let mut cases = Vec::new();
    for levels in [
        MAX_VALUE_NESTING - 3,
        MAX_VALUE_NESTING - 2,
        MAX_VALUE_NESTING - 1,
        MAX_VALUE_NESTING,
    ] {
        cases.push(with(&["spec", "free", "deep"], nest(levels)));
        cases.push(with(&["spec", "unknown"], nest(levels)));
        cases.push(with(&["spec", "open", "deep"], nest(levels)));
        cases.push(with(
            &["spec", "list"],
            Value::Array(vec![Value::Array(vec![nest(levels)])]),
        ));
        cases.push(with(&["metadata", "annotations"], nest(levels)));
        cases.push(with(&["unknown"], nest(levels)));
    }
    // Nulls, defaults, errors, status.
    cases.push(with(
        &["spec"],
        json!({"n": null, "tags": {"a": "long", "b": null}}),
    ));
    cases.push(with(&["spec"], json!({"n": 0, "list": [null, [null]]})));
    cases.push(with(
        &["spec"],
        json!({"free": {"n": null}, "open": {"a": {"b": 1}}}),
    ));
    cases.push(with(&["status"], json!({"ok": "yes"})));
    cases.push(with(&["status"], json!({"ok": true})));
    cases.push(with(&["spec"], Value::Null));
    cases.push(base.clone());
    let mut too_deep = 0;
    for obj in cases {
        let want = slow.create(obj.clone());
        let got = fast.create(obj.clone());
        if want.errors.iter().any(|e| e.detail.contains("levels deep")) {
            too_deep += 1;
        }
        assert_eq!(render(&got), render(&want));
        let old = base.clone();
        let want = slow.update(obj.clone(), old.clone());
        let got = fast.update(obj, old);
        assert_eq!(render(&got), render(&want));
        crate::model::depth::drop_deep(want.object);
        crate::model::depth::drop_deep(got.object);
    }
    assert!(too_deep >= 6, "{too_deep}");
}

/// The errors of creating a `Thing` with `metadata`.
fn create_errors(metadata: Value) -> Vec<String> {
    let admission = Admission::for_crd(&small_crd(), "v1", &Options::default()).unwrap();
    let obj =
        json!({"apiVersion": "example.com/v1", "kind": "Thing", "metadata": metadata, "spec": {}});
    let admitted = admission.create(obj);
    admitted.errors.iter().map(ToString::to_string).collect()
}

#[test]
fn generate_name_is_a_dns_subdomain_prefix() {
    const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    assert!(create_errors(json!({"generateName": "thing-"})).is_empty());
    // A lone dash is not masked (`maskTrailingDash` needs two bytes), and
    // the generated name starts with it.
    assert_eq!(
        create_errors(json!({"generateName": "-"})),
        [
            format!(r#"metadata.generateName: Invalid value: "-": {SUBDOMAIN_MSG}"#),
            format!(r#"metadata.name: Invalid value: "-xxxxx": {SUBDOMAIN_MSG}"#),
        ]
    );
    // 254 bytes ending in a dash: the mask cuts two bytes (253 remain), and
    // the generated name keeps 58 bytes of the prefix.
    let long = format!("{}-", "a".repeat(253));
    assert!(create_errors(json!({"generateName": long})).is_empty());
    let longer = format!("{}-", "a".repeat(254));
    assert_eq!(
        create_errors(json!({"generateName": longer})),
        [format!(
            r#"metadata.generateName: Invalid value: "{longer}": must be no more than 253 characters"#
        )]
    );
}
