//! Objects built from schema nodes: a seeded generator that fills required
//! properties and a random choice of optional ones, within the node's
//! bounds, patterns and formats, and guesses at its CEL rules.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::cel_guesses::{first_has, rule_example, rule_literal, rules};
use super::corpus::CrdVersion;

/// The valid objects' name and namespace.
const NAMESPACE: &str = "default";

/// FNV-1a of the parts.
pub(crate) fn seed(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// SplitMix64.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    pub(crate) fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    /// One of `xs`, at random.
    pub(crate) fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Compiled patterns, by source (`None`: does not compile).
#[derive(Default)]
pub(crate) struct Patterns(HashMap<String, Option<goregex::GoRegex>>);

impl Patterns {
    fn get(&mut self, pattern: &str) -> Option<&goregex::GoRegex> {
        self.0
            .entry(pattern.to_string())
            .or_insert_with(|| goregex::compile(pattern).ok())
            .as_ref()
    }
}

/// Strings tried, in order, for a string field (after the format's own
/// example): the first few that fit the field's pattern and lengths are
/// the choices.
const STRINGS: [&str; 52] = [
    "example",
    "example-1",
    "a",
    "abc",
    "web",
    "default",
    "example.com",
    "app.example.com",
    "Example",
    "EXAMPLE",
    "ExampleName",
    "example_1",
    "1",
    "10",
    "0",
    "1.0",
    "1.0.0",
    "v1",
    "v1.0.0",
    "10s",
    "1m",
    "1h",
    "5m0s",
    "100ms",
    "1Gi",
    "100Mi",
    "500m",
    "10%",
    "https://example.com",
    "http://example.com/path",
    "/path",
    "/",
    "10.0.0.1",
    "10.0.0.0/8",
    "::1",
    "user@example.com",
    "key=value",
    "a:b",
    "a/b",
    "example/app:v1",
    "docker.io/library/nginx:1.25",
    "2024-01-01T00:00:00Z",
    "2024-01-01",
    "123e4567-e89b-12d3-a456-426614174000",
    "ZXhhbXBsZQ==",
    "*",
    "*.example.com",
    "TCP",
    "Ready",
    "us-east-1",
    "0 0 * * *",
    "example text",
];

/// Strings tried, in order, for a pattern mismatch.
const MISMATCHES: [&str; 10] = [
    "Invalid Value!",
    "not valid!",
    "-",
    " ",
    "UPPER_CASE",
    "__",
    "0",
    "a",
    "...",
    "",
];

/// A string example of a format.
fn format_example(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "2024-01-01T00:00:00Z",
        "date" => "2024-01-01",
        "duration" => "10s",
        "uri" | "url" => "https://example.com/path",
        "email" => "user@example.com",
        "hostname" => "example.com",
        "ipv4" | "ip" => "10.0.0.1",
        "ipv6" => "::1",
        "cidr" => "10.0.0.0/8",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "byte" => "ZXhhbXBsZQ==",
        "mac" => "00:00:5e:00:53:01",
        "password" => "secret",
        _ => return None,
    })
}

/// Builds values from schema nodes.
pub(crate) struct Gen<'p> {
    rng: Rng,
    patterns: &'p mut Patterns,
    /// Whether optional properties are included (at random) at all.
    optional: bool,
    /// How many more nodes optional properties may add.
    budget: usize,
    /// Property paths the next value must have (from a parent's CEL rule).
    force_next: Vec<String>,
}

/// Below this depth no optional property is added.
const MAX_DEPTH: usize = 7;

pub(super) fn is(node: &Value, ext: &str) -> bool {
    node[ext] == true
}

pub(super) fn has_rules(node: &Value) -> bool {
    node["x-kubernetes-validations"]
        .as_array()
        .is_some_and(|r| !r.is_empty())
        || ["oneOf", "anyOf", "allOf", "not"]
            .iter()
            .any(|k| node.get(*k).is_some())
}

impl<'p> Gen<'p> {
    pub(crate) fn new(seed: u64, patterns: &'p mut Patterns, optional: bool) -> Self {
        let mut rng = Rng(seed);
        let budget = if optional { 30 + rng.below(170) } else { 0 };
        Gen {
            rng,
            patterns,
            optional,
            budget,
            force_next: Vec::new(),
        }
    }

    /// A value for `node` at `depth` (the root's properties are at 1);
    /// with `free` false an object gets its required properties only.
    pub(super) fn value(&mut self, node: &Value, depth: usize) -> Value {
        self.value_in(node, depth, true)
    }

    fn value_in(&mut self, node: &Value, depth: usize, free: bool) -> Value {
        let forced = std::mem::take(&mut self.force_next);
        self.budget = self.budget.saturating_sub(1);
        if let Some(e) = node["enum"].as_array().filter(|e| !e.is_empty()) {
            let choices: Vec<&Value> = e.iter().filter(|v| !v.is_null()).collect();
            if !choices.is_empty() {
                return choices[self.rng.below(choices.len())].clone();
            }
        }
        if is(node, "x-kubernetes-int-or-string") {
            return self.integer(node).map_or_else(|| json!("1"), Value::from);
        }
        let ty = node["type"].as_str().unwrap_or_else(|| {
            if node.get("properties").is_some()
                || node.get("additionalProperties").is_some()
                || is(node, "x-kubernetes-preserve-unknown-fields")
            {
                "object"
            } else if node.get("items").is_some() {
                "array"
            } else {
                "string"
            }
        });
        match ty {
            "object" => self.object(node, depth, free, forced),
            "array" => self.array(node, depth),
            "integer" => Value::from(self.integer(node).unwrap_or(1)),
            "number" => self.number(node),
            "boolean" => Value::Bool(self.rng.percent(50)),
            _ => Value::String(self.string(node)),
        }
    }

    fn object(&mut self, node: &Value, depth: usize, free: bool, forced: Vec<String>) -> Value {
        let mut out = Map::new();
        let props = node["properties"].as_object();
        if let Some(props) = props {
            let mut wanted: Vec<&str> = string_list(&node["required"]);
            // A oneOf/anyOf of required sets: the first branch's.
            for junctor in ["oneOf", "anyOf"] {
                if let Some(branch) = node[junctor]
                    .as_array()
                    .and_then(|b| b.iter().find(|b| b.get("required").is_some()))
                {
                    wanted.extend(string_list(&branch["required"]));
                }
            }
            // Rules over the properties: only the required ones, and for
            // each rule the first path it asks `has()` of (which satisfies
            // the common "one of these must be set" rules), as well as the
            // paths a parent's rules asked for.
            let mut paths: Vec<String> = forced;
            paths.extend(rules(node).filter_map(first_has).map(str::to_string));
            let mut below: HashMap<&str, Vec<String>> = HashMap::new();
            for p in &paths {
                let (first, rest) = p.split_once('.').unwrap_or((p, ""));
                if let Some((name, _)) = props.get_key_value(first) {
                    wanted.push(name.as_str());
                    if !rest.is_empty() {
                        below
                            .entry(name.as_str())
                            .or_default()
                            .push(rest.to_string());
                    }
                }
            }
            let free = free && self.optional && !has_rules(node) && depth <= MAX_DEPTH;
            let chance = match depth {
                0 | 1 => 80,
                2 => 60,
                3 => 45,
                4 => 30,
                _ => 20,
            };
            let max = node["maxProperties"].as_u64().unwrap_or(u64::MAX) as usize;
            let min = node["minProperties"].as_u64().unwrap_or(0) as usize;
            for (name, child) in props {
                let required = wanted.contains(&name.as_str());
                let optional = free && self.budget > 0 && self.rng.percent(chance);
                if required || (optional && out.len() < max) {
                    self.force_next = below.remove(name.as_str()).unwrap_or_default();
                    out.insert(name.clone(), self.value(child, depth + 1));
                }
            }
            for (name, child) in props {
                if out.len() >= min {
                    break;
                }
                if !out.contains_key(name) {
                    out.insert(name.clone(), self.value(child, depth + 1));
                }
            }
        } else if let Some(add) = node["additionalProperties"].as_object() {
            let add = Value::Object(add.clone());
            let min = node["minProperties"].as_u64().unwrap_or(0) as usize;
            let n = min.max(usize::from(self.optional && self.rng.percent(70)));
            for i in 0..n {
                out.insert(format!("key-{}", i + 1), self.value(&add, depth + 1));
            }
        }
        if is(node, "x-kubernetes-embedded-resource") {
            for (k, v) in [
                ("apiVersion", json!("v1")),
                ("kind", json!("ConfigMap")),
                ("metadata", json!({"name": "embedded"})),
            ] {
                out.entry(k).or_insert(v);
            }
        }
        Value::Object(out)
    }

    fn array(&mut self, node: &Value, depth: usize) -> Value {
        let items = &node["items"];
        let min = node["minItems"].as_u64().unwrap_or(0) as usize;
        let max = node["maxItems"].as_u64().map_or(usize::MAX, |m| m as usize);
        let want = if self.optional {
            1 + self.rng.below(2)
        } else {
            1
        };
        let n = want.max(min).min(max);
        let list_type = node["x-kubernetes-list-type"].as_str();
        let keys = string_list(&node["x-kubernetes-list-map-keys"]);
        let unique = list_type == Some("set") || node["uniqueItems"] == true;
        let identity = |v: &Value| -> Value {
            if list_type == Some("map") {
                Value::Array(keys.iter().map(|k| v[*k].clone()).collect())
            } else {
                v.clone()
            }
        };
        // Rules over the items: their required properties only.
        let free = !has_rules(node);
        let mut out: Vec<Value> = Vec::new();
        let mut tries = 0;
        while out.len() < n && tries < n + 8 {
            tries += 1;
            let mut v = self.value_in(items, depth + 1, free);
            if list_type == Some("map") {
                // The keys must be there.
                for k in &keys {
                    if v.get(*k).is_none() {
                        let child = &items["properties"][*k];
                        let kv = self.value(child, depth + 2);
                        if let Some(m) = v.as_object_mut() {
                            m.insert((*k).to_string(), kv);
                        }
                    }
                }
            }
            if (list_type == Some("map") || unique)
                && out.iter().any(|o| identity(o) == identity(&v))
            {
                continue;
            }
            out.push(v);
        }
        Value::Array(out)
    }

    /// An integer within the node's bounds (and a multiple of
    /// `multipleOf`), if there is one.
    fn integer(&mut self, node: &Value) -> Option<i64> {
        let mut lo = node["minimum"].as_f64().map(|m| m.ceil() as i64);
        if node["exclusiveMinimum"] == true {
            lo = lo.map(|m| m + 1);
        }
        let mut hi = node["maximum"].as_f64().map(|m| m.floor() as i64);
        if node["exclusiveMaximum"] == true {
            hi = hi.map(|m| m - 1);
        }
        let mut v = 1 + self.rng.below(5) as i64;
        if let Some(lo) = lo {
            v = v.max(lo);
        }
        if let Some(hi) = hi {
            v = v.min(hi);
        }
        if let Some(m) = node["multipleOf"].as_f64().filter(|m| *m >= 1.0) {
            let m = m as i64;
            v = (v + m - 1).div_euclid(m) * m;
            if hi.is_some_and(|hi| v > hi) {
                v -= m;
            }
        }
        (lo.is_none_or(|lo| v >= lo) && hi.is_none_or(|hi| v <= hi)).then_some(v)
    }

    fn number(&mut self, node: &Value) -> Value {
        if let Some(v) = self.integer(node) {
            return Value::from(v);
        }
        let lo = node["minimum"].as_f64().unwrap_or(0.0);
        let hi = node["maximum"].as_f64().unwrap_or(lo + 1.0);
        json!((lo + hi) / 2.0)
    }

    fn string(&mut self, node: &Value) -> String {
        if let Some(lit) = rules(node).find_map(rule_literal) {
            return lit;
        }
        let min = node["minLength"].as_u64().unwrap_or(0) as usize;
        let max = node["maxLength"]
            .as_u64()
            .map_or(usize::MAX, |m| m as usize);
        let pattern = node["pattern"].as_str();
        let first = node["format"]
            .as_str()
            .and_then(format_example)
            .or_else(|| rules(node).find_map(rule_example));
        let mut fits: Vec<&str> = Vec::new();
        for s in first.into_iter().chain(STRINGS) {
            let len = s.chars().count();
            if len < min || len > max {
                continue;
            }
            let matches = match pattern {
                Some(p) => self.patterns.get(p).is_none_or(|re| re.is_match(s)),
                None => true,
            };
            if matches {
                fits.push(s);
                if fits.len() == 3 || first.is_some() {
                    break;
                }
            }
        }
        if !fits.is_empty() {
            return fits[self.rng.below(fits.len())].to_string();
        }
        // Nothing fits: the right length at least.
        let mut s = "example".to_string();
        while s.chars().count() < min {
            s.push('a');
        }
        s.chars().take(max.min(s.len())).collect()
    }

    /// A string the node's pattern does not match, within its lengths if
    /// possible.
    pub(super) fn mismatch(&mut self, node: &Value) -> Option<String> {
        let re = self.patterns.get(node["pattern"].as_str()?)?;
        let min = node["minLength"].as_u64().unwrap_or(0) as usize;
        let max = node["maxLength"]
            .as_u64()
            .map_or(usize::MAX, |m| m as usize);
        let candidates: Vec<&str> = MISMATCHES.into_iter().filter(|s| !re.is_match(s)).collect();
        candidates
            .iter()
            .find(|s| (min..=max).contains(&s.chars().count()))
            .or(candidates.first())
            .map(|s| (*s).to_string())
    }
}

pub(super) fn string_list(v: &Value) -> Vec<&str> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The root's properties that objects are built for (not the type meta,
/// the metadata or the status).
pub(super) fn top_properties(schema: &Value) -> impl Iterator<Item = (&String, &Value)> {
    schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !matches!(k.as_str(), "apiVersion" | "kind" | "metadata" | "status"))
}

/// An object of the version: type meta, metadata, and the root's other
/// properties (required ones and `spec` always, others at random).
pub(crate) fn build_object(v: &CrdVersion, name: &str, g: &mut Gen<'_>) -> Value {
    let mut obj = Map::new();
    obj.insert(
        "apiVersion".into(),
        json!(format!("{}/{}", v.group, v.version)),
    );
    obj.insert("kind".into(), json!(v.kind));
    let mut meta = Map::new();
    meta.insert("name".into(), json!(name));
    if v.namespaced {
        meta.insert("namespace".into(), json!(NAMESPACE));
    }
    obj.insert("metadata".into(), Value::Object(meta));
    let required = string_list(&v.schema["required"]);
    for (k, child) in top_properties(&v.schema) {
        if k == "spec" || required.contains(&k.as_str()) || (g.optional && g.rng.percent(30)) {
            obj.insert(k.clone(), g.value(child, 1));
        }
    }
    Value::Object(obj)
}
