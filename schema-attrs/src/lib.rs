//! The keys of `#[schema(...)]`, declared once.
//!
//! Each key of the derive has one [`Attribute`] in [`ATTRIBUTES`]: where it
//! may be written ([`Places`]), the kind of its value ([`ValueKind`]), the
//! kind of schema it applies to ([`Applies`]), the `JSONSchemaProps` key it
//! sets, how it is applied ([`Apply`]), whether `schema-gen rust` writes it
//! back from that schema key, an example and its one-line documentation.
//! The keys of `crd(...)` are in [`CRD_SETTINGS`]. The derive parses and
//! checks with these tables, the runtime (`schema_core::rust`) applies the
//! generic keys with them, the generator (`schema-gen rust`) maps schema keys
//! back to attributes with them, and a test holds the attribute reference
//! (`attributes.md`) to them.
//!
//! The crate has no dependencies: the proc-macro crate cannot export items,
//! and must not depend on `schema-core`.

mod crd;
pub mod keys;
mod schema;

pub use crd::{CRD_SETTINGS, CrdSetting, crd_setting};
pub use schema::ATTRIBUTES;

/// Where an attribute is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// On a struct, enum or newtype.
    Type,
    /// On a struct field (or a variant of an externally tagged enum).
    Field,
    /// Inside `items(...)`.
    Items,
}

impl Place {
    /// The place in an error message ("`x` is not allowed on a type").
    pub fn describe(self) -> &'static str {
        match self {
            Place::Type => "a type",
            Place::Field => "a field",
            Place::Items => "`items(...)`",
        }
    }

    const fn bit(self) -> u8 {
        match self {
            Place::Type => 1,
            Place::Field => 2,
            Place::Items => 4,
        }
    }
}

/// The set of places an attribute may be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Places(u8);

impl Places {
    /// Types only.
    pub const TYPE: Places = Places(1);
    /// Fields only.
    pub const FIELD: Places = Places(2);
    /// Types, fields and `items(...)`.
    pub const ALL: Places = Places(7);

    /// Whether `place` is among them.
    pub const fn contains(self, place: Place) -> bool {
        self.0 & place.bit() != 0
    }

    /// The places as the attribute reference writes them: `F` field, `T`
    /// type, `I` inside `items(...)`.
    pub fn letters(self) -> String {
        [(Place::Field, 'F'), (Place::Type, 'T'), (Place::Items, 'I')]
            .iter()
            .filter(|(p, _)| self.contains(*p))
            .map(|(_, c)| *c)
            .collect()
    }

    /// The places in an error message ("it applies to types and fields").
    pub fn describe(self) -> String {
        [
            (Place::Type, "types"),
            (Place::Field, "fields"),
            (Place::Items, "`items(...)`"),
        ]
        .iter()
        .filter(|(p, _)| self.contains(*p))
        .map(|(_, s)| *s)
        .collect::<Vec<_>>()
        .join(" and ")
    }
}

/// The kind of value an attribute takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A number (`minimum = -1.5`).
    Number,
    /// A non-negative integer (`max_length = 63`).
    Count,
    /// A string (`format = "date-time"`).
    String,
    /// An RE2 regular expression, as a string (`pattern = "^[a-z]+$"`).
    Regex,
    /// A flag: bare, or `= true` / `= false`.
    Flag,
    /// Any JSON value (`default = {"port": 80}`).
    Json,
    /// A JSON object (`external_docs = {"url": "..."}`).
    JsonObject,
    /// A non-empty JSON array of values (`enum = ["A", "B"]`).
    JsonArray,
    /// A non-empty array of schemas as JSON objects (`all_of = [{...}]`).
    Schemas,
    /// One schema as a JSON object (`not = {...}`).
    Schema,
    /// A non-empty array of strings (`list_map_keys = ["name"]`).
    Strings,
    /// The attributes of the items, nested (`items(max_length = 63)`).
    Nested,
    /// One CEL rule, nested (`validation(rule = "...")`).
    Rule,
    /// Rust field names, nested (`exactly_one_of(a, b)`).
    Fields,
    /// A Rust path, bare or as a string (`with = my_schema`).
    Path,
    /// A Rust type, bare or as a string (`status = DatabaseStatus`).
    Type,
    /// An object of strings (`labels = {"app": "shop"}`).
    StringMap,
    /// The settings of a custom resource, nested (`crd(...)`).
    Crd,
}

impl ValueKind {
    /// The value in an error message ("`x` takes a JSON object, like ...").
    pub fn describe(self) -> &'static str {
        match self {
            ValueKind::Number => "a number",
            ValueKind::Count => "a non-negative integer",
            ValueKind::String | ValueKind::Regex => "a string",
            ValueKind::Flag => "no value or a boolean",
            ValueKind::Json => "a JSON value",
            ValueKind::JsonObject => "a JSON object",
            ValueKind::JsonArray => "a non-empty array of values",
            ValueKind::Schemas => "a non-empty array of schemas as JSON objects",
            ValueKind::Schema => "a schema as a JSON object",
            ValueKind::Strings => "a non-empty array of strings",
            ValueKind::Nested | ValueKind::Rule | ValueKind::Fields | ValueKind::Crd => {
                "nested attributes"
            }
            ValueKind::Path => "a path",
            ValueKind::Type => "a type",
            ValueKind::StringMap => "an object of strings",
        }
    }
}

/// A number written in an attribute (`minimum = -1.5`), as the derive
/// reads it and the runtime receives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// A negative or small integer.
    Int(i64),
    /// A non-negative integer.
    UInt(u64),
    /// A float.
    Float(f64),
}

impl Num {
    /// Whether the value is an integer (a float without a fraction too).
    pub fn is_integral(self) -> bool {
        match self {
            Num::Int(_) | Num::UInt(_) => true,
            Num::Float(f) => f.is_finite() && f.fract() == 0.0,
        }
    }

    /// The value as a float, for comparisons.
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::UInt(u) => u as f64,
            Num::Float(f) => f,
        }
    }
}

/// The kind of schema an attribute applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    /// Any schema.
    Any,
    /// Numbers (`type: integer` or `number`).
    Number,
    /// Strings and int-or-strings.
    Text,
    /// Arrays.
    Array,
    /// Objects: maps and structs.
    Object,
    /// Maps (objects of `additionalProperties`).
    Map,
    /// Structs (objects of `properties`).
    Struct,
    /// Arrays and maps (their items or values).
    ArrayOrMap,
}

/// How the runtime applies an attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Apply {
    /// By code of its own (the derive and `schema_core::rust::__private`
    /// have a field for it).
    Dedicated,
    /// Generically: the derive checks the value by its [`ValueKind`] and
    /// passes it as JSON; the runtime checks [`Applies`] and sets the value
    /// at the schema key as the API server decodes it.
    SetKey,
}

/// One key of `#[schema(...)]`.
#[derive(Clone, Copy, Debug)]
pub struct Attribute {
    /// The key, the kubebuilder marker's name in snake_case.
    pub key: &'static str,
    /// Where it may be written.
    pub places: Places,
    /// Its value.
    pub value: ValueKind,
    /// The kind of schema it applies to.
    pub applies: Applies,
    /// The `JSONSchemaProps` key it sets, if it sets one.
    pub schema_key: Option<&'static str>,
    /// How the runtime applies it.
    pub apply: Apply,
    /// Whether `schema-gen rust` writes the attribute back from
    /// `schema_key` (the type's own schema aside).
    pub written_back: bool,
    /// How it is written (in error messages and the reference).
    pub example: &'static str,
    /// What it does: the reference's "schema" column.
    pub doc: &'static str,
}

/// The attribute of `key`, if it is one.
pub fn attribute(key: &str) -> Option<&'static Attribute> {
    ATTRIBUTES.iter().find(|a| a.key == key)
}

/// Whether `key` may be written at `place`; `None` for an unknown key.
pub fn allowed(key: &str, place: Place) -> Option<bool> {
    attribute(key).map(|a| a.places.contains(place))
}

/// The attribute `schema-gen rust` writes for the schema key `schema_key`
/// of a node, where `is_struct` tells a struct (an object of `properties`)
/// from other nodes: `x-kubernetes-map-type` is `struct_type` on a struct
/// and `map_type` elsewhere.
pub fn written_back_from(schema_key: &str, is_struct: bool) -> Option<&'static Attribute> {
    let mut found = ATTRIBUTES
        .iter()
        .filter(|a| a.written_back && a.schema_key == Some(schema_key));
    let first = found.next()?;
    match found.next() {
        None => Some(first),
        Some(second) => {
            let on_struct = |a: &Attribute| a.applies == Applies::Struct;
            [first, second]
                .into_iter()
                .find(|a| on_struct(a) == is_struct)
        }
    }
}

/// The closest key to a misspelt one, if close enough: the first of the
/// nearest candidates, within a third of the longer word's length.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = levenshtein(word, c);
        let limit = (c.len().max(word.len()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let keys = ATTRIBUTES.iter().map(|a| a.key);
        assert_eq!(did_you_mean("minimun", keys.clone()), Some(keys::MINIMUM));
        assert_eq!(
            did_you_mean("maxlength", keys.clone()),
            Some(keys::MAX_LENGTH)
        );
        assert_eq!(did_you_mean("zzzz", keys), None);
    }

    #[test]
    fn keys_are_unique() {
        for (i, a) in ATTRIBUTES.iter().enumerate() {
            assert!(
                ATTRIBUTES[..i].iter().all(|b| b.key != a.key),
                "{} twice",
                a.key
            );
        }
        for (i, s) in CRD_SETTINGS.iter().enumerate() {
            assert!(
                CRD_SETTINGS[..i].iter().all(|b| b.key != s.key),
                "{} twice",
                s.key
            );
        }
    }

    #[test]
    fn generic_keys_set_a_schema_key() {
        for a in ATTRIBUTES.iter().filter(|a| a.apply == Apply::SetKey) {
            assert!(a.schema_key.is_some(), "{}", a.key);
        }
    }

    #[test]
    fn map_type_and_struct_type_are_told_apart() {
        let k = "x-kubernetes-map-type";
        assert_eq!(
            written_back_from(k, true).map(|a| a.key),
            Some("struct_type")
        );
        assert_eq!(written_back_from(k, false).map(|a| a.key), Some("map_type"));
        assert_eq!(
            written_back_from("maxProperties", false).map(|a| a.key),
            Some("max_properties")
        );
        assert!(written_back_from("properties", false).is_none());
    }
}
