//! Publishing CRD schemas as OpenAPI v2 and v3, to the letter as the API
//! server publishes them.
//!
//! This reproduces apiextensions-apiserver's
//!
//! * `pkg/apiserver/schema/unfold.go` ([`Structural::unfold`]): every
//!   `x-kubernetes-int-or-string` node gets its `anyOf: [{type: integer},
//!   {type: string}]` (or, when `anyOf` is taken, that `anyOf` as
//!   `allOf[0]`);
//! * `pkg/apiserver/schema/kubeopenapi.go` ([`to_kube_openapi`]): the JSON
//!   emission of a structural schema, quirks included (`additionalProperties`
//!   as a boolean or a schema, nested value validations that emit their
//!   forbidden generic fields and extensions but drop `additionalProperties`,
//!   extensions only when true or non-empty, no `externalDocs` and no
//!   `example` because the structural model has none);
//! * `pkg/controller/openapi/v2/conversion.go` ([`to_structural_openapi_v2`]):
//!   what OpenAPI v2 (and kubectl) cannot take is removed;
//! * `pkg/controller/openapi/builder/builder.go` ([`build_models`],
//!   [`build_openapi_v2`], [`build_openapi_v3`]): the model definition of a
//!   CRD version and its list type, with `apiVersion`, `kind` and
//!   `metadata`, embedded-resource properties,
//!   `x-kubernetes-group-version-kind` and `x-kubernetes-selectable-fields`;
//! * kube-openapi's `builder3/util.WrapRefs` (v3: a `$ref` with siblings
//!   becomes `allOf: [{$ref}]`) and `handler.PruneDefaults` (v2: no
//!   `default` anywhere);
//! * the v2 and v3 OpenAPI controllers ([`publish_v2`], [`publish_v3`]):
//!   every served version, in one Swagger 2.0 document, or one OpenAPI 3.0
//!   document per group-version.
//!
//! Documents are self-contained: besides the CRD's models they hold the
//! apimachinery definitions the models refer to (`ObjectMeta`, `ListMeta`,
//! `ManagedFieldsEntry`, `OwnerReference`, `Time`, `FieldsV1`), as the API
//! server publishes them. `paths` is left empty.
//!
//! Keys of every schema object come in the order kube-openapi's
//! `spec.Schema` marshals them (its `SchemaProps` fields, then
//! `SwaggerSchemaProps`, then `$ref`, then the extensions sorted), and
//! `properties` and definition maps are sorted by name, as Go marshals maps.
//! Numbers that Go holds as `float64` (`maximum`, `minimum`, `multipleOf`,
//! and non-integer JSON numbers in `default` and `enum`) are written as Go
//! writes them: an integral value has no fraction.
//!
//! The steps have their files: `unfold`, `v2_conversion`
//! (`ToStructuralOpenAPIV2`), `kube_openapi` (`ToKubeOpenAPI`),
//! `publishable` (which schemas the builder publishes), `models` (the
//! builder's models of a CRD version), `documents` (the Swagger and OpenAPI
//! documents with the apimachinery definitions, from `apimachinery`) and
//! `schema_json` (walks over schemas written as JSON: key order, `WrapRefs`,
//! `PruneDefaults`, refs). This file holds the options, the errors and the
//! controllers' entry points.
//!
//! [`Structural::unfold`]: crate::model::structural::Structural::unfold

mod apimachinery;
mod documents;
mod kube_openapi;
pub mod merge;
mod models;
mod publishable;
mod schema_json;
#[cfg(test)]
mod tests;
mod unfold;
mod v2_conversion;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::kube_version::KubeVersion;
use crate::model::options::Options;
use crate::model::structural::NewStructuralError;
use crate::model::wire::{CustomResourceDefinition, JsonSchemaProps};
use documents::{add_referenced_definitions, swagger_document, version_definitions};
use models::crd_names;
use publishable::publishable;
use schema_json::prune_defaults;

pub use documents::{build_openapi_v2, build_openapi_v3};
pub use kube_openapi::to_kube_openapi;
pub use models::{VersionModels, build_models, model_name};
pub use publishable::schema_has_invalid_types;
pub use unfold::unfold_in_place;
pub use v2_conversion::to_structural_openapi_v2;

/// Where OpenAPI v2 keeps its models (`#/definitions/<name>`).
pub const DEFINITION_PREFIX_V2: &str = "#/definitions/";
/// Where OpenAPI v3 keeps its models (`#/components/schemas/<name>`).
pub const DEFINITION_PREFIX_V3: &str = "#/components/schemas/";
/// The model name of `metav1.ObjectMeta`.
pub const OBJECT_META_MODEL: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
/// The model name of `metav1.ListMeta`.
pub const LIST_META_MODEL: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
/// The extension naming the group, version and kind of a model.
pub const GVK_EXTENSION: &str = "x-kubernetes-group-version-kind";
/// The extension listing the selectable fields of a model.
pub const SELECTABLE_FIELDS_EXTENSION: &str = "x-kubernetes-selectable-fields";

/// Why a schema or a CRD version could not be published.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PublishError {
    /// The CRD has no version of that name (`GetSchemaForVersion`).
    #[error("version {version} not found in apiextensionsv1.CustomResourceDefinition: {crd}")]
    VersionNotFound {
        /// The CRD's `metadata.name`.
        crd: String,
        /// The version asked for.
        version: String,
    },
    /// A bare schema that `NewStructural` rejects.
    #[error("{0}")]
    NewStructural(#[from] NewStructuralError),
    /// A bare schema with a `type` outside the six OpenAPI types
    /// (`SchemaHasInvalidTypes`).
    #[error("the schema has a type other than array, boolean, integer, number, object or string")]
    InvalidTypes,
    /// A bare schema that is not structural (the `ValidateStructural`
    /// errors, as strings).
    #[error("the schema is not structural: {}", .0.join("; "))]
    NonStructural(Vec<String>),
    /// The embedded apimachinery definitions could not be read (a bug).
    #[error("internal error: {0}")]
    Internal(String),
}

/// The OpenAPI version a model is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpenApiVersion {
    /// Swagger 2.0 (`/openapi/v2`): refs to `#/definitions/`, the schema
    /// passed through [`to_structural_openapi_v2`].
    V2,
    /// OpenAPI 3.0 (`/openapi/v3/apis/<group>/<version>`): refs to
    /// `#/components/schemas/`, wrapped in `allOf` when they have siblings.
    V3,
}

impl OpenApiVersion {
    fn prefix(self) -> &'static str {
        match self {
            OpenApiVersion::V2 => DEFINITION_PREFIX_V2,
            OpenApiVersion::V3 => DEFINITION_PREFIX_V3,
        }
    }
}

/// Options of the model builder (`builder.Options`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// `IncludeSelectableFields`: the `CustomResourceFieldSelectors` feature
    /// gate (on by default since Kubernetes 1.32), which adds
    /// `x-kubernetes-selectable-fields` to the model and its list.
    pub include_selectable_fields: bool,
    /// `AllowNonStructural`: publish schemas that fail `ValidateStructural`
    /// too. The API server's controllers leave it off.
    pub allow_non_structural: bool,
    /// Whether `externalDocs` and `example` are published (Kubernetes 1.36
    /// and later carry them into the structural schema).
    pub keep_external_docs_and_example: bool,
    /// Whether a version without selectable fields gets an empty
    /// `x-kubernetes-selectable-fields` list (`buildSelectableFields` of
    /// Kubernetes 1.32, whose check of an empty list was inverted).
    pub empty_selectable_fields: bool,
}

impl BuildOptions {
    /// What the OpenAPI controllers of the API server of release `kube`
    /// use.
    pub fn at(kube: KubeVersion) -> Self {
        BuildOptions {
            include_selectable_fields: kube.field_selectors(),
            allow_non_structural: false,
            keep_external_docs_and_example: kube.publishes_external_docs_and_example(),
            empty_selectable_fields: kube.publishes_empty_selectable_fields(),
        }
    }
}

impl Default for BuildOptions {
    /// What the API server's OpenAPI controllers use.
    fn default() -> Self {
        BuildOptions::at(KubeVersion::default())
    }
}

/// The names of the served versions, in the CRD's order.
pub(crate) fn served_versions(crd: &CustomResourceDefinition) -> Vec<&str> {
    crd.spec
        .as_ref()
        .and_then(|s| s.versions.as_deref())
        .unwrap_or(&[])
        .iter()
        .filter(|v| v.served == Some(true))
        .filter_map(|v| v.name.as_deref())
        .collect()
}

/// What the OpenAPI v2 controller publishes for a CRD: one Swagger 2.0
/// document with the models of every served version, their lists and the
/// apimachinery definitions they refer to, with every `default` removed
/// (`PruneDefaults`). The controller's options are those of the release
/// `options` names ([`BuildOptions::at`]).
/// A CRD with no served version gives a document without definitions.
///
/// # Errors
///
/// [`PublishError::Internal`] only (served versions always exist).
pub fn publish_v2(
    crd: &CustomResourceDefinition,
    options: &Options,
) -> Result<Value, PublishError> {
    let opts = BuildOptions::at(options.kube_version);
    let mut defs = BTreeMap::new();
    for version in served_versions(crd) {
        version_definitions(crd, version, OpenApiVersion::V2, &opts, &mut defs)?;
    }
    add_referenced_definitions(&mut defs, OpenApiVersion::V2)?;
    for def in defs.values_mut() {
        if let Value::Object(m) = def {
            prune_defaults(m);
        }
    }
    Ok(swagger_document(defs))
}

/// What the OpenAPI v3 controller publishes for a CRD: for every served
/// version, the document served at `/openapi/v3/apis/<group>/<version>`
/// (keyed `apis/<group>/<version>`), with the version's models, its list
/// and the apimachinery definitions they refer to in
/// `components.schemas`. Defaults are kept. The controller's options are
/// those of the release `options` names ([`BuildOptions::at`]).
///
/// # Errors
///
/// [`PublishError::Internal`] only.
pub fn publish_v3(
    crd: &CustomResourceDefinition,
    options: &Options,
) -> Result<BTreeMap<String, Value>, PublishError> {
    let opts = BuildOptions::at(options.kube_version);
    let group = crd_names(crd).group;
    let mut out = BTreeMap::new();
    for version in served_versions(crd) {
        let doc = build_openapi_v3(crd, version, &opts)?;
        out.insert(format!("apis/{group}/{version}"), doc);
    }
    Ok(out)
}

/// A bare schema (the content of `openAPIV3Schema`) as published in
/// OpenAPI v3: `NewStructural`, `Unfold`, `ToKubeOpenAPI`. Only the schema:
/// no `apiVersion`, `kind`, `metadata` or extensions are added (use
/// [`build_models`] for the model of a CRD version), as the release
/// `options` names publishes it.
///
/// # Errors
///
/// Where the builder would fall back to `{type: object}`:
/// [`PublishError::InvalidTypes`], [`PublishError::NewStructural`],
/// [`PublishError::NonStructural`].
pub fn publish_schema_v3(
    schema: &JsonSchemaProps,
    options: &Options,
) -> Result<Value, PublishError> {
    let kube = options.kube_version;
    let s = publishable(schema, false, kube.publishes_external_docs_and_example())?;
    Ok(to_kube_openapi(&s))
}

/// A bare schema as published in OpenAPI v2: `NewStructural`, `Unfold`,
/// [`to_structural_openapi_v2`], `ToKubeOpenAPI`, then every `default`
/// removed. Only the schema (see [`publish_schema_v3`]); note that the
/// model of a CRD whose root preserves unknown fields is published in v2
/// as `{type: object}`, which [`build_models`] does and this does not.
///
/// # Errors
///
/// As [`publish_schema_v3`].
pub fn publish_schema_v2(
    schema: &JsonSchemaProps,
    options: &Options,
) -> Result<Value, PublishError> {
    let kube = options.kube_version;
    let s = publishable(schema, false, kube.publishes_external_docs_and_example())?;
    let mut v = to_kube_openapi(&to_structural_openapi_v2(&s));
    if let Value::Object(m) = &mut v {
        prune_defaults(m);
    }
    Ok(v)
}
