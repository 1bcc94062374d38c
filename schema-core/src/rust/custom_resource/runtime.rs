//! What the code `#[schema(crd(...))]` generates calls: the constant record
//! of a version ([`CrdDef`]), the root schema as controller-gen writes it
//! for a Go root type, controller-gen's `maxDescLen` truncation, and the
//! serde shapes of the root type.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::{CrdError, ObjectMeta};
use crate::model::wire::{
    CrdSubresources, CrdVersion, CustomResourceValidation, JsonSchemaProps, PrinterColumn,
    ScaleSubresource, SchemaOrArray, SchemaOrBool, SchemaOrStringArray, SelectableField,
};
use crate::rust::{SchemaCx, StructuralSchema};

pub use serde;
pub use serde::de::IgnoredAny;

#[cfg(feature = "k8s-openapi")]
pub use k8s_openapi;

#[cfg(feature = "kube")]
pub use kube_core;

/// `CustomResourceExt::crd`: the CRD of `T` as k8s-openapi's type. A CRD
/// without a schema (kube-derive's `schema = "manual"` or `"disabled"`) is
/// returned unvalidated, for the user to complete. The trait leaves no
/// room for an error, so one (a CRD the API server would reject, which the
/// derive's compile-time checks do not catch) is a panic naming it, as
/// kube-derive's is.
#[cfg(feature = "kube")]
#[allow(clippy::panic)]
pub fn kube_crd<T: crate::rust::CustomResource>()
-> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
    let schemaless = |crd: &crate::model::wire::CustomResourceDefinition| {
        crd.spec
            .iter()
            .flat_map(|s| s.versions.iter().flatten())
            .any(|v| {
                v.schema
                    .as_ref()
                    .is_none_or(|s| s.open_api_v3_schema.is_none())
            })
    };
    let crd = match T::crd() {
        Ok(crd) => crd,
        Err(e) => match super::assemble_crd::<T>() {
            Ok(crd) if schemaless(&crd) => crd,
            _ => panic!("{}::crd(): {e}", T::KIND),
        },
    };
    match crate::rust::to_k8s_crd(&crd) {
        Ok(crd) => crd,
        Err(e) => panic!("{}::crd(): k8s-openapi cannot read the CRD: {e}", T::KIND),
    }
}

/// `apiVersion`'s description in every controller-gen root schema
/// (`metav1.TypeMeta`'s doc).
pub const API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";

/// `kind`'s description in every controller-gen root schema.
pub const KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The schema of `T`, as a function pointer for [`CrdDef`].
pub fn schema_of<T: StructuralSchema + ?Sized>(cx: &mut SchemaCx) -> JsonSchemaProps {
    cx.subschema::<T>()
}

/// `scale(...)`.
#[derive(Clone, Copy, Debug)]
pub struct ScaleDef {
    /// `spec_replicas_path`.
    pub spec_replicas_path: &'static str,
    /// `status_replicas_path`.
    pub status_replicas_path: &'static str,
    /// `label_selector_path`.
    pub label_selector_path: Option<&'static str>,
}

/// One `printer_column(...)`.
#[derive(Clone, Copy, Debug)]
pub struct ColumnDef {
    /// `name`.
    pub name: &'static str,
    /// `type`.
    pub type_: &'static str,
    /// `format`.
    pub format: Option<&'static str>,
    /// `description`.
    pub description: Option<&'static str>,
    /// `priority`.
    pub priority: Option<i64>,
    /// `json_path`.
    pub json_path: &'static str,
}

/// Where the root schema of a version comes from.
#[derive(Clone, Copy, Debug)]
pub enum RootDef {
    /// `crd(...)` on a spec struct: the root controller-gen writes for a
    /// Go root type around the spec and the status.
    Generated {
        /// The spec struct's schema.
        spec: fn(&mut SchemaCx) -> JsonSchemaProps,
        /// `spec_optional`.
        spec_optional: bool,
        /// `status = T`: its schema.
        status: Option<fn(&mut SchemaCx) -> JsonSchemaProps>,
        /// `doc`: the root schema's description.
        description: Option<&'static str>,
        /// The root schema's `title` (kube-derive's: the root type's name).
        title: Option<&'static str>,
        /// The status schema is `nullable` (kube-derive's: the status is
        /// an `Option` field, and schemars marks those nullable).
        status_nullable: bool,
    },
    /// `crd(object_root, ...)`: the struct's own schema is the root.
    Object(fn(&mut SchemaCx) -> JsonSchemaProps),
    /// No schema: the version's `schema` has no `openAPIV3Schema`
    /// (kube-derive's `schema = "manual"` and `"disabled"`), for the user
    /// to set before the CRD is applied.
    Absent,
}

/// The version-level part of `crd(...)`, as a constant.
#[derive(Clone, Copy, Debug)]
pub struct CrdDef {
    /// The root type's name, for error paths.
    pub root: &'static str,
    /// `version`.
    pub version: &'static str,
    /// The root schema.
    pub schema: RootDef,
    /// Applies the root schema's own attributes (its CEL rules), if any.
    pub root_rules: Option<fn(&mut SchemaCx, &mut JsonSchemaProps)>,
    /// Whether the version has the status subresource.
    pub status_subresource: bool,
    /// `empty_subresources`: `subresources: {}` without status or scale.
    pub empty_subresources: bool,
    /// `scale(...)`.
    pub scale: Option<ScaleDef>,
    /// `printer_column(...)`, in order.
    pub printer_columns: &'static [ColumnDef],
    /// `selectable_field`, in order.
    pub selectable_fields: &'static [&'static str],
    /// `served`.
    pub served: bool,
    /// `storage`.
    pub storage: bool,
    /// `deprecated` (or implied by `deprecation_warning`).
    pub deprecated: bool,
    /// `deprecation_warning`.
    pub deprecation_warning: Option<&'static str>,
    /// `max_description_len`.
    pub max_description_len: Option<i64>,
    /// `generate_embedded_object_meta`.
    pub generate_embedded_object_meta: bool,
}

fn string_prop(description: &str) -> JsonSchemaProps {
    JsonSchemaProps {
        description: Some(description.to_string()),
        type_: Some("string".into()),
        ..JsonSchemaProps::default()
    }
}

/// The version entry of a CRD: the root schema (built as controller-gen
/// builds it for a Go root type, `TypeMeta` + `ObjectMeta` + spec +
/// status, or the `object_root` struct's own), subresources, printer
/// columns and selectable fields. Not yet validated:
/// [`crate::rust::CustomResource::crd`] validates the whole CRD.
///
/// # Errors
///
/// [`CrdError::Schema`] with every error of the root's schemas.
pub fn crd_version(def: &CrdDef) -> Result<CrdVersion, CrdError> {
    let mut cx = SchemaCx::new();
    cx.root = Some(def.root.to_string());
    cx.set_generate_embedded_object_meta(def.generate_embedded_object_meta);
    let mut root = match def.schema {
        RootDef::Generated {
            spec,
            spec_optional,
            status,
            description,
            title,
            status_nullable,
        } => {
            let mut root = generated_root(&mut cx, spec, spec_optional, status, description);
            root.title = title.map(str::to_string);
            if status_nullable {
                if let Some(status) = root.properties.as_mut().and_then(|p| p.get_mut("status")) {
                    status.nullable = Some(true);
                }
            }
            root
        }
        RootDef::Object(object) => object(&mut cx),
        RootDef::Absent => JsonSchemaProps::default(),
    };
    if let Some(rules) = def.root_rules {
        rules(&mut cx, &mut root);
    }
    let root = cx.finish(root.clone()).map(|_| {
        if let Some(max) = def.max_description_len {
            truncate_descriptions(&mut root, usize::try_from(max).unwrap_or(usize::MAX));
        }
        root
    });
    let root = root.map_err(CrdError::Schema)?;
    let root = (!matches!(def.schema, RootDef::Absent)).then_some(root);

    let status_enabled = def.status_subresource;
    let scale = def.scale.map(|s| ScaleSubresource {
        spec_replicas_path: Some(s.spec_replicas_path.to_string()),
        status_replicas_path: Some(s.status_replicas_path.to_string()),
        label_selector_path: s.label_selector_path.map(str::to_string),
        ..ScaleSubresource::default()
    });
    let subresources =
        (status_enabled || scale.is_some() || def.empty_subresources).then(|| CrdSubresources {
            status: status_enabled.then(|| serde_json::Value::Object(serde_json::Map::new())),
            scale,
            ..CrdSubresources::default()
        });
    let columns: Vec<PrinterColumn> = def
        .printer_columns
        .iter()
        .map(|c| PrinterColumn {
            name: Some(c.name.to_string()),
            type_: Some(c.type_.to_string()),
            format: c.format.map(str::to_string),
            description: c.description.map(str::to_string),
            priority: c.priority.filter(|p| *p != 0),
            json_path: Some(c.json_path.to_string()),
            ..PrinterColumn::default()
        })
        .collect();
    let selectable: Vec<SelectableField> = def
        .selectable_fields
        .iter()
        .map(|f| SelectableField {
            json_path: Some((*f).to_string()),
            ..SelectableField::default()
        })
        .collect();
    Ok(CrdVersion {
        name: Some(def.version.to_string()),
        served: Some(def.served),
        storage: Some(def.storage),
        deprecated: def.deprecated.then_some(true),
        deprecation_warning: def.deprecation_warning.map(str::to_string),
        schema: Some(CustomResourceValidation {
            open_api_v3_schema: root,
            ..CustomResourceValidation::default()
        }),
        subresources,
        additional_printer_columns: (!columns.is_empty()).then_some(columns),
        selectable_fields: (!selectable.is_empty()).then_some(selectable),
        ..CrdVersion::default()
    })
}

/// The root controller-gen writes for a Go root type: `TypeMeta`,
/// `ObjectMeta`, the spec and the status.
fn generated_root(
    cx: &mut SchemaCx,
    spec: fn(&mut SchemaCx) -> JsonSchemaProps,
    spec_optional: bool,
    status: Option<fn(&mut SchemaCx) -> JsonSchemaProps>,
    description: Option<&'static str>,
) -> JsonSchemaProps {
    let spec = cx.in_property("spec", spec);
    let status = status.map(|status| cx.in_property("status", status));
    let mut props: IndexMap<String, JsonSchemaProps> = IndexMap::new();
    props.insert("apiVersion".into(), string_prop(API_VERSION_DESCRIPTION));
    props.insert("kind".into(), string_prop(KIND_DESCRIPTION));
    props.insert(
        "metadata".into(),
        JsonSchemaProps {
            type_: Some("object".into()),
            ..JsonSchemaProps::default()
        },
    );
    props.insert("spec".into(), spec);
    if let Some(status) = status {
        props.insert("status".into(), status);
    }
    JsonSchemaProps {
        description: description.map(str::to_string),
        type_: Some("object".into()),
        required: (!spec_optional).then(|| vec!["spec".to_string()]),
        properties: Some(props),
        ..JsonSchemaProps::default()
    }
}

/// controller-gen's `TruncateDescription` (`maxDescLen`): every
/// description in the schema longer than `max` bytes is cut to `max`
/// bytes, then back to the last sentence terminator (kept), else to the
/// last white space (followed by `...`), else kept at `max` bytes followed
/// by `...`; `0` removes every description.
pub fn truncate_descriptions(s: &mut JsonSchemaProps, max: usize) {
    if max == 0 {
        s.description = None;
    } else if let Some(d) = &s.description {
        if d.len() > max {
            s.description = Some(truncate_string(d, max));
        }
    }
    let mut children: Vec<&mut JsonSchemaProps> = Vec::new();
    if let Some(p) = &mut s.properties {
        children.extend(p.values_mut());
    }
    if let Some(p) = &mut s.pattern_properties {
        children.extend(p.values_mut());
    }
    if let Some(p) = &mut s.definitions {
        children.extend(p.values_mut());
    }
    if let Some(d) = &mut s.dependencies {
        children.extend(d.values_mut().filter_map(|d| match d {
            SchemaOrStringArray::Schema(s) => Some(&mut **s),
            SchemaOrStringArray::Property(_) => None,
        }));
    }
    match &mut s.items {
        Some(SchemaOrArray::Schema(i)) => children.push(i),
        Some(SchemaOrArray::Array(a)) => children.extend(a.iter_mut()),
        None => {}
    }
    for b in [&mut s.additional_properties, &mut s.additional_items] {
        if let Some(SchemaOrBool::Schema(b)) = b {
            children.push(b);
        }
    }
    for list in [&mut s.all_of, &mut s.any_of, &mut s.one_of]
        .into_iter()
        .flatten()
    {
        children.extend(list.iter_mut());
    }
    if let Some(n) = &mut s.not {
        children.push(n);
    }
    for c in children {
        truncate_descriptions(c, max);
    }
}

/// controller-gen's `truncateString`, on bytes as Go slices strings. A cut
/// inside a multi-byte character leaves invalid UTF-8 in Go, which
/// `encoding/json` writes as one U+FFFD per invalid byte; so does this.
pub fn truncate_string(desc: &str, max: usize) -> String {
    let bytes = desc.as_bytes();
    if bytes.len() <= max {
        return desc.to_string();
    }
    let cut = bytes.get(..max).unwrap_or(bytes);
    // `strings.LastIndexFunc` over the runes of the cut (an incomplete
    // trailing sequence decodes as U+FFFD, which matches neither).
    let runes = go_runes(cut);
    let last = |pred: fn(char) -> bool| {
        runes
            .iter()
            .rev()
            .find(|(_, c)| pred(*c))
            .map(|(n, _)| *n)
            .filter(|n| *n > 0)
    };
    // `desc[0 : n+1]`: one byte of the terminator, as Go slices.
    if let Some(n) = last(is_sentence_terminal) {
        return go_string(bytes.get(..=n).unwrap_or(cut));
    }
    if let Some(n) = last(char::is_whitespace) {
        return go_string(bytes.get(..n).unwrap_or(cut)) + "...";
    }
    go_string(cut) + "..."
}

/// The runes of a byte string as Go ranges over it: (byte offset, rune),
/// an invalid or incomplete sequence giving U+FFFD for one byte.
fn go_runes(b: &[u8]) -> Vec<(usize, char)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let rest = b.get(i..).unwrap_or_default();
        let valid = match std::str::from_utf8(rest) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(rest.get(..e.valid_up_to()).unwrap_or_default())
                .unwrap_or_default(),
        };
        match valid.chars().next() {
            Some(c) => {
                out.push((i, c));
                i += c.len_utf8();
            }
            None => {
                out.push((i, char::REPLACEMENT_CHARACTER));
                i += 1;
            }
        }
    }
    out
}

/// Bytes to a string as Go's `encoding/json` writes them.
fn go_string(b: &[u8]) -> String {
    go_runes(b).into_iter().map(|(_, c)| c).collect()
}

/// Unicode's `Sentence_Terminal` property (Go's `unicode.STerm`).
fn is_sentence_terminal(c: char) -> bool {
    const RANGES: &[(u32, u32)] = &[
        (0x21, 0x21),
        (0x2e, 0x2e),
        (0x3f, 0x3f),
        (0x589, 0x589),
        (0x61d, 0x61f),
        (0x6d4, 0x6d4),
        (0x700, 0x702),
        (0x7f9, 0x7f9),
        (0x837, 0x837),
        (0x839, 0x839),
        (0x83d, 0x83e),
        (0x964, 0x965),
        (0x104a, 0x104b),
        (0x1362, 0x1362),
        (0x1367, 0x1368),
        (0x166e, 0x166e),
        (0x1735, 0x1736),
        (0x17d4, 0x17d5),
        (0x1803, 0x1803),
        (0x1809, 0x1809),
        (0x1944, 0x1945),
        (0x1aa8, 0x1aab),
        (0x1b4e, 0x1b4f),
        (0x1b5a, 0x1b5b),
        (0x1b5e, 0x1b5f),
        (0x1b7d, 0x1b7f),
        (0x1c3b, 0x1c3c),
        (0x1c7e, 0x1c7f),
        (0x2024, 0x2024),
        (0x203c, 0x203d),
        (0x2047, 0x2049),
        (0x2cf9, 0x2cfb),
        (0x2e2e, 0x2e2e),
        (0x2e3c, 0x2e3c),
        (0x2e53, 0x2e54),
        (0x3002, 0x3002),
        (0xa4ff, 0xa4ff),
        (0xa60e, 0xa60f),
        (0xa6f3, 0xa6f3),
        (0xa6f7, 0xa6f7),
        (0xa876, 0xa877),
        (0xa8ce, 0xa8cf),
        (0xa92f, 0xa92f),
        (0xa9c8, 0xa9c9),
        (0xaa5d, 0xaa5f),
        (0xaaf0, 0xaaf1),
        (0xabeb, 0xabeb),
        (0xfe12, 0xfe12),
        (0xfe15, 0xfe16),
        (0xfe52, 0xfe52),
        (0xfe56, 0xfe57),
        (0xff01, 0xff01),
        (0xff0e, 0xff0e),
        (0xff1f, 0xff1f),
        (0xff61, 0xff61),
    ];
    let c = u32::from(c);
    RANGES.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c))
}

/// What the root type reads: type meta (checked by [`check_type_meta`]),
/// metadata, spec and status.
#[derive(Deserialize)]
pub struct RootIn<Spec, Status> {
    /// `apiVersion`.
    #[serde(rename = "apiVersion", default)]
    pub api_version: Option<String>,
    /// `kind`.
    #[serde(default)]
    pub kind: Option<String>,
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: Spec,
    /// `status` (serde reads a missing `Option` as `None`).
    pub status: Option<Status>,
}

/// What the root type writes: its type meta first, then metadata, spec
/// (left out when an optional spec is absent) and status (left out when
/// absent).
#[derive(Serialize)]
pub struct RootOut<'a, Spec, Status> {
    /// `apiVersion`.
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    /// `kind`.
    pub kind: &'static str,
    /// `metadata`.
    pub metadata: &'a ObjectMeta,
    /// `spec`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec: Option<&'a Spec>,
    /// `status`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<&'a Status>,
}

/// Rejects an object of another apiVersion or kind (absent ones are
/// accepted: the type says what they are).
///
/// # Errors
///
/// `invalid apiVersion "a/v2": expected "a/v1"` (or the same for `kind`).
pub fn check_type_meta<E: serde::de::Error>(
    api_version: &Option<String>,
    kind: &Option<String>,
    want_api_version: &str,
    want_kind: &str,
) -> Result<(), E> {
    if let Some(v) = api_version.as_deref().filter(|v| *v != want_api_version) {
        return Err(E::custom(format!(
            "invalid apiVersion {v:?}: expected {want_api_version:?} for kind {want_kind}"
        )));
    }
    if let Some(k) = kind.as_deref().filter(|k| *k != want_kind) {
        return Err(E::custom(format!(
            "invalid kind {k:?}: expected {want_kind:?}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_as_controller_gen() {
        // controller-tools' testdata (maxDescLen=50).
        assert_eq!(
            truncate_string(API_VERSION_DESCRIPTION, 50),
            "APIVersion defines the versioned schema of this..."
        );
        assert_eq!(
            truncate_string(KIND_DESCRIPTION, 50),
            "Kind is a string value representing the REST..."
        );
        // A sentence boundary wins and is kept.
        assert_eq!(
            truncate_string("First sentence. Second one is long.", 20),
            "First sentence."
        );
        // No boundary at all: the cut plus an ellipsis.
        assert_eq!(truncate_string("abcdefghij", 4), "abcd...");
        // Not longer than the limit: unchanged.
        assert_eq!(truncate_string("short", 5), "short");
        // A boundary at index 0 does not count.
        assert_eq!(truncate_string(".abcdefgh", 4), ".abc...");
        // A cut inside a multi-byte character: one U+FFFD per byte, as Go.
        assert_eq!(truncate_string("ab\u{20ac}cd", 4), "ab\u{fffd}\u{fffd}...");
        // A multi-byte terminator: Go keeps only its first byte.
        assert_eq!(truncate_string("ab\u{3002}cdef", 6), "ab\u{fffd}");
    }
}
