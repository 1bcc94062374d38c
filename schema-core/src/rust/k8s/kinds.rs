//! The kinds the API server serves itself (`apps/v1` `Deployment`,
//! `v1` `ConfigMap`, …): every k8s-openapi type implementing
//! `k8s_openapi::Resource`, of the Kubernetes version the final crate
//! selects, with its structural schema and a CRD that stands for it, so
//! that its objects are admitted as a custom resource of that schema is.

use std::borrow::Cow;
use std::sync::OnceLock;

use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value};

use crate::crd::catalog::BuiltinKindSchema;
use crate::model::field::Path;

use crate::model::wire::{
    CrdNames, CrdSpec, CrdSubresources, CrdVersion, CustomResourceDefinition,
    CustomResourceValidation, JsonSchemaProps,
};
use crate::rust::{EmbeddedObjectMeta, SchemaCx, SchemaErrors, StructuralSchema};

/// Where objects of a kind live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinScope {
    /// In a namespace (`Deployment`).
    Namespaced,
    /// In the cluster (`Namespace`, `ClusterRole`).
    Cluster,
    /// A subresource's body (`Scale`, `Eviction`): posted to a
    /// subresource of another kind, never stored on its own.
    Subresource,
}

/// One built-in kind.
#[derive(Clone, Copy)]
pub struct BuiltinKind {
    /// `apps/v1`, or `v1` for the core group.
    pub api_version: &'static str,
    /// `apps`, or `""` for the core group.
    pub group: &'static str,
    /// `v1`.
    pub version: &'static str,
    /// `Deployment`.
    pub kind: &'static str,
    /// The resource's URL segment: `deployments`.
    pub plural: &'static str,
    /// Where its objects live.
    pub scope: BuiltinScope,
    schema: fn() -> Result<JsonSchemaProps, SchemaErrors>,
    /// k8s-openapi's reflection of the Go type: its definition's name
    /// and schema (with `$ref`s to the other definitions).
    schema_name: fn() -> Cow<'static, str>,
    json_schema: fn(&mut SchemaGenerator) -> Schema,
}

impl std::fmt::Debug for BuiltinKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinKind")
            .field("api_version", &self.api_version)
            .field("kind", &self.kind)
            .field("plural", &self.plural)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

/// The scope of a k8s-openapi `Resource::Scope` type.
pub(super) trait ScopeOf {
    const SCOPE: BuiltinScope;
}

impl ScopeOf for k8s_openapi::NamespaceResourceScope {
    const SCOPE: BuiltinScope = BuiltinScope::Namespaced;
}

impl ScopeOf for k8s_openapi::ClusterResourceScope {
    const SCOPE: BuiltinScope = BuiltinScope::Cluster;
}

impl ScopeOf for k8s_openapi::SubResourceScope {
    const SCOPE: BuiltinScope = BuiltinScope::Subresource;
}

impl BuiltinKind {
    /// The kind of the k8s-openapi resource type `T`.
    pub(super) fn of<T>() -> Self
    where
        T: k8s_openapi::Resource + StructuralSchema + schemars::JsonSchema,
        T::Scope: ScopeOf,
    {
        BuiltinKind {
            api_version: T::API_VERSION,
            group: T::GROUP,
            version: T::VERSION,
            kind: T::KIND,
            plural: T::URL_PATH_SEGMENT,
            scope: <T::Scope as ScopeOf>::SCOPE,
            schema: schema_of::<T>,
            schema_name: <T as schemars::JsonSchema>::schema_name,
            json_schema: <T as schemars::JsonSchema>::json_schema,
        }
    }

    /// The kind's Go type as k8s-openapi reflects it, to tell where an
    /// object fails to decode into it ([`GoType::decode_error`]). Made
    /// anew on each call: keep it.
    #[must_use]
    pub fn go_type(&self) -> GoType {
        let mut generator = SchemaGenerator::new(SchemaSettings::draft2020_12());
        let root = (self.json_schema)(&mut generator).to_value();
        GoType {
            kind: self.kind,
            version: self.version,
            name: (self.schema_name)().into_owned(),
            root,
            defs: generator.take_definitions(false),
        }
    }

    /// The structural schema of the kind's objects: the k8s-openapi
    /// type's, as [`schema_for`](crate::rust::schema_for) gives it, but
    /// with every field of an embedded `ObjectMeta` (a template's
    /// `metadata` is a whole `ObjectMeta` to the API server) and the
    /// root's `metadata` a bare object, which the server validates as an
    /// `ObjectMeta` itself. A recursive type (the `JSONSchemaProps` of a
    /// `CustomResourceDefinition`) is checked down to where it contains
    /// itself, and any value is kept there.
    ///
    /// # Errors
    ///
    /// What the expansion reports for the type.
    pub fn schema(&self) -> Result<JsonSchemaProps, SchemaErrors> {
        (self.schema)()
    }

    /// A CRD standing for the kind: its group, names, scope (a
    /// subresource's body counts as namespaced) and one served storage
    /// version with the kind's schema; the status subresource is enabled
    /// when the schema has a `status`, as the built-in kinds with a status
    /// take it from their status subresource only.
    ///
    /// # Errors
    ///
    /// What [`BuiltinKind::schema`] reports.
    pub fn crd(&self) -> Result<CustomResourceDefinition, SchemaErrors> {
        let schema = self.schema()?;
        let has_status = schema
            .properties
            .as_ref()
            .is_some_and(|p| p.contains_key("status"));
        let group_suffix = if self.group.is_empty() {
            String::new()
        } else {
            format!(".{}", self.group)
        };
        Ok(CustomResourceDefinition {
            api_version: Some("apiextensions.k8s.io/v1".to_string()),
            kind: Some("CustomResourceDefinition".to_string()),
            metadata: Some(serde_json::json!({
                "name": format!("{}{group_suffix}", self.plural),
            })),
            spec: Some(CrdSpec {
                group: Some(self.group.to_string()),
                names: Some(CrdNames {
                    plural: Some(self.plural.to_string()),
                    singular: Some(self.kind.to_ascii_lowercase()),
                    kind: Some(self.kind.to_string()),
                    list_kind: Some(format!("{}List", self.kind)),
                    ..CrdNames::default()
                }),
                scope: Some(
                    match self.scope {
                        BuiltinScope::Cluster => "Cluster",
                        BuiltinScope::Namespaced | BuiltinScope::Subresource => "Namespaced",
                    }
                    .to_string(),
                ),
                versions: Some(vec![CrdVersion {
                    name: Some(self.version.to_string()),
                    served: Some(true),
                    storage: Some(true),
                    schema: Some(CustomResourceValidation {
                        open_api_v3_schema: Some(schema),
                        ..CustomResourceValidation::default()
                    }),
                    subresources: has_status.then(|| CrdSubresources {
                        status: Some(serde_json::json!({})),
                        ..CrdSubresources::default()
                    }),
                    ..CrdVersion::default()
                }]),
                ..CrdSpec::default()
            }),
            ..CustomResourceDefinition::default()
        })
    }
}

/// A built-in kind's Go type, from k8s-openapi's reflection of it.
pub struct GoType {
    kind: &'static str,
    version: &'static str,
    /// The definition's name (`io.k8s.api.apps.v1.Deployment`).
    name: String,
    root: Value,
    defs: Map<String, Value>,
}

/// Why an object does not decode into its kind's Go type (the catalog's
/// type, which takes built-in kinds as [`BuiltinKindSchema`]).
pub use crate::crd::catalog::DecodeError;

/// Where an object first fails to decode.
struct Mismatch {
    /// The value's place, list indexes and map keys included.
    field: Path,
    /// The innermost Go struct holding the field.
    holder: String,
    /// The JSON field names down to it.
    path: String,
    /// The JSON value's kind as encoding/json names it (`string`,
    /// `number 1.5`).
    json: String,
    /// The Go type it does not decode into.
    go_type: String,
}

impl GoType {
    /// What the API server answers when `object` does not decode into the
    /// kind's Go type because a value has the wrong JSON type: the request
    /// is rejected before any validation, with encoding/json's message
    /// (the first such value in document order, the decoder's) wrapped as
    /// the API server wraps a decoding error: `Deployment in version "v1"
    /// cannot be handled as a Deployment: json: cannot unmarshal string
    /// into Go struct field DeploymentSpec.spec.replicas of type int32`.
    /// The Go struct is the innermost one holding the field, the path its
    /// JSON field names (without list indexes or map keys), the type the
    /// field's (a pointer's element type). Values of types with a decoder
    /// of their own (quantities, int-or-strings, times, raw JSON) are not
    /// looked into; unknown fields are passed over.
    #[must_use]
    pub fn decode_error(&self, object: &Value) -> Option<DecodeError> {
        let holder = go_name(&self.name).1;
        let m = self.first_mismatch(&self.root, object, holder, &mut Vec::new())?;
        let message = format!(
            "{kind} in version {version:?} cannot be handled as a {kind}: json: cannot unmarshal \
             {json} into Go struct field {holder}.{path} of type {go_type}",
            kind = self.kind,
            version = self.version,
            json = m.json,
            holder = m.holder,
            path = m.path,
            go_type = m.go_type,
        );
        Some(DecodeError {
            field: m.field,
            message,
        })
    }

    /// The first value below `node`'s `value` that does not decode, with
    /// `holder` the struct holding it and `trail` the way down to it. Only
    /// a mismatch allocates.
    fn first_mismatch<'v>(
        &'v self,
        node: &'v Value,
        value: &'v Value,
        holder: &'v str,
        trail: &mut Vec<TrailStep<'v>>,
    ) -> Option<Mismatch> {
        if value.is_null() {
            return None;
        }
        // The root is the kind's own struct, reflected inline.
        if !trail.is_empty() && !fits(value, shape(node, &self.defs)?) {
            let go_type = go_type(node, &self.defs)?;
            let mut field = Path::root();
            let mut names = Vec::new();
            for step in trail.iter() {
                field = match *step {
                    TrailStep::Field(k) => {
                        names.push(k);
                        field.child(k)
                    }
                    TrailStep::Key(k) => field.key(k),
                    TrailStep::Index(i) => field.index(i),
                };
            }
            return Some(Mismatch {
                field,
                holder: holder.to_string(),
                path: names.join("."),
                json: json_name(value, &go_type),
                go_type,
            });
        }
        let (schema, def) = resolve(node, &self.defs)?;
        let mut below = |node: &'v Value, v: &'v Value, holder: &'v str, step: TrailStep<'v>| {
            trail.push(step);
            let found = self.first_mismatch(node, v, holder, trail);
            trail.pop();
            found
        };
        match (element_kind(schema), value) {
            (Kind::Struct, Value::Object(fields)) => {
                let holder = def.map_or(holder, |d| go_name(d).1);
                let properties = schema.get("properties")?;
                fields.iter().find_map(|(key, v)| {
                    below(properties.get(key)?, v, holder, TrailStep::Field(key))
                })
            }
            (Kind::Map, Value::Object(entries)) => {
                let values = schema.get("additionalProperties")?;
                entries
                    .iter()
                    .find_map(|(k, v)| below(values, v, holder, TrailStep::Key(k)))
            }
            (Kind::List, Value::Array(items)) => {
                let item = schema.get("items")?;
                items
                    .iter()
                    .enumerate()
                    .find_map(|(i, v)| below(item, v, holder, TrailStep::Index(i)))
            }
            _ => None,
        }
    }
}

/// One step of the trail down an object: a struct field, a map key or a
/// list index.
#[derive(Clone, Copy)]
enum TrailStep<'v> {
    Field(&'v str),
    Key(&'v str),
    Index(usize),
}

/// What Go value a reflected schema node decodes into, as far as the JSON
/// types it takes go.
#[derive(Clone, Copy)]
enum Shape {
    Struct,
    List,
    Map,
    Int32,
    Int64,
    Float,
    Bool,
    String,
    /// `[]byte`: base64 in a JSON string (or an array of numbers).
    Bytes,
}

/// The [`Shape`] of `node`, or `None` for a type with a decoder of its
/// own.
fn shape(node: &Value, defs: &Map<String, Value>) -> Option<Shape> {
    let (schema, def) = resolve(node, defs)?;
    let format = schema.get("format").and_then(Value::as_str);
    match (element_kind(schema), def) {
        (Kind::Struct, Some(_)) => Some(Shape::Struct),
        (Kind::List, None) => Some(Shape::List),
        (Kind::Map, None) => Some(Shape::Map),
        (Kind::Other, None) => match (schema.get("type").and_then(Value::as_str)?, format) {
            ("integer", Some("int32")) => Some(Shape::Int32),
            ("integer", Some("int64")) => Some(Shape::Int64),
            ("number", Some("double")) => Some(Shape::Float),
            ("boolean", _) => Some(Shape::Bool),
            ("string", Some("byte")) => Some(Shape::Bytes),
            ("string", None) => Some(Shape::String),
            _ => None,
        },
        _ => None,
    }
}

/// Whether encoding/json decodes `value` into a Go value of `shape`.
fn fits(value: &Value, shape: Shape) -> bool {
    match (value, shape) {
        (Value::Null, _)
        | (Value::String(_), Shape::String | Shape::Bytes)
        | (Value::Bool(_), Shape::Bool)
        | (Value::Array(_), Shape::List | Shape::Bytes)
        | (Value::Object(_), Shape::Map | Shape::Struct)
        | (Value::Number(_), Shape::Float) => true,
        (Value::Number(n), Shape::Int32) => n.as_i64().is_some_and(|i| i32::try_from(i).is_ok()),
        (Value::Number(n), Shape::Int64) => n.is_i64(),
        _ => false,
    }
}

/// How encoding/json names `value` that does not decode into `go_type`
/// (`string`, `number 1.5`).
fn json_name(value: &Value, go_type: &str) -> String {
    match value {
        Value::String(_) => "string".into(),
        Value::Bool(_) => "bool".into(),
        Value::Array(_) => "array".into(),
        Value::Object(_) => "object".into(),
        // encoding/json quotes the literal when it is a number that does
        // not fit the integer type.
        Value::Number(n) if go_type.starts_with("int") => format!("number {n}"),
        _ => "number".into(),
    }
}

/// What a reflected schema node decodes into.
enum Kind {
    /// A Go struct: an object with properties.
    Struct,
    /// A slice.
    List,
    /// A map.
    Map,
    /// A scalar, or a type with a decoder of its own.
    Other,
}

fn element_kind(schema: &Value) -> Kind {
    match schema.get("type").and_then(Value::as_str) {
        Some("array") => Kind::List,
        Some("object") if schema.get("properties").is_some() => Kind::Struct,
        Some("object")
            if schema
                .get("additionalProperties")
                .is_some_and(Value::is_object) =>
        {
            Kind::Map
        }
        _ => Kind::Other,
    }
}

/// `node` with its `$ref` followed: the schema and, for a definition, its
/// name.
fn resolve<'v>(
    node: &'v Value,
    defs: &'v Map<String, Value>,
) -> Option<(&'v Value, Option<&'v str>)> {
    let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
        return Some((node, None));
    };
    let escaped = reference.strip_prefix("#/$defs/")?;
    let (name, schema) = if escaped.contains('~') {
        defs.get_key_value(&super::def_name(reference)?)?
    } else {
        defs.get_key_value(escaped)?
    };
    Some((schema, Some(name.as_str())))
}

/// `io.k8s.api.apps.v1.DeploymentSpec` → (`v1`, `DeploymentSpec`): the
/// Go package's name and the type's.
fn go_name(def: &str) -> (&str, &str) {
    let mut parts = def.rsplit('.');
    let name = parts.next().unwrap_or(def);
    (parts.next().unwrap_or(""), name)
}

/// The Go type a reflected schema node decodes into, as `reflect.Type`
/// prints it (`int32`, `[]v1.Container`, `map[string]string`,
/// `v1.PodSpec`); `None` for a type with a decoder of its own.
fn go_type(node: &Value, defs: &Map<String, Value>) -> Option<String> {
    let (schema, def) = resolve(node, defs)?;
    let format = schema.get("format").and_then(Value::as_str);
    match (element_kind(schema), def) {
        (Kind::Struct, Some(def)) => {
            let (package, name) = go_name(def);
            Some(format!("{package}.{name}"))
        }
        (Kind::List, None) => Some(format!("[]{}", go_type(schema.get("items")?, defs)?)),
        (Kind::Map, None) => Some(format!(
            "map[string]{}",
            go_type(schema.get("additionalProperties")?, defs)?
        )),
        (Kind::Other, None) => match (schema.get("type").and_then(Value::as_str)?, format) {
            ("integer", Some("int32")) => Some("int32".into()),
            ("integer", Some("int64")) => Some("int64".into()),
            ("number", Some("double")) => Some("float64".into()),
            ("boolean", _) => Some("bool".into()),
            ("string", Some("byte")) => Some("[]uint8".into()),
            ("string", None) => Some("string".into()),
            _ => None,
        },
        _ => None,
    }
}

/// [`BuiltinKind::schema`] of `T`.
fn schema_of<T: StructuralSchema>() -> Result<JsonSchemaProps, SchemaErrors> {
    let mut cx = SchemaCx::new();
    cx.set_embedded_object_meta(EmbeddedObjectMeta::Full);
    let mut schema = cx.subschema::<T>();
    if let Some(meta) = schema
        .properties
        .as_mut()
        .and_then(|p| p.get_mut("metadata"))
    {
        *meta = JsonSchemaProps {
            type_: Some("object".to_string()),
            ..JsonSchemaProps::default()
        };
    }
    cx.finish(schema)
}

/// Every built-in kind of the Kubernetes version selected on k8s-openapi,
/// by module path (`api::apps::v1::Deployment` …).
#[must_use]
pub fn builtin_kinds() -> Vec<BuiltinKind> {
    let mut out = Vec::new();
    super::types::kinds(&mut |k| out.push(k));
    out
}

/// Every built-in kind as a [`crate::crd::catalog::Catalog`] takes it:
/// `Catalog::new(crds, &options).with_builtin_kinds(builtin_kind_schemas())`.
#[must_use]
pub fn builtin_kind_schemas() -> Vec<Box<dyn BuiltinKindSchema>> {
    builtin_kinds()
        .into_iter()
        .map(|kind| {
            Box::new(CatalogKind {
                kind,
                go_type: OnceLock::new(),
            }) as Box<dyn BuiltinKindSchema>
        })
        .collect()
}

/// A built-in kind with its Go type, made when first needed.
struct CatalogKind {
    kind: BuiltinKind,
    go_type: OnceLock<GoType>,
}

impl BuiltinKindSchema for CatalogKind {
    fn api_version(&self) -> &str {
        self.kind.api_version
    }

    fn group(&self) -> &str {
        self.kind.group
    }

    fn version(&self) -> &str {
        self.kind.version
    }

    fn kind(&self) -> &str {
        self.kind.kind
    }

    fn crd(&self) -> Result<CustomResourceDefinition, String> {
        self.kind.crd().map_err(|e| e.to_string())
    }

    fn decode_error(&self, object: &Value) -> Option<DecodeError> {
        self.go_type
            .get_or_init(|| self.kind.go_type())
            .decode_error(object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::options::Options;
    use crate::object::admission::Admission;

    /// Every kind's schema expands, and its CRD is admitted from, so an
    /// object of any kind can be validated; the core group's kinds have the
    /// bare version as `apiVersion`.
    #[test]
    fn every_kind_gets_an_admission() {
        let kinds = builtin_kinds();
        assert!(kinds.len() > 80, "{} kinds", kinds.len());
        for k in &kinds {
            let crd = k
                .crd()
                .unwrap_or_else(|e| panic!("{} {}: {e}", k.api_version, k.kind));
            if let Err(e) = Admission::for_crd(&crd, k.version, &Options::default()) {
                panic!("{} {}: {e}", k.api_version, k.kind);
            }
        }
        let find = |api_version: &str, kind: &str| {
            kinds
                .iter()
                .find(|k| k.api_version == api_version && k.kind == kind)
                .copied()
                .unwrap_or_else(|| panic!("no {api_version} {kind}"))
        };
        let cm = find("v1", "ConfigMap");
        assert_eq!(
            (cm.group, cm.plural, cm.scope),
            ("", "configmaps", BuiltinScope::Namespaced)
        );
        assert_eq!(find("v1", "Namespace").scope, BuiltinScope::Cluster);
        assert_eq!(find("apps/v1", "Deployment").plural, "deployments");
    }

    /// A template's `metadata` keeps every `ObjectMeta` field (the API
    /// server decodes it whole); the root's is a bare object.
    #[test]
    fn template_metadata_is_whole() {
        let deployment = builtin_kinds()
            .into_iter()
            .find(|k| k.api_version == "apps/v1" && k.kind == "Deployment")
            .unwrap();
        let schema = deployment.schema().unwrap().to_value();
        assert_eq!(
            schema["properties"]["metadata"],
            serde_json::json!({"type": "object"})
        );
        let meta =
            &schema["properties"]["spec"]["properties"]["template"]["properties"]["metadata"];
        for field in ["labels", "annotations", "ownerReferences", "generateName"] {
            assert!(
                meta["properties"].get(field).is_some(),
                "no {field}: {meta}"
            );
        }
    }
}

#[cfg(test)]
mod decode_tests {
    use super::*;

    fn decode_error(api_version: &str, kind: &str, object: Value) -> Option<DecodeError> {
        builtin_kinds()
            .into_iter()
            .find(|k| k.api_version == api_version && k.kind == kind)
            .unwrap()
            .go_type()
            .decode_error(&object)
    }

    /// encoding/json's messages, with the innermost struct, the JSON field
    /// names and the Go type; the first mismatch in document order.
    #[test]
    fn wrong_json_types_are_decoding_errors() {
        let prefix = "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal";
        let cases = [
            (
                serde_json::json!({"spec": {"replicas": "three"}}),
                "string into Go struct field DeploymentSpec.spec.replicas of type int32",
            ),
            (
                serde_json::json!({"spec": {"replicas": 1.5}}),
                "number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32",
            ),
            (
                serde_json::json!({"spec": {"replicas": 3_000_000_000_u64}}),
                "number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32",
            ),
            (
                serde_json::json!({"metadata": {"labels": {"a": 1}}}),
                "number into Go struct field ObjectMeta.metadata.labels of type string",
            ),
            (
                serde_json::json!({"spec": {"template": {"spec": {"containers": {"name": "x"}}}}}),
                "object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container",
            ),
            (
                serde_json::json!({"spec": {"template": {"spec": {"containers": [{"name": "x", "ports": [{"containerPort": "80"}]}]}}, "replicas": "x"}}),
                "string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32",
            ),
            (
                serde_json::json!({"spec": [1]}),
                "array into Go struct field Deployment.spec of type v1.DeploymentSpec",
            ),
        ];
        for (object, want) in cases {
            assert_eq!(
                decode_error("apps/v1", "Deployment", object.clone()).map(|e| e.message),
                Some(format!("{prefix} {want}")),
                "{object}"
            );
        }
        // What decodes: right types, nulls, unknown fields, and values of
        // types with decoders of their own (their messages are not
        // modelled).
        let e = decode_error(
            "apps/v1",
            "Deployment",
            serde_json::json!({"spec": {"template": {"spec": {"containers": [{}, {"ports": [{"containerPort": "80"}]}]}}}}),
        )
        .unwrap();
        assert_eq!(
            e.field.to_string(),
            "spec.template.spec.containers[1].ports[0].containerPort"
        );
        for object in [
            serde_json::json!({"spec": {"replicas": 2, "paused": null, "bogus": [1]}}),
            serde_json::json!({"spec": {"template": {"spec": {"containers": [{"name": "x", "resources": {"limits": {"cpu": 1}}, "ports": [{"containerPort": 80}]}]}}}}),
            serde_json::json!({"spec": {"strategy": {"rollingUpdate": {"maxSurge": true}}}}),
        ] {
            assert_eq!(
                decode_error("apps/v1", "Deployment", object.clone()),
                None,
                "{object}"
            );
        }
        // `[]byte` takes base64 in a string.
        let secret = serde_json::json!({"data": {"password": "aHVudGVyMg=="}});
        assert_eq!(decode_error("v1", "Secret", secret), None);
        assert_eq!(
            decode_error("v1", "Secret", serde_json::json!({"data": {"password": 1}}))
                .map(|e| e.message),
            Some(
                "Secret in version \"v1\" cannot be handled as a Secret: json: cannot unmarshal \
                 number into Go struct field Secret.data of type []uint8"
                    .to_string()
            )
        );
    }
}
