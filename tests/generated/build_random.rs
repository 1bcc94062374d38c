//! Random CRDs for the `generated` test: schemas of every shape the
//! generator maps (objects, maps, arrays, scalars with their validations,
//! int-or-string, preserve-unknown and embedded objects, nullable nodes,
//! list and map types, CEL rules, defaults), with the keys the API server
//! accepts but that have no effect on the node's type (`maxLength` on an
//! array, `enum` on an object, `format: int64` on a string, `items` on an
//! object), odd property names and descriptions the derive's doc-comment
//! conventions would change. Each is kept only when `check` (the API
//! server's CRD validation) passes, so every kept CRD must generate, compile
//! and derive back into itself.
//!
//! The generator is a fixed-seed xorshift, so the set is the same on every
//! build; `SCHEMA_GEN_RANDOM_SEED` picks another one (and
//! `SCHEMA_GEN_RANDOM_CRDS` another count) to explore.

use serde_json::{Map, Value, json};

/// The default seed and number of CRDs.
const SEED: u64 = 0x005e_ed0f_c4d5;
const COUNT: usize = 40;

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True with probability `percent`%.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The seed and count, from the environment or the defaults.
pub fn settings() -> (u64, usize) {
    let seed = std::env::var("SCHEMA_GEN_RANDOM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(SEED);
    let count = std::env::var("SCHEMA_GEN_RANDOM_CRDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(COUNT);
    (seed, count)
}

/// `count` CRDs the API server accepts, as JSON documents, and how many
/// candidates were drawn to find them.
pub fn crds(seed: u64, count: usize) -> (Vec<Value>, usize) {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    let mut drawn = 0;
    while out.len() < count && drawn < count * 50 {
        drawn += 1;
        let crd = crd(&mut rng, out.len());
        let Ok((input, _)) = schema_core::model::wire::input::read_input_owned(crd.clone()) else {
            continue;
        };
        if schema_core::crd::check::check(&input, &schema_core::Options::default())
            .errors
            .is_empty()
        {
            out.push(crd);
        }
    }
    (out, drawn)
}

fn crd(rng: &mut Rng, index: usize) -> Value {
    let kind = format!("Random{index}");
    let plural = format!("random{index}s");
    let mut props = Map::new();
    props.insert("apiVersion".into(), json!({"type": "string"}));
    props.insert("kind".into(), json!({"type": "string"}));
    props.insert("metadata".into(), json!({"type": "object"}));
    props.insert("spec".into(), object(rng, 1));
    if rng.chance(50) {
        props.insert("status".into(), object(rng, 2));
    }
    let mut root = json!({"type": "object", "properties": props});
    if rng.chance(30) {
        root["required"] = json!(["spec"]);
    }
    if rng.chance(40) {
        root["description"] = description(rng);
    }
    let mut version = json!({
        "name": "v1",
        "served": true,
        "storage": true,
        "schema": {"openAPIV3Schema": root},
    });
    if rng.chance(40) && root_has(&version, "status") {
        version["subresources"] = json!({"status": {}});
    }
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{plural}.random.example.com")},
        "spec": {
            "group": "random.example.com",
            "names": {"kind": kind, "listKind": format!("{kind}List"), "plural": plural, "singular": format!("random{index}")},
            "scope": if rng.chance(50) { "Namespaced" } else { "Cluster" },
            "versions": [version],
        },
    })
}

fn root_has(version: &Value, prop: &str) -> bool {
    version
        .pointer(&format!("/schema/openAPIV3Schema/properties/{prop}"))
        .is_some()
}

const NAMES: &[&str] = &[
    "name",
    "size",
    "replicas",
    "type",
    "self",
    "ref",
    "kind",
    "items",
    "mode",
    "x-extra",
    "dash-name",
    "snake_name",
    "camelCase",
    "URL",
    "ipV6",
    "_hidden",
    "1st",
    "a.b",
    "default",
    "match",
    "Self",
    "enum",
    "async",
    "value",
    "values",
    "spec",
    "status",
    "fooBar",
    "foo_bar",
];

fn description(rng: &mut Rng) -> Value {
    let texts = [
        "A plain sentence.",
        "Two lines\nof text.",
        "+kubebuilder:looks-like-a-marker\nthen text",
        "Text with `code`, *emphasis* and <html>.",
        "Paragraph one.\n\nParagraph two.",
        "Ends with a separator\n---\nand more",
        "  leading spaces",
        "TODO: looks like a note",
        "Unicode: résumé, 日本.",
        "Quotes \" and backslashes \\ and #hash",
    ];
    Value::from(*rng.pick(&texts))
}

/// A node of any kind at `depth`.
fn node(rng: &mut Rng, depth: usize) -> Value {
    let kinds = if depth >= 4 { 5 } else { 10 };
    let mut n = match rng.below(kinds) {
        0 => string(rng),
        1 => integer(rng),
        2 => number(rng),
        3 => json!({"type": "boolean"}),
        4 => int_or_string(rng),
        5 | 6 => object(rng, depth + 1),
        7 => array(rng, depth + 1),
        8 => map(rng, depth + 1),
        _ => opaque(rng),
    };
    if rng.chance(25) {
        n["description"] = description(rng);
    }
    if rng.chance(10) {
        n["nullable"] = json!(true);
    }
    n
}

fn string(rng: &mut Rng) -> Value {
    let mut n = json!({"type": "string"});
    match rng.below(6) {
        0 => {
            n["format"] = Value::from(*rng.pick(&[
                "date-time",
                "byte",
                "uuid",
                "int64",
                "hostname",
                "duration",
            ]))
        }
        1 => {
            n["enum"] = json!(["a", "b", "c-d"]);
            if rng.chance(50) {
                n["default"] = json!("b");
            }
        }
        2 => {
            n["pattern"] = json!("^[a-z]+$");
            n["maxLength"] = json!(rng.below(60) + 4);
        }
        3 => {
            n["minLength"] = json!(1);
            if rng.chance(50) {
                n["default"] = json!("x");
            }
        }
        4 => {
            n["x-kubernetes-validations"] =
                json!([{"rule": "self.size() < 100", "message": "too long"}]);
            n["maxLength"] = json!(50);
        }
        _ => {}
    }
    n
}

fn integer(rng: &mut Rng) -> Value {
    let mut n = json!({"type": "integer"});
    match rng.below(5) {
        0 => n["format"] = Value::from(*rng.pick(&["int32", "int64"])),
        1 => {
            n["minimum"] = json!(0);
            n["maximum"] = json!(100);
            if rng.chance(50) {
                n["exclusiveMaximum"] = json!(true);
            }
        }
        2 => {
            n["enum"] = json!([1, 2, 3]);
            n["default"] = json!(2);
        }
        3 => {
            n["multipleOf"] = json!(5);
            n["format"] = json!("int32");
        }
        _ => {}
    }
    n
}

fn number(rng: &mut Rng) -> Value {
    let mut n = json!({"type": "number"});
    match rng.below(3) {
        0 => n["format"] = Value::from(*rng.pick(&["double", "float"])),
        1 => {
            n["minimum"] = json!(0.5);
            n["default"] = json!(1.5);
        }
        _ => {}
    }
    n
}

fn int_or_string(rng: &mut Rng) -> Value {
    let mut n = json!({"x-kubernetes-int-or-string": true});
    if rng.chance(50) {
        n["anyOf"] = json!([{"type": "integer"}, {"type": "string"}]);
    }
    if rng.chance(30) {
        n["pattern"] = json!("^[0-9]+%?$");
    }
    n
}

fn opaque(rng: &mut Rng) -> Value {
    match rng.below(3) {
        0 => json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        1 => json!({"x-kubernetes-preserve-unknown-fields": true}),
        _ => json!({
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true,
        }),
    }
}

fn object(rng: &mut Rng, depth: usize) -> Value {
    let mut props = Map::new();
    let count = 1 + rng.below(5);
    for _ in 0..count {
        let name = (*rng.pick(NAMES)).to_string();
        let child = node(rng, depth);
        props.insert(name, child);
    }
    let mut n = json!({"type": "object", "properties": props});
    let names: Vec<String> = props_of(&n).keys().cloned().collect();
    if rng.chance(40) {
        let required: Vec<&String> = names.iter().filter(|_| rng.chance(50)).collect();
        if !required.is_empty() {
            n["required"] = json!(required);
        }
    }
    match rng.below(8) {
        0 => n["x-kubernetes-map-type"] = json!("atomic"),
        1 => n["maxProperties"] = json!(10),
        2 => {
            // A rule that names a property where the name is a plain
            // identifier (others need CEL's escaping), else one on the
            // object itself.
            let plain = names.iter().find(|n| {
                n.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                    && n.chars().all(|c| c.is_ascii_alphanumeric())
                    && !matches!(n.as_str(), "in" | "as" | "null" | "true" | "false")
            });
            let rule = match plain {
                Some(name) => format!("has(self.{name}) || true"),
                None => "self == self".to_string(),
            };
            n["x-kubernetes-validations"] = json!([{"rule": rule, "message": "always"}]);
        }
        3 => n["x-kubernetes-preserve-unknown-fields"] = json!(true),
        // Keys the server accepts on an object without effect on it.
        4 => n["maxLength"] = json!(3),
        5 => n["items"] = json!({"type": "string"}),
        _ => {}
    }
    n
}

fn props_of(n: &Value) -> &Map<String, Value> {
    n["properties"].as_object().expect("an object node")
}

fn array(rng: &mut Rng, depth: usize) -> Value {
    let scalar = rng.chance(50);
    let items = if scalar {
        if rng.chance(50) {
            string(rng)
        } else {
            integer(rng)
        }
    } else {
        object(rng, depth)
    };
    let mut n = json!({"type": "array", "items": items});
    match rng.below(7) {
        0 => n["maxItems"] = json!(rng.below(20) + 1),
        1 if scalar => n["x-kubernetes-list-type"] = json!("set"),
        2 => n["x-kubernetes-list-type"] = json!("atomic"),
        3 if !scalar => {
            let key = props_of(&n["items"])
                .keys()
                .next()
                .cloned()
                .unwrap_or_default();
            let key_type = n["items"]["properties"][&key]["type"].clone();
            if matches!(key_type.as_str(), Some("string" | "integer")) {
                n["x-kubernetes-list-type"] = json!("map");
                n["x-kubernetes-list-map-keys"] = json!([key]);
                let mut required: Vec<Value> = n["items"]["required"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                if !required.contains(&json!(key)) {
                    required.push(json!(key));
                }
                n["items"]["required"] = Value::Array(required);
            }
        }
        // Keys the server accepts on an array without effect on it.
        4 => n["maxLength"] = json!(10),
        5 => n["enum"] = json!(["x"]),
        _ => {}
    }
    n
}

fn map(rng: &mut Rng, depth: usize) -> Value {
    let values = match rng.below(3) {
        0 => string(rng),
        1 => integer(rng),
        _ => object(rng, depth),
    };
    let mut n = json!({"type": "object", "additionalProperties": values});
    if rng.chance(30) {
        n["maxProperties"] = json!(8);
    }
    if rng.chance(20) {
        n["x-kubernetes-map-type"] = json!("granular");
    }
    n
}
