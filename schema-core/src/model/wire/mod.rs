//! The lossless wire model: `JSONSchemaProps` and the
//! `CustomResourceDefinition` types of `apiextensions.k8s.io/v1` (and
//! `v1beta1`, converted to v1 as the server converts it).
//!
//! Every field the API server knows is modelled, in the Go structs' order
//! (the canonical order used when writing). Unknown keys are kept in
//! `extra` and reported as warnings; explicit `null`s are remembered.
//! Decoding then encoding gives back the same JSON value.

pub mod codec;
pub mod input;
pub mod v1beta1;

use indexmap::IndexMap;
use serde_json::{Number, Value};

use crate::model::field::Path;
use codec::{DecodeCx, Loc, Wire, kind_of, wire_struct};

wire_struct! {
    /// `JSONSchemaProps`: one node of an OpenAPI v3 schema as the API server
    /// reads it.
    pub struct JsonSchemaProps {
        /// `id` (rejected by the server).
        id: String = "id",
        /// `$schema` (rejected by the server).
        schema: String = "$schema",
        /// `$ref` (rejected by the server).
        reference: String = "$ref",
        /// `description`.
        description: String = "description",
        /// `type`.
        type_: String = "type",
        /// `format`.
        format: String = "format",
        /// `title`.
        title: String = "title",
        /// `default`.
        default: Value = "default",
        /// `maximum`.
        maximum: Number = "maximum",
        /// `exclusiveMaximum` (OpenAPI 3.0 flag).
        exclusive_maximum: bool = "exclusiveMaximum",
        /// `minimum`.
        minimum: Number = "minimum",
        /// `exclusiveMinimum` (OpenAPI 3.0 flag).
        exclusive_minimum: bool = "exclusiveMinimum",
        /// `maxLength`.
        max_length: i64 = "maxLength",
        /// `minLength`.
        min_length: i64 = "minLength",
        /// `pattern`.
        pattern: String = "pattern",
        /// `maxItems`.
        max_items: i64 = "maxItems",
        /// `minItems`.
        min_items: i64 = "minItems",
        /// `uniqueItems`.
        unique_items: bool = "uniqueItems",
        /// `multipleOf`.
        multiple_of: Number = "multipleOf",
        /// `enum`.
        enum_: Vec<Value> = "enum",
        /// `maxProperties`.
        max_properties: i64 = "maxProperties",
        /// `minProperties`.
        min_properties: i64 = "minProperties",
        /// `required`.
        required: Vec<String> = "required",
        /// `items`: a schema, or (rejected) an array of schemas.
        items: SchemaOrArray = "items",
        /// `allOf`.
        all_of: Vec<JsonSchemaProps> = "allOf",
        /// `oneOf`.
        one_of: Vec<JsonSchemaProps> = "oneOf",
        /// `anyOf`.
        any_of: Vec<JsonSchemaProps> = "anyOf",
        /// `not`.
        not: Box<JsonSchemaProps> = "not",
        /// `properties`, in source order.
        properties: IndexMap<String, JsonSchemaProps> = "properties",
        /// `additionalProperties`: a boolean or a schema.
        additional_properties: SchemaOrBool = "additionalProperties",
        /// `patternProperties` (rejected by the server).
        pattern_properties: IndexMap<String, JsonSchemaProps> = "patternProperties",
        /// `dependencies` (rejected by the server).
        dependencies: IndexMap<String, SchemaOrStringArray> = "dependencies",
        /// `additionalItems` (rejected by the server).
        additional_items: SchemaOrBool = "additionalItems",
        /// `definitions` (rejected by the server).
        definitions: IndexMap<String, JsonSchemaProps> = "definitions",
        /// `externalDocs`.
        external_docs: ExternalDocumentation = "externalDocs",
        /// `example`.
        example: Value = "example",
        /// `nullable`.
        nullable: bool = "nullable",
        /// `x-kubernetes-preserve-unknown-fields`.
        x_preserve_unknown_fields: bool = "x-kubernetes-preserve-unknown-fields",
        /// `x-kubernetes-embedded-resource`.
        x_embedded_resource: bool = "x-kubernetes-embedded-resource",
        /// `x-kubernetes-int-or-string`.
        x_int_or_string: bool = "x-kubernetes-int-or-string",
        /// `x-kubernetes-list-map-keys`.
        x_list_map_keys: Vec<String> = "x-kubernetes-list-map-keys",
        /// `x-kubernetes-list-type`.
        x_list_type: String = "x-kubernetes-list-type",
        /// `x-kubernetes-map-type`.
        x_map_type: String = "x-kubernetes-map-type",
        /// `x-kubernetes-validations`.
        x_validations: Vec<ValidationRule> = "x-kubernetes-validations",
    }
}

impl JsonSchemaProps {
    /// Decodes a schema from JSON, collecting problems in `cx`.
    pub fn from_value(v: &Value, path: &Path, cx: &mut DecodeCx) -> Option<Self> {
        Self::decode(v, path, cx)
    }

    /// Encodes the schema back to JSON.
    pub fn to_value(&self) -> Value {
        self.encode()
    }

    /// The `type`, or `""`.
    pub fn type_str(&self) -> &str {
        self.type_.as_deref().unwrap_or("")
    }

    /// Whether `x-kubernetes-preserve-unknown-fields` is true.
    pub fn preserves_unknown_fields(&self) -> bool {
        self.x_preserve_unknown_fields == Some(true)
    }

    /// Whether `x-kubernetes-embedded-resource` is true.
    pub fn is_embedded_resource(&self) -> bool {
        self.x_embedded_resource == Some(true)
    }

    /// Whether `x-kubernetes-int-or-string` is true.
    pub fn is_int_or_string(&self) -> bool {
        self.x_int_or_string == Some(true)
    }

    /// Whether `nullable` is true.
    pub fn is_nullable(&self) -> bool {
        self.nullable == Some(true)
    }
}

/// `items`: one schema, or an array of schemas (which the server rejects).
#[derive(Clone, Debug, PartialEq)]
pub enum SchemaOrArray {
    /// A single schema.
    Schema(Box<JsonSchemaProps>),
    /// An array of schemas (JSON Schema tuple form).
    Array(Vec<JsonSchemaProps>),
}

impl Wire for SchemaOrArray {
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Array(_) => Vec::decode_at(v, loc, cx).map(SchemaOrArray::Array),
            _ => Box::<JsonSchemaProps>::decode_at(v, loc, cx).map(SchemaOrArray::Schema),
        }
    }
    fn encode(&self) -> Value {
        match self {
            SchemaOrArray::Schema(s) => s.encode(),
            SchemaOrArray::Array(a) => a.encode(),
        }
    }
}

/// `additionalProperties` / `additionalItems`: a boolean or a schema.
#[derive(Clone, Debug, PartialEq)]
pub enum SchemaOrBool {
    /// `true` or `false`.
    Bool(bool),
    /// A schema (which allows).
    Schema(Box<JsonSchemaProps>),
}

impl SchemaOrBool {
    /// The schema, if one is given.
    pub fn schema(&self) -> Option<&JsonSchemaProps> {
        match self {
            SchemaOrBool::Schema(s) => Some(s),
            SchemaOrBool::Bool(_) => None,
        }
    }

    /// Whether it allows (a schema, or `true`).
    pub fn allows(&self) -> bool {
        !matches!(self, SchemaOrBool::Bool(false))
    }
}

impl Wire for SchemaOrBool {
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Bool(b) => Some(SchemaOrBool::Bool(b)),
            _ => Box::<JsonSchemaProps>::decode_at(v, loc, cx).map(SchemaOrBool::Schema),
        }
    }
    fn encode(&self) -> Value {
        match self {
            SchemaOrBool::Bool(b) => Value::Bool(*b),
            SchemaOrBool::Schema(s) => s.encode(),
        }
    }
}

/// A `dependencies` entry: a schema or a list of property names.
#[derive(Clone, Debug, PartialEq)]
pub enum SchemaOrStringArray {
    /// A schema dependency.
    Schema(Box<JsonSchemaProps>),
    /// A property dependency.
    Property(Vec<String>),
}

impl Wire for SchemaOrStringArray {
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Array(_) => Vec::decode_at(v, loc, cx).map(SchemaOrStringArray::Property),
            _ => Box::<JsonSchemaProps>::decode_at(v, loc, cx).map(SchemaOrStringArray::Schema),
        }
    }
    fn encode(&self) -> Value {
        match self {
            SchemaOrStringArray::Schema(s) => s.encode(),
            SchemaOrStringArray::Property(p) => p.encode(),
        }
    }
}

wire_struct! {
    /// `externalDocs`.
    pub struct ExternalDocumentation {
        /// `description`.
        description: String = "description",
        /// `url`.
        url: String = "url",
    }
}

wire_struct! {
    /// One `x-kubernetes-validations` rule.
    pub struct ValidationRule {
        /// `rule`, a CEL expression.
        rule: String = "rule",
        /// `message`.
        message: String = "message",
        /// `messageExpression`.
        message_expression: String = "messageExpression",
        /// `reason`.
        reason: String = "reason",
        /// `fieldPath`.
        field_path: String = "fieldPath",
        /// `optionalOldSelf`.
        optional_old_self: bool = "optionalOldSelf",
    }
}

wire_struct! {
    /// `apiextensions.k8s.io/v1` `CustomResourceDefinition`.
    pub struct CustomResourceDefinition {
        /// `apiVersion`.
        api_version: String = "apiVersion",
        /// `kind`.
        kind: String = "kind",
        /// `metadata` (an ObjectMeta, kept verbatim).
        metadata: Value = "metadata",
        /// `spec`.
        spec: CrdSpec = "spec",
        /// `status` (kept verbatim).
        status: Value = "status",
    }
}

wire_struct! {
    /// `CustomResourceDefinitionSpec`.
    pub struct CrdSpec {
        /// `group`.
        group: String = "group",
        /// `names`.
        names: CrdNames = "names",
        /// `scope`: `Namespaced` or `Cluster`.
        scope: String = "scope",
        /// `versions`.
        versions: Vec<CrdVersion> = "versions",
        /// `conversion`.
        conversion: CrdConversion = "conversion",
        /// `preserveUnknownFields`.
        preserve_unknown_fields: bool = "preserveUnknownFields",
    }
}

wire_struct! {
    /// `CustomResourceDefinitionNames`.
    pub struct CrdNames {
        /// `plural`.
        plural: String = "plural",
        /// `singular`.
        singular: String = "singular",
        /// `shortNames`.
        short_names: Vec<String> = "shortNames",
        /// `kind`.
        kind: String = "kind",
        /// `listKind`.
        list_kind: String = "listKind",
        /// `categories`.
        categories: Vec<String> = "categories",
    }
}

wire_struct! {
    /// `CustomResourceDefinitionVersion`.
    pub struct CrdVersion {
        /// `name`.
        name: String = "name",
        /// `served`.
        served: bool = "served",
        /// `storage`.
        storage: bool = "storage",
        /// `deprecated`.
        deprecated: bool = "deprecated",
        /// `deprecationWarning`.
        deprecation_warning: String = "deprecationWarning",
        /// `schema`.
        schema: CustomResourceValidation = "schema",
        /// `subresources`.
        subresources: CrdSubresources = "subresources",
        /// `additionalPrinterColumns`.
        additional_printer_columns: Vec<PrinterColumn> = "additionalPrinterColumns",
        /// `selectableFields`.
        selectable_fields: Vec<SelectableField> = "selectableFields",
    }
}

wire_struct! {
    /// `CustomResourceValidation`.
    pub struct CustomResourceValidation {
        /// `openAPIV3Schema`.
        open_api_v3_schema: JsonSchemaProps = "openAPIV3Schema",
    }
}

wire_struct! {
    /// `CustomResourceSubresources`.
    pub struct CrdSubresources {
        /// `status` (an empty object enables it).
        status: Value = "status",
        /// `scale`.
        scale: ScaleSubresource = "scale",
    }
}

wire_struct! {
    /// `CustomResourceSubresourceScale`.
    pub struct ScaleSubresource {
        /// `specReplicasPath`.
        spec_replicas_path: String = "specReplicasPath",
        /// `statusReplicasPath`.
        status_replicas_path: String = "statusReplicasPath",
        /// `labelSelectorPath`.
        label_selector_path: String = "labelSelectorPath",
    }
}

wire_struct! {
    /// `CustomResourceColumnDefinition`.
    pub struct PrinterColumn {
        /// `name`.
        name: String = "name",
        /// `type`.
        type_: String = "type",
        /// `format`.
        format: String = "format",
        /// `description`.
        description: String = "description",
        /// `priority`.
        priority: i64 = "priority",
        /// `jsonPath`.
        json_path: String = "jsonPath",
    }
}

wire_struct! {
    /// `SelectableField`.
    pub struct SelectableField {
        /// `jsonPath`.
        json_path: String = "jsonPath",
    }
}

wire_struct! {
    /// `CustomResourceConversion`.
    pub struct CrdConversion {
        /// `strategy`: `None` or `Webhook`.
        strategy: String = "strategy",
        /// `webhook`.
        webhook: WebhookConversion = "webhook",
    }
}

wire_struct! {
    /// `WebhookConversion`.
    pub struct WebhookConversion {
        /// `clientConfig`.
        client_config: WebhookClientConfig = "clientConfig",
        /// `conversionReviewVersions`.
        conversion_review_versions: Vec<String> = "conversionReviewVersions",
    }
}

wire_struct! {
    /// `WebhookClientConfig`.
    pub struct WebhookClientConfig {
        /// `url`.
        url: String = "url",
        /// `service`.
        service: ServiceReference = "service",
        /// `caBundle` (base64).
        ca_bundle: String = "caBundle",
    }
}

wire_struct! {
    /// `ServiceReference`.
    pub struct ServiceReference {
        /// `namespace`.
        namespace: String = "namespace",
        /// `name`.
        name: String = "name",
        /// `path`.
        path: String = "path",
        /// `port`.
        port: i64 = "port",
    }
}

impl CustomResourceDefinition {
    /// The `metadata.name`, if it is a string.
    pub fn name(&self) -> Option<&str> {
        self.metadata.as_ref()?.get("name")?.as_str()
    }
}

/// Returns the JSON kind of a value (re-exported for messages).
pub fn json_kind(v: &Value) -> &'static str {
    kind_of(v)
}
