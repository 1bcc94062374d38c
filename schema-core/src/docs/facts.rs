//! The facts of one schema node: what a reader looks up about a field
//! besides its name, type and description (its default, enum values,
//! bounds, pattern, list and map semantics, CEL rules, ...), as an ordered
//! list of labelled values. Every renderer of fields (the reference
//! documents, `kubectl explain`) takes them from [`facts`], so a field
//! reads the same everywhere.
//!
//! The node is a JSON schema object in either of the two forms the
//! toolchain has: the published OpenAPI v3 form ([`crate::crd::publish::publish_v3`]:
//! `x-kubernetes-int-or-string` nodes with their unfolded `anyOf` or
//! `allOf`, references as `$ref` or `allOf: [{$ref}]`), or the form a CRD
//! is written in ([`JsonSchemaProps::to_value`]). The functions only read
//! the node and its container children (`items`, `additionalProperties`),
//! never recurse into properties, and bound every value they render, so
//! they are cheap and total on any JSON value.
//!
//! [`JsonSchemaProps::to_value`]: crate::model::wire::JsonSchemaProps::to_value

use serde_json::{Map, Value};

/// The longest fact value rendered, in characters; longer values (a huge
/// default, thousands of enum values) end with `…`.
pub const MAX_FACT_CHARS: usize = 2048;

/// The most container levels (`[]`, `map[string]`) a type name spells
/// out; deeper ones end with `…`.
pub const MAX_TYPE_DEPTH: usize = 32;

/// How a fact's value reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FactStyle {
    /// Prose (a rule's message).
    Text,
    /// Code or data: JSON values, patterns, CEL expressions, names.
    Code,
    /// A flag that holds (`nullable`, `immutable`); its value is `true`.
    Flag,
}

/// One fact of a schema node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fact {
    /// The short label: `default`, `enum`, `minimum`, `pattern`, `list
    /// type`, `map keys`, `rule`, `immutable`, `nullable`, `preserve unknown
    /// fields`, ...
    pub label: &'static str,
    /// The value, rendered as plain text (renderers escape it).
    pub value: String,
    /// How the value reads.
    pub style: FactStyle,
    /// Whether this fact details the preceding top-level fact (a rule's
    /// `message`, `reason`, `field path`, ...).
    pub detail: bool,
}

impl Fact {
    fn new(label: &'static str, value: impl Into<String>, style: FactStyle) -> Self {
        Fact {
            label,
            value: bounded(value.into()),
            style,
            detail: false,
        }
    }

    fn flag(label: &'static str) -> Self {
        Fact::new(label, "true", FactStyle::Flag)
    }

    fn detail(mut self) -> Self {
        self.detail = true;
        self
    }
}

/// A container level of a node: what its children are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    /// A list: the children are its `items`.
    Items,
    /// A map: the children are the values of `additionalProperties`.
    Values,
}

/// `s` cut to [`MAX_FACT_CHARS`] characters, marked with `…` when cut.
fn bounded(mut s: String) -> String {
    if let Some((i, _)) = s.char_indices().nth(MAX_FACT_CHARS) {
        s.truncate(i);
        s.push('…');
    }
    s
}

/// Compact JSON text of a value.
fn json(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn str_of<'a>(node: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    node.get(key).and_then(Value::as_str)
}

fn is_true(node: &Map<String, Value>, key: &str) -> bool {
    node.get(key) == Some(&Value::Bool(true))
}

/// The `type` of a node, or `""`.
fn type_of(node: &Map<String, Value>) -> &str {
    str_of(node, "type").unwrap_or("")
}

/// The description of a node, if it has one.
pub fn description(node: &Value) -> Option<&str> {
    node.as_object().and_then(|m| str_of(m, "description"))
}

/// The names a node lists as `required`.
pub fn required(node: &Value) -> impl Iterator<Item = &str> {
    node.get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// Whether a CEL rule makes its field immutable: exactly `self ==
/// oldSelf`, whitespace aside.
pub fn is_immutable_rule(rule: &str) -> bool {
    rule.chars()
        .filter(|c| !c.is_whitespace())
        .eq("self==oldSelf".chars())
}

/// Whether `v` is `{type: <t>}` and nothing else.
fn is_only_type(v: &Value, t: &str) -> bool {
    v.as_object()
        .is_some_and(|m| m.len() == 1 && str_of(m, "type") == Some(t))
}

/// Whether `v` is the `anyOf` of int-or-string: `[{type: integer}, {type:
/// string}]`.
fn is_int_or_string_any_of(v: &Value) -> bool {
    matches!(v.as_array().map(Vec::as_slice), Some([a, b]) if is_only_type(a, "integer") && is_only_type(b, "string"))
}

/// Whether `v` is `{anyOf: [{type: integer}, {type: string}]}` and nothing
/// else (the `allOf[0]` unfolding adds when `anyOf` is taken).
fn is_int_or_string_all_of_entry(v: &Value) -> bool {
    v.as_object()
        .is_some_and(|m| m.len() == 1 && m.get("anyOf").is_some_and(is_int_or_string_any_of))
}

/// The model a `$ref` names, by its last dotted part
/// (`#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`
/// is `ObjectMeta`).
fn ref_name(reference: &str) -> &str {
    let last = reference.rsplit('/').next().unwrap_or(reference);
    let name = last.rsplit('.').next().unwrap_or(last);
    if name.is_empty() { reference } else { name }
}

/// Whether `v` is `{$ref: ...}` alone (the `allOf` entry `WrapRefs`
/// makes).
fn is_ref_only(v: &Value) -> bool {
    v.as_object()
        .is_some_and(|m| m.len() == 1 && m.get("$ref").is_some_and(Value::is_string))
}

/// The model a node refers to: its `$ref`, or the one of an `allOf` entry
/// that is a `$ref` alone.
fn reference(node: &Map<String, Value>) -> Option<&str> {
    if let Some(r) = str_of(node, "$ref") {
        return Some(r);
    }
    node.get("allOf")?
        .as_array()?
        .iter()
        .find(|e| is_ref_only(e))
        .and_then(|e| e.get("$ref"))
        .and_then(Value::as_str)
}

/// The container level of a node and the schema of its children: the
/// `items` of a list, or the `additionalProperties` schema of a map (an
/// object without properties). `None` for anything else (scalars, objects
/// with properties, int-or-string, references).
pub fn element(node: &Value) -> Option<(Element, &Value)> {
    let m = node.as_object()?;
    if is_true(m, "x-kubernetes-int-or-string") || reference(m).is_some() {
        return None;
    }
    match type_of(m) {
        "array" => m
            .get("items")
            .filter(|i| i.is_object())
            .map(|i| (Element::Items, i)),
        "object" => {
            let has_properties = m
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            if has_properties {
                return None;
            }
            m.get("additionalProperties")
                .filter(|a| a.is_object())
                .map(|a| (Element::Values, a))
        }
        _ => None,
    }
}

/// The type of a node as a person reads it: `string`, `integer`,
/// `boolean`, `number`, `object`, `[]T`, `map[string]T`, `int-or-string`,
/// `any` (no type, or preserved unknown fields without one), or the model
/// a reference names (`ObjectMeta`).
pub fn type_name(node: &Value) -> String {
    let mut out = String::new();
    let mut cur = node;
    for _ in 0..MAX_TYPE_DEPTH {
        match element(cur) {
            Some((Element::Items, next)) => {
                out.push_str("[]");
                cur = next;
            }
            Some((Element::Values, next)) => {
                out.push_str("map[string]");
                cur = next;
            }
            None => {
                out.push_str(&leaf_type_name(cur));
                return out;
            }
        }
    }
    out.push('…');
    out
}

/// The type name of a node that is not a container (see [`type_name`]).
fn leaf_type_name(node: &Value) -> String {
    let Some(m) = node.as_object() else {
        return "any".to_string();
    };
    if let Some(r) = reference(m) {
        return ref_name(r).to_string();
    }
    if is_true(m, "x-kubernetes-int-or-string") {
        return "int-or-string".to_string();
    }
    match type_of(m) {
        "" => {
            let has_properties = m
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            if has_properties { "object" } else { "any" }.to_string()
        }
        "array" => "[]any".to_string(),
        "object" => {
            let has_properties = m
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            if !has_properties && is_true(m, "additionalProperties") {
                "map[string]any".to_string()
            } else {
                "object".to_string()
            }
        }
        t => t.to_string(),
    }
}

/// A number, with `(exclusive)` when the flag `exclusive` holds.
fn bound(m: &Map<String, Value>, key: &str, exclusive: &str) -> Option<String> {
    let n = m.get(key).filter(|v| v.is_number())?;
    let mut s = n.to_string();
    if is_true(m, exclusive) {
        s.push_str(" (exclusive)");
    }
    Some(s)
}

/// The facts of one schema node, in a fixed order: `title`, `format`,
/// `nullable`, `default`, `enum`, `minimum`, `maximum`, `multiple of`,
/// `min length`, `max length`, `pattern`, `min items`, `max items`, `unique
/// items`, `min properties`, `max properties`, `list type`, `map keys`,
/// `map type`, `preserve unknown fields`, `embedded resource`, `all of`,
/// `any of`, `one of`, `not`, then each CEL rule (`rule`, or `immutable`
/// for `self == oldSelf`) followed by its details (`message`, `message
/// expression`, `reason`, `field path`, `optional old self`), then
/// `example` and `external docs`.
///
/// Only what the node itself says is listed: not its type (see
/// [`type_name`]), description ([`description`]) or whether its parent
/// requires it ([`required`]), nor anything of its `items`,
/// `additionalProperties` or properties. Flags are listed only when true;
/// the int-or-string `anyOf`/`allOf` the API server unfolds and `$ref`
/// wrappers are left out (they are the type). A value that is not a JSON
/// object has no facts.
pub fn facts(node: &Value) -> Vec<Fact> {
    let Some(m) = node.as_object() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let text = |key: &str| str_of(m, key).filter(|s| !s.is_empty());
    let number = |key: &str| m.get(key).filter(|v| v.is_number()).map(Value::to_string);

    if let Some(t) = text("title") {
        out.push(Fact::new("title", t, FactStyle::Text));
    }
    if let Some(f) = text("format") {
        out.push(Fact::new("format", f, FactStyle::Code));
    }
    if is_true(m, "nullable") {
        out.push(Fact::flag("nullable"));
    }
    if let Some(d) = m.get("default") {
        out.push(Fact::new("default", json(d), FactStyle::Code));
    }
    if let Some(values) = m.get("enum").and_then(Value::as_array) {
        out.push(Fact::new("enum", list_json(values), FactStyle::Code));
    }
    if let Some(b) = bound(m, "minimum", "exclusiveMinimum") {
        out.push(Fact::new("minimum", b, FactStyle::Code));
    }
    if let Some(b) = bound(m, "maximum", "exclusiveMaximum") {
        out.push(Fact::new("maximum", b, FactStyle::Code));
    }
    let counts = [
        ("multipleOf", "multiple of"),
        ("minLength", "min length"),
        ("maxLength", "max length"),
    ];
    for (key, label) in counts {
        if let Some(n) = number(key) {
            out.push(Fact::new(label, n, FactStyle::Code));
        }
    }
    if let Some(p) = str_of(m, "pattern") {
        out.push(Fact::new("pattern", p, FactStyle::Code));
    }
    for (key, label) in [("minItems", "min items"), ("maxItems", "max items")] {
        if let Some(n) = number(key) {
            out.push(Fact::new(label, n, FactStyle::Code));
        }
    }
    if is_true(m, "uniqueItems") {
        out.push(Fact::flag("unique items"));
    }
    let counts = [
        ("minProperties", "min properties"),
        ("maxProperties", "max properties"),
    ];
    for (key, label) in counts {
        if let Some(n) = number(key) {
            out.push(Fact::new(label, n, FactStyle::Code));
        }
    }
    if let Some(t) = text("x-kubernetes-list-type") {
        out.push(Fact::new("list type", t, FactStyle::Code));
    }
    if let Some(keys) = m
        .get("x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
    {
        let keys: Vec<&str> = keys.iter().filter_map(Value::as_str).collect();
        out.push(Fact::new("map keys", keys.join(", "), FactStyle::Code));
    }
    if let Some(t) = text("x-kubernetes-map-type") {
        out.push(Fact::new("map type", t, FactStyle::Code));
    }
    if is_true(m, "x-kubernetes-preserve-unknown-fields") {
        out.push(Fact::flag("preserve unknown fields"));
    }
    if is_true(m, "x-kubernetes-embedded-resource") {
        out.push(Fact::flag("embedded resource"));
    }
    junctors(m, &mut out);
    if let Some(rules) = m.get("x-kubernetes-validations").and_then(Value::as_array) {
        for rule in rules.iter().filter_map(Value::as_object) {
            rule_facts(rule, &mut out);
        }
    }
    if let Some(e) = m.get("example") {
        out.push(Fact::new("example", json(e), FactStyle::Code));
    }
    if let Some(docs) = m.get("externalDocs").and_then(Value::as_object) {
        let parts: Vec<&str> = ["description", "url"]
            .into_iter()
            .filter_map(|k| str_of(docs, k).filter(|s| !s.is_empty()))
            .collect();
        if !parts.is_empty() {
            out.push(Fact::new(
                "external docs",
                parts.join(": "),
                FactStyle::Text,
            ));
        }
    }
    out
}

/// JSON values separated by `, `, stopping once past [`MAX_FACT_CHARS`].
fn list_json(values: &[Value]) -> String {
    let mut s = String::new();
    for v in values {
        if !s.is_empty() {
            s.push_str(", ");
        }
        s.push_str(&json(v));
        if s.len() > MAX_FACT_CHARS * 4 {
            break;
        }
    }
    s
}

/// `allOf`, `anyOf`, `oneOf` and `not`, without int-or-string's unfolding
/// and `$ref` wrappers; each branch as compact JSON, branches separated by
/// ` | `.
fn junctors(m: &Map<String, Value>, out: &mut Vec<Fact>) {
    let int_or_string = is_true(m, "x-kubernetes-int-or-string");
    let has_ref = reference(m).is_some();
    for (key, label) in [
        ("allOf", "all of"),
        ("anyOf", "any of"),
        ("oneOf", "one of"),
    ] {
        let Some(raw) = m.get(key) else {
            continue;
        };
        let Some(branches) = raw.as_array() else {
            continue;
        };
        if key == "anyOf" && int_or_string && is_int_or_string_any_of(raw) {
            continue;
        }
        let mut shown = Vec::new();
        for (i, b) in branches.iter().enumerate() {
            let unfolded =
                key == "allOf" && i == 0 && int_or_string && is_int_or_string_all_of_entry(b);
            let wrapper = key == "allOf" && has_ref && is_ref_only(b);
            if !unfolded && !wrapper {
                shown.push(json(b));
            }
            if shown.iter().map(String::len).sum::<usize>() > MAX_FACT_CHARS * 4 {
                break;
            }
        }
        if !shown.is_empty() {
            out.push(Fact::new(label, shown.join(" | "), FactStyle::Code));
        }
    }
    if let Some(not) = m.get("not") {
        out.push(Fact::new("not", json(not), FactStyle::Code));
    }
}

/// One `x-kubernetes-validations` entry: `rule` (or `immutable`) and its
/// details.
fn rule_facts(rule: &Map<String, Value>, out: &mut Vec<Fact>) {
    let text = str_of(rule, "rule").unwrap_or("");
    if is_immutable_rule(text) {
        out.push(Fact::flag("immutable"));
    } else {
        out.push(Fact::new("rule", text, FactStyle::Code));
    }
    let details = [
        ("message", "message", FactStyle::Text),
        ("messageExpression", "message expression", FactStyle::Code),
        ("reason", "reason", FactStyle::Code),
        ("fieldPath", "field path", FactStyle::Code),
    ];
    for (key, label, style) in details {
        if let Some(v) = str_of(rule, key).filter(|s| !s.is_empty()) {
            out.push(Fact::new(label, v, style).detail());
        }
    }
    if is_true(rule, "optionalOldSelf") {
        out.push(Fact::flag("optional old self").detail());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn labels(node: &Value) -> Vec<(&'static str, String)> {
        facts(node)
            .into_iter()
            .map(|f| (f.label, f.value))
            .collect()
    }

    #[test]
    fn type_names() {
        let cases = [
            (json!({"type": "string"}), "string"),
            (json!({"type": "integer", "format": "int32"}), "integer"),
            (
                json!({"type": "array", "items": {"type": "string"}}),
                "[]string",
            ),
            (json!({"type": "array"}), "[]any"),
            (
                json!({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "object", "properties": {"a": {}}}}}),
                "map[string][]object",
            ),
            (
                json!({"type": "object", "additionalProperties": true}),
                "map[string]any",
            ),
            (
                json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
                "object",
            ),
            (json!({"x-kubernetes-preserve-unknown-fields": true}), "any"),
            (json!({}), "any"),
            (
                json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}),
                "int-or-string",
            ),
            (json!({"x-kubernetes-int-or-string": true}), "int-or-string"),
            (
                json!({"description": "m", "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]}),
                "ObjectMeta",
            ),
            (
                json!({"$ref": "#/definitions/io.k8s.api.core.v1.Pod"}),
                "Pod",
            ),
            (json!(true), "any"),
        ];
        for (node, want) in cases {
            assert_eq!(type_name(&node), want, "{node}");
        }
    }

    #[test]
    fn deep_containers_are_bounded() {
        let mut v = json!({"type": "string"});
        for _ in 0..100 {
            v = json!({"type": "array", "items": v});
        }
        let t = type_name(&v);
        assert!(t.starts_with("[][]") && t.ends_with('…'), "{t}");
    }

    #[test]
    fn facts_in_order() {
        let node = json!({
            "type": "integer",
            "format": "int32",
            "nullable": true,
            "default": 1,
            "enum": [1, 2, 3],
            "minimum": 1,
            "exclusiveMinimum": true,
            "maximum": 10,
            "multipleOf": 1,
            "x-kubernetes-validations": [
                {"rule": "self  ==\n oldSelf", "message": "is immutable"},
                {"rule": "self > 0", "messageExpression": "'bad: ' + string(self)", "reason": "FieldValueForbidden", "fieldPath": ".x", "optionalOldSelf": true}
            ]
        });
        assert_eq!(
            labels(&node),
            [
                ("format", "int32".to_string()),
                ("nullable", "true".into()),
                ("default", "1".into()),
                ("enum", "1, 2, 3".into()),
                ("minimum", "1 (exclusive)".into()),
                ("maximum", "10".into()),
                ("multiple of", "1".into()),
                ("immutable", "true".into()),
                ("message", "is immutable".into()),
                ("rule", "self > 0".into()),
                ("message expression", "'bad: ' + string(self)".into()),
                ("reason", "FieldValueForbidden".into()),
                ("field path", ".x".into()),
                ("optional old self", "true".into()),
            ]
        );
        let f = facts(&node);
        assert!(f[8].detail && !f[7].detail && f[7].style == FactStyle::Flag);
    }

    #[test]
    fn strings_lists_maps_and_objects() {
        let node = json!({
            "type": "array",
            "minItems": 1, "maxItems": 5, "uniqueItems": true,
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name", "protocol"],
            "items": {"type": "string", "pattern": "^a"}
        });
        assert_eq!(
            labels(&node),
            [
                ("min items", "1".to_string()),
                ("max items", "5".into()),
                ("unique items", "true".into()),
                ("list type", "map".into()),
                ("map keys", "name, protocol".into()),
            ]
        );
        let node = json!({"type": "string", "minLength": 1, "maxLength": 3, "pattern": "^[a-z]+$", "enum": ["a", "b\"c"]});
        assert_eq!(
            labels(&node),
            [
                ("enum", "\"a\", \"b\\\"c\"".to_string()),
                ("min length", "1".into()),
                ("max length", "3".into()),
                ("pattern", "^[a-z]+$".into()),
            ]
        );
        let node = json!({
            "type": "object", "minProperties": 1, "maxProperties": 2,
            "x-kubernetes-map-type": "atomic",
            "x-kubernetes-preserve-unknown-fields": true,
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-list-type": "",
            "nullable": false
        });
        assert_eq!(
            labels(&node),
            [
                ("min properties", "1".to_string()),
                ("max properties", "2".into()),
                ("map type", "atomic".into()),
                ("preserve unknown fields", "true".into()),
                ("embedded resource", "true".into()),
            ]
        );
    }

    #[test]
    fn int_or_string_and_refs_are_the_type_not_facts() {
        // Published v3: the unfolded anyOf.
        let node = json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}], "pattern": "^\\d+%?$"});
        assert_eq!(labels(&node), [("pattern", "^\\d+%?$".to_string())]);
        // Published v3: anyOf taken, the unfolding went to allOf[0].
        let node = json!({
            "x-kubernetes-int-or-string": true,
            "anyOf": [{"maximum": 3}, {"pattern": "x"}],
            "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}]
        });
        assert_eq!(
            labels(&node),
            [(
                "any of",
                "{\"maximum\":3} | {\"pattern\":\"x\"}".to_string()
            )]
        );
        // WrapRefs.
        let node = json!({"description": "d", "default": {}, "allOf": [{"$ref": "#/components/schemas/X"}]});
        assert_eq!(labels(&node), [("default", "{}".to_string())]);
        // A plain oneOf is a fact.
        let node = json!({"oneOf": [{"required": ["a"]}, {"required": ["b"]}], "not": {"required": ["c"]}});
        assert_eq!(
            labels(&node),
            [
                (
                    "one of",
                    "{\"required\":[\"a\"]} | {\"required\":[\"b\"]}".to_string()
                ),
                ("not", "{\"required\":[\"c\"]}".into())
            ]
        );
    }

    #[test]
    fn immutable_rule_only_exactly() {
        assert!(is_immutable_rule("self == oldSelf"));
        assert!(is_immutable_rule(" self==oldSelf\n"));
        assert!(!is_immutable_rule("self == oldSelf || true"));
        assert!(!is_immutable_rule("oldSelf == self"));
        assert!(!is_immutable_rule("self.x == oldSelf.x"));
    }

    #[test]
    fn huge_values_are_bounded_and_odd_nodes_have_no_facts() {
        let big = "x".repeat(1 << 20);
        let node = json!({"default": big, "enum": vec![big.clone(); 100], "example": {"a": big}});
        for f in facts(&node) {
            assert!(f.value.chars().count() <= MAX_FACT_CHARS + 1, "{}", f.label);
            assert!(f.value.ends_with('…'));
        }
        for v in [
            json!(null),
            json!(1),
            json!("s"),
            json!([1]),
            json!({"x-kubernetes-validations": [1, "x", {}]}),
        ] {
            let _ = facts(&v);
            let _ = type_name(&v);
        }
        assert_eq!(
            labels(&json!({"x-kubernetes-validations": [{}]})),
            [("rule", String::new())]
        );
    }

    #[test]
    fn description_and_required() {
        let node = json!({"description": "d", "required": ["a", 1, "b"]});
        assert_eq!(description(&node), Some("d"));
        assert_eq!(required(&node).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(description(&json!(1)), None);
    }

    #[test]
    fn elements() {
        let list = json!({"type": "array", "items": {"type": "string"}});
        assert_eq!(element(&list).map(|e| e.0), Some(Element::Items));
        let map = json!({"type": "object", "additionalProperties": {"type": "string"}});
        assert_eq!(element(&map).map(|e| e.0), Some(Element::Values));
        let obj = json!({"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "string"}});
        assert_eq!(element(&obj), None);
        assert_eq!(element(&json!({"type": "array", "items": [{}]})), None);
    }
}
