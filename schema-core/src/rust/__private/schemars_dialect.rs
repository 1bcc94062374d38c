//! The runtime of `#[derive(JsonSchema)]`'s schemars conventions: the
//! validation keywords schemars reads from `#[schemars]`, `#[garde]` and
//! `#[validate]` (applied only where the schema's type admits them, as
//! schemars applies them), `extend(...)`, `nullable` on `Option` fields,
//! serde's default values as schema defaults, and schemas given by a
//! function returning a schemars `Schema` (`schema_with`).

use serde_json::{Map, Value};

use super::Json;
use crate::model::wire::JsonSchemaProps;
use crate::rust::{SchemaCx, StructuralSchema};

/// schemars' validation keywords of one node, each value computed when
/// the schema is built (they are Rust expressions in the attributes), and
/// `extend(...)`'s keys.
#[derive(Clone, Copy, Debug)]
pub struct SchemarsKeywords {
    /// `length(min)`: `minLength` of a string, `minItems` of an array.
    pub length_min: Option<fn() -> Value>,
    /// `length(max)`: `maxLength` of a string, `maxItems` of an array.
    pub length_max: Option<fn() -> Value>,
    /// `range(min)`: `minimum` of a number.
    pub range_min: Option<fn() -> Value>,
    /// `range(max)`: `maximum` of a number.
    pub range_max: Option<fn() -> Value>,
    /// `regex`, `pattern`: the `pattern` of a string.
    pub pattern: Option<fn() -> String>,
    /// `contains`: a substring, matched literally by the `pattern` of a
    /// string.
    pub contains: Option<fn() -> String>,
    /// `email`, `url`, `ip`, `ipv4`, `ipv6`: the `format`, whatever the
    /// type.
    pub format: Option<&'static str>,
    /// `inner(...)`: the keywords of an array's items.
    pub inner: Option<&'static SchemarsKeywords>,
    /// `extend("key" = value)`: schema keys set as written.
    pub extend: &'static [(&'static str, Json)],
}

/// Applies schemars' keywords and `extend(...)` to a schema; the result
/// is decoded again through the wire model, so that a key a
/// `JSONSchemaProps` does not have, or a value of the wrong kind, is an
/// error of the expansion.
pub(super) fn apply_keywords(cx: &mut SchemaCx, s: &mut JsonSchemaProps, k: &SchemarsKeywords) {
    let mut node = s.to_value();
    let Value::Object(map) = &mut node else {
        return;
    };
    keywords_on(map, k);
    for (key, v) in k.extend {
        map.insert((*key).to_string(), v.to_value());
    }
    super::redecode(cx, s, &node, "schemars");
}

fn keywords_on(map: &mut Map<String, Value>, k: &SchemarsKeywords) {
    let ty = map
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let (length_min, length_max) = match ty.as_str() {
        "string" => ("minLength", "maxLength"),
        "array" => ("minItems", "maxItems"),
        _ => ("", ""),
    };
    let numeric = matches!(ty.as_str(), "number" | "integer");
    let mut set = |key: &str, applies: bool, value: Option<Value>| {
        if let (true, Some(v)) = (applies && !key.is_empty(), value) {
            map.insert(key.to_string(), v);
        }
    };
    set(length_min, true, k.length_min.map(|f| f()));
    set(length_max, true, k.length_max.map(|f| f()));
    set("minimum", numeric, k.range_min.map(|f| f()));
    set("maximum", numeric, k.range_max.map(|f| f()));
    let text = ty == "string";
    set("pattern", text, k.pattern.map(|f| Value::String(f())));
    set(
        "pattern",
        text,
        k.contains.map(|f| Value::String(regex::escape(&f()))),
    );
    set(
        "format",
        true,
        k.format.map(|f| Value::String(f.to_string())),
    );
    if let (Some(inner), Some(Value::Object(items))) = (k.inner, map.get_mut("items")) {
        keywords_on(items, inner);
    }
}

/// schemars' convention: an `Option` field's schema is `nullable: true`
/// (an explicit `null` is then kept, not pruned), unless its schema has no
/// type (any JSON value, which schemars leaves as it is).
pub fn nullable_option<T: StructuralSchema + ?Sized>(s: &mut JsonSchemaProps, name: &str) {
    if !T::OPTIONAL {
        return;
    }
    if let Some(p) = s.properties.as_mut().and_then(|p| p.get_mut(name)) {
        if !p.type_str().is_empty() || p.is_int_or_string() {
            p.nullable = Some(true);
        }
    }
}

/// serde's default of a field as the `default` of its schema (`None`: no
/// default, or a value that does not serialize, which schemars leaves
/// out too). The CRD checks validate it against the schema, as the API
/// server does.
pub fn schema_default(s: &mut JsonSchemaProps, name: &str, value: Option<Value>) {
    if let (Some(v), Some(p)) = (value, s.properties.as_mut().and_then(|p| p.get_mut(name))) {
        p.default = Some(v);
    }
}

/// A value that may implement `Serialize`: [`MaybeSerialize::to_json`] is
/// the inherent method when it does, else [`NotSerialize::to_json`]'s
/// `None` (method resolution picks the first that applies, so the derive
/// needs no `Serialize` bound).
pub struct MaybeSerialize<'a, T: ?Sized>(pub &'a T);

impl<T: serde::Serialize + ?Sized> MaybeSerialize<'_, T> {
    /// The value as JSON, or `None` when it does not serialize.
    pub fn to_json(&self) -> Option<Value> {
        serde_json::to_value(self.0).ok()
    }
}

/// The fallback of [`MaybeSerialize`] for values without `Serialize`.
pub trait NotSerialize {
    /// No JSON.
    fn to_json(&self) -> Option<Value> {
        None
    }
}

impl<T: ?Sized> NotSerialize for MaybeSerialize<'_, T> {}

/// The schema a schemars `schema_with` function gives, generated as
/// kube-derive generates a CRD's (OpenAPI 3, subschemas inlined, the
/// settings' transforms applied) and decoded through the wire model.
#[cfg(feature = "k8s-openapi")]
pub fn from_schemars(
    cx: &mut SchemaCx,
    f: fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
) -> JsonSchemaProps {
    let mut generator = schemars::generate::SchemaSettings::openapi3()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut schema = f(&mut generator);
    for t in generator.transforms_mut() {
        t.transform(&mut schema);
    }
    let mut value = schema.to_value();
    sort_required(&mut value);
    let mut s = JsonSchemaProps::default();
    super::redecode(cx, &mut s, &value, "schema_with");
    s
}

/// Sorts every `required` list of a schema, and drops repeats, as kube's
/// structural rewriter leaves them (it holds them in a sorted set). Values
/// (`default`, `enum`, `example`, ...) are data, not schemas, and are left
/// as they are.
#[cfg(feature = "k8s-openapi")]
fn sort_required(v: &mut Value) {
    const VALUES: &[&str] = &["default", "enum", "example", "examples", "const"];
    match v {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                if VALUES.contains(&key.as_str()) {
                    continue;
                }
                match child {
                    Value::Array(names)
                        if key == "required" && names.iter().all(Value::is_string) =>
                    {
                        names.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
                        names.dedup();
                    }
                    _ => sort_required(child),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(sort_required),
        _ => {}
    }
}
