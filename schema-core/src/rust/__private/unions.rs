//! Enums with data as structural unions: one object per enum (never a
//! `oneOf`), with CEL rules that keep the variants apart. The derive
//! collects the variants' schemas in a [`Union`] and [`Union::finish`]
//! builds the node for serde's representation:
//!
//! - externally tagged: one optional property per variant and the
//!   `exactly_one_of` rule over them (in the schemars dialect, kube's
//!   `oneOf` of one `required` property per variant instead);
//! - internally tagged (`tag = "t"`): the tag (a required string enum) and
//!   the merged properties of all variants, with one rule per property
//!   that is not required or allowed in every variant;
//! - adjacently tagged (`tag = "t", content = "c"`): the tag and the
//!   content property, whose schema is the merged objects of the variants
//!   (rules at the enum's node, which sees the tag) or their one common
//!   schema;
//! - untagged: only an integer variant and a string variant, as
//!   `x-kubernetes-int-or-string`; in the schemars dialect
//!   (`#[derive(JsonSchema)]`), variants that are all objects are merged
//!   into one object as kube's structural rewriter merges schemars'
//!   `anyOf`: every property once, and each variant's `required` list in
//!   an `anyOf` branch of its own.

use indexmap::IndexMap;
use serde_json::Value;

use super::{Attrs, OneOf, apply, node, one_of_rule, push_rule, replaced, strings_of};
use crate::cel::escape::escape;
use crate::model::wire::{JsonSchemaProps, SchemaOrBool, ValidationRule};
use crate::rust::{SchemaCx, StructuralSchema};

/// serde's representation of an enum.
#[derive(Clone, Copy, Debug)]
enum Repr {
    External,
    ExternalOneOf,
    Internal {
        tag: &'static str,
    },
    Adjacent {
        tag: &'static str,
        content: &'static str,
    },
    Untagged,
    UntaggedObjects,
}

/// What a variant holds.
enum Content {
    /// Nothing: a unit variant (only the tag is written).
    Unit,
    /// A newtype variant's value.
    Newtype {
        schema: JsonSchemaProps,
        /// `Option<T>`: serde writes `null` for `None`.
        optional: bool,
        type_name: String,
    },
    /// A struct variant's object of fields (or a variant whose schema the
    /// attributes give).
    Fields(JsonSchemaProps),
}

struct Variant {
    name: &'static str,
    content: Content,
}

/// The variants of one enum, collected by the derive's code, then turned
/// into the enum's schema by [`Union::finish`].
pub struct Union {
    repr: Repr,
    variants: Vec<Variant>,
}

impl Union {
    /// An externally tagged enum (serde's default) with data.
    pub fn external() -> Self {
        Self::new(Repr::External)
    }

    /// An externally tagged enum with data in the schemars dialect: the
    /// variants kept apart by a `oneOf`, as in kube-derive's CRDs.
    pub fn external_one_of() -> Self {
        Self::new(Repr::ExternalOneOf)
    }

    /// An internally tagged enum (`#[serde(tag = "...")]`).
    pub fn internal(tag: &'static str) -> Self {
        Self::new(Repr::Internal { tag })
    }

    /// An adjacently tagged enum (`#[serde(tag = "...", content = "...")]`).
    pub fn adjacent(tag: &'static str, content: &'static str) -> Self {
        Self::new(Repr::Adjacent { tag, content })
    }

    /// An untagged enum (`#[serde(untagged)]`).
    pub fn untagged() -> Self {
        Self::new(Repr::Untagged)
    }

    /// An untagged enum in the schemars dialect: objects merged as kube
    /// merges them, else as [`Union::untagged`].
    pub fn untagged_objects() -> Self {
        Self::new(Repr::UntaggedObjects)
    }

    fn new(repr: Repr) -> Self {
        Union {
            repr,
            variants: Vec::new(),
        }
    }

    /// Runs `f` where the variant's content sits in the field path.
    fn in_content<R>(
        &self,
        cx: &mut SchemaCx,
        name: &str,
        f: impl FnOnce(&mut SchemaCx) -> R,
    ) -> R {
        match self.repr {
            Repr::External | Repr::ExternalOneOf => cx.in_property(name, f),
            Repr::Adjacent { content, .. } => cx.in_property(content, f),
            Repr::Internal { .. } | Repr::Untagged | Repr::UntaggedObjects => f(cx),
        }
    }

    /// A unit variant.
    pub fn unit(&mut self, name: &'static str) {
        self.variants.push(Variant {
            name,
            content: Content::Unit,
        });
    }

    /// A newtype variant holding a `T`, with the variant's attributes.
    pub fn newtype<T: StructuralSchema + ?Sized>(
        &mut self,
        cx: &mut SchemaCx,
        name: &'static str,
        attrs: &Attrs,
    ) {
        let schema = self.in_content(cx, name, |cx| node::<T>(cx, attrs));
        self.variants.push(Variant {
            name,
            content: Content::Newtype {
                schema,
                optional: T::OPTIONAL,
                type_name: T::schema_name(),
            },
        });
    }

    /// A variant whose schema its attributes give (`with`, `type`, ...).
    pub fn replaced(&mut self, cx: &mut SchemaCx, name: &'static str, attrs: &Attrs) {
        let schema = self.in_content(cx, name, |cx| {
            let mut s = replaced(cx, attrs);
            apply(cx, &mut s, attrs);
            s
        });
        self.variants.push(Variant {
            name,
            content: Content::Fields(schema),
        });
    }

    /// A struct variant: `fields` builds the object of its fields, then the
    /// variant's attributes apply to it.
    pub fn fields(
        &mut self,
        cx: &mut SchemaCx,
        name: &'static str,
        attrs: &Attrs,
        fields: impl FnOnce(&mut SchemaCx) -> JsonSchemaProps,
    ) {
        let schema = self.in_content(cx, name, |cx| {
            let mut s = fields(cx);
            apply(cx, &mut s, attrs);
            s
        });
        self.variants.push(Variant {
            name,
            content: Content::Fields(schema),
        });
    }

    /// The enum's schema, with the enum's own attributes applied.
    pub fn finish(self, cx: &mut SchemaCx, attrs: &Attrs) -> JsonSchemaProps {
        let mut s = match self.repr {
            Repr::External => external(cx, self.variants, false),
            Repr::ExternalOneOf => external(cx, self.variants, true),
            Repr::Internal { tag } => internal(cx, self.variants, tag),
            Repr::Adjacent { tag, content } => adjacent(cx, self.variants, tag, content),
            Repr::Untagged => untagged(cx, self.variants),
            Repr::UntaggedObjects => untagged_objects(cx, self.variants),
        };
        // The enum's own rules come first, as a struct's do; the union's
        // rules were pushed while building.
        let union_rules = s.x_validations.take();
        apply(cx, &mut s, attrs);
        if let Some(rules) = union_rules {
            s.x_validations.get_or_insert_with(Vec::new).extend(rules);
        }
        s
    }
}

fn object() -> JsonSchemaProps {
    super::object()
}

/// `{"Git": {...}, "Http": {...}}` with exactly one property set: by the
/// `exactly_one_of` rule, or with `one_of`, by kube's `oneOf` of one
/// `required` property per variant (no rule reads the variants then, so
/// an empty struct variant stays a plain object).
fn external(cx: &mut SchemaCx, variants: Vec<Variant>, one_of: bool) -> JsonSchemaProps {
    let mut s = object();
    let mut names = Vec::with_capacity(variants.len());
    for v in variants {
        let prop = match v.content {
            Content::Unit => {
                cx.error(format!(
                    "the unit variant `{}` cannot be part of an externally tagged enum with data \
                     (serde writes it as a string, the other variants as objects); make it an empty \
                     struct variant `{} {{}}`",
                    v.name, v.name
                ));
                continue;
            }
            Content::Newtype {
                optional: true,
                type_name,
                ..
            } => {
                cx.error(format!(
                    "variant `{}` holds `{type_name}`, which is optional: serde writes `None` as \
                     `{{\"{}\": null}}`, which the API server's rules see as no variant at all; \
                     hold the type itself",
                    v.name, v.name
                ));
                continue;
            }
            Content::Newtype { mut schema, .. } | Content::Fields(mut schema) => {
                if !one_of {
                    cel_safe_empty_object(&mut schema);
                }
                schema
            }
        };
        s.properties
            .get_or_insert_with(IndexMap::new)
            .insert(v.name.to_string(), prop);
        names.push(v.name);
    }
    match names.as_slice() {
        [] => {}
        _ if one_of => {
            s.one_of = Some(
                names
                    .iter()
                    .map(|name| JsonSchemaProps {
                        required: Some(vec![(*name).to_string()]),
                        ..JsonSchemaProps::default()
                    })
                    .collect(),
            );
        }
        [only] => s.required = Some(vec![(*only).to_string()]),
        _ => one_of_rule(cx, &mut s, OneOf::Exactly, &names),
    }
    s
}

/// An object without properties cannot be read by the API server's CEL
/// (it fails with "invalid object type"), and the rules look at every
/// variant: such a variant (an empty struct variant `A {}`) keeps its
/// unknown fields, and may have none, so that only `{}` is accepted.
fn cel_safe_empty_object(s: &mut JsonSchemaProps) {
    if s.type_str() == "object"
        && s.properties.as_ref().is_none_or(IndexMap::is_empty)
        && s.additional_properties.is_none()
        && !s.preserves_unknown_fields()
    {
        s.x_preserve_unknown_fields = Some(true);
        s.max_properties = Some(0);
    }
}

/// A CEL string literal.
fn cel_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// The tag's conditions and wording, for the rules.
struct Tag<'a> {
    /// The tag's property name, for messages.
    name: &'a str,
    /// `self.<tag>` as CEL.
    expr: String,
    /// Every tag value, in order.
    values: Vec<&'static str>,
}

impl Tag<'_> {
    /// `self.type == 'A'` or `self.type in ['A', 'B']`.
    fn is(&self, values: &[&str]) -> String {
        match values {
            [one] => format!("{} == {}", self.expr, cel_string(one)),
            _ => format!(
                "{} in [{}]",
                self.expr,
                values
                    .iter()
                    .map(|v| cel_string(v))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// `self.type != 'A'` or `!(self.type in ['A', 'B'])`.
    fn is_not(&self, values: &[&str]) -> String {
        match values {
            [one] => format!("{} != {}", self.expr, cel_string(one)),
            _ => format!("!({})", self.is(values)),
        }
    }

    /// `type is A` or `type is one of [A B]`, for messages.
    fn says(&self, values: &[&str]) -> String {
        match values {
            [one] => format!("{} is {one}", self.name),
            _ => format!("{} is one of [{}]", self.name, values.join(" ")),
        }
    }
}

/// A CEL path to a property: `self.<id>`, or the error that it cannot be
/// reached.
fn reach(cx: &mut SchemaCx, base: &str, name: &str) -> Option<String> {
    match escape(name) {
        Some(id) => Some(format!("{base}.{id}")),
        None => {
            cx.error(format!(
                "the property name `{name}` cannot be reached from CEL, so the rules that keep \
                 the variants apart cannot be written; rename it (`#[serde(rename = \"...\")]`)"
            ));
            None
        }
    }
}

/// A property of the merged object of several variants.
struct MergedProp {
    schema: JsonSchemaProps,
    /// The variants (indexes into the tag values) that have it.
    has: Vec<usize>,
    /// The variants that require it.
    required: Vec<usize>,
}

/// The properties of several variants' objects, merged.
#[derive(Default)]
struct Merged {
    props: IndexMap<String, MergedProp>,
    /// Each variant's own rules, with the variant's index.
    rules: Vec<(usize, ValidationRule)>,
    preserve_unknown_fields: bool,
}

/// Two schemas are the same property when they differ at most in their
/// description.
fn same_property(a: &JsonSchemaProps, b: &JsonSchemaProps) -> bool {
    let strip = |s: &JsonSchemaProps| JsonSchemaProps {
        description: None,
        ..s.clone()
    };
    strip(a) == strip(b)
}

fn describe_type(s: &JsonSchemaProps) -> String {
    if s.is_int_or_string() {
        "int-or-string".to_string()
    } else if s.type_str().is_empty() {
        "no type".to_string()
    } else {
        format!("type {}", s.type_str())
    }
}

/// Merges the object `obj` of variant `index` (named `name`) into `m`;
/// `reserved` are the names the enum itself uses (the tag).
fn merge_object(
    cx: &mut SchemaCx,
    m: &mut Merged,
    names: &[&'static str],
    index: usize,
    obj: JsonSchemaProps,
    reserved: &[&str],
) {
    let name = names[index];
    for (p, schema) in obj.properties.into_iter().flatten() {
        if reserved.contains(&p.as_str()) {
            cx.error(format!(
                "variant `{name}` has a property named `{p}`, which the enum uses for its tag \
                 or content; rename the field (`#[serde(rename = \"...\")]`)"
            ));
            continue;
        }
        match m.props.get_mut(&p) {
            Some(existing) => {
                if !same_property(&existing.schema, &schema) {
                    let first = existing.has.first().map_or("?", |i| names[*i]);
                    cx.error(format!(
                        "the property `{p}` of variant `{name}` ({}) differs from the property `{p}` \
                         of variant `{first}` ({}): the variants share one object, so a property \
                         has one schema; give both fields the same type and attributes, or rename \
                         one of them (`#[serde(rename = \"...\")]`)",
                        describe_type(&schema),
                        describe_type(&existing.schema),
                    ));
                    continue;
                }
                if existing.schema.description.is_none() {
                    existing.schema.description = schema.description;
                }
                existing.has.push(index);
            }
            None => {
                m.props.insert(
                    p.clone(),
                    MergedProp {
                        schema,
                        has: vec![index],
                        required: Vec::new(),
                    },
                );
            }
        }
    }
    for r in obj.required.into_iter().flatten() {
        if let Some(p) = m.props.get_mut(&r) {
            if p.has.contains(&index) && !p.required.contains(&index) {
                p.required.push(index);
            }
        }
    }
    if obj.x_preserve_unknown_fields == Some(true) {
        m.preserve_unknown_fields = true;
    }
    for r in obj.x_validations.into_iter().flatten() {
        m.rules.push((index, r));
    }
}

/// Checks that a variant's content can be merged into an object: an
/// object with properties (or none), never a map.
fn mergeable_object(
    cx: &mut SchemaCx,
    name: &str,
    content: Content,
    what: &str,
) -> Option<JsonSchemaProps> {
    let (schema, optional, type_name) = match content {
        Content::Unit => return None,
        Content::Newtype {
            schema,
            optional,
            type_name,
        } => (schema, optional, Some(type_name)),
        Content::Fields(schema) => (schema, false, None),
    };
    let holds = match &type_name {
        Some(t) => format!("variant `{name}` holds `{t}`, which"),
        None => format!("variant `{name}`"),
    };
    if optional {
        cx.error(format!(
            "{holds} is optional; {what}: hold the type itself, or make the fields inside it optional"
        ));
        return None;
    }
    if schema.type_str() != "object" || schema.is_int_or_string() {
        cx.error(format!(
            "{holds} has {}; {what}: use a struct variant (`{name} {{ value: ... }}`) or a \
             newtype variant of a struct",
            describe_type(&schema)
        ));
        return None;
    }
    if matches!(schema.additional_properties, Some(SchemaOrBool::Schema(_))) {
        cx.error(format!(
            "{holds} is a map; {what}, and an object with `properties` cannot have \
             `additionalProperties`: use a struct variant, or a map field inside one"
        ));
        return None;
    }
    // Only the fields, their rules and `preserve_unknown_fields` survive
    // the merge; anything else on the variant's object would be lost.
    const MERGED: &[&str] = &[
        "description",
        "type",
        "required",
        "properties",
        "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-validations",
    ];
    if let Value::Object(keys) = schema.to_value() {
        let lost: Vec<String> = keys
            .keys()
            .filter(|k| !MERGED.contains(&k.as_str()))
            .map(|k| format!("`{k}`"))
            .collect();
        if !lost.is_empty() {
            cx.error(format!(
                "{holds} has {} on its object, which cannot be kept when its fields are merged \
                 with the other variants'; put them on the enum, or on the fields",
                lost.join(", "),
            ));
        }
    }
    Some(schema)
}

/// Where the merged properties are, for their rules.
#[derive(Clone, Copy)]
struct Within<'a> {
    /// The CEL expression of their object: `self` or `self.c`.
    base: &'a str,
    /// Their prefix in messages: `` or `c.`.
    shown: &'a str,
    /// The condition under which the rules apply (the content is set).
    guard: Option<&'a str>,
}

/// Appends the rules that keep each merged property to its variants, with
/// the properties reached below `base` (`self` or `self.c`) and `guard`
/// (a condition under which the rules apply, for a content that may be
/// absent). `all` is the number of variants the object belongs to.
fn property_rules(
    cx: &mut SchemaCx,
    s: &mut JsonSchemaProps,
    m: &Merged,
    tag: &Tag<'_>,
    all: &[usize],
    at: &Within<'_>,
) {
    let Within { base, shown, guard } = *at;
    for (p, mp) in &m.props {
        let everywhere = all.iter().all(|i| mp.has.contains(i));
        let required_everywhere = all.iter().all(|i| mp.required.contains(i));
        if required_everywhere || (everywhere && mp.required.is_empty()) {
            continue;
        }
        let Some(path) = reach(cx, base, p) else {
            continue;
        };
        let has = format!("has({path})");
        let in_has: Vec<&str> = mp.has.iter().map(|i| tag.values[*i]).collect();
        let in_req: Vec<&str> = mp.required.iter().map(|i| tag.values[*i]).collect();
        let shown = format!("{shown}{p}");
        let (rule, message) = if mp.required.len() == mp.has.len() {
            (
                format!("{has} == ({})", tag.is(&in_has)),
                format!(
                    "{shown} is required when {}, and forbidden otherwise",
                    tag.says(&in_has)
                ),
            )
        } else if mp.required.is_empty() {
            (
                format!("!{has} || {}", tag.is(&in_has)),
                format!("{shown} may only be set when {}", tag.says(&in_has)),
            )
        } else if everywhere {
            (
                format!("{} || {has}", tag.is_not(&in_req)),
                format!("{shown} is required when {}", tag.says(&in_req)),
            )
        } else {
            (
                format!(
                    "{} ? {has} : (!{has} || {})",
                    tag.is(&in_req),
                    tag.is(&in_has)
                ),
                format!(
                    "{shown} is required when {}, and may only be set when {}",
                    tag.says(&in_req),
                    tag.says(&in_has)
                ),
            )
        };
        let rule = match guard {
            Some(g) => format!("!{g} || ({rule})"),
            None => rule,
        };
        push_rule(s, rule, message);
    }
}

/// A property with a default that not every variant has would be set by
/// the API server for every variant, and then break the rules.
fn check_defaults(cx: &mut SchemaCx, m: &Merged, tag: &Tag<'_>, all: &[usize]) {
    for (p, mp) in &m.props {
        if mp.schema.default.is_some() && !all.iter().all(|i| mp.has.contains(i)) {
            let in_has: Vec<&str> = mp.has.iter().map(|i| tag.values[*i]).collect();
            cx.error(format!(
                "the property `{p}` has a `default`, but only the variants [{}] have it: the API \
                 server would set it whatever the tag is; remove the `default` (a serde default \
                 is enough)",
                in_has.join(" ")
            ));
        }
    }
}

/// `{"type": "A", ...A's fields}`.
fn internal(cx: &mut SchemaCx, variants: Vec<Variant>, tag_name: &'static str) -> JsonSchemaProps {
    let values: Vec<&'static str> = variants.iter().map(|v| v.name).collect();
    let mut m = Merged::default();
    let what = "serde writes an internally tagged variant's content as the fields of the \
                tagged object, so it must be a struct";
    for (i, v) in variants.into_iter().enumerate() {
        if let Some(obj) = mergeable_object(cx, v.name, v.content, what) {
            merge_object(cx, &mut m, &values, i, obj, &[tag_name]);
        }
    }
    let mut s = object();
    let props = s.properties.get_or_insert_with(IndexMap::new);
    props.insert(tag_name.to_string(), strings_of(&values));
    let mut required = vec![tag_name.to_string()];
    let all: Vec<usize> = (0..values.len()).collect();
    for (p, mp) in &m.props {
        props.insert(p.clone(), mp.schema.clone());
        if all.iter().all(|i| mp.required.contains(i)) {
            required.push(p.clone());
        }
    }
    s.required = Some(required);
    if m.preserve_unknown_fields {
        s.x_preserve_unknown_fields = Some(true);
    }
    let Some(expr) = reach(cx, "self", tag_name) else {
        return s;
    };
    let tag = Tag {
        name: tag_name,
        expr,
        values,
    };
    check_defaults(cx, &m, &tag, &all);
    let at = Within {
        base: "self",
        shown: "",
        guard: None,
    };
    property_rules(cx, &mut s, &m, &tag, &all, &at);
    // A variant's own rules hold when the tag names it.
    for (i, mut r) in m.rules {
        if let Some(rule) = r.rule.take() {
            r.rule = Some(format!("{} || ({rule})", tag.is_not(&[tag.values[i]])));
        }
        s.x_validations.get_or_insert_with(Vec::new).push(r);
    }
    s
}

/// `{"t": "A", "c": ...}`.
fn adjacent(
    cx: &mut SchemaCx,
    variants: Vec<Variant>,
    tag_name: &'static str,
    content_name: &'static str,
) -> JsonSchemaProps {
    let values: Vec<&'static str> = variants.iter().map(|v| v.name).collect();
    let with_content: Vec<usize> = variants
        .iter()
        .enumerate()
        .filter(|(_, v)| !matches!(v.content, Content::Unit))
        .map(|(i, _)| i)
        .collect();
    let mut s = object();
    s.properties
        .get_or_insert_with(IndexMap::new)
        .insert(tag_name.to_string(), strings_of(&values));
    s.required = Some(vec![tag_name.to_string()]);
    if with_content.is_empty() {
        return s;
    }
    let (Some(tag_expr), Some(content_expr)) =
        (reach(cx, "self", tag_name), reach(cx, "self", content_name))
    else {
        return s;
    };
    let tag = Tag {
        name: tag_name,
        expr: tag_expr,
        values: values.clone(),
    };
    let all_objects = variants.iter().all(|v| match &v.content {
        Content::Unit => true,
        Content::Newtype {
            schema, optional, ..
        } => {
            !optional
                && schema.type_str() == "object"
                && !schema.is_int_or_string()
                && !matches!(schema.additional_properties, Some(SchemaOrBool::Schema(_)))
        }
        Content::Fields(schema) => {
            schema.type_str() == "object"
                && !matches!(schema.additional_properties, Some(SchemaOrBool::Schema(_)))
        }
    });
    let content = cx.in_property(content_name, |cx| {
        if all_objects {
            merged_content(
                cx,
                &mut s,
                variants,
                &tag,
                &with_content,
                &content_expr,
                content_name,
            )
        } else {
            common_content(cx, variants, content_name)
        }
    });
    if let Some(c) = content {
        s.properties
            .get_or_insert_with(IndexMap::new)
            .insert(content_name.to_string(), c);
        if with_content.len() == values.len() {
            s.required
                .get_or_insert_with(Vec::new)
                .push(content_name.to_string());
        } else {
            let in_content: Vec<&str> = with_content.iter().map(|i| values[*i]).collect();
            let rules = s.x_validations.take();
            push_rule(
                &mut s,
                format!("has({content_expr}) == ({})", tag.is(&in_content)),
                format!(
                    "{content_name} is required when {}, and forbidden otherwise",
                    tag.says(&in_content)
                ),
            );
            if let Some(rules) = rules {
                s.x_validations.get_or_insert_with(Vec::new).extend(rules);
            }
        }
    }
    s
}

/// The content of an adjacently tagged enum whose variants all hold
/// objects: their properties merged, the rules at the enum's node `s`.
fn merged_content(
    cx: &mut SchemaCx,
    s: &mut JsonSchemaProps,
    variants: Vec<Variant>,
    tag: &Tag<'_>,
    with_content: &[usize],
    content_expr: &str,
    content_name: &str,
) -> Option<JsonSchemaProps> {
    let mut m = Merged::default();
    let what = "the variants' contents share one schema";
    for (i, v) in variants.into_iter().enumerate() {
        if let Some(obj) = mergeable_object(cx, v.name, v.content, what) {
            merge_object(cx, &mut m, &tag.values, i, obj, &[]);
        }
    }
    let mut c = object();
    let mut required = Vec::new();
    for (p, mp) in &m.props {
        c.properties
            .get_or_insert_with(IndexMap::new)
            .insert(p.clone(), mp.schema.clone());
        if with_content.iter().all(|i| mp.required.contains(i)) {
            required.push(p.clone());
        }
    }
    if !required.is_empty() {
        c.required = Some(required);
    }
    if m.preserve_unknown_fields {
        c.x_preserve_unknown_fields = Some(true);
    }
    cel_safe_empty_object(&mut c);
    check_defaults(cx, &m, tag, with_content);
    let guard = format!("has({content_expr})");
    let shown = format!("{content_name}.");
    let at = Within {
        base: content_expr,
        shown: &shown,
        guard: Some(&guard),
    };
    property_rules(cx, s, &m, tag, with_content, &at);
    // A rule of a variant's content cannot see the tag from the shared
    // content node: it is kept only when every variant with content has
    // the same rules (or only one variant has content).
    let mut by_variant: Vec<Vec<ValidationRule>> = vec![Vec::new(); tag.values.len()];
    for (i, r) in m.rules {
        by_variant[i].push(r);
    }
    let first = with_content.first().map(|i| by_variant[*i].clone());
    if let Some(first) = first {
        let same = with_content.iter().all(|i| by_variant[*i] == first);
        if same {
            if !first.is_empty() {
                c.x_validations = Some(first);
            }
        } else if let Some(i) = with_content.iter().find(|i| !by_variant[**i].is_empty()) {
            cx.error(format!(
                "the content of variant `{}` has CEL rules (`x-kubernetes-validations`), which an \
                 adjacently tagged enum cannot keep: the content node is shared by the variants and \
                 a rule there cannot see the tag; write them on the enum with \
                 `#[schema(validation(rule = \"{} || ...\"))]`, or use an internally tagged enum",
                tag.values[*i],
                tag.is_not(&[tag.values[*i]]),
            ));
        }
    }
    Some(c)
}

/// The content of an adjacently tagged enum whose variants do not all hold
/// objects: they must all have one schema.
fn common_content(
    cx: &mut SchemaCx,
    variants: Vec<Variant>,
    content_name: &str,
) -> Option<JsonSchemaProps> {
    let mut first: Option<(&'static str, JsonSchemaProps)> = None;
    let mut ok = true;
    for v in variants {
        let schema = match v.content {
            Content::Unit => continue,
            Content::Newtype { optional: true, .. } => {
                cx.error(format!(
                    "variant `{}` holds an optional value; serde would write `null` as the \
                     content `{content_name}`: hold the type itself",
                    v.name
                ));
                ok = false;
                continue;
            }
            Content::Newtype { schema, .. } | Content::Fields(schema) => schema,
        };
        match &first {
            None => first = Some((v.name, schema)),
            Some((name, f)) => {
                if !same_property(f, &schema) {
                    cx.error(format!(
                        "the content of variant `{}` ({}) differs from the content of variant \
                         `{name}` ({}): the content `{content_name}` has one schema, so the \
                         variants must hold the same type, or all hold structs (whose fields are \
                         merged); use struct variants, or an externally tagged enum",
                        v.name,
                        describe_type(&schema),
                        describe_type(f),
                    ));
                    ok = false;
                }
            }
        }
    }
    first.filter(|_| ok).map(|(_, s)| s)
}

/// kube's merge of an untagged enum whose variants are all objects (else
/// [`untagged`]): the object of every variant's properties (a property
/// in several variants must have the same schema in each), with an `anyOf`
/// branch per variant holding what the merge leaves of it (its `required`
/// list, sorted, and its other keywords but its type, description and
/// `additionalProperties`).
fn untagged_objects(cx: &mut SchemaCx, variants: Vec<Variant>) -> JsonSchemaProps {
    let all_objects = variants.iter().all(|v| match &v.content {
        Content::Newtype {
            schema,
            optional: false,
            ..
        }
        | Content::Fields(schema) => schema.type_str() == "object" && schema.properties.is_some(),
        _ => false,
    });
    if !all_objects {
        return untagged(cx, variants);
    }
    let mut s = object();
    let mut branches = Vec::with_capacity(variants.len());
    for v in variants {
        let (Content::Newtype { mut schema, .. } | Content::Fields(mut schema)) = v.content else {
            continue;
        };
        for (name, prop) in schema.properties.take().unwrap_or_default() {
            let props = s.properties.get_or_insert_with(IndexMap::new);
            match props.get(&name) {
                None => {
                    props.insert(name, prop);
                }
                Some(seen) if *seen == prop => {}
                Some(_) => cx.error(format!(
                    "the property `{name}` of variant `{}` has a schema other than the same \
                     property of an earlier variant: an untagged enum's variants are merged into \
                     one object, where a property has one schema",
                    v.name
                )),
            }
        }
        schema.type_ = None;
        schema.description = None;
        schema.additional_properties = None;
        if let Some(required) = &mut schema.required {
            required.sort();
            required.dedup();
        }
        branches.push(schema);
    }
    s.any_of = Some(branches);
    s
}

/// `Int(i32) | Str(String)`: an int-or-string.
fn untagged(cx: &mut SchemaCx, variants: Vec<Variant>) -> JsonSchemaProps {
    let mut int = None;
    let mut string = None;
    let mut wrong = Vec::new();
    for v in variants {
        match v.content {
            Content::Newtype {
                schema,
                optional: false,
                ..
            } if schema.type_str() == "integer" && int.is_none() => int = Some(schema),
            Content::Newtype {
                schema,
                optional: false,
                ..
            } if schema.type_str() == "string" && string.is_none() => string = Some(schema),
            Content::Newtype { schema, .. } | Content::Fields(schema) => {
                wrong.push(format!("`{}` ({})", v.name, describe_type(&schema)));
            }
            Content::Unit => wrong.push(format!("`{}` (a unit variant)", v.name)),
        }
    }
    let mut s = JsonSchemaProps {
        x_int_or_string: Some(true),
        any_of: Some(vec![
            JsonSchemaProps {
                type_: Some("integer".to_string()),
                ..JsonSchemaProps::default()
            },
            JsonSchemaProps {
                type_: Some("string".to_string()),
                ..JsonSchemaProps::default()
            },
        ]),
        ..JsonSchemaProps::default()
    };
    let (Some(int), Some(string)) = (int, string) else {
        wrong.sort();
        cx.error(format!(
            "an untagged enum has a structural schema only as an int-or-string: one newtype \
             variant holding an integer and one holding a string; found {}. Use an externally \
             or internally tagged enum, or give the schema with `#[schema(schemaless)]` or \
             `#[schema(with = path)]`",
            if wrong.is_empty() {
                "no such pair".to_string()
            } else {
                wrong.join(", ")
            }
        ));
        return s;
    };
    if !wrong.is_empty() {
        cx.error(format!(
            "an untagged int-or-string enum has exactly two variants; remove {}",
            wrong.join(", ")
        ));
    }
    if int.enum_.is_some() || string.enum_.is_some() {
        cx.error(
            "an untagged int-or-string enum cannot keep the `enum` of its variants (an `enum` \
             would apply to both integers and strings); hold `String` and an integer type, and \
             write the allowed values as a `validation(...)` rule on the enum",
        );
    }
    for side in [&int, &string] {
        if side.x_validations.is_some() {
            cx.error(
                "an untagged int-or-string enum cannot keep the CEL rules of its variants (a \
                 rule would see both integers and strings); write them on the enum with \
                 `#[schema(validation(...))]`",
            );
            break;
        }
    }
    // The validations of each side apply to their own kind of value only,
    // so they can sit on the int-or-string node.
    s.minimum = int.minimum;
    s.maximum = int.maximum;
    s.exclusive_minimum = int.exclusive_minimum;
    s.exclusive_maximum = int.exclusive_maximum;
    s.multiple_of = int.multiple_of;
    s.min_length = string.min_length;
    s.max_length = string.max_length;
    s.pattern = string.pattern;
    s
}
