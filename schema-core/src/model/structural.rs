//! The structural schema IR, in the shape of KEP-2335 and of
//! apiextensions' `pkg/apiserver/schema/structural.go`.
//!
//! A [`Structural`] node has a generic part (type, description, title,
//! nullable, default, additionalProperties), Kubernetes extensions, CEL
//! validation rules, value validations (with nested value validations under
//! `allOf`/`anyOf`/`oneOf`/`not`), properties in source order, and items.
//! [`Structural::from_props`] is the server's `NewStructural`;
//! [`Structural::to_props`] writes the IR back to the wire model.

use indexmap::IndexMap;
use serde_json::{Number, Value};

use crate::model::wire::{
    ExternalDocumentation, JsonSchemaProps, SchemaOrArray, SchemaOrBool, ValidationRule,
};

/// A structural schema node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Structural {
    /// `items`.
    pub items: Option<Box<Structural>>,
    /// `properties`, in source order.
    pub properties: IndexMap<String, Structural>,
    /// Type, description, title, default, nullable, additionalProperties.
    pub generic: Generic,
    /// The `x-kubernetes-*` extensions.
    pub extensions: Extensions,
    /// `x-kubernetes-validations`.
    pub x_validations: Vec<ValidationRule>,
    /// Value validations; `NewStructural` always creates the record.
    pub value_validation: Option<Box<ValueValidation>>,
}

/// The generic part of a node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Generic {
    /// `description`.
    pub description: String,
    /// `type` (`""` when unset).
    pub type_: String,
    /// `title`.
    pub title: String,
    /// `default` (`None` when unset or `null`).
    pub default: Option<Value>,
    /// `additionalProperties`.
    pub additional_properties: Option<StructuralOrBool>,
    /// `nullable`.
    pub nullable: bool,
    /// `externalDocs` (kept for writing back; no semantics).
    pub external_docs: Option<ExternalDocumentation>,
    /// `example` (kept for writing back; no semantics).
    pub example: Option<Value>,
}

/// `additionalProperties` of a structural node: a schema (which allows) or
/// a boolean.
#[derive(Clone, Debug, PartialEq)]
pub struct StructuralOrBool {
    /// The schema, if given.
    pub structural: Option<Box<Structural>>,
    /// Whether additional properties are allowed.
    pub allows: bool,
}

/// The `x-kubernetes-*` extensions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extensions {
    /// `x-kubernetes-preserve-unknown-fields`.
    pub preserve_unknown_fields: bool,
    /// `x-kubernetes-embedded-resource`.
    pub embedded_resource: bool,
    /// `x-kubernetes-int-or-string`.
    pub int_or_string: bool,
    /// `x-kubernetes-list-map-keys`.
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-list-type`.
    pub list_type: Option<String>,
    /// `x-kubernetes-map-type`.
    pub map_type: Option<String>,
}

impl Extensions {
    fn is_empty(&self) -> bool {
        *self == Extensions::default()
    }
}

/// Value validations of a node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueValidation {
    /// `format`.
    pub format: String,
    /// `maximum`.
    pub maximum: Option<Number>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: bool,
    /// `minimum`.
    pub minimum: Option<Number>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: bool,
    /// `maxLength`.
    pub max_length: Option<i64>,
    /// `minLength`.
    pub min_length: Option<i64>,
    /// `pattern`.
    pub pattern: String,
    /// `maxItems`.
    pub max_items: Option<i64>,
    /// `minItems`.
    pub min_items: Option<i64>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `multipleOf`.
    pub multiple_of: Option<Number>,
    /// `enum`.
    pub enum_: Vec<Value>,
    /// `maxProperties`.
    pub max_properties: Option<i64>,
    /// `minProperties`.
    pub min_properties: Option<i64>,
    /// `required`.
    pub required: Vec<String>,
    /// `allOf`.
    pub all_of: Vec<NestedValueValidation>,
    /// `oneOf`.
    pub one_of: Vec<NestedValueValidation>,
    /// `anyOf`.
    pub any_of: Vec<NestedValueValidation>,
    /// `not`.
    pub not: Option<Box<NestedValueValidation>>,
}

/// A value validation under a junctor. Only value validations, items,
/// properties and additionalProperties are structural here; everything else
/// is recorded as forbidden, to be reported.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NestedValueValidation {
    /// The value validations.
    pub value_validation: ValueValidation,
    /// `x-kubernetes-validations` (forbidden except under `allOf` by option).
    pub x_validations: Vec<ValidationRule>,
    /// `items`.
    pub items: Option<Box<NestedValueValidation>>,
    /// `properties`.
    pub properties: IndexMap<String, NestedValueValidation>,
    /// `additionalProperties` (`true` becomes an empty schema, `false` is dropped).
    pub additional_properties: Option<Box<NestedValueValidation>>,
    /// Generic fields, which make the schema non-structural.
    pub forbidden_generics: Generic,
    /// Extensions, which make the schema non-structural.
    pub forbidden_extensions: Extensions,
}

/// Why `NewStructural` failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NewStructuralError(pub String);

fn validate_unsupported_fields(s: &JsonSchemaProps) -> Result<(), NewStructuralError> {
    let unsupported = |name: &str| {
        Err(NewStructuralError(format!(
            "OpenAPIV3Schema '{name}' is not supported"
        )))
    };
    if s.id.as_deref().is_some_and(|v| !v.is_empty()) {
        return unsupported("id");
    }
    if s.schema.as_deref().is_some_and(|v| !v.is_empty()) {
        return unsupported("schema");
    }
    if s.reference.as_deref().is_some_and(|v| !v.is_empty()) {
        return unsupported("$ref");
    }
    if s.pattern_properties.as_ref().is_some_and(|m| !m.is_empty()) {
        return unsupported("patternProperties");
    }
    if s.dependencies.as_ref().is_some_and(|m| !m.is_empty()) {
        return unsupported("dependencies");
    }
    if s.additional_items.is_some() {
        return unsupported("additionalItems");
    }
    if s.definitions.as_ref().is_some_and(|m| !m.is_empty()) {
        return unsupported("definitions");
    }
    Ok(())
}

fn non_null(v: &Option<Value>) -> Option<Value> {
    v.as_ref().filter(|v| !v.is_null()).cloned()
}

fn new_generics(s: &JsonSchemaProps) -> Result<Generic, NewStructuralError> {
    let additional_properties = match &s.additional_properties {
        None => None,
        Some(SchemaOrBool::Bool(b)) => Some(StructuralOrBool {
            structural: None,
            allows: *b,
        }),
        Some(SchemaOrBool::Schema(schema)) => Some(StructuralOrBool {
            structural: Some(Box::new(Structural::from_props(schema)?)),
            allows: true,
        }),
    };
    Ok(Generic {
        additional_properties,
        ..generic_fields(s)
    })
}

/// The generic fields without `additionalProperties`.
fn generic_fields(s: &JsonSchemaProps) -> Generic {
    Generic {
        description: s.description.clone().unwrap_or_default(),
        type_: s.type_.clone().unwrap_or_default(),
        title: s.title.clone().unwrap_or_default(),
        default: non_null(&s.default),
        additional_properties: None,
        nullable: s.is_nullable(),
        external_docs: s.external_docs.clone(),
        example: non_null(&s.example),
    }
}

fn new_extensions(s: &JsonSchemaProps) -> Result<Extensions, NewStructuralError> {
    if s.x_preserve_unknown_fields == Some(false) {
        return Err(NewStructuralError(
            "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
                .into(),
        ));
    }
    Ok(Extensions {
        preserve_unknown_fields: s.preserves_unknown_fields(),
        embedded_resource: s.is_embedded_resource(),
        int_or_string: s.is_int_or_string(),
        list_map_keys: s.x_list_map_keys.clone().unwrap_or_default(),
        list_type: s.x_list_type.clone(),
        map_type: s.x_map_type.clone(),
    })
}

fn items_array_error() -> NewStructuralError {
    NewStructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array".into())
}

fn new_value_validation(s: &JsonSchemaProps) -> Result<ValueValidation, NewStructuralError> {
    let not = match &s.not {
        Some(n) => Some(Box::new(NestedValueValidation::from_props(n)?)),
        None => None,
    };
    let nested = |v: &Option<Vec<JsonSchemaProps>>| -> Result<Vec<NestedValueValidation>, NewStructuralError> {
        v.iter()
            .flatten()
            .map(NestedValueValidation::from_props)
            .collect()
    };
    let all_of = nested(&s.all_of)?;
    let any_of = nested(&s.any_of)?;
    let one_of = nested(&s.one_of)?;
    Ok(ValueValidation {
        format: s.format.clone().unwrap_or_default(),
        maximum: s.maximum.clone(),
        exclusive_maximum: s.exclusive_maximum == Some(true),
        minimum: s.minimum.clone(),
        exclusive_minimum: s.exclusive_minimum == Some(true),
        max_length: s.max_length,
        min_length: s.min_length,
        pattern: s.pattern.clone().unwrap_or_default(),
        max_items: s.max_items,
        min_items: s.min_items,
        unique_items: s.unique_items == Some(true),
        multiple_of: s.multiple_of.clone(),
        enum_: s.enum_.clone().unwrap_or_default(),
        max_properties: s.max_properties,
        min_properties: s.min_properties,
        required: s.required.clone().unwrap_or_default(),
        all_of,
        one_of,
        any_of,
        not,
    })
}

impl Structural {
    /// `NewStructural`: converts a wire schema into the IR, failing as the
    /// server fails on unsupported keywords, items arrays and
    /// `x-kubernetes-preserve-unknown-fields: false`.
    pub fn from_props(s: &JsonSchemaProps) -> Result<Self, NewStructuralError> {
        validate_unsupported_fields(s)?;
        let value_validation = new_value_validation(s)?;
        let generic = new_generics(s)?;
        let extensions = new_extensions(s)?;
        let items = match &s.items {
            None => None,
            Some(SchemaOrArray::Array(_)) => return Err(items_array_error()),
            Some(SchemaOrArray::Schema(item)) => Some(Box::new(Structural::from_props(item)?)),
        };
        let mut properties = IndexMap::new();
        for (k, p) in s.properties.iter().flatten() {
            properties.insert(k.clone(), Structural::from_props(p)?);
        }
        Ok(Structural {
            items,
            properties,
            generic,
            extensions,
            x_validations: s.x_validations.clone().unwrap_or_default(),
            value_validation: Some(Box::new(value_validation)),
        })
    }

    /// Writes the IR back to the wire model (the inverse of
    /// [`Structural::from_props`] for every structural schema).
    pub fn to_props(&self) -> JsonSchemaProps {
        let mut p = JsonSchemaProps::default();
        write_generic(&mut p, &self.generic);
        if let Some(ap) = &self.generic.additional_properties {
            p.additional_properties = Some(match &ap.structural {
                Some(s) => SchemaOrBool::Schema(Box::new(s.to_props())),
                None => SchemaOrBool::Bool(ap.allows),
            });
        }
        write_extensions(&mut p, &self.extensions);
        if !self.x_validations.is_empty() {
            p.x_validations = Some(self.x_validations.clone());
        }
        if let Some(vv) = &self.value_validation {
            write_value_validation(&mut p, vv);
        }
        if let Some(items) = &self.items {
            p.items = Some(SchemaOrArray::Schema(Box::new(items.to_props())));
        }
        if !self.properties.is_empty() {
            p.properties = Some(
                self.properties
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_props()))
                    .collect(),
            );
        }
        p
    }

    /// The value validations, or an empty record.
    pub fn vv(&self) -> &ValueValidation {
        static EMPTY: std::sync::OnceLock<ValueValidation> = std::sync::OnceLock::new();
        match &self.value_validation {
            Some(v) => v,
            None => EMPTY.get_or_init(ValueValidation::default),
        }
    }
}

impl NestedValueValidation {
    /// `newNestedValueValidation`.
    pub fn from_props(s: &JsonSchemaProps) -> Result<Self, NewStructuralError> {
        validate_unsupported_fields(s)?;
        let value_validation = new_value_validation(s)?;
        let items = match &s.items {
            None => None,
            Some(SchemaOrArray::Array(_)) => return Err(items_array_error()),
            Some(SchemaOrArray::Schema(item)) => {
                Some(Box::new(NestedValueValidation::from_props(item)?))
            }
        };
        let mut properties = IndexMap::new();
        for (k, p) in s.properties.iter().flatten() {
            properties.insert(k.clone(), NestedValueValidation::from_props(p)?);
        }
        let additional_properties = match &s.additional_properties {
            Some(SchemaOrBool::Schema(a)) => Some(Box::new(NestedValueValidation::from_props(a)?)),
            Some(SchemaOrBool::Bool(true)) => Some(Box::default()),
            _ => None,
        };
        let forbidden_extensions = new_extensions(s)?;
        let forbidden_generics = generic_fields(s);
        Ok(NestedValueValidation {
            value_validation,
            x_validations: s.x_validations.clone().unwrap_or_default(),
            items,
            properties,
            additional_properties,
            forbidden_generics,
            forbidden_extensions,
        })
    }

    /// Writes the nested validation back to the wire model.
    pub fn to_props(&self) -> JsonSchemaProps {
        let mut p = JsonSchemaProps::default();
        write_generic(&mut p, &self.forbidden_generics);
        write_extensions(&mut p, &self.forbidden_extensions);
        write_value_validation(&mut p, &self.value_validation);
        if !self.x_validations.is_empty() {
            p.x_validations = Some(self.x_validations.clone());
        }
        if let Some(items) = &self.items {
            p.items = Some(SchemaOrArray::Schema(Box::new(items.to_props())));
        }
        if !self.properties.is_empty() {
            p.properties = Some(
                self.properties
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_props()))
                    .collect(),
            );
        }
        if let Some(ap) = &self.additional_properties {
            p.additional_properties = Some(SchemaOrBool::Schema(Box::new(ap.to_props())));
        }
        p
    }

    /// Whether this is exactly `{type: <t>}` and nothing else.
    pub fn is_only_type(&self, t: &str) -> bool {
        let mut probe = NestedValueValidation::default();
        probe.forbidden_generics.type_ = t.to_string();
        *self == probe
    }
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

fn write_generic(p: &mut JsonSchemaProps, g: &Generic) {
    p.description = non_empty(&g.description);
    p.type_ = non_empty(&g.type_);
    p.title = non_empty(&g.title);
    p.default = g.default.clone();
    p.nullable = g.nullable.then_some(true);
    p.external_docs = g.external_docs.clone();
    p.example = g.example.clone();
}

fn write_extensions(p: &mut JsonSchemaProps, x: &Extensions) {
    if x.is_empty() {
        return;
    }
    p.x_preserve_unknown_fields = x.preserve_unknown_fields.then_some(true);
    p.x_embedded_resource = x.embedded_resource.then_some(true);
    p.x_int_or_string = x.int_or_string.then_some(true);
    p.x_list_map_keys = (!x.list_map_keys.is_empty()).then(|| x.list_map_keys.clone());
    p.x_list_type = x.list_type.clone();
    p.x_map_type = x.map_type.clone();
}

fn write_value_validation(p: &mut JsonSchemaProps, v: &ValueValidation) {
    p.format = non_empty(&v.format);
    p.maximum = v.maximum.clone();
    p.exclusive_maximum = v.exclusive_maximum.then_some(true);
    p.minimum = v.minimum.clone();
    p.exclusive_minimum = v.exclusive_minimum.then_some(true);
    p.max_length = v.max_length;
    p.min_length = v.min_length;
    p.pattern = non_empty(&v.pattern);
    p.max_items = v.max_items;
    p.min_items = v.min_items;
    p.unique_items = v.unique_items.then_some(true);
    p.multiple_of = v.multiple_of.clone();
    p.enum_ = (!v.enum_.is_empty()).then(|| v.enum_.clone());
    p.max_properties = v.max_properties;
    p.min_properties = v.min_properties;
    p.required = (!v.required.is_empty()).then(|| v.required.clone());
    let nested = |n: &[NestedValueValidation]| {
        (!n.is_empty()).then(|| n.iter().map(NestedValueValidation::to_props).collect())
    };
    p.all_of = nested(&v.all_of);
    p.one_of = nested(&v.one_of);
    p.any_of = nested(&v.any_of);
    p.not = v.not.as_ref().map(|n| Box::new(n.to_props()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::field::Path;
    use crate::model::wire::codec::{DecodeCx, Wire};
    use serde_json::json;

    fn props(v: Value) -> JsonSchemaProps {
        JsonSchemaProps::decode(&v, &Path::root(), &mut DecodeCx::default()).unwrap()
    }

    #[test]
    fn round_trips_structural_schemas() {
        let v = json!({
            "type": "object",
            "description": "d",
            "required": ["spec"],
            "properties": {
                "spec": {"type": "object", "properties": {
                    "replicas": {"type": "integer", "minimum": 1, "format": "int32", "default": 1},
                    "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                    "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "raw": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                }},
            },
            "x-kubernetes-validations": [{"rule": "self.spec.replicas > 0", "message": "m"}],
        });
        let s = Structural::from_props(&props(v.clone())).unwrap();
        assert_eq!(s.to_props().to_value(), v);
    }

    #[test]
    fn new_structural_errors() {
        for (v, msg) in [
            (
                json!({"$ref": "#/x"}),
                "OpenAPIV3Schema '$ref' is not supported",
            ),
            (
                json!({"items": [{"type": "string"}]}),
                "OpenAPIV3Schema 'items' must be a schema, but is an array",
            ),
            (
                json!({"x-kubernetes-preserve-unknown-fields": false}),
                "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined",
            ),
            (
                json!({"allOf": [{"definitions": {"a": {}}}]}),
                "OpenAPIV3Schema 'definitions' is not supported",
            ),
        ] {
            assert_eq!(Structural::from_props(&props(v)).unwrap_err().0, msg);
        }
    }
}
