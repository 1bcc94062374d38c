//! `#[derive(StructuralSchema)]`: the exact schema every attribute and
//! mapping rule produces, and that each produced schema is structural
//! (`Structural::from_props` + `validate_structural` clean) and passes the
//! API server's schema checks of a CRD version (defaults, CEL, list types),
//! as the root when it is an object, else as a property of one.

#![allow(
    missing_docs,
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use indexmap::IndexMap;
use schema_core::StructuralSchema;
use schema_core::crd::check::check;
use schema_core::crd::validation::structural::{StructuralOptions, validate_structural};
use schema_core::model::field::Path;
use schema_core::model::structural::Structural;
use schema_core::model::wire::JsonSchemaProps;
use schema_core::model::wire::input::Input;
use schema_core::rust::{SchemaCx, schema_for};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The schema of `T`, checked structural (and, for objects, as the root
/// of a CRD version).
pub(crate) fn schema<T: StructuralSchema + ?Sized>() -> Value {
    let s = match schema_for::<T>() {
        Ok(s) => s,
        Err(e) => panic!("schema_for failed:\n{e}"),
    };
    // Only an object can be a root: others are checked as a property.
    let root = if s.type_str() == "object" {
        s.clone()
    } else {
        let mut root = JsonSchemaProps {
            type_: Some("object".into()),
            ..JsonSchemaProps::default()
        };
        root.properties = Some([("value".to_string(), s.clone())].into_iter().collect());
        root
    };
    let st = Structural::from_props(&root).unwrap_or_else(|e| panic!("NewStructural: {e}"));
    let errs = validate_structural(&Path::root(), &st, StructuralOptions::default());
    assert!(
        errs.is_empty(),
        "not structural: {}",
        errs.iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    );
    let report = check(
        &Input::Schema(Box::new(root)),
        &schema_core::Options::default(),
    );
    assert!(
        report.errors.is_empty(),
        "CRD schema errors: {}",
        report
            .errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    );
    assert!(
        report.warnings.is_empty(),
        "warnings: {:?}",
        report.warnings
    );
    s.to_value()
}

/// Exact comparison, key order included (the wire model's canonical order).
#[track_caller]
fn assert_json(actual: Value, expected: Value) {
    let a = serde_json::to_string_pretty(&actual).unwrap();
    let e = serde_json::to_string_pretty(&expected).unwrap();
    assert!(a == e, "schema differs\n--- actual\n{a}\n--- expected\n{e}");
}

fn errors_of<T: StructuralSchema>() -> Vec<String> {
    match schema_for::<T>() {
        Ok(s) => panic!("expected errors, got {}", s.to_value()),
        Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
    }
}

// ---------------------------------------------------------------------------
// The mapping of Rust types
// ---------------------------------------------------------------------------

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Numbers {
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: isize,
    f: u8,
    g: u16,
    h: u32,
    i: u64,
    j: usize,
    k: f32,
    l: f64,
}

#[test]
fn integers_and_floats() {
    assert_json(
        schema::<Numbers>(),
        json!({
            "type": "object",
            "required": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"],
            "properties": {
                "a": {"type": "integer", "format": "int32", "maximum": 127, "minimum": -128},
                "b": {"type": "integer", "format": "int32", "maximum": 32767, "minimum": -32768},
                "c": {"type": "integer", "format": "int32"},
                "d": {"type": "integer", "format": "int64"},
                "e": {"type": "integer"},
                "f": {"type": "integer", "format": "int32", "maximum": 255, "minimum": 0},
                "g": {"type": "integer", "format": "int32", "maximum": 65535, "minimum": 0},
                "h": {"type": "integer", "format": "int64", "maximum": 4294967295u32, "minimum": 0},
                "i": {"type": "integer", "format": "int64", "minimum": 0},
                "j": {"type": "integer", "minimum": 0},
                "k": {"type": "number", "format": "float"},
                "l": {"type": "number", "format": "double"}
            }
        }),
    );
}

// The derive reads serde's attributes but needs none of its traits.
#[derive(StructuralSchema)]
struct Scalars<'a> {
    flag: bool,
    owned: String,
    borrowed: &'a str,
    letter: char,
    boxed: Box<str>,
    shared: Arc<i64>,
    counted: Rc<bool>,
    cow: std::borrow::Cow<'a, str>,
}

#[test]
fn scalars_and_wrappers() {
    assert_json(
        schema::<Scalars<'static>>(),
        json!({
            "type": "object",
            "required": ["borrowed", "boxed", "counted", "cow", "flag", "letter", "owned", "shared"],
            "properties": {
                "flag": {"type": "boolean"},
                "owned": {"type": "string"},
                "borrowed": {"type": "string"},
                "letter": {"type": "string", "maxLength": 1, "minLength": 1},
                "boxed": {"type": "string"},
                "shared": {"type": "integer", "format": "int64"},
                "counted": {"type": "boolean"},
                "cow": {"type": "string"}
            }
        }),
    );
}

#[derive(StructuralSchema)]
struct Collections {
    list: Vec<String>,
    deque: VecDeque<i32>,
    fixed: [u8; 4],
    ordered_set: BTreeSet<String>,
    hash_set: HashSet<i64>,
    ordered_map: BTreeMap<String, i32>,
    hash_map: HashMap<String, bool>,
    index_map: IndexMap<String, Vec<String>>,
}

#[test]
fn collections() {
    assert_json(
        schema::<Collections>(),
        json!({
            "type": "object",
            "required": ["deque", "fixed", "hash_map", "hash_set", "index_map", "list", "ordered_map", "ordered_set"],
            "properties": {
                "list": {"type": "array", "items": {"type": "string"}},
                "deque": {"type": "array", "items": {"type": "integer", "format": "int32"}},
                "fixed": {
                    "type": "array", "maxItems": 4, "minItems": 4,
                    "items": {"type": "integer", "format": "int32", "maximum": 255, "minimum": 0}
                },
                "ordered_set": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
                "hash_set": {"type": "array", "items": {"type": "integer", "format": "int64"}, "x-kubernetes-list-type": "set"},
                "ordered_map": {"type": "object", "additionalProperties": {"type": "integer", "format": "int32"}},
                "hash_map": {"type": "object", "additionalProperties": {"type": "boolean"}},
                "index_map": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}
            }
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct FreeForm {
    any: Value,
    object: serde_json::Map<String, Value>,
    values: BTreeMap<String, Value>,
    maybe: Option<i32>,
    maybe_boxed: Box<Option<String>>,
}

#[test]
fn free_form_json_and_options() {
    assert_json(
        schema::<FreeForm>(),
        json!({
            "type": "object",
            "required": ["any", "object", "values"],
            "properties": {
                "any": {"x-kubernetes-preserve-unknown-fields": true},
                "object": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "values": {"type": "object", "additionalProperties": {"x-kubernetes-preserve-unknown-fields": true}},
                "maybe": {"type": "integer", "format": "int32"},
                "maybe_boxed": {"type": "string"}
            }
        }),
    );
}

#[test]
fn std_types_alone() {
    assert_json(
        schema::<Vec<u16>>(),
        json!({
            "type": "array",
            "items": {"type": "integer", "format": "int32", "maximum": 65535, "minimum": 0}
        }),
    );
    assert_json(schema::<str>(), json!({"type": "string"}));
    assert_json(
        schema::<[bool]>(),
        json!({"type": "array", "items": {"type": "boolean"}}),
    );
}

// ---------------------------------------------------------------------------
// serde's attributes
// ---------------------------------------------------------------------------

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
struct Renamed {
    replica_count: i32,
    #[serde(rename = "URL")]
    url: String,
    #[serde(default)]
    defaulted: i32,
    #[serde(skip)]
    skipped: i32,
    #[serde(skip_deserializing)]
    write_only: i32,
    #[serde(skip_serializing)]
    read_only: i32,
    #[serde(skip_serializing_if = "String::is_empty")]
    omitted_when_empty: String,
}

#[test]
fn serde_rename_default_skip() {
    assert_json(
        schema::<Renamed>(),
        json!({
            "type": "object",
            "required": ["URL", "replicaCount"],
            "properties": {
                "replicaCount": {"type": "integer", "format": "int32"},
                "URL": {"type": "string"},
                "defaulted": {"type": "integer", "format": "int32"},
                "readOnly": {"type": "integer", "format": "int32"},
                "omittedWhenEmpty": {"type": "string"}
            }
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema, Default)]
#[serde(default)]
struct ContainerDefault {
    a: i32,
    b: String,
}

#[test]
fn serde_container_default_makes_fields_optional() {
    assert_json(
        schema::<ContainerDefault>(),
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer", "format": "int32"},
                "b": {"type": "string"}
            }
        }),
    );
}

/// Common fields.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(validation(rule = "self.name != ''"))]
struct Common {
    name: String,
    note: Option<String>,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Extra {
    extra: i32,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Flattened {
    id: i32,
    #[serde(flatten)]
    common: Common,
    #[serde(flatten)]
    extra: Option<Extra>,
}

#[test]
fn serde_flatten_merges_properties() {
    assert_json(
        schema::<Flattened>(),
        json!({
            "type": "object",
            "required": ["id", "name"],
            "properties": {
                "id": {"type": "integer", "format": "int32"},
                "name": {"type": "string"},
                "note": {"type": "string"},
                "extra": {"type": "integer", "format": "int32"}
            },
            "x-kubernetes-validations": [{"rule": "self.name != ''"}]
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Zone {
    zone: String,
    #[serde(rename = "Beta")]
    beta: String,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
struct Unordered {
    zeta: i32,
    optional: Option<i32>,
    #[serde(flatten)]
    zone: Zone,
    alpha_value: i32,
    #[schema(required)]
    middle: Option<i32>,
}

// controller-gen writes `required` sorted (Go's `slices.Sort`, byte order),
// whatever the field order; properties keep field order.
#[test]
fn required_is_sorted() {
    assert_json(
        schema::<Unordered>(),
        json!({
            "type": "object",
            "required": ["Beta", "alphaValue", "middle", "zeta", "zone"],
            "properties": {
                "zeta": {"type": "integer", "format": "int32"},
                "optional": {"type": "integer", "format": "int32"},
                "zone": {"type": "string"},
                "Beta": {"type": "string"},
                "alphaValue": {"type": "integer", "format": "int32"},
                "middle": {"type": "integer", "format": "int32"}
            }
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct FlattenedMap {
    id: i32,
    #[serde(flatten)]
    rest: serde_json::Map<String, Value>,
}

#[test]
fn serde_flatten_free_form_map_preserves_unknown_fields() {
    assert_json(
        schema::<FlattenedMap>(),
        json!({
            "type": "object",
            "required": ["id"],
            "properties": {"id": {"type": "integer", "format": "int32"}},
            "x-kubernetes-preserve-unknown-fields": true
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct FlattenedTypedMap {
    id: i32,
    #[serde(flatten)]
    rest: BTreeMap<String, i32>,
}

#[test]
fn serde_flatten_typed_map_is_an_error() {
    let errs = errors_of::<FlattenedTypedMap>();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0]
            .starts_with("FlattenedTypedMap.rest: `#[serde(flatten)]` of `BTreeMap<String, i32>`"),
        "{errs:?}"
    );
}

/// A name.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(transparent)]
struct Transparent {
    inner: String,
}

/// A count.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(minimum = 0)]
struct Newtype(i32);

#[derive(Serialize, Deserialize, StructuralSchema, Clone)]
#[serde(into = "String", from = "String")]
struct Into {
    parts: Vec<String>,
}

impl From<Into> for String {
    fn from(v: Into) -> String {
        v.parts.join(".")
    }
}

impl From<String> for Into {
    fn from(s: String) -> Self {
        Into {
            parts: s.split('.').map(str::to_string).collect(),
        }
    }
}

#[test]
fn serde_transparent_newtype_and_into() {
    assert_json(
        schema::<Transparent>(),
        json!({"description": "A name.", "type": "string"}),
    );
    assert_json(
        schema::<Newtype>(),
        json!({"description": "A count.", "type": "integer", "format": "int32", "minimum": 0}),
    );
    assert_json(schema::<Into>(), json!({"type": "string"}));
}

/// The policy.
#[derive(Serialize, Deserialize, StructuralSchema, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
enum Policy {
    IfNotPresent,
    Always,
    #[serde(rename = "never")]
    Never,
    #[serde(skip)]
    Internal,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct UsesPolicy {
    policy: Policy,
    /// Per-policy weights.
    weights: BTreeMap<Policy, i32>,
}

#[test]
fn unit_enums_are_string_enums_and_map_keys() {
    assert_json(
        schema::<Policy>(),
        json!({
            "description": "The policy.",
            "type": "string",
            "enum": ["if-not-present", "always", "never"]
        }),
    );
    assert_json(
        schema::<UsesPolicy>(),
        json!({
            "type": "object",
            "required": ["policy", "weights"],
            "properties": {
                "policy": {
                    "description": "The policy.",
                    "type": "string",
                    "enum": ["if-not-present", "always", "never"]
                },
                "weights": {
                    "description": "Per-policy weights.",
                    "type": "object",
                    "additionalProperties": {"type": "integer", "format": "int32"}
                }
            }
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Generic<T> {
    value: T,
    values: Vec<T>,
}

#[test]
fn generic_types() {
    assert_json(
        schema::<Generic<bool>>(),
        json!({
            "type": "object",
            "required": ["value", "values"],
            "properties": {
                "value": {"type": "boolean"},
                "values": {"type": "array", "items": {"type": "boolean"}}
            }
        }),
    );
}

// ---------------------------------------------------------------------------
// Doc comments
// ---------------------------------------------------------------------------

/// The type's doc.
///
/// TODO: remove this line.
/// Second paragraph
/// on two lines.
/// ---
/// Not for users.
#[derive(Serialize, Deserialize, StructuralSchema)]
struct Documented {
    /// The field's doc wins.
    with_doc: Inner,
    without_doc: Inner,
    /// Not this one.
    #[schema(description = "The attribute wins.")]
    with_attr: Inner,
    /// Code:
    /// ```
    /// TODO: kept in code
    /// ---
    /// ```
    code: String,
}

/// Inner's doc.
#[derive(Serialize, Deserialize, StructuralSchema)]
struct Inner {
    x: i32,
}

/// Ignored: the attribute wins.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(description = "From the attribute.")]
struct DescribedByAttribute {
    x: i32,
}

#[test]
fn doc_comments_follow_controller_gen() {
    let inner = |d: &str| {
        json!({
            "description": d,
            "type": "object",
            "required": ["x"],
            "properties": {"x": {"type": "integer", "format": "int32"}}
        })
    };
    assert_json(
        schema::<Documented>(),
        json!({
            "description": "The type's doc.\n\nSecond paragraph\non two lines.",
            "type": "object",
            "required": ["code", "with_attr", "with_doc", "without_doc"],
            "properties": {
                "with_doc": inner("The field's doc wins."),
                "without_doc": inner("Inner's doc."),
                "with_attr": inner("The attribute wins."),
                "code": {"description": "Code:\n```\nTODO: kept in code\n---\n```", "type": "string"}
            }
        }),
    );
    assert_json(
        schema::<DescribedByAttribute>(),
        inner("From the attribute."),
    );
}

// ---------------------------------------------------------------------------
// #[schema(...)] attributes
// ---------------------------------------------------------------------------

#[derive(Serialize, Deserialize, StructuralSchema)]
struct NumericAttrs {
    #[schema(minimum = 1, maximum = 10, exclusive_maximum)]
    replicas: i32,
    #[schema(minimum = -1.5, exclusive_minimum, maximum = 2.5, multiple_of = 0.5)]
    ratio: f64,
    #[schema(multiple_of = 4, exclusive_minimum = false)]
    aligned: u64,
    #[schema(maximum = 3.4028234663852886e38, default = 0.30000000000000004)]
    wide: f64,
}

#[test]
fn attr_numeric() {
    assert_json(
        schema::<NumericAttrs>(),
        json!({
            "type": "object",
            "required": ["aligned", "ratio", "replicas", "wide"],
            "properties": {
                "replicas": {"type": "integer", "format": "int32", "maximum": 10, "exclusiveMaximum": true, "minimum": 1},
                "ratio": {"type": "number", "format": "double", "maximum": 2.5, "minimum": -1.5, "exclusiveMinimum": true, "multipleOf": 0.5},
                "aligned": {"type": "integer", "format": "int64", "minimum": 0, "multipleOf": 4},
                "wide": {"type": "number", "format": "double", "default": 0.300_000_000_000_000_04, "maximum": 3.402_823_466_385_288_6e38}
            }
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct StringAttrs {
    #[schema(
        min_length = 1,
        max_length = 63,
        pattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
    )]
    name: String,
    #[schema(format = "date-time", title = "Created")]
    created: String,
    #[schema(enum = ["Ready", "NotReady"])]
    phase: String,
}

#[test]
fn attr_string() {
    assert_json(
        schema::<StringAttrs>(),
        json!({
            "type": "object",
            "required": ["created", "name", "phase"],
            "properties": {
                "name": {"type": "string", "maxLength": 63, "minLength": 1, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},
                "created": {"type": "string", "format": "date-time", "title": "Created"},
                "phase": {"type": "string", "enum": ["Ready", "NotReady"]}
            }
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Port {
    name: String,
    port: i32,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct ArrayAttrs {
    #[schema(min_items = 1, max_items = 3, list_type = "atomic")]
    hosts: Vec<String>,
    #[schema(list_type = "set")]
    tags: Vec<String>,
    #[schema(list_type = "map", list_map_keys = ["name"])]
    ports: Vec<Port>,
    #[schema(unique_items = false)]
    plain: Vec<i32>,
}

#[test]
fn attr_array() {
    let port = json!({
        "type": "object",
        "required": ["name", "port"],
        "properties": {"name": {"type": "string"}, "port": {"type": "integer", "format": "int32"}}
    });
    assert_json(
        schema::<ArrayAttrs>(),
        json!({
            "type": "object",
            "required": ["hosts", "plain", "ports", "tags"],
            "properties": {
                "hosts": {"type": "array", "maxItems": 3, "minItems": 1, "items": {"type": "string"}, "x-kubernetes-list-type": "atomic"},
                "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
                "ports": {"type": "array", "items": port, "x-kubernetes-list-map-keys": ["name"], "x-kubernetes-list-type": "map"},
                "plain": {"type": "array", "items": {"type": "integer", "format": "int32"}}
            }
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct UniqueItems {
    #[schema(unique_items)]
    values: Vec<i32>,
}

#[test]
fn attr_unique_items_is_structural_but_rejected_in_a_crd() {
    // uniqueItems: true is structural; the server rejects it in CRDs
    // ("uniqueItems cannot be set to true since the runtime complexity
    // becomes quadratic"), and the schema checks say so.
    let s = schema_for::<UniqueItems>().unwrap();
    assert_json(
        s.properties.as_ref().unwrap()["values"].to_value(),
        json!({"type": "array", "uniqueItems": true, "items": {"type": "integer", "format": "int32"}}),
    );
    let st = Structural::from_props(&s).unwrap();
    assert!(validate_structural(&Path::root(), &st, StructuralOptions::default()).is_empty());
    let report = check(
        &Input::Schema(Box::new(s)),
        &schema_core::Options::default(),
    );
    assert_eq!(report.errors.len(), 1);
    assert!(
        report.errors[0]
            .to_string()
            .contains("uniqueItems cannot be set to true")
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(min_properties = 1, max_properties = 5, struct_type = "atomic")]
struct ObjectAttrs {
    #[schema(min_properties = 1, max_properties = 10, map_type = "granular")]
    labels: BTreeMap<String, String>,
    #[schema(struct_type = "granular")]
    port: Option<Port>,
}

#[test]
fn attr_object() {
    assert_json(
        schema::<ObjectAttrs>(),
        json!({
            "type": "object",
            "maxProperties": 5,
            "minProperties": 1,
            "required": ["labels"],
            "properties": {
                "labels": {"type": "object", "maxProperties": 10, "minProperties": 1, "additionalProperties": {"type": "string"}, "x-kubernetes-map-type": "granular"},
                "port": {
                    "type": "object",
                    "required": ["name", "port"],
                    "properties": {"name": {"type": "string"}, "port": {"type": "integer", "format": "int32"}},
                    "x-kubernetes-map-type": "granular"
                }
            },
            "x-kubernetes-map-type": "atomic"
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct ItemsAttrs {
    #[schema(max_items = 10, items(min_length = 1, pattern = "^[a-z]+$"))]
    names: Vec<String>,
    #[schema(items(minimum = 0, maximum = 100))]
    weights: BTreeMap<String, i32>,
    #[schema(items(items(max_length = 3), max_items = 2))]
    matrix: Vec<Vec<String>>,
    #[schema(items(type = "string", format = "byte"))]
    blobs: Vec<Value>,
}

#[test]
fn attr_items() {
    assert_json(
        schema::<ItemsAttrs>(),
        json!({
            "type": "object",
            "required": ["blobs", "matrix", "names", "weights"],
            "properties": {
                "names": {"type": "array", "maxItems": 10, "items": {"type": "string", "minLength": 1, "pattern": "^[a-z]+$"}},
                "weights": {"type": "object", "additionalProperties": {"type": "integer", "format": "int32", "maximum": 100, "minimum": 0}},
                "matrix": {"type": "array", "items": {"type": "array", "maxItems": 2, "items": {"type": "string", "maxLength": 3}}},
                "blobs": {"type": "array", "items": {"type": "string", "format": "byte"}}
            }
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Defaults {
    #[schema(default = 3)]
    replicas: i32,
    #[schema(default = "always")]
    policy: Policy,
    #[schema(default = true)]
    enabled: bool,
    #[schema(default = -0.5)]
    offset: f64,
    #[schema(default = ["a", "b"], example = ["x"])]
    tags: Vec<String>,
    #[schema(default = {"name": "http", "port": 80}, example = {name: "https", port: 443})]
    port: Port,
    #[schema(default = {})]
    labels: BTreeMap<String, String>,
}

#[test]
fn attr_default_and_example_json_form() {
    assert_json(
        schema::<Defaults>()["properties"].clone(),
        json!({
            "replicas": {"type": "integer", "format": "int32", "default": 3},
            "policy": {"description": "The policy.", "type": "string", "default": "always", "enum": ["if-not-present", "always", "never"]},
            "enabled": {"type": "boolean", "default": true},
            "offset": {"type": "number", "format": "double", "default": -0.5},
            "tags": {"type": "array", "default": ["a", "b"], "items": {"type": "string"}, "example": ["x"]},
            "port": {
                "type": "object",
                "default": {"name": "http", "port": 80},
                "required": ["name", "port"],
                "properties": {"name": {"type": "string"}, "port": {"type": "integer", "format": "int32"}},
                "example": {"name": "https", "port": 443}
            },
            "labels": {"type": "object", "default": {}, "additionalProperties": {"type": "string"}}
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Requiredness {
    #[schema(nullable)]
    nullable: Option<String>,
    #[schema(required)]
    required_option: Option<String>,
    #[schema(optional)]
    optional_plain: String,
    #[schema(nullable = false, required = false)]
    plain: i32,
}

#[test]
fn attr_nullable_required_optional() {
    assert_json(
        schema::<Requiredness>(),
        json!({
            "type": "object",
            "required": ["plain", "required_option"],
            "properties": {
                "nullable": {"type": "string", "nullable": true},
                "required_option": {"type": "string"},
                "optional_plain": {"type": "string"},
                "plain": {"type": "integer", "format": "int32"}
            }
        }),
    );
}

struct Opaque;

fn opaque_schema(_: &mut SchemaCx) -> JsonSchemaProps {
    JsonSchemaProps {
        type_: Some("string".into()),
        format: Some("byte".into()),
        ..JsonSchemaProps::default()
    }
}

fn port_list(cx: &mut SchemaCx) -> JsonSchemaProps {
    let mut s = cx.subschema::<Vec<Port>>();
    s.max_items = Some(8);
    s
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Replacements {
    #[serde(skip)]
    #[schema(skip)]
    ignored: Option<Opaque>,
    #[schema(with = "port_list")]
    ports: Value,
    #[schema(type = "string", format = "date-time")]
    time: Value,
    #[schema(type = "object", preserve_unknown_fields)]
    config: Option<Value>,
    #[schema(
        schemaless,
        type = "object",
        embedded_resource,
        preserve_unknown_fields
    )]
    template: Value,
    #[schema(embedded_resource)]
    object: serde_json::Map<String, Value>,
    #[schema(int_or_string, pattern = "^[0-9]+%?$")]
    max_unavailable: Value,
    #[schema(preserve_unknown_fields)]
    extensible: Port,
}

#[test]
fn attr_replacing_and_extension_attributes() {
    // `ignored` is skipped: not in the schema at all.
    assert_json(
        schema::<Replacements>(),
        json!({
            "type": "object",
            "required": ["extensible", "max_unavailable", "object", "ports", "template", "time"],
            "properties": {
                "ports": {
                    "type": "array", "maxItems": 8,
                    "items": {
                        "type": "object",
                        "required": ["name", "port"],
                        "properties": {"name": {"type": "string"}, "port": {"type": "integer", "format": "int32"}}
                    }
                },
                "time": {"type": "string", "format": "date-time"},
                "config": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "template": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-embedded-resource": true},
                "object": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-embedded-resource": true},
                "max_unavailable": {"pattern": "^[0-9]+%?$", "x-kubernetes-int-or-string": true},
                "extensible": {
                    "type": "object",
                    "required": ["name", "port"],
                    "properties": {"name": {"type": "string"}, "port": {"type": "integer", "format": "int32"}},
                    "x-kubernetes-preserve-unknown-fields": true
                }
            }
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct WithOnly {
    #[serde(skip_deserializing)]
    #[schema(skip)]
    hidden: i32,
    #[schema(with = opaque_schema, description = "Raw bytes.")]
    raw: String,
    #[serde(with = "as_string")]
    #[schema(type = "string")]
    number: i64,
}

mod as_string {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[test]
fn attr_with_skip_and_serde_with() {
    assert_json(
        schema::<WithOnly>(),
        json!({
            "type": "object",
            "required": ["number", "raw"],
            "properties": {
                "raw": {"description": "Raw bytes.", "type": "string", "format": "byte"},
                "number": {"type": "string"}
            }
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(
    validation(rule = "self.min <= self.max", message = "min must not exceed max"),
    validation(
        rule = "self.max < 100",
        message_expression = "'max is ' + (self.max > 1000 ? 'far' : 'a little') + ' too large'",
        reason = "FieldValueForbidden",
        field_path = ".max"
    )
)]
struct Rules {
    min: i32,
    #[schema(validation(
        rule = "!oldSelf.hasValue() || self >= oldSelf.value()",
        optional_old_self,
        message = "may only grow"
    ))]
    max: i32,
}

#[test]
fn attr_validation_rules() {
    assert_json(
        schema::<Rules>(),
        json!({
            "type": "object",
            "required": ["max", "min"],
            "properties": {
                "min": {"type": "integer", "format": "int32"},
                "max": {
                    "type": "integer", "format": "int32",
                    "x-kubernetes-validations": [
                        {"rule": "!oldSelf.hasValue() || self >= oldSelf.value()", "message": "may only grow", "optionalOldSelf": true}
                    ]
                }
            },
            "x-kubernetes-validations": [
                {"rule": "self.min <= self.max", "message": "min must not exceed max"},
                {"rule": "self.max < 100", "messageExpression": "'max is ' + (self.max > 1000 ? 'far' : 'a little') + ' too large'", "reason": "FieldValueForbidden", "fieldPath": ".max"}
            ]
        }),
    );
}

/// A newtype with a rule of its own.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(
    max_length = 64,
    validation(rule = "self == self.lowerAscii()", message = "lower case")
)]
struct Lower(String);

#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(validation(rule = "self.a != 'x'", message = "not x"))]
struct EmbeddedA {
    a: String,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(validation(rule = "self.b != 'y'", message = "not y"))]
struct EmbeddedB {
    b: String,
}

/// The order of rules from several places, as controller-gen writes it.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(validation(rule = "self.a != self.b", message = "own"))]
struct RuleOrder {
    #[serde(flatten)]
    first: EmbeddedA,
    #[schema(validation(rule = "self.size() > 1", message = "field"))]
    name: Lower,
    #[schema(
        max_items = 8,
        items(validation(rule = "self.size() > 2", message = "item"))
    )]
    names: Vec<Lower>,
    #[serde(flatten)]
    second: EmbeddedB,
}

#[test]
fn attr_validation_rule_order() {
    // A field's rules come before its type's; the rules of flattened
    // structs come after the struct's own, the last flattened one first.
    let lower = json!({"rule": "self == self.lowerAscii()", "message": "lower case"});
    assert_json(
        schema::<RuleOrder>(),
        json!({
            "description": "The order of rules from several places, as controller-gen writes it.",
            "type": "object",
            "required": ["a", "b", "name", "names"],
            "properties": {
                "a": {"type": "string"},
                "name": {
                    "description": "A newtype with a rule of its own.",
                    "type": "string",
                    "maxLength": 64,
                    "x-kubernetes-validations": [{"rule": "self.size() > 1", "message": "field"}, lower]
                },
                "names": {
                    "type": "array",
                    "maxItems": 8,
                    "items": {
                        "description": "A newtype with a rule of its own.",
                        "type": "string",
                        "maxLength": 64,
                        "x-kubernetes-validations": [{"rule": "self.size() > 2", "message": "item"}, lower]
                    }
                },
                "b": {"type": "string"}
            },
            "x-kubernetes-validations": [
                {"rule": "self.a != self.b", "message": "own"},
                {"rule": "self.b != 'y'", "message": "not y"},
                {"rule": "self.a != 'x'", "message": "not x"}
            ]
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(validation(rule = "true"))]
struct Immutable {
    #[schema(immutable)]
    cluster_name: String,
    #[schema(immutable)]
    storage_class: Option<String>,
}

#[test]
fn attr_immutable() {
    assert_json(
        schema::<Immutable>(),
        json!({
            "type": "object",
            "required": ["clusterName"],
            "properties": {
                "clusterName": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "field is immutable"}]},
                "storageClass": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "field is immutable"}]}
            },
            "x-kubernetes-validations": [
                {"rule": "!has(oldSelf.storageClass) || has(self.storageClass)", "message": "field storageClass is immutable once set"},
                {"rule": "true"}
            ]
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(
    exactly_one_of(secret_ref, config_map_ref),
    at_least_one_of(inline_value, secret_ref),
    at_most_one_of(inline_value, config_map_ref)
)]
struct OneOfs {
    secret_ref: Option<String>,
    config_map_ref: Option<String>,
    inline_value: Option<String>,
}

#[test]
fn attr_one_of_constraints() {
    assert_json(
        schema::<OneOfs>()["x-kubernetes-validations"].clone(),
        json!([
            {"rule": "[has(self.inlineValue),has(self.configMapRef)].filter(x,x==true).size() <= 1", "message": "at most one of the fields in [inlineValue configMapRef] may be set"},
            {"rule": "[has(self.secretRef),has(self.configMapRef)].filter(x,x==true).size() == 1", "message": "exactly one of the fields in [secretRef configMapRef] must be set"},
            {"rule": "[has(self.inlineValue),has(self.secretRef)].filter(x,x==true).size() >= 1", "message": "at least one of the fields in [inlineValue secretRef] must be set"}
        ]),
    );
}

/// A replica count.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(
    title = "Replicas",
    minimum = 0,
    maximum = 100,
    default = 1,
    example = 3,
    nullable
)]
struct Replicas(u8);

/// A host name.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(max_length = 253, format = "hostname")]
struct Host(String);

#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(list_type = "set", max_items = 16, items(max_length = 253))]
struct Hosts(Vec<String>);

#[test]
fn attr_on_newtypes() {
    assert_json(
        schema::<Replicas>(),
        json!({
            "description": "A replica count.", "type": "integer", "format": "int32", "title": "Replicas",
            "default": 1, "maximum": 100, "minimum": 0, "example": 3, "nullable": true
        }),
    );
    assert_json(
        schema::<Host>(),
        json!({"description": "A host name.", "type": "string", "format": "hostname", "maxLength": 253}),
    );
    assert_json(
        schema::<Hosts>(),
        json!({"type": "array", "maxItems": 16, "items": {"type": "string", "maxLength": 253}, "x-kubernetes-list-type": "set"}),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(enum = ["Auto"], default = "Auto")]
enum Narrowed {
    Auto,
    Manual,
}

#[test]
fn attr_on_enums() {
    assert_json(
        schema::<Narrowed>(),
        json!({"type": "string", "default": "Auto", "enum": ["Auto"]}),
    );
}

/// A version, written as `"1.2.3"` by its own `Serialize`.
#[derive(StructuralSchema)]
#[schema(type = "string", pattern = "^[0-9]+\\.[0-9]+\\.[0-9]+$")]
struct Version {
    major: u32,
    minor: u32,
    patch: u32,
}

#[derive(StructuralSchema)]
#[schema(crate = "schema_core")]
struct OwnCratePath {
    version: Version,
}

#[test]
fn attr_type_on_a_struct_replaces_its_schema_and_crate_path() {
    let version = json!({
        "description": "A version, written as `\"1.2.3\"` by its own `Serialize`.",
        "type": "string",
        "pattern": "^[0-9]+\\.[0-9]+\\.[0-9]+$"
    });
    assert_json(schema::<Version>(), version.clone());
    assert_json(
        schema::<OwnCratePath>(),
        json!({"type": "object", "required": ["version"], "properties": {"version": version}}),
    );
}

// ---------------------------------------------------------------------------
// Errors found when the schema is built
// ---------------------------------------------------------------------------

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Node {
    name: String,
    children: Vec<Child>,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Child {
    node: Option<Box<Node>>,
}

#[test]
fn indirect_recursion_is_an_error_naming_the_cycle() {
    let errs = errors_of::<Node>();
    assert_eq!(
        errs,
        vec![
            "Node.children[*].node: recursive type: `Node` contains itself \
             (Node -> Vec<Child> -> Child -> Option<Box<Node>> -> Box<Node> -> Node, at \
             `Node.children[*].node`); \
             a structural schema has no `$ref`, so it cannot describe a recursive type: break \
             the cycle with `#[schema(type = \"object\", preserve_unknown_fields)]` or \
             `#[schema(with = path)]` on a field of the cycle"
                .to_string()
        ]
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Code(i32);

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Mismatch {
    #[schema(min_length = 1)]
    code: Code,
    #[schema(items(minimum = 1))]
    nested: Port,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct OptionalName {
    name: Option<String>,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct BadMapKeys {
    #[schema(list_type = "map", list_map_keys = ["name", "id"])]
    entries: Vec<OptionalName>,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct UnknownFormats {
    #[schema(format = "uint32")]
    count: u32,
    #[schema(format = "semver")]
    version: String,
}

#[test]
fn unknown_formats_are_errors() {
    assert_eq!(
        errors_of::<UnknownFormats>(),
        vec![
            "UnknownFormats.count: `format = \"uint32\"` is not a format the API server knows for type integer; it would ignore it (integers: int32, int64; numbers: float, double; strings: date-time, byte, hostname, ipv4, uri, uuid, ...)",
            "UnknownFormats.version: `format = \"semver\"` is not a format the API server knows for type string; it would ignore it (integers: int32, int64; numbers: float, double; strings: date-time, byte, hostname, ipv4, uri, uuid, ...)",
        ]
    );
}

#[test]
fn list_map_keys_must_be_required_properties_of_the_items() {
    assert_eq!(
        errors_of::<BadMapKeys>(),
        vec![
            "BadMapKeys.entries: `list_map_keys`: `name` must be a required property of the items, or have a default",
            "BadMapKeys.entries: `list_map_keys`: `id` is not a property of the items",
        ]
    );
}

#[test]
fn attribute_type_mismatch_behind_a_user_type_is_reported_at_build_time() {
    assert_eq!(
        errors_of::<Mismatch>(),
        vec![
            "Mismatch.code: `min_length` applies to a string (type string, or int-or-string), but this schema has type integer",
            "Mismatch.nested: `items(...)` applies to an array or a map, but this schema has type object",
        ]
    );
}

// Enums with data: structural unions in each serde representation.
mod enums;

/// Value validations under junctors, as JSON.
#[derive(StructuralSchema)]
#[allow(dead_code)]
#[schema(
    one_of = [{"required": ["host"]}, {"required": ["ip"]}],
    not = {"required": ["legacy"]},
    required_order = ["port", "name"]
)]
struct Junctors {
    name: String,
    port: i32,
    host: Option<String>,
    ip: Option<String>,
    legacy: Option<String>,
    #[schema(
        int_or_string,
        any_of = [{"type": "integer"}, {"type": "string"}],
        all_of = [{"pattern": "^[0-9]+%?$"}]
    )]
    surge: Option<serde_json::Value>,
}

#[test]
fn junctors_and_required_order() {
    // `schema` checks it structural and accepted by CRD validation.
    let s = schema::<Junctors>();
    assert_eq!(s["required"], json!(["port", "name"]));
    assert_eq!(
        s["oneOf"],
        json!([{"required": ["host"]}, {"required": ["ip"]}])
    );
    assert_eq!(s["not"], json!({"required": ["legacy"]}));
    assert_eq!(
        s["properties"]["surge"],
        json!({
            "allOf": [{"pattern": "^[0-9]+%?$"}],
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "x-kubernetes-int-or-string": true
        })
    );
}

#[derive(StructuralSchema)]
#[allow(dead_code)]
#[schema(required_order = ["name", "other"])]
struct BadOrder {
    name: String,
    port: i32,
}

#[test]
fn required_order_must_name_the_required_properties() {
    assert_eq!(
        errors_of::<BadOrder>(),
        vec![
            "BadOrder: `required_order` lists [\"name\", \"other\"], but the required properties are [\"name\", \"port\"]"
        ]
    );
}

/// Docs elsewhere.
#[derive(StructuralSchema)]
#[allow(dead_code)]
#[schema(external_docs = {"url": "https://example.com/docs", "description": "The guide."})]
struct WithExternalDocs {
    #[schema(external_docs = {"url": "https://example.com/name"})]
    name: String,
    #[schema(items(external_docs = {"url": "https://example.com/tag"}))]
    tags: Vec<String>,
}

#[derive(StructuralSchema)]
#[allow(dead_code)]
struct BadDocs {
    #[schema(external_docs = {"url": 1})]
    name: String,
}

#[test]
fn external_docs_sets_external_docs() {
    let s = schema::<WithExternalDocs>();
    assert_eq!(
        s["externalDocs"],
        json!({"description": "The guide.", "url": "https://example.com/docs"})
    );
    assert_eq!(
        s["properties"]["name"],
        json!({"type": "string", "externalDocs": {"url": "https://example.com/name"}})
    );
    assert_eq!(
        s["properties"]["tags"]["items"]["externalDocs"],
        json!({"url": "https://example.com/tag"})
    );
    let errors = errors_of::<BadDocs>();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("BadDocs.name: `external_docs`: "),
        "{errors:?}"
    );
}
