//! Runtime support of `#[derive(StructuralSchema)]`; not a public API.
//!
//! The derive checks and folds every `#[schema(...)]` attribute into a
//! constant [`Attrs`] record and emits one call per field; the work of
//! applying attributes to schemas happens here, once, instead of in code
//! generated for every type. Attribute/type mismatches the derive could not
//! see in the syntax (a `min_length` on a field whose type turns out to be a
//! number) are reported through [`SchemaCx`].

use indexmap::IndexMap;
use schema_attrs::Applies;
use serde_json::{Number, Value};

pub use super::SchemaCx;
use super::StructuralSchema;
use crate::model::wire::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, ValidationRule};

pub use crate::model::wire::JsonSchemaProps as Schema;
/// serde, for generated code (a default written with `serialize_with`).
pub use serde;
/// serde_json's `Value`, for generated code in crates without serde_json.
pub use serde_json::Value as JsonValue;

mod schemars_dialect;
mod unions;
#[cfg(feature = "k8s-openapi")]
pub use schemars_dialect::from_schemars;
pub use schemars_dialect::{
    MaybeSerialize, NotSerialize, SchemarsKeywords, nullable_option, schema_default,
};
pub use unions::Union;

/// A JSON value written in an attribute, as a constant.
#[derive(Clone, Copy, Debug)]
pub enum Json {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A negative or small integer.
    Int(i64),
    /// A non-negative integer.
    UInt(u64),
    /// A float (finite: the derive rejects others).
    Float(f64),
    /// A string.
    Str(&'static str),
    /// An array.
    Array(&'static [Json]),
    /// An object, keys in source order.
    Object(&'static [(&'static str, Json)]),
}

impl Json {
    /// The value.
    pub fn to_value(&self) -> Value {
        match *self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(b),
            Json::Int(i) => Value::from(i),
            Json::UInt(u) => Value::from(u),
            Json::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            Json::Str(s) => Value::String(s.to_string()),
            Json::Array(a) => Value::Array(a.iter().map(Json::to_value).collect()),
            Json::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| ((*k).to_string(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

pub use schema_attrs::Num;

/// A number attribute as a JSON number (`None` for a float that is not
/// finite, which the derive rejects).
fn to_number(n: Num) -> Option<Number> {
    match n {
        Num::Int(i) => Some(Number::from(i)),
        Num::UInt(u) => Some(Number::from(u)),
        Num::Float(f) => Number::from_f64(f),
    }
}

/// One `validation(...)` rule.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// `rule`.
    pub rule: &'static str,
    /// `message`.
    pub message: Option<&'static str>,
    /// `message_expression`.
    pub message_expression: Option<&'static str>,
    /// `reason`.
    pub reason: Option<&'static str>,
    /// `field_path`.
    pub field_path: Option<&'static str>,
    /// `optional_old_self`.
    pub optional_old_self: Option<bool>,
}

impl Rule {
    fn to_wire(self) -> ValidationRule {
        ValidationRule {
            rule: Some(self.rule.to_string()),
            message: self.message.map(str::to_string),
            message_expression: self.message_expression.map(str::to_string),
            reason: self.reason.map(str::to_string),
            field_path: self.field_path.map(str::to_string),
            optional_old_self: self.optional_old_self,
            ..ValidationRule::default()
        }
    }
}

/// Which one-of rule a group of fields gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneOf {
    /// `at_most_one_of`.
    AtMost,
    /// `exactly_one_of`.
    Exactly,
    /// `at_least_one_of`.
    AtLeast,
}

/// The attributes of one schema node (a field, a type or `items(...)`).
#[derive(Clone, Copy, Debug)]
pub struct Attrs {
    /// `description`, or the doc comment.
    pub description: Option<&'static str>,
    /// `title`.
    pub title: Option<&'static str>,
    /// `type`: the schema is built from the attributes alone.
    pub type_: Option<&'static str>,
    /// `format`.
    pub format: Option<&'static str>,
    /// `minimum`.
    pub minimum: Option<Num>,
    /// `maximum`.
    pub maximum: Option<Num>,
    /// `exclusive_minimum`.
    pub exclusive_minimum: bool,
    /// `exclusive_maximum`.
    pub exclusive_maximum: bool,
    /// `multiple_of`.
    pub multiple_of: Option<Num>,
    /// `min_length`.
    pub min_length: Option<i64>,
    /// `max_length`.
    pub max_length: Option<i64>,
    /// `pattern`.
    pub pattern: Option<&'static str>,
    /// `min_items`.
    pub min_items: Option<i64>,
    /// `max_items`.
    pub max_items: Option<i64>,
    /// `unique_items`.
    pub unique_items: bool,
    /// `min_properties`.
    pub min_properties: Option<i64>,
    /// `max_properties`.
    pub max_properties: Option<i64>,
    /// `enum`.
    pub enum_: Option<&'static [Json]>,
    /// `default`.
    pub default: Option<Json>,
    /// `example`.
    pub example: Option<Json>,
    /// `nullable`.
    pub nullable: bool,
    /// `schemaless`: the schema is built from the attributes alone.
    pub schemaless: bool,
    /// `preserve_unknown_fields`.
    pub preserve_unknown_fields: bool,
    /// `embedded_resource`.
    pub embedded_resource: bool,
    /// `int_or_string`: the schema is built from the attributes alone.
    pub int_or_string: bool,
    /// `list_type`.
    pub list_type: Option<&'static str>,
    /// `list_map_keys`.
    pub list_map_keys: Option<&'static [&'static str]>,
    /// `all_of`, `any_of`, `one_of` and `not`: value validations as JSON
    /// (the key is the attribute's).
    pub junctors: &'static [(&'static str, Json)],
    /// The attributes applied by their schema key
    /// (`schema_attrs::Apply::SetKey`): the attribute's key and value.
    pub set_keys: &'static [(&'static str, Json)],
    /// `required_order`: the `required` list in this order.
    pub required_order: Option<&'static [&'static str]>,
    /// `map_type`.
    pub map_type: Option<&'static str>,
    /// `struct_type`.
    pub struct_type: Option<&'static str>,
    /// `validation(...)`, in order.
    pub validations: &'static [Rule],
    /// `immutable`.
    pub immutable: bool,
    /// `items(...)`: array items or map values.
    pub items: Option<&'static Attrs>,
    /// `with = path`: the schema is the function's.
    pub with: Option<fn(&mut SchemaCx) -> JsonSchemaProps>,
    /// schemars' validation keywords and `extend(...)`
    /// (`#[derive(JsonSchema)]`).
    pub schemars: Option<&'static SchemarsKeywords>,
}

impl Attrs {
    /// No attributes.
    pub const EMPTY: Attrs = Attrs {
        description: None,
        title: None,
        type_: None,
        format: None,
        minimum: None,
        maximum: None,
        exclusive_minimum: false,
        exclusive_maximum: false,
        multiple_of: None,
        min_length: None,
        max_length: None,
        pattern: None,
        min_items: None,
        max_items: None,
        unique_items: false,
        min_properties: None,
        max_properties: None,
        enum_: None,
        default: None,
        example: None,
        nullable: false,
        schemaless: false,
        preserve_unknown_fields: false,
        embedded_resource: false,
        int_or_string: false,
        list_type: None,
        list_map_keys: None,
        junctors: &[],
        set_keys: &[],
        required_order: None,
        map_type: None,
        struct_type: None,
        validations: &[],
        immutable: false,
        items: None,
        with: None,
        schemars: None,
    };

    /// Whether the schema comes from the attributes rather than the type.
    pub const fn replaces(&self) -> bool {
        self.with.is_some() || self.type_.is_some() || self.schemaless || self.int_or_string
    }
}

/// Whether a property is required.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Req {
    /// Unless the field's type is optional (`Option<T>`).
    Auto,
    /// Always (`required`).
    Yes,
    /// Never (`optional`, a serde default, `skip_serializing_if`, ...).
    No,
}

/// An empty object schema to which properties are added.
pub fn object() -> JsonSchemaProps {
    JsonSchemaProps {
        type_: Some("object".to_string()),
        ..JsonSchemaProps::default()
    }
}

/// The schema of a node of type `T` with its attributes.
pub fn node<T: StructuralSchema + ?Sized>(cx: &mut SchemaCx, attrs: &Attrs) -> JsonSchemaProps {
    let mut s = cx.subschema::<T>();
    apply_over(cx, &mut s, attrs);
    s
}

/// The schema of a node built from its attributes alone (`with`, `type`,
/// `schemaless`, `int_or_string`).
pub fn node_replaced(cx: &mut SchemaCx, attrs: &Attrs) -> JsonSchemaProps {
    let mut s = replaced(cx, attrs);
    apply_over(cx, &mut s, attrs);
    s
}

/// Applies the attributes of a node (a field, a newtype, `items(...)`) to
/// the schema of the type it holds: as [`apply`], except that the node's
/// rules come before the type's, as controller-gen orders them when it
/// resolves a field's type (the field's `x-kubernetes-validations`, then
/// the type's).
fn apply_over(cx: &mut SchemaCx, s: &mut JsonSchemaProps, attrs: &Attrs) {
    let inner = s.x_validations.take();
    apply(cx, s, attrs);
    if let Some(inner) = inner {
        s.x_validations.get_or_insert_with(Vec::new).extend(inner);
    }
}

fn replaced(cx: &mut SchemaCx, attrs: &Attrs) -> JsonSchemaProps {
    match attrs.with {
        Some(f) => f(cx),
        None => JsonSchemaProps::default(),
    }
}

/// Adds the property `name` of type `T` to the object `s`.
pub fn property<T: StructuralSchema + ?Sized>(
    cx: &mut SchemaCx,
    s: &mut JsonSchemaProps,
    name: &'static str,
    req: Req,
    attrs: &Attrs,
) {
    let required = match req {
        Req::Auto => !T::OPTIONAL,
        Req::Yes => true,
        Req::No => false,
    };
    let prop = cx.in_property(name, |cx| node::<T>(cx, attrs));
    insert(cx, s, name, prop, required, attrs.immutable);
}

/// Adds the property `name`, built from its attributes alone, to the
/// object `s`.
pub fn property_replaced(
    cx: &mut SchemaCx,
    s: &mut JsonSchemaProps,
    name: &'static str,
    required: bool,
    attrs: &Attrs,
) {
    let prop = cx.in_property(name, |cx| node_replaced(cx, attrs));
    insert(cx, s, name, prop, required, attrs.immutable);
}

fn insert(
    cx: &mut SchemaCx,
    s: &mut JsonSchemaProps,
    name: &str,
    prop: JsonSchemaProps,
    required: bool,
    immutable: bool,
) {
    let props = s.properties.get_or_insert_with(IndexMap::new);
    if props.contains_key(name) {
        cx.error(format!("two fields are named `{name}`"));
        return;
    }
    props.insert(name.to_string(), prop);
    if required {
        s.required
            .get_or_insert_with(Vec::new)
            .push(name.to_string());
    } else if immutable {
        // An optional immutable field may not be removed once set: its own
        // rule does not run when it is absent (controller-gen's rule).
        match crate::cel::escape::escape(name) {
            Some(id) => push_rule(
                s,
                format!("!has(oldSelf.{id}) || has(self.{id})"),
                format!("field {name} is immutable once set"),
            ),
            None => cx.error(format!(
                "`immutable`: the property name `{name}` cannot be reached from CEL"
            )),
        }
    }
}

fn push_rule(s: &mut JsonSchemaProps, rule: String, message: String) {
    s.x_validations
        .get_or_insert_with(Vec::new)
        .push(ValidationRule {
            rule: Some(rule),
            message: Some(message),
            ..ValidationRule::default()
        });
}

/// The rules of the `#[serde(flatten)]` fields of a struct, kept apart
/// until the struct's own rules are in place ([`Flattened::append_to`]).
#[derive(Debug, Default)]
pub struct Flattened(Vec<Vec<ValidationRule>>);

impl Flattened {
    /// Appends the kept rules to `s` as controller-gen orders those of
    /// inline embedded structs: after the struct's own rules, the last
    /// embedded struct's first.
    pub fn append_to(self, s: &mut JsonSchemaProps) {
        for rules in self.0.into_iter().rev() {
            s.x_validations.get_or_insert_with(Vec::new).extend(rules);
        }
    }
}

/// Merges the properties of `T` (a `#[serde(flatten)]` field) into `s`;
/// its rules go to `flattened`.
pub fn flatten<T: StructuralSchema + ?Sized>(
    cx: &mut SchemaCx,
    s: &mut JsonSchemaProps,
    flattened: &mut Flattened,
    field: &'static str,
    optional: bool,
) {
    let sub = cx.subschema::<T>();
    let optional = optional || T::OPTIONAL;
    if is_preserving_map(&sub) {
        // A flattened free-form map keeps every other key.
        s.x_preserve_unknown_fields = Some(true);
        return;
    }
    if sub.type_str() != "object" || sub.additional_properties.is_some() {
        cx.in_property(field, |cx| {
            cx.error(format!(
                "`#[serde(flatten)]` of `{}`: only structs with named fields and free-form maps \
                 (`serde_json::Value` values) can be flattened into a structural schema \
                 (`properties` and `additionalProperties` are mutually exclusive)",
                T::schema_name()
            ));
        });
        return;
    }
    for (name, prop) in sub.properties.into_iter().flatten() {
        let props = s.properties.get_or_insert_with(IndexMap::new);
        if props.contains_key(&name) {
            cx.error(format!(
                "the flattened field `{field}` brings a second property named `{name}`"
            ));
            continue;
        }
        props.insert(name, prop);
    }
    if !optional {
        for r in sub.required.into_iter().flatten() {
            s.required.get_or_insert_with(Vec::new).push(r);
        }
    }
    if sub.x_preserve_unknown_fields == Some(true) {
        s.x_preserve_unknown_fields = Some(true);
    }
    if let Some(rules) = sub.x_validations {
        flattened.0.push(rules);
    }
}

/// `serde_json::Value`, or an object whose every key is kept.
fn is_preserving_map(s: &JsonSchemaProps) -> bool {
    let free = |s: &JsonSchemaProps| {
        s.preserves_unknown_fields() && s.properties.is_none() && s.additional_properties.is_none()
    };
    match &s.additional_properties {
        Some(SchemaOrBool::Schema(v)) => {
            s.type_str() == "object" && s.properties.is_none() && free(v)
        }
        Some(SchemaOrBool::Bool(_)) => false,
        None => free(s),
    }
}

/// Finishes a struct's schema: `required` sorted (controller-gen writes
/// it sorted, whatever the field order), its own attributes, the one-of
/// rules, then the rules of its flattened fields.
pub fn finish_object(
    cx: &mut SchemaCx,
    s: &mut JsonSchemaProps,
    flattened: Flattened,
    attrs: &Attrs,
    one_of: &[(OneOf, &[&str])],
) {
    if let Some(required) = &mut s.required {
        required.sort_unstable();
        if let Some(order) = attrs.required_order {
            let mut given: Vec<&str> = order.to_vec();
            given.sort_unstable();
            if given.iter().ne(required.iter()) {
                cx.error(format!(
                    "`required_order` lists {order:?}, but the required properties are {required:?}"
                ));
            } else {
                *required = order.iter().map(|r| (*r).to_string()).collect();
            }
        }
    } else if attrs.required_order.is_some() {
        cx.error("`required_order` is given, but no property is required");
    }
    apply(cx, s, attrs);
    for kind in [OneOf::AtMost, OneOf::Exactly, OneOf::AtLeast] {
        for (_, fields) in one_of.iter().filter(|(k, _)| *k == kind) {
            one_of_rule(cx, s, kind, fields);
        }
    }
    flattened.append_to(s);
}

fn one_of_rule(cx: &mut SchemaCx, s: &mut JsonSchemaProps, kind: OneOf, fields: &[&str]) {
    let mut terms = Vec::with_capacity(fields.len());
    for f in fields {
        if s.required.iter().flatten().any(|r| r == f) {
            cx.error(format!(
                "field `{f}` is part of a one-of constraint and must be optional"
            ));
        }
        match crate::cel::escape::escape(f) {
            Some(id) => terms.push(format!("has(self.{id})")),
            None => cx.error(format!(
                "the property name `{f}` cannot be reached from CEL"
            )),
        }
    }
    let list = format!("[{}].filter(x,x==true).size()", terms.join(","));
    let names = fields.join(" ");
    let (rule, message) = match kind {
        OneOf::AtMost => (
            format!("{list} <= 1"),
            format!("at most one of the fields in [{names}] may be set"),
        ),
        OneOf::Exactly => (
            format!("{list} == 1"),
            format!("exactly one of the fields in [{names}] must be set"),
        ),
        OneOf::AtLeast => (
            format!("{list} >= 1"),
            format!("at least one of the fields in [{names}] must be set"),
        ),
    };
    push_rule(s, rule, message);
}

/// The schema of a unit-variant enum: a string with the variants' names.
pub fn string_enum(cx: &mut SchemaCx, values: &[&str], attrs: &Attrs) -> JsonSchemaProps {
    let mut s = strings_of(values);
    apply(cx, &mut s, attrs);
    s
}

/// `{type: string, enum: values}`: a string enum, or a union's tag.
fn strings_of(values: &[&str]) -> JsonSchemaProps {
    JsonSchemaProps {
        type_: Some("string".to_string()),
        enum_: Some(
            values
                .iter()
                .map(|v| Value::String((*v).to_string()))
                .collect(),
        ),
        ..JsonSchemaProps::default()
    }
}

/// Checks that `key` applies to the schema's type, the kind of schema
/// its attribute applies to (`schema_attrs::Applies`).
fn applies(cx: &mut SchemaCx, s: &JsonSchemaProps, key: &str) -> bool {
    let Some(what) = schema_attrs::attribute(key).and_then(|a| Kind::of(a.applies)) else {
        return true;
    };
    let t = s.type_str();
    let ok = match what {
        Kind::Numeric => matches!(t, "integer" | "number"),
        Kind::Textual => t == "string" || s.is_int_or_string(),
        Kind::Array => t == "array",
        Kind::Object => t == "object",
    };
    if !ok {
        let want = match what {
            Kind::Numeric => "a number (type integer or number)",
            Kind::Textual => "a string (type string, or int-or-string)",
            Kind::Array => "an array",
            Kind::Object => "an object",
        };
        let found = if t.is_empty() {
            "no type".to_string()
        } else {
            format!("type {t}")
        };
        cx.error(format!(
            "`{key}` applies to {want}, but this schema has {found}"
        ));
    }
    ok
}

/// The kinds of schema the runtime tells apart when it checks that an
/// attribute applies.
#[derive(Clone, Copy)]
enum Kind {
    Numeric,
    Textual,
    Array,
    Object,
}

impl Kind {
    /// The kind an attribute's `Applies` asks for; `None`: any schema, or
    /// a check of its own (`items(...)`).
    fn of(applies: Applies) -> Option<Kind> {
        match applies {
            Applies::Number => Some(Kind::Numeric),
            Applies::Text => Some(Kind::Textual),
            Applies::Array => Some(Kind::Array),
            Applies::Object | Applies::Map | Applies::Struct => Some(Kind::Object),
            Applies::Any | Applies::ArrayOrMap => None,
        }
    }
}

fn number(cx: &mut SchemaCx, s: &JsonSchemaProps, key: &str, n: Num) -> Option<Number> {
    if !applies(cx, s, key) {
        return None;
    }
    if s.type_str() == "integer" && !n.is_integral() {
        cx.error(format!(
            "`{key}`: a non-integral value cannot apply to an integer"
        ));
        return None;
    }
    to_number(n)
}

/// Applies attributes to a schema, in a fixed order: the type-shaping ones
/// first (`type`, `int_or_string`, `embedded_resource`), then the generic
/// fields, value validations, extensions and rules, then `items(...)`.
pub fn apply(cx: &mut SchemaCx, s: &mut JsonSchemaProps, a: &Attrs) {
    if let Some(t) = a.type_ {
        s.type_ = Some(t.to_string());
    }
    if a.int_or_string {
        s.x_int_or_string = Some(true);
    }
    if a.embedded_resource {
        match s.type_str() {
            "" => s.type_ = Some("object".to_string()),
            "object" => {}
            t => cx.error(format!(
                "`embedded_resource` applies to an object, but this schema has type {t}"
            )),
        }
        s.x_embedded_resource = Some(true);
    }
    if let Some(d) = a.description {
        s.description = Some(d.to_string());
    }
    if let Some(t) = a.title {
        s.title = Some(t.to_string());
    }
    if let Some(f) = a.format {
        if !crate::go::formats::is_supported_format(s.type_str(), f) {
            cx.error(format!(
                "`format = {f:?}` is not a format the API server knows for {}; it would ignore it \
                 (integers: int32, int64; numbers: float, double; strings: date-time, byte, \
                 hostname, ipv4, uri, uuid, ...)",
                match s.type_str() {
                    "" => "an untyped schema".to_string(),
                    t => format!("type {t}"),
                }
            ));
        }
        s.format = Some(f.to_string());
    }
    if let Some(n) = a.maximum {
        s.maximum = number(cx, s, "maximum", n).or(s.maximum.take());
    }
    if a.exclusive_maximum && applies(cx, s, "exclusive_maximum") {
        s.exclusive_maximum = Some(true);
    }
    if let Some(n) = a.minimum {
        s.minimum = number(cx, s, "minimum", n).or(s.minimum.take());
    }
    if a.exclusive_minimum && applies(cx, s, "exclusive_minimum") {
        s.exclusive_minimum = Some(true);
    }
    if let Some(n) = a.max_length.filter(|_| applies(cx, s, "max_length")) {
        s.max_length = Some(n);
    }
    if let Some(n) = a.min_length.filter(|_| applies(cx, s, "min_length")) {
        s.min_length = Some(n);
    }
    if let Some(p) = a.pattern.filter(|_| applies(cx, s, "pattern")) {
        s.pattern = Some(p.to_string());
    }
    if let Some(n) = a.max_items.filter(|_| applies(cx, s, "max_items")) {
        s.max_items = Some(n);
    }
    if let Some(n) = a.min_items.filter(|_| applies(cx, s, "min_items")) {
        s.min_items = Some(n);
    }
    if a.unique_items && applies(cx, s, "unique_items") {
        s.unique_items = Some(true);
    }
    if let Some(n) = a.multiple_of {
        s.multiple_of = number(cx, s, "multiple_of", n).or(s.multiple_of.take());
    }
    if let Some(values) = a.enum_ {
        s.enum_ = Some(values.iter().map(Json::to_value).collect());
    }
    if let Some(n) = a
        .max_properties
        .filter(|_| applies(cx, s, "max_properties"))
    {
        s.max_properties = Some(n);
    }
    if let Some(n) = a
        .min_properties
        .filter(|_| applies(cx, s, "min_properties"))
    {
        s.min_properties = Some(n);
    }
    if let Some(d) = a.default {
        s.default = Some(d.to_value());
    }
    if let Some(e) = a.example {
        s.example = Some(e.to_value());
    }
    if a.nullable {
        s.nullable = Some(true);
    }
    if a.preserve_unknown_fields {
        s.x_preserve_unknown_fields = Some(true);
    }
    if let Some(t) = a.list_type.filter(|_| applies(cx, s, "list_type")) {
        s.x_list_type = Some(t.to_string());
    }
    if let Some(keys) = a.list_map_keys.filter(|_| applies(cx, s, "list_map_keys")) {
        if s.x_list_type.as_deref() != Some("map") {
            cx.error("`list_map_keys` needs `list_type = \"map\"`");
        }
        check_map_keys(cx, s, keys);
        s.x_list_map_keys = Some(keys.iter().map(|k| (*k).to_string()).collect());
    }
    if let Some(t) = a.map_type.filter(|_| applies(cx, s, "map_type")) {
        s.x_map_type = Some(t.to_string());
    }
    if let Some(t) = a.struct_type.filter(|_| applies(cx, s, "struct_type")) {
        s.x_map_type = Some(t.to_string());
    }
    if !a.validations.is_empty() {
        s.x_validations
            .get_or_insert_with(Vec::new)
            .extend(a.validations.iter().map(|r| r.to_wire()));
    }
    if a.immutable {
        push_rule(
            s,
            "self == oldSelf".to_string(),
            "field is immutable".to_string(),
        );
    }
    for (key, json) in a.junctors {
        apply_junctor(cx, s, key, json);
    }
    for (key, json) in a.set_keys {
        set_key(cx, s, key, json);
    }
    if let Some(items) = a.items {
        apply_items(cx, s, items);
    }
    if let Some(k) = a.schemars {
        schemars_dialect::apply_keywords(cx, s, k);
    }
}

/// `all_of`, `any_of`, `one_of` (arrays of schemas) or `not` (a schema),
/// decoded through the wire model.
fn apply_junctor(cx: &mut SchemaCx, s: &mut JsonSchemaProps, key: &str, json: &Json) {
    let value = json.to_value();
    let mut dcx = crate::model::wire::codec::DecodeCx::default();
    let path = crate::model::field::Path::new([key]);
    let decode = |v: &Value, dcx: &mut crate::model::wire::codec::DecodeCx| {
        JsonSchemaProps::from_value(v, &path, dcx)
    };
    match (key, &value) {
        ("not", v) => {
            if let Some(n) = decode(v, &mut dcx) {
                s.not = Some(Box::new(n));
            }
        }
        (_, Value::Array(items)) => {
            let schemas: Vec<JsonSchemaProps> =
                items.iter().filter_map(|i| decode(i, &mut dcx)).collect();
            match key {
                "all_of" => s.all_of = Some(schemas),
                "any_of" => s.any_of = Some(schemas),
                _ => s.one_of = Some(schemas),
            }
        }
        _ => cx.error(format!("`{key}` takes an array of schemas")),
    }
    for issue in dcx.errors.iter().chain(&dcx.warnings) {
        cx.error(format!("`{key}`: {issue}"));
    }
}

/// An attribute applied by its schema key: the value set at the key, then
/// the node decoded again through the wire model, as the API server
/// decodes it.
fn set_key(cx: &mut SchemaCx, s: &mut JsonSchemaProps, key: &str, json: &Json) {
    let Some(schema_key) = schema_attrs::attribute(key).and_then(|a| a.schema_key) else {
        return;
    };
    if !applies(cx, s, key) {
        return;
    }
    let mut node = s.to_value();
    if let Value::Object(m) = &mut node {
        m.insert(schema_key.to_string(), json.to_value());
    }
    redecode(cx, s, &node, key);
}

/// `node` (a schema changed as JSON) decoded through the wire model into
/// `s`, as the API server decodes it; an unknown key or a value of the
/// wrong kind is an error of the expansion, named after `what` set it.
fn redecode(cx: &mut SchemaCx, s: &mut JsonSchemaProps, node: &Value, what: &str) {
    let mut dcx = crate::model::wire::codec::DecodeCx::default();
    let path = crate::model::field::Path::new(std::iter::empty::<&str>());
    if let Some(decoded) = JsonSchemaProps::from_value(node, &path, &mut dcx) {
        *s = decoded;
    }
    for issue in dcx.errors.iter().chain(&dcx.warnings) {
        cx.error(format!("`{what}`: {issue}"));
    }
}

/// The keys of a map list must be properties of the items that are always
/// there: required, or defaulted (the API server's rule).
fn check_map_keys(cx: &mut SchemaCx, s: &JsonSchemaProps, keys: &[&str]) {
    let Some(SchemaOrArray::Schema(items)) = &s.items else {
        return;
    };
    for k in keys {
        match items.properties.as_ref().and_then(|p| p.get(*k)) {
            None => cx.error(format!(
                "`list_map_keys`: `{k}` is not a property of the items"
            )),
            Some(p) => {
                let required = items.required.iter().flatten().any(|r| r == k);
                if !required && p.default.is_none() {
                    cx.error(format!(
                        "`list_map_keys`: `{k}` must be a required property of the items, or have a default"
                    ));
                }
            }
        }
    }
}

fn apply_items(cx: &mut SchemaCx, s: &mut JsonSchemaProps, items: &Attrs) {
    let replace = items.replaces();
    match s.type_str() {
        "array" => cx.in_items(|cx| {
            if replace {
                s.items = Some(SchemaOrArray::Schema(Box::new(replaced(cx, items))));
            }
            match &mut s.items {
                Some(SchemaOrArray::Schema(sub)) => apply_over(cx, sub, items),
                _ => cx.error("`items(...)`: this array has no item schema to refine"),
            }
        }),
        "object" if s.properties.is_none() => cx.in_values(|cx| {
            if replace {
                s.additional_properties = Some(SchemaOrBool::Schema(Box::new(replaced(cx, items))));
            }
            match &mut s.additional_properties {
                Some(SchemaOrBool::Schema(sub)) => apply_over(cx, sub, items),
                _ => cx.error("`items(...)`: this object has no value schema to refine"),
            }
        }),
        t => cx.error(format!(
            "`items(...)` applies to an array or a map, but this schema has {}",
            if t.is_empty() {
                "no type".to_string()
            } else {
                format!("type {t}")
            }
        )),
    }
}

/// The runtime of `#[schema(crd(...))]`.
pub use super::custom_resource::runtime as crd;
