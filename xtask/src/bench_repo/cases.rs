//! The deliberately invalid objects: one of each [`CASES`] per CRD version
//! whose schema has a place for the mistake, made in the first such field
//! (breadth first) of an object with only the required fields otherwise.

use serde_json::{Map, Value, json};

use super::corpus::CrdVersion;
use super::generate::{Gen, build_object, has_rules, is, string_list, top_properties};

/// The deliberately invalid objects, one of each per CRD version where the
/// schema has a place for the mistake. The first six are JSON Schema
/// mistakes; the rest are what the API server checks beyond the schema's
/// JSON Schema keywords (the last one the server accepts: it defaults the
/// field before validating).
pub(crate) const CASES: [(&str, &str); 9] = [
    ("wrong-type", "a scalar (without an enum) of another type"),
    (
        "missing-required",
        "a required field (without a default) left out",
    ),
    ("enum", "a value outside the enum"),
    ("maximum", "a number above its maximum"),
    ("unknown-field", "a field the schema does not have"),
    ("pattern", "a string that does not match the pattern"),
    (
        "list-map-duplicate",
        "two items of an x-kubernetes-list-type: map list with the same keys",
    ),
    ("metadata-name", "metadata.name that is not a DNS subdomain"),
    (
        "defaulted-required",
        "(server-valid) a required field with a default left out",
    ),
];

/// A step from a schema node to a child.
#[derive(Clone)]
enum Seg {
    Prop(String),
    Item,
    Entry,
}

impl Seg {
    fn schema<'a>(&self, node: &'a Value) -> &'a Value {
        match self {
            Seg::Prop(name) => &node["properties"][name.as_str()],
            Seg::Item => &node["items"],
            Seg::Entry => &node["additionalProperties"],
        }
    }
}

/// The object path of `segs` (`spec.ports[0].name`).
fn dotted(segs: &[Seg]) -> String {
    let mut out = String::new();
    for s in segs {
        match s {
            Seg::Prop(n) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(n);
            }
            Seg::Item => out.push_str("[0]"),
            Seg::Entry => out.push_str(".key-1"),
        }
    }
    out
}

/// The first node (breadth first from the root's properties, not below
/// the status) that `pred` accepts, preferring one no ancestor of which has
/// CEL rules or junctors (which the materialized path might break).
fn find_target(schema: &Value, mut pred: impl FnMut(&Value) -> bool) -> Option<Vec<Seg>> {
    let mut queue: std::collections::VecDeque<(&Value, Vec<Seg>, bool)> = top_properties(schema)
        .map(|(k, child)| (child, vec![Seg::Prop(k.clone())], true))
        .collect();
    let mut fallback = None;
    let mut visited = 0;
    while let Some((node, path, clean)) = queue.pop_front() {
        visited += 1;
        if visited > 50_000 || path.len() > 12 {
            break;
        }
        if pred(node) {
            if clean {
                return Some(path);
            }
            fallback.get_or_insert(path.clone());
        }
        let clean = clean && !has_rules(node);
        let mut push = |seg: Seg| {
            let child = seg.schema(node);
            if child.is_object() {
                let mut p = path.clone();
                p.push(seg);
                queue.push_back((child, p, clean));
            }
        };
        for k in node["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            push(Seg::Prop(k.clone()));
        }
        push(Seg::Item);
        push(Seg::Entry);
    }
    fallback
}

/// The value at `path` in `obj`, created (with the generator's values)
/// where missing.
fn materialize<'v>(
    mut v: &'v mut Value,
    mut node: &Value,
    path: &[Seg],
    g: &mut Gen<'_>,
) -> Option<&'v mut Value> {
    for (depth, seg) in path.iter().enumerate() {
        let child = seg.schema(node);
        v = match seg {
            Seg::Prop(_) | Seg::Entry => {
                let key = match seg {
                    Seg::Prop(n) => n.clone(),
                    _ => "key-1".to_string(),
                };
                if !v.is_object() {
                    *v = Value::Object(Map::new());
                }
                let Value::Object(m) = v else { return None };
                m.entry(key).or_insert_with(|| g.value(child, depth + 1))
            }
            Seg::Item => {
                if v.as_array().is_none_or(|a| a.is_empty()) {
                    *v = Value::Array(vec![g.value(child, depth + 1)]);
                }
                let Value::Array(a) = v else { return None };
                a.first_mut()?
            }
        };
        node = child;
    }
    Some(v)
}

/// The invalid object of case `ci` for the version, and the field it is
/// about; `None` when the schema has no place for the mistake.
pub(crate) fn invalid_object(
    v: &CrdVersion,
    ci: usize,
    g: &mut Gen<'_>,
) -> Option<(Value, String)> {
    let (case, _) = CASES[ci];
    let mut obj = build_object(v, &format!("invalid-{case}"), g);
    let schema = &v.schema;
    let scalar = |n: &Value| {
        matches!(
            n["type"].as_str(),
            Some("string" | "integer" | "number" | "boolean")
        ) && !is(n, "x-kubernetes-int-or-string")
            && n.get("enum").is_none()
    };
    let has_default = |n: &Value, name: &str| n["properties"][name].get("default").is_some();
    let required_without_default = |n: &Value| -> Option<String> {
        string_list(&n["required"])
            .into_iter()
            .find(|r| n["properties"].get(*r).is_some() && !has_default(n, r))
            .map(str::to_string)
    };
    let required_with_default = |n: &Value| -> Option<String> {
        string_list(&n["required"])
            .into_iter()
            .find(|r| has_default(n, r))
            .map(str::to_string)
    };
    let field = match case {
        "wrong-type" => {
            let path = find_target(schema, scalar)?;
            let bad = match path
                .last()
                .map(|s| s.schema(walk(schema, &path[..path.len() - 1])))
            {
                Some(n) if n["type"] == "string" => json!(12345),
                Some(n) if n["type"] == "boolean" => json!("not-a-bool"),
                _ => json!("not-a-number"),
            };
            *materialize(&mut obj, schema, &path, g)? = bad;
            dotted(&path)
        }
        "enum" => {
            let path = find_target(schema, |n| {
                n["type"] == "string" && n["enum"].as_array().is_some_and(|e| !e.is_empty())
            })?;
            *materialize(&mut obj, schema, &path, g)? = json!("not-in-enum");
            dotted(&path)
        }
        "maximum" => {
            let path = find_target(schema, |n| {
                matches!(n["type"].as_str(), Some("integer" | "number")) && n["maximum"].is_number()
            })?;
            let node = walk(schema, &path);
            let bad = match node["maximum"].as_i64() {
                Some(m) => json!(m.saturating_add(1)),
                None => json!(node["maximum"].as_f64().unwrap_or(0.0) + 1.0),
            };
            *materialize(&mut obj, schema, &path, g)? = bad;
            dotted(&path)
        }
        "pattern" => {
            let mut bad = None;
            let path = find_target(schema, |n| {
                n["type"] == "string"
                    && n.get("enum").is_none()
                    && g.mismatch(n).inspect(|s| bad = Some(s.clone())).is_some()
            })?;
            let bad = g.mismatch(walk(schema, &path)).or(bad)?;
            *materialize(&mut obj, schema, &path, g)? = json!(bad);
            dotted(&path)
        }
        "unknown-field" => {
            let path = find_target(schema, |n| {
                n["properties"].as_object().is_some_and(|p| !p.is_empty())
                    && n.get("additionalProperties").is_none()
                    && !is(n, "x-kubernetes-preserve-unknown-fields")
            })?;
            let m = materialize(&mut obj, schema, &path, g)?.as_object_mut()?;
            m.insert("unknownField".into(), json!("value"));
            format!("{}.unknownField", dotted(&path))
        }
        "missing-required" | "defaulted-required" => {
            let pick = |n: &Value| {
                if case == "missing-required" {
                    required_without_default(n)
                } else {
                    required_with_default(n)
                }
            };
            let path = find_target(schema, |n| pick(n).is_some())?;
            let name = pick(walk(schema, &path))?;
            let m = materialize(&mut obj, schema, &path, g)?.as_object_mut()?;
            m.remove(&name);
            format!("{}.{name}", dotted(&path))
        }
        "list-map-duplicate" => {
            let path = find_target(schema, |n| {
                n["x-kubernetes-list-type"] == "map"
                    && n["maxItems"].as_u64().is_none_or(|m| m >= 2)
            })?;
            let a = materialize(&mut obj, schema, &path, g)?.as_array_mut()?;
            let first = a.first()?.clone();
            a.truncate(1);
            a.push(first);
            format!("{}[1]", dotted(&path))
        }
        "metadata-name" => {
            obj["metadata"]["name"] = json!("Invalid_Name");
            "metadata.name".to_string()
        }
        _ => return None,
    };
    Some((obj, field))
}

/// The schema node at `path`.
fn walk<'a>(mut node: &'a Value, path: &[Seg]) -> &'a Value {
    for s in path {
        node = s.schema(node);
    }
    node
}
