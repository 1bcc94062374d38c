//! `ToKubeOpenAPI` (apiextensions-apiserver's
//! `pkg/apiserver/schema/kubeopenapi.go`): a structural schema written as
//! the JSON of the kube-openapi `spec.Schema` the API server publishes,
//! quirks and Go's number formatting included.

use serde_json::{Map, Number, Value};

use super::schema_json::canonicalize;
use crate::model::structural::{
    Extensions, Generic, NestedValueValidation, Structural, ValueValidation,
};
use crate::model::wire::ValidationRule;

/// `ToKubeOpenAPI`: the structural schema as the kube-openapi `spec.Schema`
/// the API server publishes, serialized as JSON.
///
/// Generic fields are `type` (when set), `nullable`, `description`,
/// `title`, `default`, `externalDocs` and `example`. `additionalProperties` is the
/// schema, or the boolean when there is none. Extensions are emitted when
/// true (the flags) or set (list type, map type, non-empty list-map keys).
/// A nested value validation (under `allOf`, `anyOf`, `oneOf`, `not`) emits
/// its value validations, `x-kubernetes-validations`, `items`,
/// `properties` and its forbidden generic fields and extensions, but not
/// its `additionalProperties`.
#[must_use]
pub fn to_kube_openapi(s: &Structural) -> Value {
    let mut v = Value::Object(kube_structural(s));
    canonicalize(&mut v);
    v
}

/// One structural node (and its children) as a kube-openapi schema
/// object.
pub(super) fn kube_structural(s: &Structural) -> Map<String, Value> {
    let items = s.items.as_deref().map(kube_structural);
    let props = sorted_properties(&s.properties, kube_structural);
    let ap = s
        .generic
        .additional_properties
        .as_ref()
        .map(|ap| match ap.structural.as_deref() {
            Some(a) => Value::Object(kube_structural(a)),
            None => Value::Bool(ap.allows),
        });
    emit_node(
        &s.generic,
        s.value_validation.as_deref(),
        items,
        props,
        ap,
        &s.extensions,
        &s.x_validations,
    )
}

/// One nested value validation (and its children) as a kube-openapi
/// schema object.
fn kube_nested(n: &NestedValueValidation) -> Map<String, Value> {
    let items = n.items.as_deref().map(kube_nested);
    let props = sorted_properties(&n.properties, kube_nested);
    emit_node(
        &n.forbidden_generics,
        Some(&n.value_validation),
        items,
        props,
        None,
        &n.forbidden_extensions,
        &n.x_validations,
    )
}

/// `properties` converted by `f` and sorted by name (as Go marshals maps);
/// `None` when there are none.
fn sorted_properties<T>(
    props: &indexmap::IndexMap<String, T>,
    f: fn(&T) -> Map<String, Value>,
) -> Option<Map<String, Value>> {
    if props.is_empty() {
        return None;
    }
    let mut entries: Vec<(&String, &T)> = props.iter().collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    Some(
        entries
            .into_iter()
            .map(|(k, v)| (k.clone(), Value::Object(f(v))))
            .collect(),
    )
}

/// Writes one schema object with its keys already in kube-openapi's
/// marshalling order ([`SCHEMA_KEY_ORDER`], then the extensions sorted),
/// so that [`canonicalize`] finds nothing to move.
///
/// [`SCHEMA_KEY_ORDER`]: super::schema_json::SCHEMA_KEY_ORDER
fn emit_node(
    g: &Generic,
    vv: Option<&ValueValidation>,
    items: Option<Map<String, Value>>,
    props: Option<Map<String, Value>>,
    ap: Option<Value>,
    x: &Extensions,
    rules: &[ValidationRule],
) -> Map<String, Value> {
    let mut m = Map::new();
    if !g.description.is_empty() {
        m.insert("description".into(), Value::String(g.description.clone()));
    }
    if !g.type_.is_empty() {
        m.insert("type".into(), Value::String(g.type_.clone()));
    }
    if g.nullable {
        m.insert("nullable".into(), Value::Bool(true));
    }
    if let Some(v) = vv.filter(|v| !v.format.is_empty()) {
        m.insert("format".into(), Value::String(v.format.clone()));
    }
    if !g.title.is_empty() {
        m.insert("title".into(), Value::String(g.title.clone()));
    }
    if let Some(d) = &g.default {
        m.insert("default".into(), go_json(d));
    }
    if let Some(docs) = &g.external_docs {
        let mut d = Map::new();
        if let Some(t) = docs.description.as_ref().filter(|t| !t.is_empty()) {
            d.insert("description".into(), Value::String(t.clone()));
        }
        if let Some(u) = docs.url.as_ref().filter(|u| !u.is_empty()) {
            d.insert("url".into(), Value::String(u.clone()));
        }
        m.insert("externalDocs".into(), Value::Object(d));
    }
    if let Some(e) = &g.example {
        m.insert("example".into(), go_json(e));
    }
    if let Some(v) = vv {
        write_value_bounds(&mut m, v);
    }
    if let Some(items) = items {
        m.insert("items".into(), Value::Object(items));
    }
    if let Some(v) = vv {
        write_junctors(&mut m, v);
    }
    if let Some(props) = props {
        m.insert("properties".into(), Value::Object(props));
    }
    if let Some(ap) = ap {
        m.insert("additionalProperties".into(), ap);
    }
    write_extensions(&mut m, x);
    write_x_validations(&mut m, rules);
    m
}

/// The extensions, in sorted key order (Go marshals the extension map
/// sorted); `x-kubernetes-validations` sorts after all of them.
fn write_extensions(m: &mut Map<String, Value>, x: &Extensions) {
    if x.embedded_resource {
        m.insert("x-kubernetes-embedded-resource".into(), Value::Bool(true));
    }
    if x.int_or_string {
        m.insert("x-kubernetes-int-or-string".into(), Value::Bool(true));
    }
    if !x.list_map_keys.is_empty() {
        let keys = x.list_map_keys.iter().cloned().map(Value::String).collect();
        m.insert("x-kubernetes-list-map-keys".into(), Value::Array(keys));
    }
    if let Some(t) = &x.list_type {
        m.insert("x-kubernetes-list-type".into(), Value::String(t.clone()));
    }
    if let Some(t) = &x.map_type {
        m.insert("x-kubernetes-map-type".into(), Value::String(t.clone()));
    }
    if x.preserve_unknown_fields {
        m.insert(
            "x-kubernetes-preserve-unknown-fields".into(),
            Value::Bool(true),
        );
    }
}

/// `x-kubernetes-validations`, each rule marshalled from the v1
/// `ValidationRule` struct (`rule` always, the rest when set).
fn write_x_validations(m: &mut Map<String, Value>, rules: &[ValidationRule]) {
    if rules.is_empty() {
        return;
    }
    let rules = rules.iter().map(validation_rule_json).collect();
    m.insert("x-kubernetes-validations".into(), Value::Array(rules));
}

fn validation_rule_json(r: &ValidationRule) -> Value {
    let mut o = Map::new();
    o.insert(
        "rule".into(),
        Value::String(r.rule.clone().unwrap_or_default()),
    );
    let non_empty = |s: &Option<String>| s.as_ref().filter(|s| !s.is_empty()).cloned();
    if let Some(msg) = non_empty(&r.message) {
        o.insert("message".into(), Value::String(msg));
    }
    if let Some(expr) = non_empty(&r.message_expression) {
        o.insert("messageExpression".into(), Value::String(expr));
    }
    if let Some(reason) = &r.reason {
        o.insert("reason".into(), Value::String(reason.clone()));
    }
    if let Some(fp) = non_empty(&r.field_path) {
        o.insert("fieldPath".into(), Value::String(fp));
    }
    if let Some(b) = r.optional_old_self {
        o.insert("optionalOldSelf".into(), Value::Bool(b));
    }
    Value::Object(o)
}

/// The value validations from `maximum` to `required`, in order.
fn write_value_bounds(m: &mut Map<String, Value>, v: &ValueValidation) {
    if let Some(n) = &v.maximum {
        m.insert("maximum".into(), go_float(n));
    }
    if v.exclusive_maximum {
        m.insert("exclusiveMaximum".into(), Value::Bool(true));
    }
    if let Some(n) = &v.minimum {
        m.insert("minimum".into(), go_float(n));
    }
    if v.exclusive_minimum {
        m.insert("exclusiveMinimum".into(), Value::Bool(true));
    }
    let mut int = |key: &str, n: Option<i64>| {
        if let Some(n) = n {
            m.insert(key.into(), Value::from(n));
        }
    };
    int("maxLength", v.max_length);
    int("minLength", v.min_length);
    if !v.pattern.is_empty() {
        m.insert("pattern".into(), Value::String(v.pattern.clone()));
    }
    if let Some(n) = v.max_items {
        m.insert("maxItems".into(), Value::from(n));
    }
    if let Some(n) = v.min_items {
        m.insert("minItems".into(), Value::from(n));
    }
    if v.unique_items {
        m.insert("uniqueItems".into(), Value::Bool(true));
    }
    if let Some(n) = &v.multiple_of {
        m.insert("multipleOf".into(), go_float(n));
    }
    if !v.enum_.is_empty() {
        m.insert(
            "enum".into(),
            Value::Array(v.enum_.iter().map(go_json).collect()),
        );
    }
    if let Some(n) = v.max_properties {
        m.insert("maxProperties".into(), Value::from(n));
    }
    if let Some(n) = v.min_properties {
        m.insert("minProperties".into(), Value::from(n));
    }
    if !v.required.is_empty() {
        let req = v.required.iter().cloned().map(Value::String).collect();
        m.insert("required".into(), Value::Array(req));
    }
}

/// `allOf`, `oneOf`, `anyOf` and `not`, in that order.
fn write_junctors(m: &mut Map<String, Value>, v: &ValueValidation) {
    let nested = |list: &[NestedValueValidation]| {
        Value::Array(list.iter().map(|n| Value::Object(kube_nested(n))).collect())
    };
    if !v.all_of.is_empty() {
        m.insert("allOf".into(), nested(&v.all_of));
    }
    if !v.one_of.is_empty() {
        m.insert("oneOf".into(), nested(&v.one_of));
    }
    if !v.any_of.is_empty() {
        m.insert("anyOf".into(), nested(&v.any_of));
    }
    if let Some(n) = v.not.as_deref() {
        m.insert("not".into(), Value::Object(kube_nested(n)));
    }
}

/// A number the API server holds as a Go `float64`, written as Go's
/// `encoding/json` writes it: an integral value below 1e21 has no
/// fraction (so it reads back as an integer).
fn go_float(n: &Number) -> Value {
    let Some(f) = n.as_f64() else {
        return Value::Number(n.clone());
    };
    float_value(f).unwrap_or_else(|| Value::Number(n.clone()))
}

fn float_value(f: f64) -> Option<Value> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    if f.fract() == 0.0 && f.abs() < 1e21 {
        if (-TWO_63..TWO_63).contains(&f) {
            // In range, integral: the conversion is exact.
            #[allow(clippy::cast_possible_truncation)]
            return Some(Value::from(f as i64));
        }
        if (0.0..TWO_64).contains(&f) {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            return Some(Value::from(f as u64));
        }
    }
    Number::from_f64(f).map(Value::Number)
}

/// A free-form JSON value (`default`, `enum` members) as Go marshals the
/// `interface{}` the API server decoded it into: object keys sorted,
/// integers beyond int64 and non-integers as `float64`.
fn go_json(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .filter_map(|k| o.get(k).map(|v| (k.clone(), go_json(v))))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(go_json).collect()),
        Value::Number(n) if n.is_i64() => v.clone(),
        Value::Number(n) => go_float(n),
        _ => v.clone(),
    }
}
