//! Rust types to structural schemas: the [`StructuralSchema`] trait, its
//! implementations for the standard library and `serde_json` types, and the
//! expansion context [`SchemaCx`] that `#[derive(StructuralSchema)]` code
//! runs in.
//!
//! A type's schema is a [`JsonSchemaProps`] of the wire model, the same
//! lossless model every other front end produces; [`crate::model::structural`]
//! reads it as the server does. Expansion is a plain recursive call through
//! [`SchemaCx::subschema`], which keeps the stack of types being expanded:
//! a type met again inside itself is a recursive type, which a structural
//! schema (no `$ref`) cannot describe, so it becomes an error naming the
//! cycle instead of an endless expansion. Nesting through the context is
//! also bounded ([`MAX_SCHEMA_NESTING`]). (A hand-written implementation
//! that calls its own `schema` directly, bypassing the context, is not
//! protected: always expand nested types with [`SchemaCx::subschema`].)
//!
//! # The mapping (see also `ARCHITECTURE.md`)
//!
//! | Rust | schema |
//! | --- | --- |
//! | `bool` | `type: boolean` |
//! | `i8`, `i16` | `integer`, `int32`, with the type's bounds |
//! | `i32` / `i64`, `isize` | `integer`, `int32` / `int64` |
//! | `u8`, `u16` | `integer`, `int32`, `minimum: 0`, the type's maximum |
//! | `u32` | `integer`, `int64`, `minimum: 0`, `maximum: 4294967295` |
//! | `u64`, `usize` | `integer`, `int64`, `minimum: 0` (never the unknown `uint*` formats) |
//! | `f32` / `f64` | `number`, `float` / `double` |
//! | `String`, `str`, `Cow<str>` | `string` |
//! | `char` | `string`, `minLength: 1`, `maxLength: 1` |
//! | `Vec<T>`, `VecDeque<T>`, `[T]` | `array` of `T` |
//! | `[T; N]` | `array` of `T`, `minItems: N`, `maxItems: N` (serde writes exactly `N` items) |
//! | `BTreeSet<T>`, `HashSet<T>`, `IndexSet<T>` | `array` of `T`, `x-kubernetes-list-type: set` |
//! | `BTreeMap<K, V>`, `HashMap<K, V>`, `IndexMap<K, V>` (string-like `K`, see [`MapKey`]) | `object`, `additionalProperties: V` |
//! | `serde_json::Value` | `x-kubernetes-preserve-unknown-fields: true` (no type: any JSON) |
//! | `serde_json::Map<String, Value>` | `object`, `x-kubernetes-preserve-unknown-fields: true` |
//! | `Option<T>` | `T`'s schema; the field is not required. `nullable` only when asked |
//! | `Box<T>`, `Rc<T>`, `Arc<T>`, `&T`, `Cow<T>` | `T`'s schema |
//! | enum of unit variants | `string`, `enum` of the variant names |
//! | enum with data (externally tagged) | `object`, one optional property per variant, a rule: exactly one is set |
//! | `#[serde(tag = "t")]` enum | `object`: the tag (a required string `enum`) and the variants' fields merged, rules tying each field to its variants |
//! | `#[serde(tag = "t", content = "c")]` enum | `object`: the tag and the content (the variants' objects merged, or their one schema), rules tying them |
//! | `#[serde(untagged)]` enum of an integer and a string | `x-kubernetes-int-or-string` (and `anyOf: [integer, string]`) |
//! | `jiff::Timestamp` | `string`, `date-time` |
//!
//! With the `k8s-openapi` feature, the k8s-openapi types have the schema
//! controller-gen emits for the Go type, under the Kubernetes version the
//! final crate selects on k8s-openapi (see the `k8s` module):
//!
//! | k8s-openapi | schema |
//! | --- | --- |
//! | `Quantity` | `anyOf: [{type: integer}, {type: string}]`, `x-kubernetes-int-or-string: true`, the quantity `pattern` (`k8s::QUANTITY_PATTERN`) |
//! | `IntOrString` | `anyOf: [{type: integer}, {type: string}]`, `x-kubernetes-int-or-string: true` |
//! | `Time`, `MicroTime` | `string`, `date-time` |
//! | `metav1.Duration` fields (a `String` in k8s-openapi) | `string` |
//! | `RawExtension` | `object`, `x-kubernetes-preserve-unknown-fields: true` |
//! | apiextensions `JSON` | `x-kubernetes-preserve-unknown-fields: true` |
//! | `ObjectMeta` (embedded, as in a pod template) | `{type: object}`, as controller-gen writes it by default; with `crd(generate_embedded_object_meta)`, `object` with `name`, `namespace`, `labels`, `annotations`, `finalizers` (its `generateEmbeddedObjectMeta` form) |
//! | every other type (`PodTemplateSpec`, `Container`, `Condition`, `LabelSelector` …) | its properties, `required`, list and map types, list-map keys, defaults and marker validations as controller-gen writes them; descriptions are k8s-openapi's (space-joined where controller-gen keeps newlines) |
//!
//! Tuples, `()`, `i128`/`u128` and maps with non-string keys have no
//! implementation: they have no structural form, and using them is a
//! compile error that says so.
//!
//! Recursion is detected by the name of the type
//! ([`std::any::type_name`]), so generic instances are told apart.
#![doc = include_str!("attributes.md")]

mod custom_resource;
mod impls;
#[cfg(feature = "k8s-openapi")]
pub mod k8s;

#[doc(hidden)]
pub mod __private;

use std::fmt;

use crate::model::wire::JsonSchemaProps;

#[cfg(feature = "k8s-openapi")]
pub use custom_resource::to_k8s_crd;
pub use custom_resource::{
    CelValidationError, CrdError, CrdFilesError, CustomResource, FileProblem, MergeError,
    ObjectMeta, Scope, UPDATE_CRDS_ENV, UPDATE_DOCS_ENV, crd_file_name, crd_yaml, is_empty_meta,
    merge_crds, merge_crds_with, sync_crd_files, sync_doc_files, validate_cel, validate_crd,
};

pub use crate::model::wire::codec::MAX_SCHEMA_NESTING;

/// A Rust type with a structural schema.
///
/// Derive it with `#[derive(StructuralSchema)]` (the `derive` feature,
/// on by default). A hand-written implementation builds its schema in
/// [`StructuralSchema::schema`] and expands the types it contains with
/// [`SchemaCx::subschema`], never by calling their `schema` directly, so
/// that recursion is detected.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no structural schema",
    label = "`{Self}` does not implement `StructuralSchema`",
    note = "derive it with `#[derive(StructuralSchema)]`, or give this field's schema with `#[schema(with = path)]`, `#[schema(type = \"...\")]` or `#[schema(schemaless)]`",
    note = "tuples, `()`, `i128`/`u128` and maps whose keys are not strings have no structural schema"
)]
pub trait StructuralSchema {
    /// Whether a struct field of this type may be left out: `true` for
    /// `Option<T>` (and wrappers of it), so such a field is not `required`.
    const OPTIONAL: bool = false;

    /// The type's name in messages (`Vec<Tree>`), without module paths.
    fn schema_name() -> String {
        short_type_name(std::any::type_name::<Self>())
    }

    /// The type's schema. Nested types are expanded through `cx`.
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps;
}

/// Types whose values serialize as strings, so that they can be the keys of
/// a map (a JSON object): strings and unit-variant enums that derive
/// [`StructuralSchema`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the key of a map in a structural schema",
    label = "not a string-like key",
    note = "the keys of a JSON object are strings: use `String`, or a unit-variant enum that derives `StructuralSchema`"
)]
pub trait MapKey {}

/// The schema of `T`, or every error found while expanding it.
pub fn schema_for<T: StructuralSchema + ?Sized>() -> Result<JsonSchemaProps, SchemaErrors> {
    let mut cx = SchemaCx::new();
    let s = cx.subschema::<T>();
    cx.finish(s)
}

/// [`schema_for`] with embedded `ObjectMeta`s expanded
/// ([`SchemaCx::generate_embedded_object_meta`]).
pub fn schema_for_embedded_object_meta<T: StructuralSchema + ?Sized>()
-> Result<JsonSchemaProps, SchemaErrors> {
    let mut cx = SchemaCx::new();
    cx.set_generate_embedded_object_meta(true);
    let s = cx.subschema::<T>();
    cx.finish(s)
}

/// An error found while expanding a schema: where (the Rust type the
/// expansion started from and the field path inside it) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    /// Where, e.g. `Foo.spec.items[*]` (`Foo` alone for the root).
    pub path: String,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Every error of one expansion, in the order found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaErrors(pub Vec<SchemaError>);

impl fmt::Display for SchemaErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SchemaErrors {}

#[derive(Clone, Debug)]
enum Seg {
    Field(String),
    Items,
    Values,
}

struct Frame {
    type_name: &'static str,
    path_len: usize,
}

/// The expansion context: the stack of types being expanded (for recursion
/// detection), the field path (for messages) and the errors found.
#[derive(Default)]
pub struct SchemaCx {
    stack: Vec<Frame>,
    root: Option<String>,
    path: Vec<Seg>,
    errors: Vec<SchemaError>,
    embedded_object_meta: EmbeddedObjectMeta,
}

/// What an `ObjectMeta` below the root expands into.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum EmbeddedObjectMeta {
    /// `{type: object}`, controller-gen's default.
    #[default]
    Bare,
    /// The fields a template may set, controller-gen's
    /// `generateEmbeddedObjectMeta`.
    Template,
    /// Every field, as the API server decodes a built-in kind's template.
    #[cfg_attr(not(feature = "k8s-openapi"), allow(dead_code))]
    Full,
}

impl SchemaCx {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether an `ObjectMeta` below the root (a pod template's
    /// `metadata`) expands into the fields a template may set (`name`,
    /// `namespace`, `labels`, `annotations`, `finalizers`), as
    /// controller-gen's `generateEmbeddedObjectMeta` option does. Off by
    /// default, as in controller-gen: the embedded `metadata` is then a
    /// bare `{type: object}`, whose fields the API server prunes.
    pub fn generate_embedded_object_meta(&self) -> bool {
        self.embedded_object_meta == EmbeddedObjectMeta::Template
    }

    /// What an `ObjectMeta` below the root expands into.
    #[cfg_attr(not(feature = "k8s-openapi"), allow(dead_code))]
    pub(crate) fn embedded_object_meta(&self) -> EmbeddedObjectMeta {
        self.embedded_object_meta
    }

    /// Sets [`SchemaCx::embedded_object_meta`].
    #[cfg_attr(not(feature = "k8s-openapi"), allow(dead_code))]
    pub(crate) fn set_embedded_object_meta(&mut self, form: EmbeddedObjectMeta) {
        self.embedded_object_meta = form;
    }

    /// Sets [`SchemaCx::generate_embedded_object_meta`]
    /// (`crd(generate_embedded_object_meta)` sets it for a CRD's schemas).
    pub fn set_generate_embedded_object_meta(&mut self, on: bool) {
        self.embedded_object_meta = if on {
            EmbeddedObjectMeta::Template
        } else {
            EmbeddedObjectMeta::Bare
        };
    }

    /// The schema of `T`, expanded here. A type already being expanded
    /// (a recursive type) and nesting deeper than [`MAX_SCHEMA_NESTING`] are
    /// reported and give an empty schema.
    pub fn subschema<T: StructuralSchema + ?Sized>(&mut self) -> JsonSchemaProps {
        let type_name = std::any::type_name::<T>();
        if self.root.is_none() {
            self.root = Some(T::schema_name());
        }
        if let Some(start) = self.stack.iter().position(|f| f.type_name == type_name) {
            let cycle: Vec<String> = self.stack[start..]
                .iter()
                .map(|f| short_type_name(f.type_name))
                .chain(std::iter::once(T::schema_name()))
                .collect();
            let at = render_path(
                &short_type_name(self.stack[start].type_name),
                &self.path[self.stack[start].path_len..],
            );
            self.error(format!(
                "recursive type: `{}` contains itself ({}, at `{at}`); a structural schema \
                 has no `$ref`, so it cannot describe a recursive type: break the cycle with \
                 `#[schema(type = \"object\", preserve_unknown_fields)]` or \
                 `#[schema(with = path)]` on a field of the cycle",
                T::schema_name(),
                cycle.join(" -> "),
            ));
            return JsonSchemaProps::default();
        }
        if self.stack.len() >= MAX_SCHEMA_NESTING {
            self.error(format!(
                "the schema nests deeper than {MAX_SCHEMA_NESTING} levels"
            ));
            return JsonSchemaProps::default();
        }
        self.stack.push(Frame {
            type_name,
            path_len: self.path.len(),
        });
        let s = T::schema(self);
        self.stack.pop();
        s
    }

    /// Runs `f` with the property `name` appended to the field path.
    pub fn in_property<R>(&mut self, name: &str, f: impl FnOnce(&mut Self) -> R) -> R {
        self.path.push(Seg::Field(name.to_string()));
        let r = f(self);
        self.path.pop();
        r
    }

    /// Runs `f` with the array items appended to the field path.
    pub fn in_items<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        self.path.push(Seg::Items);
        let r = f(self);
        self.path.pop();
        r
    }

    /// Runs `f` with the map values appended to the field path.
    pub fn in_values<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        self.path.push(Seg::Values);
        let r = f(self);
        self.path.pop();
        r
    }

    /// Records an error at the current field path.
    pub fn error(&mut self, message: impl Into<String>) {
        let root = self.root.clone().unwrap_or_default();
        self.errors.push(SchemaError {
            path: render_path(&root, &self.path),
            message: message.into(),
        });
    }

    /// The errors found so far.
    pub fn errors(&self) -> &[SchemaError] {
        &self.errors
    }

    /// The schema, or the errors found while building it.
    pub fn finish(self, schema: JsonSchemaProps) -> Result<JsonSchemaProps, SchemaErrors> {
        if self.errors.is_empty() {
            Ok(schema)
        } else {
            Err(SchemaErrors(self.errors))
        }
    }
}

fn render_path(root: &str, segs: &[Seg]) -> String {
    let mut out = root.to_string();
    for s in segs {
        match s {
            Seg::Field(name) => {
                out.push('.');
                out.push_str(name);
            }
            Seg::Items => out.push_str("[*]"),
            Seg::Values => out.push_str(".*"),
        }
    }
    out
}

/// A type name from [`std::any::type_name`] without module paths:
/// `alloc::vec::Vec<my_crate::Tree>` becomes `Vec<Tree>`.
pub fn short_type_name(full: &str) -> String {
    let mut out = String::with_capacity(full.len());
    let mut segment_start = 0;
    for c in full.chars() {
        if c.is_alphanumeric() || c == '_' {
            out.push(c);
        } else if c == ':' {
            // Drop the path written so far in this segment (`a::b::` -> ``).
            out.truncate(segment_start);
        } else {
            out.push(c);
            segment_start = out.len();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names() {
        assert_eq!(
            short_type_name("alloc::vec::Vec<my_crate::a::Tree>"),
            "Vec<Tree>"
        );
        assert_eq!(
            short_type_name("std::collections::hash::map::HashMap<alloc::string::String, u8>"),
            "HashMap<String, u8>"
        );
        assert_eq!(short_type_name("[u8; 4]"), "[u8; 4]");
        assert_eq!(short_type_name("&str"), "&str");
    }
}
