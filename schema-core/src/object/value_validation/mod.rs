//! Validation of custom-resource values against a CRD schema, as the API
//! server does it: apiextensions' `ValidateCustomResource` on kube-openapi's
//! `SchemaValidator`, with the result converted to field errors by
//! `kubeOpenAPIResultToFieldErrors`.
//!
//! [`SchemaValidator::new`] converts a [`JsonSchemaProps`] the way
//! `ConvertJSONSchemaPropsWithPostProcess` does (`x-kubernetes-int-or-string`
//! becomes the type list `integer,string`; formats the server does not
//! support are dropped) and precompiles everything that depends on the
//! schema only (patterns, enum renderings, bound range checks).
//! [`SchemaValidator::validate`] then walks the value once, reproducing
//! kube-openapi's validator chain (type, junctors, string, format, number,
//! slice, enum, object — all of them, even after a failure), its "match
//! counts" (which pick the errors of the best `anyOf`/`oneOf` branch), its
//! messages and their de-duplication, and the conversion of each message
//! into a `field.Error`.
//!
//! Numbers keep Go's distinction: an integral JSON number that fits `int64`
//! is an `int64`, every other number a `float64`.
//!
//! Recursion follows the schema only (a value is descended into only where
//! a schema describes it), so its depth is bounded by the schema's; the
//! checks that look at whole values (`uniqueItems`, `enum`) are iterative.

#[cfg(test)]
mod tests;

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::go::fmt::go_quote;
use crate::goregex::{self, GoRegex};
use crate::model::field::{BadValue, DottedPath, ErrorList, FieldError, Path};
use crate::model::wire::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray};
use crate::object::name_table::NameTable;

pub use crate::go::formats::{FormatCompat, check as check_format};

use crate::go::fmt::format_float_f;
use crate::go::formats::{self, Format};
use crate::go::json::{
    GoNum, enum_member_matches, go_f64_to_i64, go_json, go_v, has_duplicates,
    is_float64_a_json_integer,
};

/// A compiled validator for one schema (kube-openapi's `SchemaValidator`
/// over the converted `spec.Schema`).
pub struct SchemaValidator {
    root: Node,
}

impl std::fmt::Debug for SchemaValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaValidator").finish_non_exhaustive()
    }
}

impl SchemaValidator {
    /// Builds the validator at the current format-support version. Never
    /// fails: problems such as invalid patterns surface when validating.
    pub fn new(schema: &JsonSchemaProps) -> Self {
        Self::with_compat(schema, FormatCompat::Current)
    }

    /// Builds the validator with the formats supported at `compat`.
    pub fn with_compat(schema: &JsonSchemaProps, compat: FormatCompat) -> Self {
        Self {
            root: Node::build(schema, compat),
        }
    }

    /// `ValidateCustomResource(root, value, validator)`: the field errors,
    /// in the order kube-openapi reports them, de-duplicated by message.
    /// Errors without a field of their own (junctor messages, range
    /// checks) are reported at `root` (which prints `<nil>` when empty).
    pub fn validate(&self, value: &Value, root: &Path) -> ErrorList {
        let mut out = Vec::new();
        validate_node(&self.root, value, &DottedPath::Root, &mut out);
        if out.is_empty() {
            return ErrorList::new();
        }
        let mut seen: HashSet<String> = HashSet::with_capacity(out.len());
        let mut errs = ErrorList::with_capacity(out.len());
        for raw in &out {
            let msg = raw.message();
            if seen.contains(&msg) {
                continue;
            }
            seen.insert(msg.clone());
            errs.push(raw.to_field_error(root, msg));
        }
        errs
    }

    /// Whether `value` is valid (no allocation unless it is not).
    pub fn is_valid(&self, value: &Value) -> bool {
        let mut out = Vec::new();
        validate_node(&self.root, value, &DottedPath::Root, &mut out);
        out.is_empty()
    }

    /// The root node, for walks that follow the schema themselves and
    /// check each node with [`Check`]s.
    pub(crate) fn root(&self) -> NodeRef<'_> {
        NodeRef(&self.root)
    }
}

/// [`NodeRef::trivial`]: any string passes.
pub(crate) const TRIVIAL_STRING: u8 = 1;
/// [`NodeRef::trivial`]: any boolean passes.
pub(crate) const TRIVIAL_BOOL: u8 = 2;
/// [`NodeRef::trivial`]: any object with the `required` properties passes.
pub(crate) const TRIVIAL_OBJECT: u8 = 4;
/// [`NodeRef::trivial`]: any array passes.
pub(crate) const TRIVIAL_ARRAY: u8 = 8;

/// A node of a [`SchemaValidator`], to pair with the structural schema.
#[derive(Clone, Copy)]
pub(crate) struct NodeRef<'a>(&'a Node);

impl<'a> NodeRef<'a> {
    /// Whether the node's own checks (those [`NodeRef::shallow`] keeps)
    /// and the checks of its properties, `additionalProperties` schema and
    /// `items` schema, each on its own values, are all of its validation:
    /// no junctors, no pattern properties, no closed
    /// `additionalProperties`, no tuple or additional items.
    pub(crate) fn is_separable(self) -> bool {
        let n = self.0;
        !n.has_junctors
            && n.pattern_properties.is_empty()
            && n.additional_items.is_none()
            && !matches!(n.items, Items::Tuple(_))
            && n.additional_properties.as_ref().is_none_or(|a| a.allows)
    }

    /// Which values pass the node's own checks whatever they hold:
    /// [`TRIVIAL_STRING`], [`TRIVIAL_BOOL`], [`TRIVIAL_ARRAY`], and
    /// [`TRIVIAL_OBJECT`] (but for `required`, see [`NodeRef::required`]).
    pub(crate) fn trivial(self) -> u8 {
        let n = self.0;
        if n.has_junctors || !n.enum_.is_empty() || !n.format.is_empty() {
            return 0;
        }
        let typed = |t: bool| !n.has_type || t;
        let mut out = 0;
        if typed(n.types.string)
            && n.max_length.is_none()
            && n.min_length.is_none()
            && n.pattern.is_none()
            && n.string_format.is_none()
        {
            out |= TRIVIAL_STRING;
        }
        if typed(n.types.boolean) {
            out |= TRIVIAL_BOOL;
        }
        if typed(n.types.object)
            && n.min_properties.is_none()
            && n.max_properties.is_none()
            && n.pattern_properties.is_empty()
            && n.additional_properties.as_ref().is_none_or(|a| a.allows)
        {
            out |= TRIVIAL_OBJECT;
        }
        if typed(n.types.array)
            && n.min_items.is_none()
            && n.max_items.is_none()
            && !n.unique_items
            && matches!(n.items, Items::None | Items::One(_))
            && n.additional_items.is_none()
        {
            out |= TRIVIAL_ARRAY;
        }
        out
    }

    /// `required`.
    pub(crate) fn required(self) -> &'a [String] {
        &self.0.required
    }

    /// The property `k`'s node.
    pub(crate) fn prop(self, k: &str) -> Option<NodeRef<'a>> {
        self.0.properties.get(k).map(NodeRef)
    }

    /// The number of properties.
    pub(crate) fn prop_count(self) -> usize {
        self.0.properties.len()
    }

    /// The single `items` schema's node.
    pub(crate) fn items(self) -> Option<NodeRef<'a>> {
        match &self.0.items {
            Items::One(n) => Some(NodeRef(n)),
            Items::None | Items::Tuple(_) => None,
        }
    }

    /// The `additionalProperties` schema's node (when it allows, with a
    /// schema).
    pub(crate) fn additional(self) -> Option<NodeRef<'a>> {
        self.0
            .additional_properties
            .as_ref()
            .filter(|a| a.allows)
            .and_then(|a| a.schema.as_deref())
            .map(NodeRef)
    }

    /// The node's whole validation, children included.
    pub(crate) fn full(self) -> Check {
        Check(Box::new(self.0.clone()))
    }

    /// The node's own checks without its children's: what validating a
    /// value gives when every property, additional property and item is
    /// left out (only for a [`NodeRef::is_separable`] node).
    pub(crate) fn shallow(self) -> Check {
        let n = self.0;
        Check(Box::new(Node {
            plain: n.plain,
            enum_strings: n.enum_strings.clone(),
            has_junctors: n.has_junctors,
            has_type: n.has_type,
            types: n.types,
            type_joined: n.type_joined.clone(),
            nullable: n.nullable,
            format: n.format.clone(),
            string_format: n.string_format,
            num_type: n.num_type,
            num_format: n.num_format,
            multiple_of: n.multiple_of,
            multiple_of_in_range: n.multiple_of_in_range,
            maximum: n.maximum,
            maximum_in_range: n.maximum_in_range,
            exclusive_maximum: n.exclusive_maximum,
            minimum: n.minimum,
            minimum_in_range: n.minimum_in_range,
            exclusive_minimum: n.exclusive_minimum,
            max_length: n.max_length,
            min_length: n.min_length,
            pattern: n.pattern.clone(),
            max_items: n.max_items,
            min_items: n.min_items,
            unique_items: n.unique_items,
            items: Items::None,
            additional_items: None,
            enum_: n.enum_.clone(),
            enum_v: n.enum_v.clone(),
            enum_supported: n.enum_supported.clone(),
            max_properties: n.max_properties,
            min_properties: n.min_properties,
            required: n.required.clone(),
            // Required properties are looked up in the object itself.
            required_props: vec![None; n.required.len()],
            properties: IndexMap::new(),
            names: NameTable::default(),
            additional_properties: n.additional_properties.as_ref().map(|a| SchemaOrAllows {
                allows: a.allows,
                schema: None,
            }),
            pattern_properties: Vec::new(),
            all_of: Vec::new(),
            any_of: Vec::new(),
            one_of: Vec::new(),
            not: None,
            dependencies: Vec::new(),
        }))
    }
}

/// The checks of one schema node, with its children's or without (see
/// [`NodeRef::shallow`]): whether a value passes them, without the
/// errors.
#[derive(Clone)]
pub(crate) struct Check(Box<Node>);

impl Check {
    /// Whether `v` passes (no allocation unless it does not).
    #[inline]
    pub(crate) fn passes(&self, v: &Value) -> bool {
        let mut out = Vec::new();
        validate_node(&self.0, v, &DottedPath::Root, &mut out);
        out.is_empty()
    }
}

// ---------------------------------------------------------------------------
// The converted schema.

/// The numeric type the number validator checks ranges against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NumType {
    None,
    Integer,
    Number,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NumFormat {
    None,
    Int32,
    Int64,
    Float,
    Double,
}

impl NumFormat {
    fn name(self) -> &'static str {
        match self {
            NumFormat::None => "",
            NumFormat::Int32 => "int32",
            NumFormat::Int64 => "int64",
            NumFormat::Float => "float",
            NumFormat::Double => "double",
        }
    }
}

#[derive(Clone)]
enum Items {
    None,
    One(Box<Node>),
    Tuple(Vec<Node>),
}

#[derive(Clone)]
struct SchemaOrAllows {
    allows: bool,
    schema: Option<Box<Node>>,
}

#[derive(Clone)]
enum Dep {
    Schema(Box<Node>),
    Property(Vec<String>),
}

#[derive(Clone)]
struct Pattern {
    text: String,
    re: Result<GoRegex, String>,
}

/// Type-list membership of the JSON type names.
#[derive(Clone, Copy, Debug, Default)]
struct TypeSet {
    string: bool,
    boolean: bool,
    integer: bool,
    number: bool,
    array: bool,
    object: bool,
    null: bool,
}

/// One node of the converted schema.
#[derive(Clone)]
struct Node {
    /// [`PLAIN_STRING`] and [`PLAIN_BOOL`]: the values checked first.
    plain: u8,
    /// The string members of `enum`.
    enum_strings: NameTable,
    /// Any of allOf, anyOf, oneOf, not, dependencies.
    has_junctors: bool,
    has_type: bool,
    types: TypeSet,
    /// `strings.Join(Type, ",")`.
    type_joined: String,
    nullable: bool,
    /// The format after stripping (`""` for none).
    format: String,
    /// The registry format applying to string values.
    string_format: Option<Format>,

    num_type: NumType,
    num_format: NumFormat,
    multiple_of: Option<f64>,
    multiple_of_in_range: bool,
    maximum: Option<f64>,
    maximum_in_range: bool,
    exclusive_maximum: bool,
    minimum: Option<f64>,
    minimum_in_range: bool,
    exclusive_minimum: bool,

    max_length: Option<i64>,
    min_length: Option<i64>,
    pattern: Option<Pattern>,

    max_items: Option<i64>,
    min_items: Option<i64>,
    unique_items: bool,
    items: Items,
    additional_items: Option<SchemaOrAllows>,

    enum_: Vec<Value>,
    /// `%v` of the enum list (the kube-openapi message).
    enum_v: String,
    /// The supported values of the `NotSupported` error.
    enum_supported: Vec<String>,

    max_properties: Option<i64>,
    min_properties: Option<i64>,
    required: Vec<String>,
    /// For each `required` name, its index among the properties.
    required_props: Vec<Option<usize>>,
    /// Sorted by name.
    properties: IndexMap<String, Node>,
    /// The properties' names to their indexes.
    names: NameTable,
    additional_properties: Option<SchemaOrAllows>,
    pattern_properties: Vec<(String, Option<GoRegex>, Node)>,

    all_of: Vec<Node>,
    any_of: Vec<Node>,
    one_of: Vec<Node>,
    not: Option<Box<Node>>,
    dependencies: Vec<(String, Dep)>,
}

fn f64_of(n: &serde_json::Number) -> f64 {
    GoNum::of(n).as_f64()
}

fn schema_or_allows(s: &SchemaOrBool, compat: FormatCompat) -> SchemaOrAllows {
    match s {
        SchemaOrBool::Bool(b) => SchemaOrAllows {
            allows: *b,
            schema: None,
        },
        SchemaOrBool::Schema(s) => SchemaOrAllows {
            allows: true,
            schema: Some(Box::new(Node::build(s, compat))),
        },
    }
}

impl Node {
    fn build(s: &JsonSchemaProps, compat: FormatCompat) -> Node {
        let mut type_names: Vec<&str> = Vec::new();
        if let Some(t) = s.type_.as_deref().filter(|t| !t.is_empty()) {
            type_names.push(t);
        }
        if s.is_int_or_string() {
            type_names = vec!["integer", "string"];
        }
        let mut types = TypeSet::default();
        for t in &type_names {
            match *t {
                "string" => types.string = true,
                "boolean" => types.boolean = true,
                "integer" => types.integer = true,
                "number" => types.number = true,
                "array" => types.array = true,
                "object" => types.object = true,
                "null" => types.null = true,
                _ => {}
            }
        }

        // StripUnsupportedFormatsPostProcessorForVersion.
        let raw_format = s.format.as_deref().unwrap_or_default();
        let single_type = match type_names.as_slice() {
            [t] => *t,
            _ => "",
        };
        let keep = !raw_format.is_empty()
            && match single_type {
                "" | "string" => formats::supported_string_format(raw_format, compat).is_some(),
                "integer" => matches!(raw_format, "int32" | "int64"),
                "number" => matches!(raw_format, "float" | "double"),
                _ => false,
            };
        let format = if keep {
            raw_format.to_string()
        } else {
            String::new()
        };
        let string_format = if keep { formats::lookup(&format) } else { None };

        // The number validator's type and format.
        let (num_type, num_format) = match single_type {
            "integer" => (
                NumType::Integer,
                match format.as_str() {
                    "int32" => NumFormat::Int32,
                    "int64" => NumFormat::Int64,
                    _ => NumFormat::None,
                },
            ),
            "number" => (
                NumType::Number,
                match format.as_str() {
                    "float" => NumFormat::Float,
                    "double" => NumFormat::Double,
                    _ => NumFormat::None,
                },
            ),
            _ => (NumType::None, NumFormat::None),
        };
        let bound_in_range =
            |b: Option<f64>| b.is_none_or(|b| in_range(GoNum::Float(b), num_type, num_format));
        let multiple_of = s.multiple_of.as_ref().map(f64_of);
        let maximum = s.maximum.as_ref().map(f64_of);
        let minimum = s.minimum.as_ref().map(f64_of);

        let pattern = s
            .pattern
            .as_deref()
            .filter(|p| !p.is_empty())
            .map(|p| Pattern {
                text: p.to_string(),
                re: goregex::compile(p).map_err(|e| e.to_string()),
            });

        let items = match &s.items {
            None => Items::None,
            Some(SchemaOrArray::Schema(b)) => Items::One(Box::new(Node::build(b, compat))),
            Some(SchemaOrArray::Array(v)) => {
                Items::Tuple(v.iter().map(|x| Node::build(x, compat)).collect())
            }
        };

        let enum_: Vec<Value> = s.enum_.clone().unwrap_or_default();
        let enum_v = if enum_.is_empty() {
            String::new()
        } else {
            let mut v = String::from("[");
            for (i, m) in enum_.iter().enumerate() {
                if i > 0 {
                    v.push(' ');
                }
                v.push_str(&go_v(m));
            }
            v.push(']');
            v
        };
        let enum_supported = enum_
            .iter()
            .map(|m| match m {
                Value::String(s) => s.clone(),
                other => go_json(other, true),
            })
            .collect();

        let build_all = |v: &Option<Vec<JsonSchemaProps>>| -> Vec<Node> {
            v.iter().flatten().map(|x| Node::build(x, compat)).collect()
        };

        let mut node = Node {
            plain: 0,
            enum_strings: NameTable::new(enum_.iter().filter_map(Value::as_str)),
            has_junctors: false,
            has_type: !type_names.is_empty(),
            types,
            type_joined: type_names.join(","),
            nullable: s.is_nullable(),
            string_format,
            num_type,
            num_format,
            multiple_of_in_range: bound_in_range(multiple_of),
            maximum_in_range: bound_in_range(maximum),
            minimum_in_range: bound_in_range(minimum),
            multiple_of,
            maximum,
            minimum,
            exclusive_maximum: s.exclusive_maximum.unwrap_or(false),
            exclusive_minimum: s.exclusive_minimum.unwrap_or(false),
            format,
            max_length: s.max_length,
            min_length: s.min_length,
            pattern,
            max_items: s.max_items,
            min_items: s.min_items,
            unique_items: s.unique_items.unwrap_or(false),
            items,
            additional_items: s
                .additional_items
                .as_ref()
                .map(|a| schema_or_allows(a, compat)),
            enum_,
            enum_v,
            enum_supported,
            max_properties: s.max_properties,
            min_properties: s.min_properties,
            required: s.required.clone().unwrap_or_default(),
            required_props: Vec::new(),
            names: NameTable::default(),
            // Sorted by name: kube-openapi validates properties in sorted
            // key order.
            properties: {
                let mut props: Vec<(String, Node)> = s
                    .properties
                    .iter()
                    .flatten()
                    .map(|(k, v)| (k.clone(), Node::build(v, compat)))
                    .collect();
                props.sort_by(|a, b| a.0.cmp(&b.0));
                props.into_iter().collect()
            },
            additional_properties: s
                .additional_properties
                .as_ref()
                .map(|a| schema_or_allows(a, compat)),
            pattern_properties: s
                .pattern_properties
                .iter()
                .flatten()
                .map(|(k, v)| (k.clone(), goregex::compile(k).ok(), Node::build(v, compat)))
                .collect(),
            all_of: build_all(&s.all_of),
            any_of: build_all(&s.any_of),
            one_of: build_all(&s.one_of),
            not: s.not.as_ref().map(|n| Box::new(Node::build(n, compat))),
            dependencies: s
                .dependencies
                .iter()
                .flatten()
                .map(|(k, d)| {
                    let dep = match d {
                        SchemaOrStringArray::Schema(s) => {
                            Dep::Schema(Box::new(Node::build(s, compat)))
                        }
                        SchemaOrStringArray::Property(p) => Dep::Property(p.clone()),
                    };
                    (k.clone(), dep)
                })
                .collect(),
        };
        node.names = NameTable::new(node.properties.keys().map(String::as_str));
        node.required_props = node
            .required
            .iter()
            .map(|k| node.properties.get_index_of(k))
            .collect();
        node.has_junctors = node.compute_has_junctors();
        node.plain = node.compute_plain();
        node
    }

    fn compute_plain(&self) -> u8 {
        let only_type = self.has_type && self.format.is_empty() && !self.has_junctors;
        let mut plain = 0;
        if only_type
            && self.types.string
            && self.max_length.is_none()
            && self.min_length.is_none()
            && self.string_format.is_none()
        {
            plain |= PLAIN_STRING;
        }
        if only_type && self.enum_.is_empty() && self.types.boolean {
            plain |= PLAIN_BOOL;
        }
        plain
    }

    fn compute_has_junctors(&self) -> bool {
        !(self.all_of.is_empty()
            && self.any_of.is_empty()
            && self.one_of.is_empty()
            && self.not.is_none()
            && self.dependencies.is_empty())
    }

    fn pattern_matches(&self, key: &str) -> bool {
        self.pattern_properties
            .iter()
            .any(|(_, re, _)| re.as_ref().is_some_and(|r| r.is_match(key)))
    }
}

/// `IsValueValidAgainstRange(val, type, format, ...)` passes.
fn in_range(v: GoNum, ty: NumType, fmt: NumFormat) -> bool {
    match ty {
        NumType::Integer => {
            let fits_i32 = matches!(fmt, NumFormat::Int32);
            match v {
                GoNum::Int(i) => !fits_i32 || i32::try_from(i).is_ok(),
                GoNum::Float(f) => {
                    let rep = format_float_f(f);
                    if fits_i32 {
                        rep.parse::<i32>().is_ok()
                    } else {
                        rep.parse::<i64>().is_ok()
                    }
                }
            }
        }
        NumType::Number | NumType::None => match fmt {
            NumFormat::Float => {
                let rep = match v {
                    GoNum::Int(i) => i.to_string(),
                    GoNum::Float(f) => format_float_f(f),
                };
                rep.parse::<f32>().is_ok_and(f32::is_finite)
            }
            _ => true,
        },
    }
}

fn range_message(prefix: &str, node: &Node, path: &str) -> String {
    let ty = match node.num_type {
        NumType::Integer => "integer",
        NumType::Number => "number",
        NumType::None => "",
    };
    if node.num_format == NumFormat::None {
        format!("{prefix} value must be of type {ty} (default format) in {path}")
    } else {
        format!(
            "{prefix} value must be of type {ty} with format {} in {path}",
            node.num_format.name()
        )
    }
}

// ---------------------------------------------------------------------------
// Errors as kube-openapi produces them.

enum Kind<'a> {
    InvalidType {
        expected: &'a str,
        actual: &'a str,
    },
    Required,
    TooLong {
        max: i64,
    },
    TooShort {
        min: i64,
        data: &'a str,
    },
    Pattern {
        pattern: &'a str,
        invalid: Option<&'a str>,
        data: &'a str,
    },
    Enum {
        data: &'a Value,
        node: &'a Node,
    },
    NotMultipleOf {
        factor: GoNum,
        data: GoNum,
    },
    MultipleOfNotPositive {
        factor: GoNum,
    },
    Maximum {
        bound: GoNum,
        exclusive: bool,
        data: GoNum,
    },
    Minimum {
        bound: GoNum,
        exclusive: bool,
        data: GoNum,
    },
    Unique,
    MaxItems {
        max: i64,
        size: i64,
    },
    MinItems {
        min: i64,
        size: i64,
    },
    TooFewProperties {
        min: i64,
        n: i64,
    },
    TooManyProperties {
        max: i64,
        n: i64,
    },
    NotAllowed {
        key: &'a str,
    },
    /// An error that is not an `errors.Validation` (composite messages,
    /// range checks): reported at the root path with value `""`.
    Plain(String),
}

struct Raw<'a> {
    /// The validator path (`errors.Validation.Name`).
    name: String,
    kind: Kind<'a>,
}

fn bad_value(v: &Value) -> BadValue {
    match v {
        Value::Number(n) => BadValue::Json(GoNum::of(n).to_value()),
        Value::Array(_) | Value::Object(_) => BadValue::Raw(go_json(v, true)),
        other => BadValue::Json(other.clone()),
    }
}

impl<'a> Raw<'a> {
    fn plain(msg: String) -> Self {
        Raw {
            name: String::new(),
            kind: Kind::Plain(msg),
        }
    }

    /// `err.Error()`.
    fn message(&self) -> String {
        let name = &self.name;
        match &self.kind {
            Kind::InvalidType { expected, actual } => {
                format!(
                    "{name} in body must be of type {expected}: {}",
                    go_quote(actual)
                )
            }
            Kind::Required => format!("{name} in body is required"),
            Kind::TooLong { max } => format!("{name} in body should be at most {max} chars long"),
            Kind::TooShort { min, .. } => {
                format!("{name} in body should be at least {min} chars long")
            }
            Kind::Pattern {
                pattern, invalid, ..
            } => match invalid {
                None => format!("{name} in body should match '{pattern}'"),
                Some(e) => {
                    format!("{name} in body should match '{pattern}, but pattern is invalid: {e}'")
                }
            },
            Kind::Enum { node, .. } => format!("{name} in body should be one of {}", node.enum_v),
            Kind::NotMultipleOf { factor, .. } => {
                format!("{name} in body should be a multiple of {}", factor.go_v())
            }
            Kind::MultipleOfNotPositive { factor } => format!(
                "factor MultipleOf declared for {name} must be positive: {}",
                factor.go_v()
            ),
            Kind::Maximum {
                bound, exclusive, ..
            } => {
                if *exclusive {
                    format!("{name} in body should be less than {}", bound.go_v())
                } else {
                    format!(
                        "{name} in body should be less than or equal to {}",
                        bound.go_v()
                    )
                }
            }
            Kind::Minimum {
                bound, exclusive, ..
            } => {
                if *exclusive {
                    format!("{name} in body should be greater than {}", bound.go_v())
                } else {
                    format!(
                        "{name} in body should be greater than or equal to {}",
                        bound.go_v()
                    )
                }
            }
            Kind::Unique => format!("{name} in body shouldn't contain duplicates"),
            Kind::MaxItems { max, .. } => format!("{name} in body should have at most {max} items"),
            Kind::MinItems { min, .. } => {
                format!("{name} in body should have at least {min} items")
            }
            Kind::TooFewProperties { min, .. } => {
                format!("{name} in body should have at least {min} properties")
            }
            Kind::TooManyProperties { max, .. } => {
                format!("{name} in body should have at most {max} properties")
            }
            Kind::NotAllowed { key } => format!("{name}.{key} in body is a forbidden property"),
            Kind::Plain(msg) => msg.clone(),
        }
    }

    /// One arm of `kubeOpenAPIResultToFieldErrors`.
    fn to_field_error(&self, root: &Path, msg: String) -> FieldError {
        if let Kind::Plain(_) = self.kind {
            return FieldError::invalid(root, "", msg);
        }
        let name = self.name.as_str();
        let path = if name.is_empty() || name == "." {
            root.clone()
        } else {
            root.child(name.strip_prefix('.').unwrap_or(name))
        };
        let invalid = |value: BadValue| {
            let mut e = FieldError::invalid(&path, Value::Null, msg.clone());
            e.bad_value = value;
            e
        };
        match &self.kind {
            Kind::Required => FieldError::required(&path, ""),
            Kind::Enum { data, node } => {
                let mut e = FieldError::not_supported(&path, Value::Null, &node.enum_supported);
                e.bad_value = bad_value(data);
                e
            }
            Kind::TooLong { max } => FieldError::too_long(&path, *max),
            Kind::MaxItems { max, size } => FieldError::too_many(&path, *size, *max),
            Kind::TooManyProperties { max, n } => FieldError::too_many(&path, *n, *max),
            Kind::InvalidType { actual, .. } => FieldError::type_invalid(&path, *actual, msg),
            Kind::TooShort { data, .. } | Kind::Pattern { data, .. } => {
                invalid(BadValue::Json(Value::String((*data).to_string())))
            }
            Kind::NotMultipleOf { data, .. }
            | Kind::Maximum { data, .. }
            | Kind::Minimum { data, .. } => invalid(BadValue::Json(data.to_value())),
            Kind::MultipleOfNotPositive { factor } => invalid(BadValue::Json(factor.to_value())),
            Kind::Unique => invalid(BadValue::Json(Value::String(String::new()))),
            Kind::MinItems { size, .. } => invalid(BadValue::Json(Value::from(*size))),
            Kind::TooFewProperties { n, .. } => invalid(BadValue::Json(Value::from(*n))),
            Kind::NotAllowed { key } => invalid(BadValue::Json(Value::String((*key).to_string()))),
            Kind::Plain(_) => FieldError::invalid(root, "", msg),
        }
    }

    /// `keepRelevantErrors`: messages starting with `IMPORTANT!` are kept
    /// (as plain errors, prefix removed) whatever the match counts say.
    fn important(&self) -> Option<Raw<'a>> {
        let candidate = match &self.kind {
            Kind::Plain(m) => m.starts_with("IMPORTANT!"),
            Kind::MultipleOfNotPositive { .. } => false,
            _ => self.name.starts_with("IMPORTANT!"),
        };
        if !candidate {
            return None;
        }
        let msg = self.message();
        msg.strip_prefix("IMPORTANT!")
            .map(|m| Raw::plain(m.to_string()))
    }
}

fn keep_important<'a>(errs: &[Raw<'a>], keep: &mut Vec<Raw<'a>>) {
    keep.extend(errs.iter().filter_map(Raw::important));
}

// ---------------------------------------------------------------------------
// The validator chain.

/// `SchemaValidator.Validate(data)`: pushes the errors to `out` and
/// returns the result's match count.
///
/// The most common leaves are checked first: a string whose node asks
/// for its type and at most a pattern and an enum, a boolean whose node
/// asks for its type only. When they pass, they get the match count the
/// full chain gives them; otherwise the full chain runs.
#[inline(always)]
fn validate_node<'a>(
    n: &'a Node,
    v: &'a Value,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    let fast = match v {
        Value::String(s) if n.plain & PLAIN_STRING != 0 && plain_string_passes(n, s) => 7,
        Value::Bool(_) if n.plain & PLAIN_BOOL != 0 => 6,
        _ => return validate_node_full(n, v, path, out),
    };
    debug_assert_eq!(fast, validate_node_full(n, v, path, out));
    fast
}

/// Whether a string passes a [`PLAIN_STRING`] node's pattern and enum.
#[inline(always)]
fn plain_string_passes(n: &Node, s: &str) -> bool {
    let pattern_ok = match &n.pattern {
        None => true,
        Some(Pattern { re: Ok(re), .. }) => re.is_match(s),
        Some(Pattern { re: Err(_), .. }) => false,
    };
    // A string matches exactly the string members of an enum.
    pattern_ok && (n.enum_.is_empty() || n.enum_strings.get(s).is_some())
}

/// [`Node::plain`]: a string needs to be a string, and to pass the node's
/// pattern and enum if any.
const PLAIN_STRING: u8 = 1;
/// [`Node::plain`]: a boolean only needs to be a boolean.
const PLAIN_BOOL: u8 = 2;

fn validate_node_full<'a>(
    n: &'a Node,
    v: &'a Value,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    if v.is_null() {
        // Only the type and the common (enum) validators run.
        let mut mc = 0;
        if n.has_type && !n.types.null && !n.nullable {
            out.push(Raw {
                name: path.render(),
                kind: Kind::InvalidType {
                    expected: &n.type_joined,
                    actual: "null",
                },
            });
        } else {
            mc += 1;
        }
        if !n.enum_.is_empty() {
            out.push(Raw {
                name: path.render(),
                kind: Kind::Enum { data: v, node: n },
            });
        }
        return mc;
    }

    let mut mc = 0;
    if n.has_type || !n.format.is_empty() {
        mc += check_type(n, v, path, out) + 1;
    }
    mc += if n.has_junctors {
        check_junctors(n, v, path, out)
    } else {
        1
    } + 1;
    match v {
        Value::String(s) => {
            mc += 1;
            check_string(n, s, path, out);
            if let Some(f) = n.string_format {
                mc += 1;
                if !formats::validates(f, s) {
                    out.push(Raw {
                        name: path.render(),
                        kind: Kind::InvalidType {
                            expected: &n.format,
                            actual: s,
                        },
                    });
                }
            }
        }
        Value::Number(num) => {
            mc += 2;
            check_number(n, GoNum::of(num), path, out);
        }
        Value::Array(items) => {
            mc += check_slice(n, items, path, out) + 1;
        }
        _ => {}
    }
    mc += 1;
    if !n.enum_.is_empty() && !n.enum_.iter().any(|m| enum_member_matches(v, m)) {
        out.push(Raw {
            name: path.render(),
            kind: Kind::Enum { data: v, node: n },
        });
    }
    if let Value::Object(map) = v {
        mc += check_object(n, map, path, out) + 1;
    }
    mc + 1
}

/// `typeValidator.Validate` for a non-null value; returns its match count.
fn check_type<'a>(n: &'a Node, v: &'a Value, path: &DottedPath<'_>, out: &mut Vec<Raw<'a>>) -> u64 {
    // (type name, data format, float value, whether the type list has it)
    let t = n.types;
    let (sch_type, data_format, float, contains): (&'static str, &'static str, Option<f64>, bool) =
        match v {
            Value::Bool(_) => ("boolean", "", None, t.boolean),
            Value::String(_) => ("string", "", None, t.string),
            Value::Number(num) => match GoNum::of(num) {
                GoNum::Int(_) => ("integer", "int64", None, t.integer),
                GoNum::Float(f) => ("number", "float64", Some(f), t.number),
            },
            Value::Array(_) => ("array", "", None, t.array),
            Value::Object(_) | Value::Null => ("object", "", None, t.object),
        };
    let str_or_slice = matches!(v, Value::String(_) | Value::Array(_));
    let is_float_int = float.is_some_and(is_float64_a_json_integer) && t.integer;
    // An int64 (a number that is not a float64).
    let is_int_float = t.number && float.is_none() && matches!(v, Value::Number(_));
    // `kind != String && kind != Slice && Format != "" && !(...)`.
    if !(str_or_slice
        || n.format.is_empty()
        || contains
        || data_format == n.format
        || is_float_int
        || is_int_float)
    {
        out.push(Raw {
            name: path.render(),
            kind: Kind::InvalidType {
                expected: &n.format,
                actual: data_format,
            },
        });
        return 0;
    }
    if str_or_slice && !(t.number || t.integer || n.format.is_empty()) {
        return 1;
    }
    if !(contains || is_float_int || is_int_float) {
        out.push(Raw {
            name: path.render(),
            kind: Kind::InvalidType {
                expected: &n.type_joined,
                actual: sch_type,
            },
        });
        return 0;
    }
    1
}

/// Errors of one junctor branch, validated on its own.
fn branch<'a>(n: &'a Node, v: &'a Value, path: &DottedPath<'_>) -> (u64, Vec<Raw<'a>>) {
    let mut errs = Vec::new();
    let mc = validate_node(n, v, path, &mut errs);
    (mc, errs)
}

/// `schemaPropsValidator.Validate`; returns its match count.
fn check_junctors<'a>(
    n: &'a Node,
    v: &'a Value,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    let mut mc = 0;
    let mut keep_any: Vec<Raw<'a>> = Vec::new();
    let mut keep_one: Vec<Raw<'a>> = Vec::new();
    let mut keep_all: Vec<Raw<'a>> = Vec::new();

    if !n.any_of.is_empty() {
        let mut best: Option<(u64, Vec<Raw<'a>>)> = None;
        let mut first_success: Option<u64> = None;
        for b in &n.any_of {
            let (bmc, errs) = branch(b, v, path);
            keep_important(&errs, &mut keep_any);
            if errs.is_empty() {
                best = None;
                first_success.get_or_insert(bmc);
                keep_any.clear();
                break;
            }
            if best.as_ref().is_none_or(|(m, _)| bmc > *m) {
                best = Some((bmc, errs));
            }
        }
        if first_success.is_none() {
            out.push(Raw::plain(format!(
                "{} must validate at least one schema (anyOf)",
                go_quote(&path.render())
            )));
        }
        if let Some((bmc, errs)) = best {
            mc += bmc;
            out.extend(errs);
        } else if let Some(s) = first_success {
            mc += s;
        }
    }

    if !n.one_of.is_empty() {
        let mut best: Option<(u64, Vec<Raw<'a>>)> = None;
        let mut first_success: Option<u64> = None;
        let mut validated = 0usize;
        for b in &n.one_of {
            let (bmc, errs) = branch(b, v, path);
            keep_important(&errs, &mut keep_one);
            if errs.is_empty() {
                validated += 1;
                best = None;
                first_success.get_or_insert(bmc);
                keep_one.clear();
                continue;
            }
            if validated == 0 && best.as_ref().is_none_or(|(m, _)| bmc > *m) {
                best = Some((bmc, errs));
            }
        }
        if validated != 1 {
            let additional = if validated == 0 {
                "Found none valid".to_string()
            } else {
                format!("Found {validated} valid alternatives")
            };
            out.push(Raw::plain(format!(
                "{} must validate one and only one schema (oneOf). {additional}",
                go_quote(&path.render())
            )));
            if let Some((bmc, errs)) = best {
                mc += bmc;
                out.extend(errs);
            }
        } else if let Some(s) = first_success {
            mc += s;
        }
    }

    if !n.all_of.is_empty() {
        let mut validated = 0usize;
        for b in &n.all_of {
            let start = out.len();
            mc += validate_node(b, v, path, out);
            let added = out.get(start..).unwrap_or_default();
            keep_important(added, &mut keep_all);
            if added.is_empty() {
                validated += 1;
            }
        }
        if validated != n.all_of.len() {
            let additional = if validated == 0 {
                ". None validated"
            } else {
                ""
            };
            out.push(Raw::plain(format!(
                "{} must validate all the schemas (allOf){additional}",
                go_quote(&path.render())
            )));
        }
    }

    if let Some(not) = &n.not {
        let (_, errs) = branch(not, v, path);
        if errs.is_empty() {
            out.push(Raw::plain(format!(
                "{} must not validate the schema (not)",
                go_quote(&path.render())
            )));
        }
    }

    if !n.dependencies.is_empty() {
        if let Value::Object(map) = v {
            for key in map.keys() {
                let Some((_, dep)) = n.dependencies.iter().find(|(k, _)| k == key) else {
                    continue;
                };
                match dep {
                    Dep::Schema(s) => {
                        mc += validate_node(s, v, &DottedPath::Dot(path, key), out);
                    }
                    Dep::Property(props) => {
                        for p in props {
                            if !map.contains_key(p) {
                                out.push(Raw::plain(format!(
                                    "{} has a dependency on {p}",
                                    go_quote(&path.render())
                                )));
                            }
                        }
                    }
                }
            }
        }
    }

    mc += 1;
    out.extend(keep_all);
    out.extend(keep_one);
    out.extend(keep_any);
    mc
}

/// `stringValidator.Validate`: only the first failure is reported.
fn check_string<'a>(n: &'a Node, s: &'a str, path: &DottedPath<'_>, out: &mut Vec<Raw<'a>>) {
    if n.max_length.is_some() || n.min_length.is_some() {
        let len = i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
        if let Some(max) = n.max_length {
            if len > max {
                out.push(Raw {
                    name: path.render(),
                    kind: Kind::TooLong { max },
                });
                return;
            }
        }
        if let Some(min) = n.min_length {
            if len < min {
                out.push(Raw {
                    name: path.render(),
                    kind: Kind::TooShort { min, data: s },
                });
                return;
            }
        }
    }
    if let Some(p) = &n.pattern {
        let kind = match &p.re {
            Err(e) => Some(Kind::Pattern {
                pattern: &p.text,
                invalid: Some(e),
                data: s,
            }),
            Ok(re) if !re.is_match(s) => Some(Kind::Pattern {
                pattern: &p.text,
                invalid: None,
                data: s,
            }),
            Ok(_) => None,
        };
        if let Some(kind) = kind {
            out.push(Raw {
                name: path.render(),
                kind,
            });
        }
    }
}

/// `numberValidator.Validate`.
fn check_number<'a>(n: &'a Node, d: GoNum, path: &DottedPath<'_>, out: &mut Vec<Raw<'a>>) {
    if n.num_type != NumType::None && !in_range(d, n.num_type, n.num_format) {
        out.push(Raw::plain(range_message("Checked", n, &path.render())));
    }
    let named = |kind: Kind<'a>| Raw {
        name: path.render(),
        kind,
    };

    if let Some(factor) = n.multiple_of {
        let float_check = |data: f64| -> Option<Kind<'a>> {
            if factor <= 0.0 {
                return Some(Kind::MultipleOfNotPositive {
                    factor: GoNum::Float(factor),
                });
            }
            let mult = if factor < 1.0 {
                1.0 / factor * data
            } else {
                data / factor
            };
            (!is_float64_a_json_integer(mult)).then_some(Kind::NotMultipleOf {
                factor: GoNum::Float(factor),
                data: GoNum::Float(data),
            })
        };
        if n.multiple_of_in_range {
            let kind = match d {
                GoNum::Int(i) => {
                    let f = go_f64_to_i64(factor);
                    if f <= 0 {
                        Some(Kind::MultipleOfNotPositive {
                            factor: GoNum::Int(f),
                        })
                    } else if i % f != 0 {
                        Some(Kind::NotMultipleOf {
                            factor: GoNum::Int(f),
                            data: d,
                        })
                    } else {
                        None
                    }
                }
                GoNum::Float(x) => float_check(x),
            };
            if let Some(k) = kind {
                out.push(named(k));
            }
        } else {
            out.push(Raw::plain(range_message("MultipleOf", n, &path.render())));
            if let Some(k) = float_check(d.as_f64()) {
                out.push(named(k));
            }
        }
    }

    let mut bound =
        |b: Option<f64>, in_range: bool, exclusive: bool, is_max: bool, prefix: &str| {
            let Some(b) = b else { return };
            let fails_f = |x: f64| {
                if is_max {
                    (!exclusive && x > b) || (exclusive && x >= b)
                } else {
                    (!exclusive && x < b) || (exclusive && x <= b)
                }
            };
            let make = |bound: GoNum, data: GoNum| {
                if is_max {
                    Kind::Maximum {
                        bound,
                        exclusive,
                        data,
                    }
                } else {
                    Kind::Minimum {
                        bound,
                        exclusive,
                        data,
                    }
                }
            };
            if in_range {
                match d {
                    GoNum::Int(i) => {
                        let bi = go_f64_to_i64(b);
                        let fails = if is_max {
                            (!exclusive && i > bi) || (exclusive && i >= bi)
                        } else {
                            (!exclusive && i < bi) || (exclusive && i <= bi)
                        };
                        if fails {
                            out.push(named(make(GoNum::Int(bi), d)));
                        }
                    }
                    GoNum::Float(x) => {
                        if fails_f(x) {
                            out.push(named(make(GoNum::Float(b), d)));
                        }
                    }
                }
            } else {
                out.push(Raw::plain(range_message(prefix, n, &path.render())));
                let x = d.as_f64();
                if fails_f(x) {
                    out.push(named(make(GoNum::Float(b), GoNum::Float(x))));
                }
            }
        };
    // Merged in the order multipleOf, minimum, maximum.
    bound(
        n.minimum,
        n.minimum_in_range,
        n.exclusive_minimum,
        false,
        "Minimum boundary",
    );
    bound(
        n.maximum,
        n.maximum_in_range,
        n.exclusive_maximum,
        true,
        "Maximum boundary",
    );
}

/// `schemaSliceValidator.Validate`; returns its match count.
fn check_slice<'a>(
    n: &'a Node,
    items: &'a [Value],
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    let mut mc = 0;
    let size = items.len();
    let mut items_size = 0;
    match &n.items {
        Items::None => {}
        Items::One(s) => {
            for (i, item) in items.iter().enumerate() {
                mc += validate_node(s, item, &DottedPath::Index(path, i), out);
            }
        }
        Items::Tuple(schemas) => {
            items_size = schemas.len();
            for (i, (s, item)) in schemas.iter().zip(items.iter()).enumerate() {
                mc += validate_node(s, item, &DottedPath::Index(path, i), out);
            }
        }
    }
    if let Some(ai) = &n.additional_items {
        if items_size < size {
            if items_size > 0 && !ai.allows {
                out.push(Raw::plain(
                    "array doesn't allow for additional items".to_string(),
                ));
            }
            if let Some(s) = &ai.schema {
                // kube-openapi's loop bound, `size-itemsSize+1`, kept (and
                // clamped where Go would index out of range).
                let end = (size - items_size + 1).min(size);
                for i in items_size..end {
                    if let Some(item) = items.get(i) {
                        mc += validate_node(s, item, &DottedPath::Index(path, i), out);
                    }
                }
            }
        }
    }
    let size_i = i64::try_from(size).unwrap_or(i64::MAX);
    if let Some(min) = n.min_items {
        if size_i < min {
            out.push(Raw {
                name: path.render(),
                kind: Kind::MinItems { min, size: size_i },
            });
        }
    }
    if let Some(max) = n.max_items {
        if size_i > max {
            out.push(Raw {
                name: path.render(),
                kind: Kind::MaxItems { max, size: size_i },
            });
        }
    }
    if n.unique_items && has_duplicates(items) {
        out.push(Raw {
            name: path.render(),
            kind: Kind::Unique,
        });
    }
    mc + 1
}

/// `validatePatternProperty`: validates `value` against every pattern
/// property matching `key`; returns whether one matched.
fn pattern_property<'a>(
    n: &'a Node,
    key: &'a str,
    value: &'a Value,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
    mc: &mut u64,
) -> bool {
    let mut matched = false;
    for (_, re, s) in &n.pattern_properties {
        if re.as_ref().is_some_and(|r| r.is_match(key)) {
            matched = true;
            *mc += validate_node(s, value, &DottedPath::Dot(path, key), out);
        }
    }
    matched
}

/// `objectValidator.Validate`; returns its match count.
fn check_object<'a>(
    n: &'a Node,
    map: &'a Map<String, Value>,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    let num = i64::try_from(map.len()).unwrap_or(i64::MAX);
    if let Some(min) = n.min_properties {
        if num < min {
            out.push(Raw {
                name: path.render(),
                kind: Kind::TooFewProperties { min, n: num },
            });
        }
    }
    if let Some(max) = n.max_properties {
        if num > max {
            out.push(Raw {
                name: path.render(),
                kind: Kind::TooManyProperties { max, n: num },
            });
        }
    }
    let mut mc = 0;
    // One pass over the keys looks each one up among the properties once,
    // does the additionalProperties and patternProperties checks (their
    // errors come in key order, as kube-openapi's loops give them) and
    // collects the present properties, validated below in the properties'
    // (sorted) order.
    let closed = n
        .additional_properties
        .as_ref()
        .is_some_and(|ap| !ap.allows);
    let ap_schema = n
        .additional_properties
        .as_ref()
        .filter(|ap| ap.allows)
        .and_then(|ap| ap.schema.as_deref());
    let open_checks = !closed && (ap_schema.is_some() || !n.pattern_properties.is_empty());
    let mut object_path: Option<String> = None;
    let mut present = Present::new(n.properties.len());
    for (key, value) in map {
        let index = if n.properties.is_empty() {
            None
        } else {
            n.names.get(key)
        };
        if closed {
            if index.is_none() && !n.pattern_matches(key) {
                let name = object_path.get_or_insert_with(|| path.render()).clone();
                out.push(Raw {
                    name,
                    kind: Kind::NotAllowed { key },
                });
            }
        } else if open_checks {
            let matched = pattern_property(n, key, value, path, out, &mut mc);
            if index.is_none() && !matched {
                if let Some(s) = ap_schema {
                    mc += validate_node(s, value, &DottedPath::Dot(path, key), out);
                }
            }
        }
        if let Some(i) = index {
            present.push(i, value);
        }
    }
    present.for_each_sorted(|i, value| {
        if let Some((name, s)) = n.properties.get_index(i) {
            mc += validate_node(s, value, &DottedPath::Child(path, name), out);
        }
    });
    for (key, index) in n.required.iter().zip(&n.required_props) {
        let found = match index {
            Some(i) => present.has(*i),
            None => map.contains_key(key),
        };
        if !found {
            out.push(Raw {
                name: DottedPath::Dot(path, key).render(),
                kind: Kind::Required,
            });
        }
    }
    if !n.pattern_properties.is_empty() {
        for (key, value) in map {
            let regular = n.properties.contains_key(key);
            let matched = pattern_property(n, key, value, path, out, &mut mc);
            if !regular && matched {
                for (_, re, s) in &n.pattern_properties {
                    if re.as_ref().is_some_and(|r| r.is_match(key)) {
                        mc += validate_node(s, value, &DottedPath::Dot(path, key), out);
                    }
                }
            }
        }
    }
    mc
}

/// The properties present in an object, by index, with their values: a
/// bit set and a table on the stack when the node has at most 64
/// properties (visited in index order by the bits), else a list sorted
/// when visited. The small table lives on the stack on purpose.
#[allow(clippy::large_enum_variant)]
enum Present<'a> {
    Small {
        mask: u64,
        values: [Option<&'a Value>; 64],
    },
    Large(Vec<(usize, &'a Value)>),
}

impl<'a> Present<'a> {
    fn new(properties: usize) -> Self {
        if properties <= 64 {
            Present::Small {
                mask: 0,
                values: [None; 64],
            }
        } else {
            Present::Large(Vec::new())
        }
    }

    fn push(&mut self, i: usize, v: &'a Value) {
        match self {
            Present::Small { mask, values } => {
                if let Some(slot) = values.get_mut(i) {
                    *slot = Some(v);
                    *mask |= 1 << i;
                }
            }
            Present::Large(list) => list.push((i, v)),
        }
    }

    /// Calls `f` on the entries in index order.
    fn for_each_sorted(&mut self, mut f: impl FnMut(usize, &'a Value)) {
        match self {
            Present::Small { mask, values } => {
                let mut m = *mask;
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if let Some(Some(v)) = values.get(i) {
                        f(i, v);
                    }
                }
            }
            Present::Large(list) => {
                list.sort_unstable_by_key(|(i, _)| *i);
                for &(i, v) in list.iter() {
                    f(i, v);
                }
            }
        }
    }

    /// Whether property `i` is present (once sorted, for a large node).
    fn has(&self, i: usize) -> bool {
        match self {
            Present::Small { mask, .. } => i < 64 && mask & (1 << i) != 0,
            Present::Large(list) => list.binary_search_by_key(&i, |(j, _)| *j).is_ok(),
        }
    }
}
