//! [`StructuralSchema`](super::StructuralSchema) for the k8s-openapi types (the `k8s-openapi`
//! feature), with the schemas controller-gen emits for the corresponding Go
//! types.
//!
//! The schemas follow the Kubernetes version the final crate selects on
//! k8s-openapi (`v1_33` … `v1_37`, `latest`); this crate selects none. They
//! are built from k8s-openapi's own reflection, its `schemars::JsonSchema`
//! implementations (generated from the Kubernetes OpenAPI document of that
//! version), in four steps:
//!
//! 1. every `$ref` is inlined (a structural schema has none); a type met
//!    again inside itself (`JSONSchemaProps`) is reported as a recursive
//!    type through the [`SchemaCx`], as for derived types;
//! 2. the types controller-gen knows specially get its schemas
//!    (`known`): `Quantity` is int-or-string (`anyOf` integer/string,
//!    `x-kubernetes-int-or-string`) with the quantity `pattern`;
//!    `IntOrString` is int-or-string; `Time` and `MicroTime` are
//!    `string`/`date-time`; `RawExtension` is an object that keeps unknown
//!    fields and `JSON` any value that does; an embedded `ObjectMeta` is
//!    `{type: object}`, as controller-gen writes it by default, or, with
//!    `crd(generate_embedded_object_meta)` (controller-gen's
//!    `generateEmbeddedObjectMeta`), the object of the fields a template
//!    may set (`name`, `namespace`, `labels`, `annotations`,
//!    `finalizers`);
//! 3. `metadata` is not required (k8s-openapi requires it because its
//!    Rust field is not an `Option`; the Go field is `omitempty`);
//! 4. the details the OpenAPI document leaves out but controller-gen
//!    emits from the Go markers are patched in from a table
//!    (`overlay.rs`): list and map types, list-map keys, defaults,
//!    marker validations (`Condition`'s patterns and bounds) and the
//!    `required` lists where the two disagree.
//!
//! Descriptions are k8s-openapi's: the OpenAPI document joins the lines
//! of a Go doc comment with spaces where controller-gen keeps the
//! newlines. That is the one known difference from controller-gen's
//! output. The table covers the types a pod template reaches (containers,
//! volumes, affinity, tolerations, probes, security contexts, resource
//! requirements …), the job and deployment specs, `Condition`,
//! `LabelSelector` and the object references; other types get the
//! k8s-openapi schema with steps 1 to 3 only.
//!
//! Mind the default for an embedded `ObjectMeta`: under a bare
//! `type: object` the API server prunes every field of a template's
//! `metadata`, labels included, as it does for CRDs controller-gen
//! generates without `generateEmbeddedObjectMeta`. A CRD whose templates
//! carry labels or annotations sets `crd(generate_embedded_object_meta)`;
//! [`schema_for_embedded_object_meta`](super::schema_for_embedded_object_meta)
//! is `schema_for` with it.
//!
//! ```
//! use k8s_openapi::api::core::v1::PodTemplateSpec;
//! use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
//! use schema_core::StructuralSchema;
//!
//! #[derive(StructuralSchema)]
//! struct WorkerSpec {
//!     /// The pod each worker runs.
//!     template: PodTemplateSpec,
//!     /// Scratch space per worker.
//!     scratch: Option<Quantity>,
//! }
//!
//! let schema = schema_core::rust::schema_for::<WorkerSpec>().unwrap().to_value();
//! let ports = &schema["properties"]["template"]["properties"]["spec"]["properties"]
//!     ["containers"]["items"]["properties"]["ports"];
//! assert_eq!(ports["x-kubernetes-list-type"], "map");
//! assert_eq!(ports["x-kubernetes-list-map-keys"], serde_json::json!(["containerPort", "protocol"]));
//! assert_eq!(schema["properties"]["scratch"]["x-kubernetes-int-or-string"], true);
//! ```
//!
//! k8s-openapi needs one Kubernetes version feature in the build: a crate
//! using this feature depends on k8s-openapi itself with one (`v1_35`,
//! `latest` …). Building schema-core alone with the feature needs
//! `K8S_OPENAPI_ENABLED_VERSION=1.35` (or another version) in the
//! environment, as k8s-openapi documents.

use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value};

use super::{MAX_DEPTH, SchemaCx};
use crate::model::field::Path;
use crate::model::wire::JsonSchemaProps;
use crate::model::wire::codec::DecodeCx;

/// The pattern controller-gen gives `resource.Quantity`.
pub const QUANTITY_PATTERN: &str = r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$";

/// `impl StructuralSchema` for k8s-openapi types, by path below
/// `k8s_openapi::`; `$group` lists them for the tests.
macro_rules! k8s_types {
    ($group:ident: $($($seg:ident)::+),* $(,)?) => {
        $(
            impl $crate::rust::StructuralSchema for k8s_openapi::$($seg)::+ {
                fn schema(cx: &mut $crate::rust::SchemaCx) -> $crate::model::wire::JsonSchemaProps {
                    $crate::rust::k8s::schema_of(
                        cx,
                        &<Self as schemars::JsonSchema>::schema_name(),
                        <Self as schemars::JsonSchema>::json_schema,
                    )
                }
            }
        )*

        #[cfg(test)]
        fn $group(f: &mut dyn FnMut(&'static str, super::SchemaFn)) {
            $(
                f(
                    stringify!($($seg)::+),
                    $crate::rust::schema_for::<k8s_openapi::$($seg)::+>,
                );
            )*
        }
    };
}

/// `schema_for` of one type.
#[cfg(test)]
type SchemaFn = fn() -> Result<JsonSchemaProps, super::SchemaErrors>;

use k8s_types;

mod overlay;
mod types;

/// The structural schema of the k8s-openapi type whose schemars name is
/// `name` and whose schemars schema `json_schema` writes.
fn schema_of(
    cx: &mut SchemaCx,
    name: &str,
    json_schema: fn(&mut SchemaGenerator) -> Schema,
) -> JsonSchemaProps {
    let mut generator = SchemaGenerator::new(SchemaSettings::draft2020_12());
    let root = json_schema(&mut generator).to_value();
    let defs = generator.take_definitions(false);
    let mut expander = Expander {
        defs: &defs,
        stack: Vec::new(),
    };
    let value = expander.named(cx, name, &root);
    let mut dcx = DecodeCx::default();
    let props = JsonSchemaProps::from_value(&value, &Path::root(), &mut dcx);
    for issue in dcx.errors {
        cx.error(format!(
            "the k8s-openapi schema of `{name}` is not a valid schema at `{}`: {}",
            issue.field, issue.message
        ));
    }
    props.unwrap_or_default()
}

/// Inlines the definitions of one schemars generation.
struct Expander<'a> {
    defs: &'a Map<String, Value>,
    /// The schema names being expanded (to detect recursion).
    stack: Vec<String>,
}

impl Expander<'_> {
    /// The schema named `name`, whose schemars schema is `schema`, with
    /// its references inlined and controller-gen's conventions applied.
    fn named(&mut self, cx: &mut SchemaCx, name: &str, schema: &Value) -> Value {
        if self.stack.iter().any(|n| n == name) {
            let mut cycle: Vec<&str> = self
                .stack
                .iter()
                .skip_while(|n| *n != name)
                .map(|n| short_name(n))
                .collect();
            cycle.push(short_name(name));
            cx.error(format!(
                "recursive type: `{}` contains itself ({}); a structural schema has no \
                 `$ref`, so it cannot describe a recursive type: give this field's schema \
                 with `#[schema(type = \"object\", preserve_unknown_fields)]` or \
                 `#[schema(with = path)]`",
                short_name(name),
                cycle.join(" -> "),
            ));
            return Value::Object(Map::new());
        }
        if self.stack.len() >= MAX_DEPTH {
            cx.error(format!("the schema nests deeper than {MAX_DEPTH} levels"));
            return Value::Object(Map::new());
        }
        if let Some(known) = known(name) {
            return known;
        }
        if name == OBJECT_META && !cx.generate_embedded_object_meta() {
            return serde_json::json!({"type": "object"});
        }
        self.stack.push(name.to_string());
        let mut value = self.node(cx, schema);
        self.stack.pop();
        if name == OBJECT_META {
            embedded_object_meta(&mut value);
        }
        if has_standard_metadata(schema) {
            optional_metadata(&mut value);
        }
        apply_patches(name, &mut value);
        value
    }

    /// One schema node, references inlined.
    fn node(&mut self, cx: &mut SchemaCx, schema: &Value) -> Value {
        let Value::Object(map) = schema else {
            return schema.clone();
        };
        if let Some(Value::String(reference)) = map.get("$ref") {
            let Some(name) = def_name(reference) else {
                cx.error(format!(
                    "the k8s-openapi schema has the reference `{reference}`, which is not to \
                     a definition"
                ));
                return Value::Object(Map::new());
            };
            let Some(def) = self.defs.get(&name) else {
                cx.error(format!(
                    "the k8s-openapi schema refers to `{name}`, which it does not define"
                ));
                return Value::Object(Map::new());
            };
            let mut value = self.named(cx, &name, def);
            // Keys next to the reference (the property's own
            // description) win over the referenced type's.
            if let Value::Object(out) = &mut value {
                for (k, v) in map {
                    if k != "$ref" {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            return value;
        }
        let mut out = Map::with_capacity(map.len());
        for (k, v) in map {
            let v = match (k.as_str(), v) {
                ("properties", Value::Object(props)) => Value::Object(
                    props
                        .iter()
                        .map(|(p, s)| (p.clone(), cx.in_property(p, |cx| self.node(cx, s))))
                        .collect(),
                ),
                ("items", _) => cx.in_items(|cx| self.node(cx, v)),
                ("additionalProperties", _) => cx.in_values(|cx| self.node(cx, v)),
                ("allOf" | "anyOf" | "oneOf", Value::Array(all)) => {
                    Value::Array(all.iter().map(|s| self.node(cx, s)).collect())
                }
                ("not", _) => self.node(cx, v),
                _ => v.clone(),
            };
            out.insert(k.clone(), v);
        }
        Value::Object(out)
    }
}

/// The definition name of a schemars reference (`#/$defs/NAME`, the name
/// JSON-pointer escaped).
fn def_name(reference: &str) -> Option<String> {
    let escaped = reference.strip_prefix("#/$defs/")?;
    if escaped.contains('/') || escaped.contains('%') {
        return None;
    }
    Some(escaped.replace("~1", "/").replace("~0", "~"))
}

/// `io.k8s.api.core.v1.Container` → `Container`.
fn short_name(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";

/// The schemas of the types controller-gen maps specially (its
/// `known_types.go`); they carry no description of their own (a field's
/// description is added next to them).
fn known(name: &str) -> Option<Value> {
    let value = match name {
        "io.k8s.apimachinery.pkg.api.resource.Quantity" => serde_json::json!({
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "pattern": QUANTITY_PATTERN,
            "x-kubernetes-int-or-string": true,
        }),
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString" => serde_json::json!({
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "x-kubernetes-int-or-string": true,
        }),
        "io.k8s.apimachinery.pkg.apis.meta.v1.Time"
        | "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime" => serde_json::json!({
            "type": "string",
            "format": "date-time",
        }),
        "io.k8s.apimachinery.pkg.runtime.RawExtension" => serde_json::json!({
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": true,
        }),
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON" => serde_json::json!({
            "x-kubernetes-preserve-unknown-fields": true,
        }),
        // controller-gen's `Fields` is an object allowing any property;
        // keeping unknown fields is its structural form.
        "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1" => serde_json::json!({
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": true,
        }),
        _ => return None,
    };
    Some(value)
}

/// Whether the schemars schema has a `metadata` property of type
/// `ObjectMeta` or `ListMeta` (an object or a list of the API).
fn has_standard_metadata(schema: &Value) -> bool {
    let Some(Value::String(reference)) = schema.pointer("/properties/metadata/$ref") else {
        return false;
    };
    def_name(reference).is_some_and(|n| n == OBJECT_META || n == LIST_META)
}

/// Makes `metadata` optional. k8s-openapi requires it (its Rust field is
/// not an `Option`); in Go it is `omitempty`, so controller-gen does not.
fn optional_metadata(value: &mut Value) {
    let Value::Object(map) = value else { return };
    let empty = match map.get_mut("required") {
        Some(Value::Array(required)) => {
            required.retain(|r| r != "metadata");
            required.is_empty()
        }
        _ => false,
    };
    if empty {
        map.remove("required");
    }
}

/// The fields of an embedded `ObjectMeta` that controller-gen keeps with
/// `generateEmbeddedObjectMeta` (the others are set by the server).
const EMBEDDED_OBJECT_META: [&str; 5] =
    ["annotations", "finalizers", "labels", "name", "namespace"];

/// Restricts an expanded `ObjectMeta` to [`EMBEDDED_OBJECT_META`], without
/// `required`, list types or the fields' descriptions (controller-gen
/// writes the five fields bare; the field holding the `ObjectMeta` keeps
/// its own description).
fn embedded_object_meta(value: &mut Value) {
    let Value::Object(map) = value else { return };
    map.remove("required");
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        props.retain(|k, _| EMBEDDED_OBJECT_META.contains(&k.as_str()));
        for p in props.values_mut() {
            if let Value::Object(p) = p {
                p.remove("x-kubernetes-list-type");
                p.remove("description");
            }
        }
    }
}

use overlay::{PATCHES, Patch};

/// The patches of the schema named `name`.
fn patches_of(name: &str) -> &'static [Patch] {
    let start = PATCHES.partition_point(|p| p.schema < name);
    let len = PATCHES[start..]
        .iter()
        .take_while(|p| p.schema == name)
        .count();
    &PATCHES[start..start + len]
}

/// Applies the patches of `name` to its expanded schema. A patch whose
/// path does not exist (a field of another Kubernetes version) is skipped.
fn apply_patches(name: &str, value: &mut Value) {
    for patch in patches_of(name) {
        let Some(Value::Object(target)) = walk(value, patch.path) else {
            continue;
        };
        for (key, v) in patch.set {
            let v = v.to_value();
            if v.is_null() {
                target.remove(*key);
            } else {
                target.insert((*key).to_string(), v);
            }
        }
    }
}

/// The node at `path` (property names, `[]` items, `{}` map values).
fn walk<'v>(value: &'v mut Value, path: &[&str]) -> Option<&'v mut Value> {
    let mut cur = value;
    for seg in path {
        cur = match *seg {
            "[]" => cur.get_mut("items")?,
            "{}" => cur.get_mut("additionalProperties")?,
            p => cur.get_mut("properties")?.get_mut(p)?,
        };
    }
    Some(cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patches_are_sorted_and_well_formed() {
        for w in PATCHES.windows(2) {
            assert!(
                (w[0].schema, w[0].path) < (w[1].schema, w[1].path),
                "{} {:?} is out of order",
                w[1].schema,
                w[1].path
            );
        }
        assert_eq!(
            patches_of("io.k8s.api.core.v1.ContainerPort").len(),
            1,
            "ContainerPort has one patch"
        );
    }

    /// The recursive Kubernetes types: `JSONSchemaProps` (and the unions
    /// that contain it), and from 1.37 the scheduling
    /// `CompositePodGroupTemplate`.
    const RECURSIVE: [&str; 5] = [
        "JSONSchemaProps",
        "JSONSchemaPropsOrArray",
        "JSONSchemaPropsOrBool",
        "JSONSchemaPropsOrStringArray",
        "CompositePodGroupTemplate",
    ];

    /// Every implementing type of the selected version has a schema that
    /// the API server accepts embedded in a CRD (as a property of the
    /// root), or contains one of the [`RECURSIVE`] types.
    #[test]
    fn every_type_is_a_valid_crd_schema() {
        use crate::crd::check::check;
        use crate::model::wire::input::Input;
        let mut count = 0;
        let mut failures = Vec::new();
        types::each(&mut |name, schema_for| {
            count += 1;
            let name = name.replace(' ', "");
            let s = match schema_for() {
                Ok(s) => s,
                Err(e) => {
                    let recursive = e.0.iter().all(|e| {
                        RECURSIVE.iter().any(|r| {
                            e.message
                                .starts_with(&format!("recursive type: `{r}` contains itself"))
                        })
                    });
                    if !recursive {
                        failures.push(format!("{name}: {e}"));
                    }
                    return;
                }
            };
            let root = JsonSchemaProps {
                type_: Some("object".to_string()),
                properties: Some([("value".to_string(), s)].into_iter().collect()),
                ..JsonSchemaProps::default()
            };
            let report = check(&Input::Schema(Box::new(root)));
            for e in report.errors {
                failures.push(format!("{name}: {e}"));
            }
            for w in report.warnings {
                failures.push(format!("{name}: warning: {w:?}"));
            }
        });
        assert!(count > 500, "only {count} types");
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn reference_names() {
        assert_eq!(
            def_name("#/$defs/io.k8s.api.core.v1.Container").as_deref(),
            Some("io.k8s.api.core.v1.Container")
        );
        assert_eq!(def_name("#/$defs/a~1b~0c").as_deref(), Some("a/b~c"));
        assert_eq!(def_name("#/definitions/x"), None);
    }
}
