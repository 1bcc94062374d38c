//! Enums with data as structural unions, in each of serde's
//! representations: the exact schemas, that they are structural and pass
//! the CRD checks (CEL rules compile), and that what serde writes is
//! admitted while objects with two variants or a wrong tag are rejected.

use super::*;
use schema_core::object::admission::Admission;

/// Admits `value` as the property `value` of an object whose schema holds
/// `T`'s; the errors, as the server prints them.
fn admit<T: StructuralSchema>(value: Value) -> Vec<String> {
    let s = schema_for::<T>().unwrap();
    let mut root = JsonSchemaProps {
        type_: Some("object".into()),
        ..JsonSchemaProps::default()
    };
    root.properties = Some([("value".to_string(), s)].into_iter().collect());
    let admission = Admission::for_schema(&root, &schema_core::Options::default()).unwrap();
    let a = admission.create(json!({ "value": value }));
    a.errors.iter().map(ToString::to_string).collect()
}

/// Serializes `v` and admits it: nothing is rejected.
#[track_caller]
fn admits<T: StructuralSchema + Serialize>(v: &T) {
    let value = serde_json::to_value(v).unwrap();
    let errors = admit::<T>(value.clone());
    assert!(errors.is_empty(), "{value} rejected: {errors:?}");
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct GitSource {
    url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    branch: Option<String>,
}

/// Where the code comes from.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
enum Source {
    /// A Git repository.
    Git(GitSource),
    /// An archive over HTTP.
    HttpArchive {
        archive_url: String,
        #[schema(minimum = 1)]
        #[serde(skip_serializing_if = "Option::is_none")]
        retries: Option<u32>,
    },
    Empty {},
    #[serde(skip)]
    Internal(u8),
}

#[test]
fn externally_tagged_data_enum() {
    assert_json(
        schema::<Source>(),
        json!({
            "description": "Where the code comes from.",
            "type": "object",
            "properties": {
                "git": {
                    "description": "A Git repository.",
                    "type": "object",
                    "required": ["url"],
                    "properties": {"url": {"type": "string"}, "branch": {"type": "string"}}
                },
                "httpArchive": {
                    "description": "An archive over HTTP.",
                    "type": "object",
                    "required": ["archiveUrl"],
                    "properties": {
                        "archiveUrl": {"type": "string"},
                        "retries": {"type": "integer", "format": "int64", "maximum": 4294967295u32, "minimum": 1}
                    }
                },
                "empty": {"type": "object", "maxProperties": 0, "x-kubernetes-preserve-unknown-fields": true}
            },
            "x-kubernetes-validations": [{
                "rule": "[has(self.git),has(self.httpArchive),has(self.empty)].filter(x,x==true).size() == 1",
                "message": "exactly one of the fields in [git httpArchive empty] must be set"
            }]
        }),
    );
    admits(&Source::Git(GitSource {
        url: "https://example.com/a.git".into(),
        branch: Some("main".into()),
    }));
    admits(&Source::HttpArchive {
        archive_url: "https://example.com/a.tgz".into(),
        retries: Some(3),
    });
    admits(&Source::Empty {});
    assert_eq!(
        admit::<Source>(json!({"git": {"url": "u"}, "empty": {}})),
        ["value: Invalid value: exactly one of the fields in [git httpArchive empty] must be set"]
    );
    assert_eq!(
        admit::<Source>(json!({})),
        ["value: Invalid value: exactly one of the fields in [git httpArchive empty] must be set"]
    );
    assert_eq!(
        admit::<Source>(json!({"httpArchive": {"archiveUrl": "u", "retries": 0}})),
        [
            "value.httpArchive.retries: Invalid value: 0: value.httpArchive.retries in body should be greater than or equal to 1"
        ]
    );
}

/// One variant: required, no rule.
#[derive(Serialize, Deserialize, StructuralSchema)]
enum Only {
    Value(i64),
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct HoldsSources {
    /// The main source.
    main: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fallback: Option<Source>,
    extra: Vec<Only>,
}

#[test]
fn externally_tagged_single_variant_and_nesting() {
    assert_json(
        schema::<Only>(),
        json!({
            "description": "One variant: required, no rule.",
            "type": "object",
            "required": ["Value"],
            "properties": {"Value": {"type": "integer", "format": "int64"}}
        }),
    );
    let holds = schema::<HoldsSources>();
    assert_eq!(holds["required"], json!(["extra", "main"]));
    assert_eq!(
        holds["properties"]["main"]["description"],
        "The main source."
    );
    assert_eq!(
        holds["properties"]["fallback"]["x-kubernetes-validations"][0]["message"],
        "exactly one of the fields in [git httpArchive empty] must be set"
    );
    assert_eq!(
        holds["properties"]["extra"]["items"]["required"],
        json!(["Value"])
    );
}

/// Variant attributes (externally tagged) and the enum's own rules.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(validation(
    rule = "!has(self.name) || self.name != 'default'",
    message = "reserved"
))]
enum Target {
    #[schema(max_length = 63, pattern = "^[a-z-]+$")]
    #[serde(rename = "name")]
    Name(String),
    /// Overridden.
    #[schema(description = "By labels.", min_properties = 1)]
    #[serde(rename = "labels")]
    Labels {
        #[serde(default)]
        app: Option<String>,
        #[serde(default)]
        tier: Option<String>,
    },
    #[schema(type = "string", format = "uuid")]
    #[serde(rename = "uid", with = "as_text")]
    Uid(u128),
}

mod as_text {
    pub fn serialize<S: serde::Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let s: String = serde::Deserialize::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[test]
fn externally_tagged_variant_attributes() {
    assert_json(
        schema::<Target>(),
        json!({
            "description": "Variant attributes (externally tagged) and the enum's own rules.",
            "type": "object",
            "properties": {
                "name": {"type": "string", "maxLength": 63, "pattern": "^[a-z-]+$"},
                "labels": {
                    "description": "By labels.",
                    "type": "object",
                    "minProperties": 1,
                    "properties": {"app": {"type": "string"}, "tier": {"type": "string"}}
                },
                "uid": {"type": "string", "format": "uuid"}
            },
            "x-kubernetes-validations": [
                {"rule": "!has(self.name) || self.name != 'default'", "message": "reserved"},
                {
                    "rule": "[has(self.name),has(self.labels),has(self.uid)].filter(x,x==true).size() == 1",
                    "message": "exactly one of the fields in [name labels uid] must be set"
                }
            ]
        }),
    );
    assert_eq!(
        admit::<Target>(json!({"name": "default"})),
        ["value: Invalid value: reserved"]
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
enum Either<L, R> {
    Left(L),
    Right(R),
}

#[test]
fn generic_data_enum() {
    assert_json(
        schema::<Either<bool, Vec<String>>>()["properties"].clone(),
        json!({
            "Left": {"type": "boolean"},
            "Right": {"type": "array", "items": {"type": "string"}}
        }),
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct LocalBackend {
    path: String,
    #[serde(default)]
    read_only: bool,
}

/// Where state is kept.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "type")]
enum Backend {
    S3 {
        bucket: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        region: Option<String>,
    },
    Gcs {
        /// The bucket.
        bucket: String,
        project: String,
    },
    Local(LocalBackend),
    Memory,
}

#[test]
fn internally_tagged() {
    assert_json(
        schema::<Backend>(),
        json!({
            "description": "Where state is kept.",
            "type": "object",
            "required": ["type"],
            "properties": {
                "type": {"type": "string", "enum": ["S3", "Gcs", "Local", "Memory"]},
                "bucket": {"description": "The bucket.", "type": "string"},
                "region": {"type": "string"},
                "project": {"type": "string"},
                "path": {"type": "string"},
                "read_only": {"type": "boolean"}
            },
            "x-kubernetes-validations": [
                {
                    "rule": "has(self.bucket) == (self.type in ['S3', 'Gcs'])",
                    "message": "bucket is required when type is one of [S3 Gcs], and forbidden otherwise"
                },
                {"rule": "!has(self.region) || self.type == 'S3'", "message": "region may only be set when type is S3"},
                {
                    "rule": "has(self.project) == (self.type == 'Gcs')",
                    "message": "project is required when type is Gcs, and forbidden otherwise"
                },
                {
                    "rule": "has(self.path) == (self.type == 'Local')",
                    "message": "path is required when type is Local, and forbidden otherwise"
                },
                {"rule": "!has(self.read_only) || self.type == 'Local'", "message": "read_only may only be set when type is Local"}
            ]
        }),
    );
    admits(&Backend::S3 {
        bucket: "b".into(),
        region: Some("eu".into()),
    });
    admits(&Backend::S3 {
        bucket: "b".into(),
        region: None,
    });
    admits(&Backend::Gcs {
        bucket: "b".into(),
        project: "p".into(),
    });
    admits(&Backend::Local(LocalBackend {
        path: "/data".into(),
        read_only: true,
    }));
    admits(&Backend::Memory);
    // A wrong tag, a missing tag, another variant's field, a missing field.
    assert_eq!(
        admit::<Backend>(json!({"type": "Azure"})),
        [
            "value.type: Unsupported value: \"Azure\": supported values: \"S3\", \"Gcs\", \"Local\", \"Memory\"",
            "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"
        ]
    );
    assert_eq!(
        admit::<Backend>(json!({"bucket": "b"})),
        [
            "value.type: Required value",
            "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"
        ]
    );
    assert_eq!(
        admit::<Backend>(json!({"type": "S3", "bucket": "b", "project": "p"})),
        ["value: Invalid value: project is required when type is Gcs, and forbidden otherwise"]
    );
    assert_eq!(
        admit::<Backend>(json!({"type": "Memory", "bucket": "b", "read_only": false})),
        [
            "value: Invalid value: bucket is required when type is one of [S3 Gcs], and forbidden otherwise",
            "value: Invalid value: read_only may only be set when type is Local"
        ]
    );
    assert_eq!(
        admit::<Backend>(json!({"type": "Gcs", "bucket": "b"})),
        ["value: Invalid value: project is required when type is Gcs, and forbidden otherwise"]
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(exactly_one_of(secret, file))]
struct Credentials {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    secret: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
}

/// `rename_all` names the tag values, `rename_all_fields` the fields;
/// `other` is one more tag value; a variant's own rules hold only for it.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
#[schema(validation(rule = "self.kind != 'legacy-basic'", message = "deprecated"))]
enum Auth {
    BearerToken(Credentials),
    LegacyBasic {
        user_name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(immutable)]
        password_ref: Option<String>,
    },
    #[serde(skip)]
    Internal {
        token: String,
    },
    #[serde(other)]
    Unknown,
}

#[test]
fn internally_tagged_renames_other_and_variant_rules() {
    assert_json(
        schema::<Auth>(),
        json!({
            "description": "`rename_all` names the tag values, `rename_all_fields` the fields;\n`other` is one more tag value; a variant's own rules hold only for it.",
            "type": "object",
            "required": ["kind"],
            "properties": {
                "kind": {"type": "string", "enum": ["bearer-token", "legacy-basic", "unknown"]},
                "secret": {"type": "string"},
                "file": {"type": "string"},
                "userName": {"type": "string"},
                "passwordRef": {
                    "type": "string",
                    "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "field is immutable"}]
                }
            },
            "x-kubernetes-validations": [
                {"rule": "self.kind != 'legacy-basic'", "message": "deprecated"},
                {"rule": "!has(self.secret) || self.kind == 'bearer-token'", "message": "secret may only be set when kind is bearer-token"},
                {"rule": "!has(self.file) || self.kind == 'bearer-token'", "message": "file may only be set when kind is bearer-token"},
                {
                    "rule": "has(self.userName) == (self.kind == 'legacy-basic')",
                    "message": "userName is required when kind is legacy-basic, and forbidden otherwise"
                },
                {"rule": "!has(self.passwordRef) || self.kind == 'legacy-basic'", "message": "passwordRef may only be set when kind is legacy-basic"},
                {
                    "rule": "self.kind != 'bearer-token' || ([has(self.secret),has(self.file)].filter(x,x==true).size() == 1)",
                    "message": "exactly one of the fields in [secret file] must be set"
                },
                {
                    "rule": "self.kind != 'legacy-basic' || (!has(oldSelf.passwordRef) || has(self.passwordRef))",
                    "message": "field passwordRef is immutable once set"
                }
            ]
        }),
    );
    admits(&Auth::BearerToken(Credentials {
        secret: Some("s".into()),
        file: None,
    }));
    admits(&Auth::Unknown);
    assert_eq!(
        admit::<Auth>(json!({"kind": "bearer-token"})),
        ["value: Invalid value: exactly one of the fields in [secret file] must be set"]
    );
    assert_eq!(admit::<Auth>(json!({"kind": "unknown"})), [] as [&str; 0]);
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "kind", content = "spec")]
enum Action {
    Log {
        level: String,
    },
    Webhook {
        url: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        level: Option<String>,
    },
    Noop,
}

#[test]
fn adjacently_tagged_objects() {
    assert_json(
        schema::<Action>(),
        json!({
            "type": "object",
            "required": ["kind"],
            "properties": {
                "kind": {"type": "string", "enum": ["Log", "Webhook", "Noop"]},
                "spec": {
                    "type": "object",
                    "properties": {"level": {"type": "string"}, "url": {"type": "string"}}
                }
            },
            "x-kubernetes-validations": [
                {
                    "rule": "has(self.spec) == (self.kind in ['Log', 'Webhook'])",
                    "message": "spec is required when kind is one of [Log Webhook], and forbidden otherwise"
                },
                {
                    "rule": "!has(self.spec) || (self.kind != 'Log' || has(self.spec.level))",
                    "message": "spec.level is required when kind is Log"
                },
                {
                    "rule": "!has(self.spec) || (has(self.spec.url) == (self.kind == 'Webhook'))",
                    "message": "spec.url is required when kind is Webhook, and forbidden otherwise"
                }
            ]
        }),
    );
    admits(&Action::Log {
        level: "info".into(),
    });
    admits(&Action::Webhook {
        url: "https://example.com".into(),
        level: None,
    });
    admits(&Action::Noop);
    assert_eq!(
        admit::<Action>(json!({"kind": "Noop", "spec": {"level": "x"}})),
        [
            "value: Invalid value: spec is required when kind is one of [Log Webhook], and forbidden otherwise"
        ]
    );
    assert_eq!(
        admit::<Action>(json!({"kind": "Log", "spec": {"url": "u"}})),
        [
            "value: Invalid value: spec.level is required when kind is Log",
            "value: Invalid value: spec.url is required when kind is Webhook, and forbidden otherwise"
        ]
    );
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "t", content = "c")]
enum Selector {
    Name(String),
    Label(String),
    All,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "t", content = "c")]
enum Toggle {
    On {},
    Off {},
}

#[test]
fn adjacently_tagged_scalars_and_empty_contents() {
    assert_json(
        schema::<Selector>(),
        json!({
            "type": "object",
            "required": ["t"],
            "properties": {
                "t": {"type": "string", "enum": ["Name", "Label", "All"]},
                "c": {"type": "string"}
            },
            "x-kubernetes-validations": [{
                "rule": "has(self.c) == (self.t in ['Name', 'Label'])",
                "message": "c is required when t is one of [Name Label], and forbidden otherwise"
            }]
        }),
    );
    admits(&Selector::Name("web".into()));
    admits(&Selector::All);
    assert_eq!(
        admit::<Selector>(json!({"t": "Label"})),
        [
            "value: Invalid value: c is required when t is one of [Name Label], and forbidden otherwise"
        ]
    );
    assert_json(
        schema::<Toggle>(),
        json!({
            "type": "object",
            "required": ["t", "c"],
            "properties": {
                "t": {"type": "string", "enum": ["On", "Off"]},
                "c": {"type": "object", "maxProperties": 0, "x-kubernetes-preserve-unknown-fields": true}
            }
        }),
    );
    admits(&Toggle::On {});
}

/// A port, by number or by name.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(untagged)]
enum PortRef {
    Number(u16),
    Name(String),
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(max_length = 15)]
struct PortName(String);

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(untagged)]
enum NamedFirst {
    Name(PortName),
    Number(i64),
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Service {
    port: PortRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target: Option<NamedFirst>,
}

#[test]
fn untagged_int_or_string() {
    assert_json(
        schema::<PortRef>(),
        json!({
            "description": "A port, by number or by name.",
            "maximum": 65535,
            "minimum": 0,
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "x-kubernetes-int-or-string": true
        }),
    );
    assert_json(
        schema::<NamedFirst>(),
        json!({
            "maxLength": 15,
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "x-kubernetes-int-or-string": true
        }),
    );
    assert_eq!(schema::<Service>()["required"], json!(["port"]));
    admits(&PortRef::Number(8080));
    admits(&PortRef::Name("http".into()));
    admits(&NamedFirst::Name(PortName("metrics".into())));
    admits(&NamedFirst::Number(-1));
    assert_eq!(
        admit::<PortRef>(json!(70000)),
        ["value: Invalid value: 70000: value in body should be less than or equal to 65535"]
    );
    assert_eq!(
        admit::<PortRef>(json!(true)),
        // The server's words for a value outside the `anyOf` controller-gen
        // also emits.
        [
            "value: Invalid value: \"boolean\": value in body must be of type integer,string: \"boolean\"",
            "<nil>: Invalid value: \"\": \"value\" must validate at least one schema (anyOf)",
            "value: Invalid value: \"boolean\": value in body must be of type integer: \"boolean\""
        ]
    );
}

// What the syntax cannot tell is reported when the schema is built.

#[derive(Serialize, Deserialize, StructuralSchema)]
struct ByNumber {
    port: i32,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct ByName {
    port: String,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Count(i64);

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Label(String);

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "type")]
enum PropertyClash {
    Number(ByNumber),
    Name(ByName),
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "type")]
enum HoldsScalar {
    Named(Label),
    Empty,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "type")]
enum DefaultInOneVariant {
    Fixed {
        #[serde(default)]
        #[schema(default = 3)]
        replicas: i32,
    },
    Auto,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "t", content = "c")]
enum ContentClash {
    Count(Count),
    Label(Label),
}

type MaybeLabel = Option<String>;

#[derive(Serialize, Deserialize, StructuralSchema)]
enum OptionBehindAlias {
    Label(MaybeLabel),
    Count(Count),
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(untagged)]
enum TwoIntegers {
    A(Count),
    B(Count),
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(min_properties = 1)]
struct AtLeastOne {
    #[serde(default)]
    a: Option<String>,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "type")]
enum LosesAttributes {
    One(AtLeastOne),
}

#[test]
fn build_time_errors() {
    assert_eq!(
        errors_of::<LosesAttributes>(),
        [
            "LosesAttributes: variant `One` holds `AtLeastOne`, which has `minProperties` on its object, which cannot be kept when its fields are merged with the other variants'; put them on the enum, or on the fields"
        ]
    );
    assert_eq!(
        errors_of::<PropertyClash>(),
        [
            "PropertyClash: the property `port` of variant `Name` (type string) differs from the property `port` of variant `Number` (type integer): the variants share one object, so a property has one schema; give both fields the same type and attributes, or rename one of them (`#[serde(rename = \"...\")]`)"
        ]
    );
    assert_eq!(
        errors_of::<HoldsScalar>(),
        [
            "HoldsScalar: variant `Named` holds `Label`, which has type string; serde writes an internally tagged variant's content as the fields of the tagged object, so it must be a struct: use a struct variant (`Named { value: ... }`) or a newtype variant of a struct"
        ]
    );
    assert_eq!(
        errors_of::<DefaultInOneVariant>(),
        [
            "DefaultInOneVariant: the property `replicas` has a `default`, but only the variants [Fixed] have it: the API server would set it whatever the tag is; remove the `default` (a serde default is enough)"
        ]
    );
    assert_eq!(
        errors_of::<ContentClash>(),
        [
            "ContentClash.c: the content of variant `Label` (type string) differs from the content of variant `Count` (type integer): the content `c` has one schema, so the variants must hold the same type, or all hold structs (whose fields are merged); use struct variants, or an externally tagged enum"
        ]
    );
    assert_eq!(
        errors_of::<OptionBehindAlias>(),
        [
            "OptionBehindAlias: variant `Label` holds `Option<String>`, which is optional: serde writes `None` as `{\"Label\": null}`, which the API server's rules see as no variant at all; hold the type itself"
        ]
    );
    assert_eq!(
        errors_of::<TwoIntegers>(),
        [
            "TwoIntegers: an untagged enum has a structural schema only as an int-or-string: one newtype variant holding an integer and one holding a string; found `B` (type integer). Use an externally or internally tagged enum, or give the schema with `#[schema(schemaless)]` or `#[schema(with = path)]`"
        ]
    );
}

/// Unit variants only, internally tagged: an object with the tag alone.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "mode")]
enum Mode {
    Auto,
    Manual,
}

/// An enum written by its own `Serialize`: the attributes give its schema.
#[derive(StructuralSchema)]
#[schema(type = "string", pattern = "^(git|http):")]
enum Written {
    Git { url: String },
    Http(String),
}

#[test]
fn unit_variants_internally_tagged_and_replaced_schemas() {
    assert_json(
        schema::<Mode>(),
        json!({
            "description": "Unit variants only, internally tagged: an object with the tag alone.",
            "type": "object",
            "required": ["mode"],
            "properties": {"mode": {"type": "string", "enum": ["Auto", "Manual"]}}
        }),
    );
    admits(&Mode::Manual);
    assert_json(
        schema::<Written>(),
        json!({
            "description": "An enum written by its own `Serialize`: the attributes give its schema.",
            "type": "string",
            "pattern": "^(git|http):"
        }),
    );
}
