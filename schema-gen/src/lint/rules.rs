//! The rules. Each returns `(message, location)` pairs, each pair once.

use serde_json::Value;

use super::Rule;
use super::model::{Additional, Model, Node, NodeId};
use super::walk::{Annotations, ViewId, Walk, is_property, parent_property};

/// The dialect every schema must declare.
const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

const TITLE_ILLEGAL: &[&str] = &["\n", "\r", "\t", "  ", ".", ",", "?", "!"];
const DESCRIPTION_ILLEGAL: &[&str] = &["\n", "\r", "\t", "  "];

const REQUIRED_ROOT: &[&str] = &["metadata", "connectivity", "controlPlane", "nodePools"];
const RECOMMENDED_ROOT: &[&str] = &["internal", "providerSpecific"];
const OTHER_ALLOWED_ROOT: &[&str] = &[
    "managementCluster",
    "baseDomain",
    "provider",
    "cluster-shared",
    "kubectlImage",
    "global",
];

const XOF_ILLEGAL_KEYWORDS: &[&str] = &[
    "type",
    "title",
    "description",
    "examples",
    "properties",
    "additionalProperties",
    "patternProperties",
    "items",
    "additionalItems",
];

/// Findings of one rule, each `(message, location)` once.
#[derive(Default)]
struct Results(Vec<(String, String)>);

impl Results {
    fn add(&mut self, message: impl Into<String>, location: impl Into<String>) {
        let (m, l) = (message.into(), location.into());
        if !self.0.iter().any(|(a, b)| *a == m && *b == l) {
            self.0.push((m, l));
        }
    }
}

/// Go's `%q` of a list of strings: `["a" "b"]`.
fn quoted_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|s| {
            let mut q = String::from('"');
            for c in s.chars() {
                match c {
                    '\n' => q.push_str("\\n"),
                    '\r' => q.push_str("\\r"),
                    '\t' => q.push_str("\\t"),
                    '"' => q.push_str("\\\""),
                    '\\' => q.push_str("\\\\"),
                    c => q.push(c),
                }
            }
            q.push('"');
            q
        })
        .collect();
    format!("[{}]", quoted.join(" "))
}

/// Whether the first byte, read as a Latin-1 character, is upper case.
fn starts_capitalized(s: &str) -> bool {
    s.as_bytes()
        .first()
        .is_some_and(|&b| char::from(b).is_uppercase())
}

fn has_leading_or_trailing_space(s: &str) -> bool {
    s.starts_with(' ') || s.ends_with(' ')
}

fn contains_any(s: &str, needles: &[&str]) -> bool {
    needles.iter().any(|n| s.contains(n))
}

/// The JSON pointer form of a resolved location (the root is `/`).
fn concise(location: &str) -> String {
    location.replace("/properties", "")
}

/// Runs one rule over a walk.
pub(crate) fn run(walk: &Walk<'_>, rule: Rule) -> Vec<(String, String)> {
    let mut r = Results::default();
    let model = walk.model;
    match rule {
        Rule::TitleExists => {
            for (loc, a) in &walk.annotations {
                if a.title().is_empty() {
                    r.add("Property must have a title", loc);
                }
            }
        }
        Rule::TitleMustBeSentenceCase => {
            for (loc, a) in titled(walk) {
                if !starts_capitalized(a.title()) {
                    r.add("Property title must start with a capital letter", loc);
                }
            }
        }
        Rule::TitleMustNotContainIllegalCharacters => {
            for (loc, a) in titled(walk) {
                if contains_any(a.title(), TITLE_ILLEGAL) {
                    r.add(
                        format!(
                            "Property title must not contain illegal characters: {}",
                            quoted_list(TITLE_ILLEGAL)
                        ),
                        loc,
                    );
                }
                if has_leading_or_trailing_space(a.title()) {
                    r.add(
                        "Property title must not contain leading or trailing spaces.",
                        loc,
                    );
                }
            }
        }
        Rule::TitleShouldNotContainParentsTitle => {
            for (loc, a) in titled(walk) {
                let Some(parent) = parent_property(loc)
                    .and_then(|p| walk.annotations.get(&p))
                    .filter(|p| !p.title().is_empty())
                else {
                    continue;
                };
                if a.title()
                    .to_lowercase()
                    .contains(&parent.title().to_lowercase())
                {
                    r.add("Property title should not contain the parent's title", loc);
                }
            }
        }
        Rule::DescriptionExists => {
            for (loc, a) in &walk.annotations {
                if a.description().is_empty() {
                    r.add("Property should have a description", loc);
                }
            }
        }
        Rule::DescriptionMustNotContainIllegalCharacters => {
            for (loc, a) in described(walk) {
                if contains_any(a.description(), DESCRIPTION_ILLEGAL) {
                    r.add(
                        format!(
                            "Property description must not contain illegal characters: {}",
                            quoted_list(DESCRIPTION_ILLEGAL)
                        ),
                        loc,
                    );
                }
                if has_leading_or_trailing_space(a.description()) {
                    r.add(
                        "Property description must not contain leading or trailing spaces",
                        loc,
                    );
                }
            }
        }
        Rule::DescriptionMustBeSentenceCase => {
            for (loc, a) in described(walk) {
                if !starts_capitalized(a.description()) {
                    r.add("Property description must start with a capital letter", loc);
                }
            }
        }
        Rule::DescriptionMustUsePunctuation => {
            for (loc, a) in described(walk) {
                let ok = a
                    .description()
                    .as_bytes()
                    .last()
                    .is_some_and(|b| b".!?".contains(b));
                if !ok {
                    r.add("Property description must end with punctuation", loc);
                }
            }
        }
        Rule::DescriptionShouldNotContainTitle => {
            for (loc, a) in described(walk) {
                let title = a.title();
                if !title.is_empty()
                    && a.description()
                        .to_lowercase()
                        .contains(&title.to_lowercase())
                {
                    r.add("Property description should not repeat the title", loc);
                }
            }
        }
        Rule::DescriptionShouldHaveCorrectLength => {
            for (loc, a) in described(walk) {
                let n = a.description().len();
                if n < 50 {
                    r.add(
                        "Property description should be more than 50 characters",
                        loc,
                    );
                }
                if n > 200 {
                    r.add(
                        "Property description should be less than 200 characters",
                        loc,
                    );
                }
            }
        }
        Rule::MustUseCorrectDialect => match model.root_value().get("$schema") {
            Some(Value::String(s)) if s == DIALECT => {}
            Some(Value::String(s)) => r.add(
                format!("Schema must use draft/dialect '{DIALECT}', but uses '{s}'."),
                "/",
            ),
            _ => r.add(
                format!("Schema does not specify a draft/dialect, but must use '{DIALECT}'."),
                "",
            ),
        },
        Rule::ShouldDisableAdditionalProperties => {
            for (v, id, loc) in walk.schemas() {
                let n = model.node(id);
                if n.is_type("object")
                    && n.additional_properties != Some(Additional::Bool(false))
                    && !is_closed_ref(model, n)
                    && !is_closed_ref_target(walk, v)
                {
                    r.add("Object should disable additional properties", loc);
                }
            }
        }
        Rule::ArraysMustHaveItems => {
            for (_, id, loc) in walk.schemas() {
                let n = model.node(id);
                if n.is_type("array") && n.items.is_none() && n.items_legacy.is_none() {
                    r.add("Array must specify the schema of its items", loc);
                }
            }
        }
        Rule::AvoidXOf => avoid_x_of(walk, &mut r),
        Rule::StringsShouldBeConstrained => {
            for (_, id, loc) in walk.schemas() {
                let n = model.node(id);
                if n.is_type("string")
                    && n.pattern.is_none()
                    && !n.min_length
                    && !n.max_length
                    && n.enum_values.is_none()
                    && n.const_value.is_none()
                    && !n.known_format
                {
                    r.add(
                        "String property should be constrained through 'pattern', 'minLength', 'maxLength', 'enum', 'constant' or 'format'",
                        loc,
                    );
                }
            }
        }
        Rule::NumbersShouldBeConstrained => {
            for (_, id, loc) in walk.schemas() {
                let n = model.node(id);
                if (n.is_type("number") || n.is_type("integer")) && !n.numeric_bounds {
                    r.add(
                        "Numeric property should be constrained through 'minimum', 'maximum', 'exclusiveMinimum' or 'exclusiveMaximum'",
                        loc,
                    );
                }
            }
        }
        Rule::ExampleExists => {
            for (loc, a) in &walk.annotations {
                if a.examples().is_empty() && recommend_examples(walk, loc) {
                    r.add("Property should provide one or more examples", loc);
                }
            }
        }
        Rule::DeprecatedPropertiesShouldHaveComment => {
            for (_, id, loc) in walk.schemas() {
                let n = model.node(id);
                if is_property(loc) && n.deprecated && n.comment.is_empty() {
                    r.add("Deprecated property should have a $comment", loc);
                }
            }
        }
        Rule::ExamplesShouldNotBeTooMany => {
            for (loc, a) in &walk.annotations {
                if a.examples().len() > 5 {
                    r.add("Property should not have more than 5 examples.", loc);
                }
            }
        }
        Rule::AvoidUnevaluated => {
            for (_, id, loc) in walk.schemas() {
                let n = model.node(id);
                if n.unevaluated_items {
                    r.add("Property must not use unevaluatedItems", loc);
                }
                if n.unevaluated_properties.is_some() && !is_closed_ref(model, n) {
                    r.add(
                        "Property must not use unevaluatedProperties, except as 'unevaluatedProperties: false' next to '$ref'",
                        loc,
                    );
                }
            }
        }
        Rule::PropertiesMustHaveOneType => {
            for (_, id, loc) in walk.schemas() {
                let n = model.node(id);
                let count = n.type_count();
                if is_property(loc) && (count > 1 || (count == 0 && n.reference.is_none())) {
                    r.add(
                        "Property must have exactly one type or be a reference to another schema and not have a type",
                        loc,
                    );
                }
            }
        }
        Rule::AvoidLogicalConstruct => {
            for (_, id, loc) in walk.schemas() {
                if model.node(id).has_if {
                    r.add(
                        "Schema must not use logical constructs (if, then, else)",
                        loc,
                    );
                }
            }
        }
        Rule::AdheresToCommonSchemaStructureRecommendations => {
            let props = root_properties(model);
            for name in RECOMMENDED_ROOT {
                if !props.iter().any(|(k, _)| k == name) {
                    r.add(format!("Root-level property {name} should be present"), "");
                }
            }
        }
        Rule::AdheresToCommonSchemaStructureRequirements => {
            let props = root_properties(model);
            let global: &[(String, NodeId)] = props
                .iter()
                .find(|(k, _)| k == "global")
                .and_then(|(_, id)| model.node(*id).properties.as_deref())
                .unwrap_or(&[]);
            for name in REQUIRED_ROOT {
                let found = props.iter().chain(global.iter()).any(|(k, _)| k == name);
                if !found {
                    r.add(
                        "Global or root-level property must be present",
                        format!("/properties/{name}"),
                    );
                }
            }
            for (k, id) in props {
                let allowed = REQUIRED_ROOT
                    .iter()
                    .chain(RECOMMENDED_ROOT)
                    .chain(OTHER_ALLOWED_ROOT)
                    .any(|a| a == k);
                if !allowed {
                    r.add(
                        "Root-level property is not allowed",
                        root_child_location(model, *id),
                    );
                }
            }
            if model.node(0).additional_properties != Some(Additional::Bool(false)) {
                r.add(
                    "Additional properties must not be allowed at the root level",
                    "",
                );
            }
        }
        Rule::ArrayItemsMustHaveSingleType => {
            for (_, id, loc) in walk.schemas() {
                let n = model.node(id);
                if n.is_type("array") && (n.additional_items || n.contains || n.prefix_items) {
                    r.add(
                        "Array must not use illegal keyword(s): 'additionalItems', 'contains', 'prefixItems'",
                        loc,
                    );
                }
            }
        }
        Rule::AvoidRecursion => {
            for visit in walk.visits.iter().filter(|v| v.self_ref) {
                r.add(
                    "Schema must not reference itself",
                    walk.location(visit.view),
                );
            }
        }
        Rule::AvoidRecursionKeywords => {
            for (_, id, loc) in walk.schemas() {
                let n = model.node(id);
                if !n.dynamic_anchor.is_empty() || n.dynamic_ref || n.recursive_ref {
                    r.add(
                        "Schema must not use recursion keywords (dynamicAnchor, dynamicRef, recursiveRef)",
                        loc,
                    );
                }
            }
        }
        Rule::ObjectsMustHaveProperties => {
            for (v, id, loc) in walk.schemas() {
                if model.node(id).is_type("object") && !has_properties(walk, v) {
                    r.add("Object must have at least one property", loc);
                }
            }
        }
        Rule::RequiredPropertiesMustBeDefined => required_properties(walk, &mut r),
        Rule::StringValuesShouldBeEnumerated => string_values(walk, &mut r),
        Rule::DefaultsMustNotBeEmpty => {
            for (_, id, loc) in walk.schemas() {
                if model.node(id).default.as_ref().is_some_and(is_empty_value) {
                    r.add(
                        "Default must not be an empty value (false, \"\", 0, [] or {}); leave it out instead",
                        loc,
                    );
                }
            }
        }
    }
    r.0
}

/// Property locations with a title.
fn titled<'w>(walk: &'w Walk<'_>) -> impl Iterator<Item = (&'w String, &'w Annotations)> {
    walk.annotations
        .iter()
        .filter(|(_, a)| !a.title().is_empty())
}

/// Property locations with a description.
fn described<'w>(walk: &'w Walk<'_>) -> impl Iterator<Item = (&'w String, &'w Annotations)> {
    walk.annotations
        .iter()
        .filter(|(_, a)| !a.description().is_empty())
}

/// The root's `properties`.
fn root_properties(model: &Model) -> &[(String, NodeId)] {
    model.node(0).properties.as_deref().unwrap_or(&[])
}

/// The resolved location of a direct property of the root.
fn root_child_location(model: &Model, id: NodeId) -> String {
    let ptr = &model.node(id).ptr;
    if ptr.is_empty() {
        "/".to_string()
    } else {
        ptr.clone()
    }
}

/// Whether a schema closes a `$ref`ed object with
/// `unevaluatedProperties: false`: no permissive `additionalProperties`
/// next to the `$ref` or on its target, an object type (its own, or else
/// the target's), and `unevaluatedProperties` exactly `false`.
fn is_closed_ref(model: &Model, n: &Node) -> bool {
    let Some(target) = n.reference.map(|t| model.node(t)) else {
        return false;
    };
    if matches!(
        n.additional_properties,
        Some(Additional::Bool(true) | Additional::Schema(_))
    ) {
        return false;
    }
    if target.additional_properties == Some(Additional::Bool(true)) {
        return false;
    }
    if n.type_count() > 0 {
        if !n.is_type("object") {
            return false;
        }
    } else if target.type_count() > 0 && !target.is_type("object") {
        return false;
    }
    n.unevaluated_properties
        .is_some_and(|u| model.node(u).always == Some(false))
}

/// Whether a view is the target of the closed `$ref` it was reached
/// through (it shares that schema's location, and its exemption).
fn is_closed_ref_target(walk: &Walk<'_>, v: ViewId) -> bool {
    let Some(view) = walk.view(v) else {
        return false;
    };
    let Some(referrer) = view.referrer.and_then(|r| walk.view(r)) else {
        return false;
    };
    let rn = walk.model.node(referrer.node);
    rn.reference == Some(view.node) && is_closed_ref(walk.model, rn)
}

/// Whether a view's schema defines a property, directly or through its
/// `$ref` chain (not following a self reference).
fn has_properties(walk: &Walk<'_>, v: ViewId) -> bool {
    let model = walk.model;
    let Some(view) = walk.view(v) else {
        return false;
    };
    // The schemas whose `$ref`s led here: the view's referrer chain.
    let mut chain = vec![view.node];
    let mut cur = view.referrer;
    while let Some(r) = cur.and_then(|r| walk.view(r)) {
        chain.push(r.node);
        cur = r.referrer;
    }
    let mut id = view.node;
    loop {
        let n = model.node(id);
        let count = n.properties.as_ref().map_or(0, Vec::len) + n.pattern_properties.unwrap_or(0);
        if count > 0 || matches!(n.additional_properties, Some(Additional::Schema(_))) {
            return true;
        }
        match n.reference {
            Some(t) if !chain.contains(&t) => {
                chain.push(t);
                id = t;
            }
            _ => return false,
        }
    }
}

fn avoid_x_of(walk: &Walk<'_>, r: &mut Results) {
    let model = walk.model;
    let allowed = format!(
        "1. Validation constraints: The subschemas cannot be used as validation constraints because they contain one or more of the following illegal keywords: [{}].\n2. Deprecation: The subschemas can only be used for deprecation if exactly one subschema is not deprecated and all others are deprecated.",
        XOF_ILLEGAL_KEYWORDS.join(" ")
    );
    let permitted = |subs: &[NodeId]| {
        let constraints_only = subs.iter().all(|&s| {
            let n = model.node(s);
            n.types.is_none()
                && n.title.is_empty()
                && n.description.is_empty()
                && n.examples.is_none()
                && n.properties.is_none()
                && n.additional_properties.is_none()
                && n.pattern_properties.is_none()
                && n.items_legacy.is_none()
                && n.items.is_none()
                && !n.additional_items
        });
        let deprecated = subs.iter().filter(|&&s| model.node(s).deprecated).count();
        constraints_only || (subs.len() - deprecated == 1)
    };
    for (_, id, loc) in walk.schemas() {
        let n = model.node(id);
        if let Some(subs) = &n.any_of {
            if !permitted(subs) {
                r.add(
                    format!(
                        "Schema must only use anyOf for one of the following purposes:\n{allowed}"
                    ),
                    loc,
                );
            }
        }
        if let Some(subs) = &n.one_of {
            if !permitted(subs) {
                r.add(
                    format!(
                        "Schema at path '{}' must only use oneOf for one of the following purposes:\n{allowed}",
                        concise(loc)
                    ),
                    loc,
                );
            }
        }
    }
}

/// Whether examples are recommended at a property location: every schema
/// there is a string, and one of them has a `pattern` or a known `format`.
fn recommend_examples(walk: &Walk<'_>, location: &str) -> bool {
    let schemas = walk.schemas_at(location);
    let model = walk.model;
    schemas.iter().all(|&s| model.node(s).is_type("string"))
        && schemas.iter().any(|&s| {
            let n = model.node(s);
            n.pattern.is_some() || n.known_format
        })
}

/// Follows a schema's `$ref` chain (at most once through each schema).
fn ref_chain(model: &Model, id: NodeId) -> Vec<NodeId> {
    let mut out = vec![id];
    let mut cur = model.node(id).reference;
    while let Some(t) = cur {
        if out.contains(&t) {
            break;
        }
        out.push(t);
        cur = model.node(t).reference;
    }
    out
}

/// R9: `required` names properties that exist, and none that has a
/// default (a default makes the requirement moot).
fn required_properties(walk: &Walk<'_>, r: &mut Results) {
    let model = walk.model;
    for (_, id, loc) in walk.schemas() {
        let Some(required) = &model.node(id).required else {
            continue;
        };
        let chain = ref_chain(model, id);
        let open = chain.iter().any(|&c| {
            let n = model.node(c);
            n.pattern_properties.is_some_and(|p| p > 0)
                || matches!(n.additional_properties, Some(Additional::Schema(_)))
        });
        let base = if loc == "/" { "" } else { loc };
        for name in required {
            let defs: Vec<NodeId> = chain
                .iter()
                .filter_map(|&c| {
                    model
                        .node(c)
                        .properties
                        .as_ref()
                        .and_then(|p| p.iter().find(|(k, _)| k == name).map(|(_, s)| *s))
                })
                .collect();
            if defs.is_empty() {
                if !open {
                    r.add(
                        format!("Required property '{name}' is not defined in 'properties'"),
                        loc,
                    );
                }
                continue;
            }
            let has_default = defs.iter().any(|&d| {
                ref_chain(model, d)
                    .iter()
                    .any(|&c| model.node(c).default.is_some())
            });
            if has_default {
                r.add(
                    format!(
                        "Required property '{name}' has a default value; a property with a default must not be required"
                    ),
                    format!("{base}/properties/{}", super::model::escape_token(name)),
                );
            }
        }
    }
}

/// Whether a pattern only accepts a fixed list of literal words, like
/// `^(aws|azure)$`.
fn is_literal_alternation(pattern: &str) -> bool {
    let Some(inner) = pattern.strip_prefix('^').and_then(|p| p.strip_suffix('$')) else {
        return false;
    };
    let inner = inner
        .strip_prefix("(?:")
        .or_else(|| inner.strip_prefix('('))
        .and_then(|p| p.strip_suffix(')'))
        .unwrap_or(inner);
    if inner.contains('(') || inner.contains(')') {
        return false;
    }
    inner.split('|').all(|alt| {
        let unescaped = alt.replace("\\.", "").replace("\\-", "");
        !alt.is_empty()
            && unescaped
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// R12: a string with a fixed set of values lists them with `enum`, or
/// with `oneOf` entries of `const` and `title`.
fn string_values(walk: &Walk<'_>, r: &mut Results) {
    let model = walk.model;
    for (_, id, loc) in walk.schemas() {
        let n = model.node(id);
        if !n.is_type("string") {
            continue;
        }
        if n.enum_values.is_none() && n.pattern.as_deref().is_some_and(is_literal_alternation) {
            r.add(
                "String property with a fixed set of values should list them in 'enum' (or in 'oneOf' entries with 'const' and 'title') instead of a 'pattern'",
                loc,
            );
        }
        if let Some(values) = &n.enum_values {
            if values.iter().any(|v| !v.is_string()) {
                r.add("String property should only list strings in 'enum'", loc);
            }
        }
        for subs in [&n.one_of, &n.any_of].into_iter().flatten() {
            let consts = subs
                .iter()
                .filter(|&&s| model.node(s).const_value.is_some())
                .count();
            let labelled = subs.iter().all(|&s| {
                let m = model.node(s);
                m.const_value.as_ref().is_some_and(Value::is_string) && !m.title.is_empty()
            });
            if consts > 0 && !labelled {
                r.add(
                    "String property choices should each have a string 'const' and a 'title'",
                    loc,
                );
            }
        }
    }
}

/// `false`, `""`, `0`, `[]` or `{}`.
fn is_empty_value(v: &Value) -> bool {
    match v {
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Null => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_quoting() {
        assert_eq!(quoted_list(DESCRIPTION_ILLEGAL), r#"["\n" "\r" "\t" "  "]"#);
    }

    #[test]
    fn capitalization_reads_the_first_byte() {
        assert!(starts_capitalized("Abc"));
        assert!(!starts_capitalized("abc"));
        assert!(!starts_capitalized(" Abc"));
        assert!(!starts_capitalized(""));
        // "É" starts with 0xC3, which as Latin-1 is "Ã" (upper case).
        assert!(starts_capitalized("Éa"));
        // "é" starts with 0xC3 too.
        assert!(starts_capitalized("éa"));
    }

    #[test]
    fn literal_alternations() {
        assert!(is_literal_alternation("^(aws|azure)$"));
        assert!(is_literal_alternation("^(?:a-b|c_d|v1\\.2)$"));
        assert!(is_literal_alternation("^only$"));
        assert!(!is_literal_alternation("^[a-z]+$"));
        assert!(!is_literal_alternation("aws|azure"));
        assert!(!is_literal_alternation("^(a|b)(c|d)$"));
        assert!(!is_literal_alternation("^(a||b)$"));
    }

    #[test]
    fn empty_values() {
        for v in [
            serde_json::json!(false),
            serde_json::json!(""),
            serde_json::json!(0),
            serde_json::json!(0.0),
            serde_json::json!([]),
            serde_json::json!({}),
        ] {
            assert!(is_empty_value(&v), "{v}");
        }
        for v in [
            serde_json::json!(true),
            serde_json::json!("x"),
            serde_json::json!(1),
            serde_json::json!([0]),
            serde_json::json!({"a": 1}),
            serde_json::json!(null),
        ] {
            assert!(!is_empty_value(&v), "{v}");
        }
    }
}
