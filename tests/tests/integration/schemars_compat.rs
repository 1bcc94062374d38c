//! `schema_core::kube::JsonSchema`: the exact schema of every schemars,
//! garde and validator key it reads, schemars' conventions (`Option`
//! fields nullable, serde's defaults as schema defaults) and what the API
//! server then does with an object (defaults stored, explicit `null`s of
//! optional fields kept).

#![allow(
    missing_docs,
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::collections::BTreeMap;

use schema_core::StructuralSchema;
use schema_core::kube::JsonSchema;
use schema_core::object::admission::Admission;
use schema_core::rust::schema_for;
use serde::{Deserialize, Serialize};
use serde_json::json;

// Each schema checked structural and as a CRD version's, as `derive`'s.
use super::derive::schema;

const MAX_NAME: u32 = 63;
const LOWER: &str = "^[a-z]+$";

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SchemarsKeys {
    #[schemars(range(min = 1, max = 10))]
    replicas: i32,
    #[schemars(range(min = 0.5))]
    ratio: f64,
    #[schemars(length(min = 1, max = MAX_NAME))]
    name: String,
    #[schemars(length(equal = 2))]
    pair: Vec<String>,
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    lower: String,
    #[schemars(contains("a.b"))]
    dotted: String,
    #[schemars(email)]
    email: String,
    #[schemars(url)]
    homepage: String,
    /// Ignored: a range on a string, as schemars ignores it.
    #[schemars(range(min = 1))]
    not_a_number: String,
    #[schemars(inner(length(min = 1), regex(pattern = "^x")))]
    tags: Vec<String>,
    #[schemars(extend("maxProperties" = 3, "x-kubernetes-map-type" = "atomic"))]
    labels: BTreeMap<String, String>,
    #[schemars(title = "Title", description = "Described.")]
    titled: String,
    /// # Heading
    ///
    /// The body.
    headed: String,
    #[schemars(skip)]
    hidden: u8,
    #[schemars(required)]
    must: Option<String>,
}

#[test]
fn schemars_keys_give_schemars_keywords() {
    assert_eq!(
        schema::<SchemarsKeys>(),
        json!({
            "type": "object",
            "properties": {
                "replicas": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 10},
                "ratio": {"type": "number", "format": "double", "minimum": 0.5},
                "name": {"type": "string", "minLength": 1, "maxLength": 63},
                "pair": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
                "lower": {"type": "string", "pattern": "^[a-z]+$"},
                "dotted": {"type": "string", "pattern": "a\\.b"},
                "email": {"type": "string", "format": "email"},
                "homepage": {"type": "string", "format": "uri"},
                "notANumber": {"type": "string", "description": "Ignored: a range on a string, as schemars ignores it."},
                "tags": {"type": "array", "items": {"type": "string", "minLength": 1, "pattern": "^x"}},
                "labels": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                    "maxProperties": 3,
                    "x-kubernetes-map-type": "atomic"
                },
                "titled": {"type": "string", "title": "Title", "description": "Described."},
                "headed": {"type": "string", "title": "Heading", "description": "The body."},
                "must": {"type": "string", "nullable": true}
            },
            "required": [
                "dotted", "email", "headed", "homepage", "labels", "lower", "must", "name",
                "notANumber", "pair", "ratio", "replicas", "tags", "titled"
            ]
        })
    );
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct GardeAndValidator {
    #[garde(length(min = 3), ascii)]
    garde_len: String,
    #[garde(range(min = 0, max = 5), custom(check_it))]
    garde_range: u8,
    #[garde(pattern(r"^a"))]
    garde_pattern: String,
    #[garde(inner(length(max = 5)))]
    garde_inner: Vec<String>,
    #[garde(contains("-"), url)]
    garde_contains: String,
    #[garde(required)]
    garde_required: Option<String>,
    #[validate(length(min = 1, message = "empty"), email(message = "bad"))]
    validate_email: String,
    #[validate(regex(path = "LOWER"))]
    validate_regex: String,
    #[validate(range(max = 9), custom(function = "check_it"))]
    validate_range: i64,
    #[validate(contains(pattern = "@"))]
    validate_contains: String,
}

#[test]
fn garde_and_validator_constraints_schemars_reads_become_keywords() {
    assert_eq!(
        schema::<GardeAndValidator>(),
        json!({
            "type": "object",
            "properties": {
                "garde_len": {"type": "string", "minLength": 3},
                "garde_range": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 5},
                "garde_pattern": {"type": "string", "pattern": "^a"},
                "garde_inner": {"type": "array", "items": {"type": "string", "maxLength": 5}},
                "garde_contains": {"type": "string", "pattern": "\\-", "format": "uri"},
                "garde_required": {"type": "string", "nullable": true},
                "validate_email": {"type": "string", "minLength": 1, "format": "email"},
                "validate_regex": {"type": "string", "pattern": "^[a-z]+$"},
                "validate_range": {"type": "integer", "format": "int64", "maximum": 9},
                "validate_contains": {"type": "string", "pattern": "@"}
            },
            "required": [
                "garde_contains", "garde_inner", "garde_len", "garde_pattern", "garde_range",
                "garde_required", "validate_contains", "validate_email", "validate_range",
                "validate_regex"
            ]
        })
    );
}

/// A type without a structural schema of its own, written as a string.
#[derive(Serialize, Deserialize)]
struct Opaque(String);

fn port_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "integer", "minimum": 1, "maximum": 65535})
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct WithSchemas {
    #[schemars(with = "String")]
    id: Opaque,
    #[schemars(with = "Option<String>")]
    maybe_id: Option<Opaque>,
    #[schemars(schema_with = "port_schema")]
    port: u16,
}

#[test]
fn with_and_schema_with_give_the_schema() {
    assert_eq!(
        schema::<WithSchemas>(),
        json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "maybe_id": {"type": "string", "nullable": true},
                "port": {"type": "integer", "minimum": 1, "maximum": 65535}
            },
            "required": ["id", "port"]
        })
    );
}

fn default_mode() -> String {
    "Fast".to_string()
}

fn default_nullable() -> Option<String> {
    Some("set".to_string())
}

fn default_nothing() -> Option<String> {
    None
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Defaults {
    required: String,
    #[serde(default = "default_mode")]
    mode: String,
    #[serde(default)]
    count: u32,
    #[serde(default = "default_nullable")]
    nullable_with_default: Option<String>,
    #[serde(default = "default_nothing", skip_serializing_if = "Option::is_none")]
    skipped_default: Option<String>,
    #[schemars(default = "default_mode")]
    schema_only: String,
    optional: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    optional_skipped: Option<String>,
}

#[test]
fn serde_defaults_are_schema_defaults_and_options_are_nullable() {
    assert_eq!(
        schema::<Defaults>(),
        json!({
            "type": "object",
            "properties": {
                "required": {"type": "string"},
                "mode": {"type": "string", "default": "Fast"},
                "count": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 4294967295_u64, "default": 0},
                "nullableWithDefault": {"type": "string", "nullable": true, "default": "set"},
                "skippedDefault": {"type": "string", "nullable": true},
                "schemaOnly": {"type": "string", "default": "Fast"},
                "optional": {"type": "string", "nullable": true},
                "optionalSkipped": {"type": "string", "nullable": true}
            },
            "required": ["required"]
        })
    );
}

fn write_upper<S: serde::Serializer>(v: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&v.to_uppercase())
}

fn default_level() -> String {
    "info".to_string()
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct WrittenWith {
    // Written as serde writes the field; a field serde never writes has
    // no default; skip_serializing_if alone leaves a field required, as
    // deserialization requires it.
    #[serde(default = "default_level", serialize_with = "write_upper")]
    #[schemars(with = "String")]
    level: String,
    #[serde(default = "default_level", skip_serializing)]
    hidden_default: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    note: String,
}

#[test]
fn defaults_are_written_as_serde_writes_them() {
    assert_eq!(
        schema::<WrittenWith>(),
        json!({
            "type": "object",
            "properties": {
                "level": {"type": "string", "default": "INFO"},
                "hidden_default": {"type": "string"},
                "note": {"type": "string"}
            },
            "required": ["note"]
        })
    );
}

#[derive(Serialize, Deserialize, Default, JsonSchema)]
#[serde(default)]
struct ContainerDefault {
    name: String,
    replicas: i32,
}

#[test]
fn a_container_default_gives_each_field_its_value() {
    assert_eq!(
        schema::<ContainerDefault>(),
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": ""},
                "replicas": {"type": "integer", "format": "int32", "default": 0}
            }
        })
    );
}

#[test]
fn the_server_stores_the_defaults_and_keeps_explicit_nulls() {
    let props = schema_for::<Defaults>().unwrap();
    let admission = Admission::for_schema(&props, &schema_core::Options::default()).unwrap();
    let admitted = admission.create(json!({
        "required": "x",
        "optional": null,
        "optionalSkipped": null
    }));
    assert!(admitted.errors.is_empty(), "{:?}", admitted.errors);
    assert_eq!(
        admitted.object,
        json!({
            "required": "x",
            "optional": null,
            "optionalSkipped": null,
            "schemaOnly": "Fast",
            "mode": "Fast",
            "count": 0,
            "nullableWithDefault": "set"
        })
    );
}

// The native derive keeps its own rule: an `Option` is optional, never
// nullable, and serde's defaults are not schema defaults.
#[derive(Serialize, Deserialize, StructuralSchema)]
struct Native {
    #[serde(default = "default_mode")]
    mode: String,
    optional: Option<String>,
}

#[test]
fn the_native_derive_is_unchanged() {
    assert_eq!(
        schema::<Native>(),
        json!({
            "type": "object",
            "properties": {
                "mode": {"type": "string"},
                "optional": {"type": "string"}
            }
        })
    );
}

fn bad_default() -> String {
    "toolong".to_string()
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Checked"))]
struct CheckedSpec {
    #[serde(default = "bad_default")]
    #[garde(length(max = 3))]
    name: String,
}

#[test]
fn a_default_against_the_schema_is_an_error_of_crd_not_a_panic() {
    use schema_core::rust::CustomResource;
    let err = Checked::crd().expect_err("the default is longer than maxLength");
    let text = err.to_string();
    assert!(
        text.contains("properties[spec].properties[name].default: Too long"),
        "{text}"
    );
}

#[test]
fn unknown_extension_keys_are_errors_of_schema_for() {
    #[derive(Serialize, Deserialize, JsonSchema)]
    struct Extended {
        #[schemars(extend("x-not-a-key" = 1))]
        name: String,
    }
    let err = schema_for::<Extended>().expect_err("x-not-a-key is no schema key");
    assert!(err.to_string().contains("x-not-a-key"), "{err}");
}

// An untagged enum of objects, merged as kube's structural rewriter merges
// schemars' `anyOf`: every property once, each variant's `required` list
// (sorted) in a branch of its own.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct AgedOwner {
    role: String,
    years: i32,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct BornOwner {
    role: String,
    born_on: String,
}

/// An owner.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Owner {
    /// Known by age.
    Aged(AgedOwner),
    /// Known by birth date.
    Born(BornOwner),
    Named {
        name: String,
    },
}

#[test]
fn untagged_objects_are_merged_as_kube_merges_them() {
    assert_eq!(
        schema::<Owner>(),
        json!({
            "description": "An owner.",
            "type": "object",
            "properties": {
                "role": {"type": "string"},
                "years": {"type": "integer", "format": "int32"},
                "bornOn": {"type": "string"},
                "name": {"type": "string"}
            },
            "anyOf": [
                {"required": ["role", "years"]},
                {"required": ["bornOn", "role"]},
                {"required": ["name"]}
            ]
        })
    );
    let props = schema_for::<Owner>().unwrap();
    let admission = Admission::for_schema(&props, &schema_core::Options::default()).unwrap();
    for ok in [
        json!({"role": "a", "years": 3}),
        json!({"role": "a", "bornOn": "2000-01-01"}),
        json!({"name": "n"}),
    ] {
        let admitted = admission.create(ok.clone());
        assert!(admitted.errors.is_empty(), "{ok}: {:?}", admitted.errors);
    }
    let admitted = admission.create(json!({"role": "a"}));
    assert!(!admitted.errors.is_empty(), "no variant's fields: rejected");
}

// An int-or-string pair stays an int-or-string.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Port {
    Number(i32),
    Name(String),
}

#[test]
fn an_untagged_int_or_string_stays_one() {
    assert_eq!(
        schema::<Port>(),
        json!({
            "x-kubernetes-int-or-string": true,
            "anyOf": [{"type": "integer"}, {"type": "string"}]
        })
    );
}

// A property with two schemas cannot be merged (kube-derive's `crd()`
// panics there; ours is an error).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Clash {
    Number { value: i32 },
    Text { value: String },
}

#[test]
fn merged_variants_must_agree_on_a_property() {
    let err = schema_for::<Clash>().unwrap_err().to_string();
    assert!(
        err.contains("the property `value` of variant `Text` has a schema other than"),
        "{err}"
    );
}

// An externally tagged enum with data keeps its variants apart as
// kube-derive's CRDs do: a `oneOf` of one `required` property each.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
enum Dial {
    Knob { turns: i32 },
    Slider(String),
    Off {},
}

#[test]
fn externally_tagged_variants_are_a_one_of_as_with_kube_derive() {
    assert_eq!(
        schema::<Dial>(),
        json!({
            "type": "object",
            "properties": {
                "knob": {
                    "type": "object",
                    "properties": {"turns": {"type": "integer", "format": "int32"}},
                    "required": ["turns"]
                },
                "slider": {"type": "string"},
                "off": {"type": "object"}
            },
            "oneOf": [
                {"required": ["knob"]},
                {"required": ["slider"]},
                {"required": ["off"]}
            ]
        })
    );
    let props = schema_for::<Dial>().unwrap();
    let admission = Admission::for_schema(&props, &schema_core::Options::default()).unwrap();
    assert!(admission.create(json!({"off": {}})).errors.is_empty());
    assert!(
        !admission
            .create(json!({"off": {}, "slider": "s"}))
            .errors
            .is_empty()
    );
}
