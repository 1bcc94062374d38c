//! The converted schema: kube-openapi's `spec.Schema` as
//! `ConvertJSONSchemaPropsWithPostProcess` makes it from a
//! `JSONSchemaProps`, with everything that depends on the schema only
//! precompiled (patterns, enum renderings, bound range checks, property
//! lookup tables).

use indexmap::IndexMap;
use serde_json::Value;

use super::FormatCompat;
use crate::go::fmt::format_float_f;
use crate::go::formats::{self, Format};
use crate::go::json::{GoNum, go_json, go_v};
use crate::goregex::{self, GoRegex};
use crate::model::wire::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, SchemaOrStringArray};
use crate::object::name_table::NameTable;

/// [`Node::plain`]: a string needs to be a string, and to pass the node's
/// pattern and enum if any.
pub(super) const PLAIN_STRING: u8 = 1;
/// [`Node::plain`]: a boolean only needs to be a boolean.
pub(super) const PLAIN_BOOL: u8 = 2;

/// The numeric type the number validator checks ranges against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NumType {
    None,
    Integer,
    Number,
}

/// The numeric format the number validator checks ranges against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NumFormat {
    None,
    Int32,
    Int64,
    Float,
    Double,
}

impl NumFormat {
    /// The format's name (`""` for none).
    pub(super) fn name(self) -> &'static str {
        match self {
            NumFormat::None => "",
            NumFormat::Int32 => "int32",
            NumFormat::Int64 => "int64",
            NumFormat::Float => "float",
            NumFormat::Double => "double",
        }
    }
}

/// `IsValueValidAgainstRange(val, type, format, ...)` passes.
pub(super) fn in_range(v: GoNum, ty: NumType, fmt: NumFormat) -> bool {
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

/// `items`: none, one schema for every item, or a tuple of schemas.
#[derive(Clone)]
pub(super) enum Items {
    None,
    One(Box<Node>),
    Tuple(Vec<Node>),
}

/// `additionalProperties` or `additionalItems`: whether more are
/// allowed, and the schema they follow if one is given.
#[derive(Clone)]
pub(super) struct SchemaOrAllows {
    pub(super) allows: bool,
    pub(super) schema: Option<Box<Node>>,
}

/// A `dependencies` entry: a schema or the names of required properties.
#[derive(Clone)]
pub(super) enum Dep {
    Schema(Box<Node>),
    Property(Vec<String>),
}

/// `pattern`: its text and its compiled regex (or why it does not
/// compile).
#[derive(Clone)]
pub(super) struct Pattern {
    pub(super) text: String,
    pub(super) re: Result<GoRegex, String>,
}

/// Type-list membership of the JSON type names.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TypeSet {
    pub(super) string: bool,
    pub(super) boolean: bool,
    pub(super) integer: bool,
    pub(super) number: bool,
    pub(super) array: bool,
    pub(super) object: bool,
    pub(super) null: bool,
}

/// One node of the converted schema.
#[derive(Clone)]
pub(super) struct Node {
    /// [`PLAIN_STRING`] and [`PLAIN_BOOL`]: the values checked first.
    pub(super) plain: u8,
    /// The string members of `enum`.
    pub(super) enum_strings: NameTable,
    /// Any of allOf, anyOf, oneOf, not, dependencies.
    pub(super) has_junctors: bool,
    pub(super) has_type: bool,
    pub(super) types: TypeSet,
    /// `strings.Join(Type, ",")`.
    pub(super) type_joined: String,
    pub(super) nullable: bool,
    /// The format after stripping (`""` for none).
    pub(super) format: String,
    /// The registry format applying to string values.
    pub(super) string_format: Option<Format>,

    pub(super) num_type: NumType,
    pub(super) num_format: NumFormat,
    pub(super) multiple_of: Option<f64>,
    pub(super) multiple_of_in_range: bool,
    pub(super) maximum: Option<f64>,
    pub(super) maximum_in_range: bool,
    pub(super) exclusive_maximum: bool,
    pub(super) minimum: Option<f64>,
    pub(super) minimum_in_range: bool,
    pub(super) exclusive_minimum: bool,

    pub(super) max_length: Option<i64>,
    pub(super) min_length: Option<i64>,
    pub(super) pattern: Option<Pattern>,

    pub(super) max_items: Option<i64>,
    pub(super) min_items: Option<i64>,
    pub(super) unique_items: bool,
    pub(super) items: Items,
    pub(super) additional_items: Option<SchemaOrAllows>,

    pub(super) enum_: Vec<Value>,
    /// `%v` of the enum list (the kube-openapi message).
    pub(super) enum_v: String,
    /// The supported values of the `NotSupported` error.
    pub(super) enum_supported: Vec<String>,

    pub(super) max_properties: Option<i64>,
    pub(super) min_properties: Option<i64>,
    pub(super) required: Vec<String>,
    /// For each `required` name, its index among the properties.
    pub(super) required_props: Vec<Option<usize>>,
    /// Sorted by name.
    pub(super) properties: IndexMap<String, Node>,
    /// The properties' names to their indexes.
    pub(super) names: NameTable,
    pub(super) additional_properties: Option<SchemaOrAllows>,
    pub(super) pattern_properties: Vec<(String, Option<GoRegex>, Node)>,

    pub(super) all_of: Vec<Node>,
    pub(super) any_of: Vec<Node>,
    pub(super) one_of: Vec<Node>,
    pub(super) not: Option<Box<Node>>,
    pub(super) dependencies: Vec<(String, Dep)>,
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
    /// Converts `s` (and its subschemas) with the formats supported at
    /// `compat`.
    pub(super) fn build(s: &JsonSchemaProps, compat: FormatCompat) -> Node {
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

    /// Whether `key` matches a (compiling) pattern property.
    pub(super) fn pattern_matches(&self, key: &str) -> bool {
        self.pattern_properties
            .iter()
            .any(|(_, re, _)| re.as_ref().is_some_and(|r| r.is_match(key)))
    }

    /// The node's own checks without its children's: no properties,
    /// additional or pattern properties schemas, items, junctors or
    /// dependencies (see [`super::NodeRef::shallow`]).
    pub(super) fn without_children(&self) -> Node {
        let n = self;
        Node {
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
        }
    }
}
