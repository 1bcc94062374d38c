//! Structural schema → CEL declared type (`k8s.io/apiserver/pkg/cel/common/schemas.go`
//! and `types.go`, with apiextensions' `model/schemas.go` adaptor): the type
//! `self` has in a rule, with the size estimates the cost estimator uses.

use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::Value;

use crate::cel::escape::escape;
use crate::cel::types::Type;
use crate::model::structural::{NestedValueValidation, Structural};

/// The largest request the API server accepts, in bytes (3 MiB).
pub const MAX_REQUEST_SIZE_BYTES: i64 = 3 * 1024 * 1024;
/// The maximum size of an RFC 3339 duration string in JSON (quotes included).
pub const MAX_DURATION_SIZE_JSON: i64 = 32;
/// The maximum size of an RFC 3339 date-time string in JSON.
pub const MAX_DATETIME_SIZE_JSON: i64 = 32;
/// The minimum size of a duration in JSON (`"0"`).
pub const MIN_DURATION_SIZE_JSON: i64 = 3;
/// The size of a date in JSON (`"YYYY-MM-DD"`).
pub const JSON_DATE_SIZE: i64 = 12;
/// The minimum size of a date-time in JSON.
pub const MIN_DATETIME_SIZE_JSON: i64 = 21;
/// The size of `""`.
pub const MIN_STRING_SIZE: i64 = 2;
/// The size of `true`.
pub const MIN_BOOL_SIZE: i64 = 4;
/// The size of `0`.
pub const MIN_NUMBER_SIZE: i64 = 1;
/// The default maxLength of `metadata.name` (a DNS-1123 subdomain).
pub const NAME_MAX_LENGTH: i64 = 253;

/// A declared type: the CEL type of a schema node plus its size estimates
/// (`apiservercel.DeclType`).
#[derive(Clone, Debug, PartialEq)]
pub struct DeclType {
    /// The type name: `object` (until named), `list`, `map`, or the simple
    /// type's name.
    pub name: String,
    /// What the type is.
    pub kind: DeclKind,
    /// The maximum number of elements (list items, map entries, string
    /// bytes); 0 when not estimated.
    pub max_elements: i64,
    /// The smallest size in bytes the value serializes to in JSON.
    pub min_serialized_size: i64,
}

/// The shape of a [`DeclType`].
#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    /// A scalar (or `dyn`) with its CEL type.
    Simple(Type),
    /// A list.
    List(Arc<DeclType>),
    /// A map with string keys.
    Map(Arc<DeclType>, Arc<DeclType>),
    /// An object with fields by escaped name.
    Object(IndexMap<String, DeclField>),
}

/// A field of an object type.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclField {
    /// The escaped field name.
    pub name: String,
    /// The field's type.
    pub ty: Arc<DeclType>,
    /// Whether the property is required.
    pub required: bool,
    /// The enum values of the property.
    pub enum_values: Vec<Value>,
    /// The default of the property.
    pub default: Option<Value>,
}

impl DeclType {
    fn simple(name: &str, t: Type, min_size: i64) -> Self {
        DeclType {
            name: name.to_string(),
            kind: DeclKind::Simple(t),
            max_elements: 0,
            min_serialized_size: min_size,
        }
    }

    /// `apiservercel.StringType`.
    pub fn string() -> Self {
        Self::simple("string", Type::String, MIN_STRING_SIZE)
    }

    /// A list type of at most `max_items` items.
    pub fn list(elem: Arc<DeclType>, max_items: i64) -> Self {
        DeclType {
            name: "list".into(),
            kind: DeclKind::List(elem),
            max_elements: max_items,
            min_serialized_size: 2,
        }
    }

    /// A map type of at most `max_properties` entries.
    pub fn map(key: Arc<DeclType>, elem: Arc<DeclType>, max_properties: i64) -> Self {
        DeclType {
            name: "map".into(),
            kind: DeclKind::Map(key, elem),
            max_elements: max_properties,
            min_serialized_size: 2,
        }
    }

    /// The CEL type of the declaration.
    pub fn cel_type(&self) -> Type {
        match &self.kind {
            DeclKind::Simple(t) => t.clone(),
            DeclKind::List(e) => Type::list(e.cel_type()),
            DeclKind::Map(k, v) => Type::map(k.cel_type(), v.cel_type()),
            DeclKind::Object(_) => Type::Struct(self.name.clone()),
        }
    }

    /// The element type of a list or map.
    pub fn elem(&self) -> Option<&Arc<DeclType>> {
        match &self.kind {
            DeclKind::List(e) | DeclKind::Map(_, e) => Some(e),
            _ => None,
        }
    }

    /// The key type of a map.
    pub fn key(&self) -> Option<&Arc<DeclType>> {
        match &self.kind {
            DeclKind::Map(k, _) => Some(k),
            _ => None,
        }
    }

    /// The fields of an object.
    pub fn fields(&self) -> Option<&IndexMap<String, DeclField>> {
        match &self.kind {
            DeclKind::Object(f) => Some(f),
            _ => None,
        }
    }

    /// `MaybeAssignTypeName`: names the object types of this declaration
    /// after where they appear (`name`, `name.field`, `name.@idx`,
    /// `name.@elem`).
    pub fn maybe_assign_type_name(self: &Arc<Self>, name: &str) -> Arc<DeclType> {
        match &self.kind {
            DeclKind::Object(fields) => {
                let name = if self.name != "object" {
                    self.name.as_str()
                } else {
                    name
                };
                let mut updated = self.name == "object";
                let mut out = IndexMap::with_capacity(fields.len());
                for (fname, f) in fields {
                    let t = f.ty.maybe_assign_type_name(&format!("{name}.{fname}"));
                    if !Arc::ptr_eq(&t, &f.ty) {
                        updated = true;
                    }
                    out.insert(fname.clone(), DeclField { ty: t, ..f.clone() });
                }
                if !updated {
                    return Arc::clone(self);
                }
                Arc::new(DeclType {
                    name: name.to_string(),
                    kind: DeclKind::Object(out),
                    max_elements: self.max_elements,
                    min_serialized_size: self.min_serialized_size,
                })
            }
            DeclKind::Map(k, e) => {
                let u = e.maybe_assign_type_name(&format!("{name}.@elem"));
                if Arc::ptr_eq(&u, e) {
                    return Arc::clone(self);
                }
                Arc::new(DeclType::map(Arc::clone(k), u, self.max_elements))
            }
            DeclKind::List(e) => {
                let u = e.maybe_assign_type_name(&format!("{name}.@idx"));
                if Arc::ptr_eq(&u, e) {
                    return Arc::clone(self);
                }
                Arc::new(DeclType::list(u, self.max_elements))
            }
            DeclKind::Simple(_) => Arc::clone(self),
        }
    }

    /// The object types declared in this type, by name (`FieldTypeMap`).
    pub fn object_types(self: &Arc<Self>) -> HashMap<String, Arc<DeclType>> {
        let mut out = HashMap::new();
        collect_objects(self, &mut out);
        out
    }
}

fn collect_objects(t: &Arc<DeclType>, out: &mut HashMap<String, Arc<DeclType>>) {
    match &t.kind {
        DeclKind::Object(fields) => {
            out.insert(t.name.clone(), Arc::clone(t));
            for f in fields.values() {
                collect_objects(&f.ty, out);
            }
        }
        DeclKind::List(e) | DeclKind::Map(_, e) => collect_objects(e, out),
        DeclKind::Simple(_) => {}
    }
}

fn zero_if_negative(v: i64) -> i64 {
    v.max(0)
}

/// The tightest bound among the `allOf` members (recursively), as
/// apiextensions' `foldAllOfBounds` folds it into the node.
fn tightest_all_of(
    get: fn(&NestedValueValidation) -> Option<i64>,
    all_of: &[NestedValueValidation],
) -> Option<i64> {
    let mut tightest: Option<i64> = None;
    for m in all_of {
        for b in [get(m), tightest_all_of(get, &m.value_validation.all_of)]
            .into_iter()
            .flatten()
        {
            if tightest.is_none_or(|t| b < t) {
                tightest = Some(b);
            }
        }
    }
    tightest
}

fn folded(direct: Option<i64>, tightest: Option<i64>) -> Option<i64> {
    match (direct, tightest) {
        (Some(d), Some(t)) => Some(d.min(t)),
        (d, None) => d,
        (None, t) => t,
    }
}

fn max_length(s: &Structural) -> Option<i64> {
    let vv = s.vv();
    if s.generic.type_ == "string" || s.extensions.int_or_string {
        folded(
            vv.max_length,
            tightest_all_of(|m| m.value_validation.max_length, &vv.all_of),
        )
    } else {
        vv.max_length
    }
}

fn max_items(s: &Structural) -> Option<i64> {
    let vv = s.vv();
    if s.generic.type_ == "array" {
        folded(
            vv.max_items,
            tightest_all_of(|m| m.value_validation.max_items, &vv.all_of),
        )
    } else {
        vv.max_items
    }
}

fn max_properties(s: &Structural) -> Option<i64> {
    let vv = s.vv();
    if s.generic.type_ == "object" {
        folded(
            vv.max_properties,
            tightest_all_of(|m| m.value_validation.max_properties, &vv.all_of),
        )
    } else {
        vv.max_properties
    }
}

fn estimate_max_string_length_per_request(s: &Structural) -> i64 {
    if s.extensions.int_or_string {
        return MAX_REQUEST_SIZE_BYTES - 2;
    }
    match s.vv().format.as_str() {
        "duration" => MAX_DURATION_SIZE_JSON,
        "date" => JSON_DATE_SIZE,
        "date-time" => MAX_DATETIME_SIZE_JSON,
        _ => MAX_REQUEST_SIZE_BYTES - 2,
    }
}

fn estimate_max_string_enum_length(s: &Structural) -> i64 {
    s.vv()
        .enum_
        .iter()
        .filter_map(Value::as_str)
        .map(|e| e.len() as i64)
        .max()
        .unwrap_or(0)
        .max(0)
}

fn estimate_max_array_items_from_min_size(min_size: i64) -> i64 {
    (MAX_REQUEST_SIZE_BYTES - 2) / (min_size + 1)
}

fn estimate_max_additional_properties_from_min_size(min_size: i64) -> i64 {
    (MAX_REQUEST_SIZE_BYTES - 2) / (min_size + 6)
}

fn string_structural(max_len: Option<i64>) -> Structural {
    let mut s = Structural::default();
    s.generic.type_ = "string".into();
    if let Some(m) = max_len {
        s.value_validation = Some(Box::new(crate::model::structural::ValueValidation {
            max_length: Some(m),
            ..Default::default()
        }));
    }
    s
}

fn capped_length_string(existing: Option<&Structural>, max_len: i64) -> Structural {
    let cap = existing
        .and_then(|e| e.vv().max_length)
        .filter(|m| *m < max_len)
        .unwrap_or(max_len);
    string_structural(Some(cap))
}

/// Whether a resource root declares `kind` and `apiVersion` strings and a
/// `metadata` object with `name` and `generateName` strings, and so is
/// left as it is by `WithTypeAndObjectMeta` (its other `metadata`
/// properties, such as `namespace`, stay visible).
pub(crate) fn has_type_and_object_meta(s: &Structural) -> bool {
    let ty = |name: &str| s.properties.get(name).map(|p| p.generic.type_.as_str());
    let meta = s.properties.get("metadata");
    let meta_ty = |name: &str| {
        meta.and_then(|m| m.properties.get(name))
            .map(|p| p.generic.type_.as_str())
    };
    !s.properties.is_empty()
        && ty("kind") == Some("string")
        && ty("apiVersion") == Some("string")
        && ty("metadata") == Some("object")
        && meta.is_some_and(|m| !m.properties.is_empty())
        && meta_ty("name") == Some("string")
        && meta_ty("generateName") == Some("string")
}

/// `WithTypeAndObjectMeta`: makes sure `kind`, `apiVersion`, `metadata.name`
/// and `metadata.generateName` are declared at a resource root (the latter
/// two capped at the name length).
pub fn with_type_and_object_meta(s: &Structural) -> std::borrow::Cow<'_, Structural> {
    if has_type_and_object_meta(s) {
        return std::borrow::Cow::Borrowed(s);
    }
    let meta = s.properties.get("metadata");
    let mut result = Structural {
        items: None,
        properties: s.properties.clone(),
        generic: s.generic.clone(),
        extensions: s.extensions.clone(),
        x_validations: s.x_validations.clone(),
        value_validation: s.value_validation.clone(),
    };
    result
        .properties
        .insert("kind".into(), string_structural(None));
    result
        .properties
        .insert("apiVersion".into(), string_structural(None));
    let mut metadata = Structural::default();
    metadata.generic.type_ = "object".into();
    let meta_prop = |n: &str| meta.and_then(|m| m.properties.get(n));
    metadata.properties.insert(
        "name".into(),
        capped_length_string(meta_prop("name"), NAME_MAX_LENGTH),
    );
    metadata.properties.insert(
        "generateName".into(),
        capped_length_string(meta_prop("generateName"), NAME_MAX_LENGTH - 1),
    );
    result.properties.insert("metadata".into(), metadata);
    std::borrow::Cow::Owned(result)
}

/// `SchemaDeclType`: the declared type of a structural schema node, or
/// `None` when the node is not exposed to CEL. `is_resource_root` is true
/// at the root of a custom resource and of embedded resources.
pub fn schema_decl_type(s: &Structural, is_resource_root: bool) -> Option<Arc<DeclType>> {
    if s.extensions.int_or_string {
        let mut dyn_t = DeclType::simple("dyn", Type::Dyn, 1);
        dyn_t.max_elements = match max_length(s) {
            Some(m) => zero_if_negative(m) * 4,
            None => estimate_max_string_length_per_request(s),
        };
        return Some(Arc::new(dyn_t));
    }
    let owned;
    let s = if is_resource_root {
        owned = with_type_and_object_meta(s);
        owned.as_ref()
    } else {
        s
    };
    match s.generic.type_.as_str() {
        "array" => {
            let items = s.items.as_deref()?;
            let items_type = schema_decl_type(items, items.extensions.embedded_resource)?;
            let max = match max_items(s) {
                Some(m) => zero_if_negative(m),
                None => estimate_max_array_items_from_min_size(items_type.min_serialized_size),
            };
            Some(Arc::new(DeclType::list(items_type, max)))
        }
        "object" => {
            if let Some(ap) = s
                .generic
                .additional_properties
                .as_ref()
                .and_then(|ap| ap.structural.as_deref())
            {
                let props_type = schema_decl_type(ap, ap.extensions.embedded_resource)?;
                let max = match max_properties(s) {
                    Some(m) => zero_if_negative(m),
                    None => estimate_max_additional_properties_from_min_size(
                        props_type.min_serialized_size,
                    ),
                };
                return Some(Arc::new(DeclType::map(
                    Arc::new(DeclType::string()),
                    props_type,
                    max,
                )));
            }
            let required = &s.vv().required;
            let mut fields = IndexMap::with_capacity(s.properties.len());
            let mut min_size: i64 = 2;
            for (name, prop) in &s.properties {
                let Some(field_type) = schema_decl_type(prop, prop.extensions.embedded_resource)
                else {
                    continue;
                };
                let is_required = required.iter().any(|r| r == name);
                if is_required && prop.generic.default.is_none() {
                    min_size = min_size
                        .saturating_add(name.len() as i64)
                        .saturating_add(field_type.min_serialized_size)
                        .saturating_add(4);
                }
                if let Some(prop_name) = escape(name) {
                    fields.insert(
                        prop_name.clone(),
                        DeclField {
                            name: prop_name,
                            ty: field_type,
                            required: is_required,
                            enum_values: prop.vv().enum_.clone(),
                            default: prop.generic.default.clone(),
                        },
                    );
                }
            }
            Some(Arc::new(DeclType {
                name: "object".into(),
                kind: DeclKind::Object(fields),
                max_elements: 0,
                min_serialized_size: min_size,
            }))
        }
        "string" => {
            let format = s.vv().format.as_str();
            let t = match format {
                "byte" => {
                    let mut t = DeclType::simple("bytes", Type::Bytes, MIN_STRING_SIZE);
                    t.max_elements = match max_length(s) {
                        Some(m) => zero_if_negative(m),
                        None => estimate_max_string_length_per_request(s),
                    };
                    t
                }
                "duration" => {
                    let mut t =
                        DeclType::simple("duration", Type::Duration, MIN_DURATION_SIZE_JSON);
                    t.max_elements = estimate_max_string_length_per_request(s);
                    t
                }
                "date" => {
                    let mut t = DeclType::simple("timestamp", Type::Timestamp, JSON_DATE_SIZE);
                    t.max_elements = estimate_max_string_length_per_request(s);
                    t
                }
                "date-time" => {
                    let mut t =
                        DeclType::simple("timestamp", Type::Timestamp, MIN_DATETIME_SIZE_JSON);
                    t.max_elements = estimate_max_string_length_per_request(s);
                    t
                }
                _ => {
                    let mut t = DeclType::string();
                    t.max_elements = match max_length(s) {
                        Some(m) => zero_if_negative(m).saturating_mul(4),
                        None if !s.vv().enum_.is_empty() => estimate_max_string_enum_length(s),
                        None => estimate_max_string_length_per_request(s),
                    };
                    t
                }
            };
            Some(Arc::new(t))
        }
        "boolean" => Some(Arc::new(DeclType::simple(
            "bool",
            Type::Bool,
            MIN_BOOL_SIZE,
        ))),
        "number" => Some(Arc::new(DeclType::simple(
            "double",
            Type::Double,
            MIN_NUMBER_SIZE,
        ))),
        "integer" => Some(Arc::new(DeclType::simple(
            "int",
            Type::Int,
            MIN_NUMBER_SIZE,
        ))),
        _ => None,
    }
}

/// `maxCardinality`: how many times data of the given minimum size fits in
/// one request (with a comma between elements).
pub fn max_cardinality(min_size: i64) -> u64 {
    let sz = min_size.saturating_add(1).max(1);
    (MAX_REQUEST_SIZE_BYTES / sz).max(0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::field::Path;
    use crate::model::wire::JsonSchemaProps;
    use crate::model::wire::codec::{DecodeCx, Wire};
    use serde_json::json;

    fn structural(v: Value) -> Structural {
        let p = JsonSchemaProps::decode(&v, &Path::root(), &mut DecodeCx::default()).unwrap();
        Structural::from_props(&p).unwrap()
    }

    #[test]
    fn estimates_sizes_as_schemas_go() {
        let s = structural(json!({
            "type": "object",
            "required": ["a", "b"],
            "properties": {
                "a": {"type": "string"},
                "b": {"type": "string", "default": "x"},
                "c": {"type": "array", "items": {"type": "integer"}},
                "d": {"type": "object", "additionalProperties": {"type": "boolean"}},
                "e": {"type": "string", "maxLength": 10},
                "f": {"type": "string", "enum": ["abc", "de"]},
                "g": {"type": "string", "format": "date-time"},
            }
        }));
        let t = schema_decl_type(&s, false).unwrap();
        // {} + "a" (1) + "" (2) + 4
        assert_eq!(t.min_serialized_size, 2 + 1 + 2 + 4);
        let f = t.fields().unwrap();
        assert_eq!(f["a"].ty.max_elements, 3_145_726);
        assert_eq!(f["c"].ty.max_elements, 3_145_726 / 2);
        assert_eq!(f["d"].ty.max_elements, 3_145_726 / 10);
        assert_eq!(f["e"].ty.max_elements, 40);
        assert_eq!(f["f"].ty.max_elements, 3);
        assert_eq!(f["g"].ty.max_elements, 32);
        assert_eq!(f["g"].ty.cel_type(), Type::Timestamp);
    }

    #[test]
    fn resource_roots_get_type_and_object_meta() {
        let s = structural(json!({"type": "object"}));
        let t = schema_decl_type(&s, true).unwrap();
        let f = t.fields().unwrap();
        assert!(f.contains_key("kind") && f.contains_key("apiVersion"));
        let meta = f["metadata"].ty.fields().unwrap();
        assert_eq!(meta["name"].ty.max_elements, 253 * 4);
        assert_eq!(meta["generateName"].ty.max_elements, 252 * 4);
    }

    #[test]
    fn names_object_types_by_path() {
        let s = structural(json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {"x": {"type": "integer"}}},
            "l": {"type": "array", "items": {"type": "object"}},
        }}));
        let t = schema_decl_type(&s, false)
            .unwrap()
            .maybe_assign_type_name("selfType0");
        let names = t.object_types();
        assert!(names.contains_key("selfType0"));
        assert!(names.contains_key("selfType0.spec"));
        assert!(names.contains_key("selfType0.l.@idx"));
    }
}
