//! Custom resources from Rust types: the [`CustomResource`] trait that
//! `#[schema(crd(...))]` implements on the root type it generates, the
//! CRD it builds (checked with the API server's CRD validation, the same
//! check as `schema-gen check`), [`merge_crds`] for several versions of one
//! kind, and the YAML files ([`sync_crd_files`] and the
//! [`sync_crds!`](crate::sync_crds) macro).

mod cel;
mod files;
#[cfg(not(feature = "k8s-openapi"))]
mod meta;
pub mod runtime;

use std::fmt;

use crate::crd::check::check;
use crate::model::field::{ErrorList, FieldError, Path};
use crate::model::options::Options;
use crate::model::wire::codec::{DecodeCx, Wire};
use crate::model::wire::input::Input;
use crate::model::wire::{CrdConversion, CrdNames, CrdSpec, CrdVersion, CustomResourceDefinition};
use crate::rust::SchemaErrors;

pub use cel::{CelValidationError, validate_cel};
pub use files::{
    CrdFilesError, FileProblem, UPDATE_CRDS_ENV, UPDATE_DOCS_ENV, crd_file_name, crd_yaml,
    sync_crd_files, sync_doc_files,
};

/// The `metadata` of a custom resource: k8s-openapi's `ObjectMeta` with
/// the `k8s-openapi` feature, else a small serde struct of the common
/// fields that keeps every other key.
#[cfg(feature = "k8s-openapi")]
pub type ObjectMeta = k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
#[cfg(not(feature = "k8s-openapi"))]
pub use meta::ObjectMeta;

/// Whether `meta` is empty (the default): for
/// `#[serde(skip_serializing_if = "schema_core::rust::is_empty_meta")]` on
/// an optional `metadata` field.
pub fn is_empty_meta(meta: &ObjectMeta) -> bool {
    *meta == ObjectMeta::default()
}

/// Whether a custom resource lives in namespaces (`spec.scope`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `Namespaced`.
    Namespaced,
    /// `Cluster` (the default of controller-gen and kube).
    Cluster,
}

impl Scope {
    /// `Namespaced` or `Cluster`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::Namespaced => "Namespaced",
            Scope::Cluster => "Cluster",
        }
    }
}

/// A custom resource's root type, as `#[schema(crd(...))]` generates it
/// (`Foo { metadata, spec, status }`): its names, and its CRD.
///
/// ```
/// use schema_core::StructuralSchema;
/// use schema_core::rust::CustomResource;
/// use serde::{Deserialize, Serialize};
///
/// /// A pet.
/// #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
/// #[schema(crd(group = "example.com", version = "v1", kind = "Pet", namespaced))]
/// pub struct PetSpec {
///     /// Its name.
///     pub name: String,
/// }
///
/// let crd = Pet::crd().unwrap();
/// assert_eq!(crd.name(), Some("pets.example.com"));
/// assert_eq!(Pet::API_VERSION, "example.com/v1");
/// let pet = Pet::new("rex", PetSpec { name: "Rex".into() });
/// assert_eq!(
///     serde_json::to_value(&pet).unwrap(),
///     serde_json::json!({
///         "apiVersion": "example.com/v1",
///         "kind": "Pet",
///         "metadata": {"name": "rex"},
///         "spec": {"name": "Rex"}
///     })
/// );
/// ```
pub trait CustomResource: Sized {
    /// The spec struct.
    type Spec;
    /// `spec.group`.
    const GROUP: &'static str;
    /// The version (`spec.versions[*].name`).
    const VERSION: &'static str;
    /// `spec.names.kind`.
    const KIND: &'static str;
    /// `group/version`, written in `apiVersion`.
    const API_VERSION: &'static str;
    /// `spec.names.plural`.
    const PLURAL: &'static str;
    /// `spec.names.singular`.
    const SINGULAR: &'static str;
    /// `spec.names.listKind`.
    const LIST_KIND: &'static str;
    /// `spec.names.shortNames`.
    const SHORT_NAMES: &'static [&'static str];
    /// `spec.names.categories`.
    const CATEGORIES: &'static [&'static str];
    /// The names the CRD leaves out for the API server to default
    /// (`singular`, `listKind`: `crd(explicit_names, ...)` without them).
    const OMITTED_NAMES: &'static [&'static str] = &[];
    /// The CRD's `metadata.annotations` (`crd(annotations = {...})`), in
    /// order.
    const ANNOTATIONS: &'static [(&'static str, &'static str)] = &[];
    /// The CRD's `metadata.labels` (`crd(labels = {...})`), in order.
    const LABELS: &'static [(&'static str, &'static str)] = &[];
    /// `spec.preserveUnknownFields` (`crd(preserve_unknown_fields =
    /// false)`; a v1 CRD may only set it to `false`).
    const PRESERVE_UNKNOWN_FIELDS: Option<bool> = None;

    /// `spec.conversion` as JSON (`crd(conversion = {...})`): `None`
    /// leaves it for the API server to default (`strategy: None`).
    fn conversion() -> Option<serde_json::Value> {
        None
    }
    /// `spec.scope`.
    const SCOPE: Scope;
    /// The CRD's name, `plural.group`.
    const CRD_NAME: &'static str;

    /// This version's entry of the CRD (schema, subresources, columns,
    /// selectable fields), not validated on its own.
    ///
    /// # Errors
    ///
    /// [`CrdError::Schema`] when a schema cannot be built.
    fn crd_version() -> Result<CrdVersion, CrdError>;

    /// The CRD of this version alone, validated as the API server
    /// validates a create (see [`validate_crd`]).
    /// Never panics: every problem is an error. For several versions of
    /// one kind, give their CRDs to [`merge_crds`]; a version declared with
    /// `storage = false` is meant for that, so its CRD alone is checked as
    /// if it were the storage version (and returned as declared).
    ///
    /// # Errors
    ///
    /// [`CrdError::Schema`] when a schema cannot be built,
    /// [`CrdError::Invalid`] with the API server's errors.
    fn crd() -> Result<CustomResourceDefinition, CrdError> {
        Self::crd_with(&Options::default())
    }

    /// [`CustomResource::crd`] validated as the API server of release
    /// `options.kube_version` validates a create (its CEL libraries for
    /// rules, its feature gates; see
    /// [`KubeVersion`](crate::model::kube_version::KubeVersion)).
    ///
    /// # Errors
    ///
    /// As [`CustomResource::crd`].
    fn crd_with(options: &Options) -> Result<CustomResourceDefinition, CrdError> {
        let crd = assemble_crd::<Self>()?;
        // A version with `storage = false` is meant to be merged with the
        // storage version: alone, it is checked as if it were that one.
        let mut checked = crd.clone();
        if let Some(v) = checked
            .spec
            .as_mut()
            .and_then(|s| s.versions.as_mut())
            .and_then(|v| v.first_mut())
        {
            v.storage = Some(true);
        }
        validate_crd(&checked, options)?;
        Ok(crd)
    }
}

/// The CRD of `T`'s version alone, not validated.
///
/// # Errors
///
/// [`CrdError::Schema`] when a schema cannot be built.
pub(crate) fn assemble_crd<T: CustomResource>() -> Result<CustomResourceDefinition, CrdError> {
    let crd = assemble(
        T::GROUP,
        names(
            T::PLURAL,
            (!T::OMITTED_NAMES.contains(&"singular")).then_some(T::SINGULAR),
            T::KIND,
            (!T::OMITTED_NAMES.contains(&"listKind")).then_some(T::LIST_KIND),
            T::SHORT_NAMES,
            T::CATEGORIES,
        ),
        T::SCOPE,
        T::ANNOTATIONS,
        vec![T::crd_version()?],
    );
    with_crd_settings(crd, T::LABELS, T::PRESERVE_UNKNOWN_FIELDS, T::conversion())
}

fn names(
    plural: &str,
    singular: Option<&str>,
    kind: &str,
    list_kind: Option<&str>,
    short_names: &[&str],
    categories: &[&str],
) -> CrdNames {
    let list = |l: &[&str]| (!l.is_empty()).then(|| l.iter().map(|s| (*s).to_string()).collect());
    CrdNames {
        plural: Some(plural.to_string()),
        singular: singular.map(str::to_string),
        short_names: list(short_names),
        kind: Some(kind.to_string()),
        list_kind: list_kind.map(str::to_string),
        categories: list(categories),
        ..CrdNames::default()
    }
}

fn assemble(
    group: &str,
    names: CrdNames,
    scope: Scope,
    annotations: &[(&str, &str)],
    versions: Vec<CrdVersion>,
) -> CustomResourceDefinition {
    let name = format!("{}.{group}", names.plural.as_deref().unwrap_or_default());
    let mut metadata = serde_json::json!({ "name": name });
    if !annotations.is_empty() {
        let map: serde_json::Map<String, serde_json::Value> = annotations
            .iter()
            .map(|(k, v)| ((*k).to_string(), serde_json::Value::from(*v)))
            .collect();
        metadata["annotations"] = serde_json::Value::Object(map);
    }
    CustomResourceDefinition {
        api_version: Some("apiextensions.k8s.io/v1".into()),
        kind: Some("CustomResourceDefinition".into()),
        metadata: Some(metadata),
        spec: Some(CrdSpec {
            group: Some(group.to_string()),
            names: Some(names),
            scope: Some(scope.as_str().to_string()),
            versions: Some(versions),
            ..CrdSpec::default()
        }),
        ..CustomResourceDefinition::default()
    }
}

/// The CRD-wide settings besides names and scope: `metadata.labels`,
/// `spec.preserveUnknownFields` and `spec.conversion` (decoded as the API
/// server decodes it; a value that does not decode is an error).
fn with_crd_settings(
    mut crd: CustomResourceDefinition,
    labels: &[(&str, &str)],
    preserve_unknown_fields: Option<bool>,
    conversion: Option<serde_json::Value>,
) -> Result<CustomResourceDefinition, CrdError> {
    let name = crd.name().unwrap_or_default().to_string();
    if !labels.is_empty()
        && let Some(serde_json::Value::Object(meta)) = crd.metadata.as_mut()
    {
        let map: serde_json::Map<String, serde_json::Value> = labels
            .iter()
            .map(|(k, v)| ((*k).to_string(), serde_json::Value::from(*v)))
            .collect();
        meta.insert("labels".into(), serde_json::Value::Object(map));
    }
    let Some(spec) = crd.spec.as_mut() else {
        return Ok(crd);
    };
    spec.preserve_unknown_fields = preserve_unknown_fields;
    if let Some(c) = conversion {
        let path = Path::root().child("spec").child("conversion");
        let mut dcx = DecodeCx::default();
        let decoded = CrdConversion::decode(&c, &path, &mut dcx);
        if !dcx.errors.is_empty() || decoded.is_none() {
            let mut errors = ErrorList::new();
            for issue in dcx.errors {
                errors.push(FieldError::invalid(&issue.field, c.clone(), issue.message));
            }
            if errors.is_empty() {
                errors.push(FieldError::invalid(&path, c.clone(), "not a conversion"));
            }
            return Err(CrdError::Invalid { name, errors });
        }
        spec.conversion = decoded;
    }
    Ok(crd)
}

/// Why a CRD could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum CrdError {
    /// A schema could not be built (a recursive type, an attribute that
    /// does not apply to the type behind a user type, ...).
    Schema(SchemaErrors),
    /// The CRD fails the API server's validation.
    Invalid {
        /// The CRD's name.
        name: String,
        /// The errors, as the API server reports them.
        errors: ErrorList,
    },
}

impl fmt::Display for CrdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CrdError::Schema(e) => write!(f, "the schema cannot be built: {e}"),
            // As the API server's 422 (`errors.NewInvalid`).
            CrdError::Invalid { name, errors } => {
                write!(
                    f,
                    "CustomResourceDefinition.apiextensions.k8s.io {name:?} is invalid: "
                )?;
                match errors.as_slice() {
                    [one] => write!(f, "{one}"),
                    many => {
                        let all: Vec<String> = many.iter().map(ToString::to_string).collect();
                        write!(f, "[{}]", all.join(", "))
                    }
                }
            }
        }
    }
}

impl std::error::Error for CrdError {}

/// Validates a CRD as `schema-gen check` does (the API server's create
/// validation, by the server of `options.kube_version`). Printer columns
/// and scale paths that name no field of the schema are accepted, as the
/// server accepts them (a column prints `<none>`; a scale path is read
/// only when scaling).
///
/// # Errors
///
/// [`CrdError::Invalid`] with every error found.
pub fn validate_crd(crd: &CustomResourceDefinition, options: &Options) -> Result<(), CrdError> {
    let errors = check(&Input::CrdV1(Box::new(crd.clone())), options).errors;
    if errors.is_empty() {
        Ok(())
    } else {
        Err(CrdError::Invalid {
            name: crd.name().unwrap_or_default().to_string(),
            errors,
        })
    }
}

/// Why [`merge_crds`] cannot merge.
#[derive(Clone, Debug, PartialEq)]
pub enum MergeError {
    /// Nothing to merge.
    Empty,
    /// A CRD differs from the first in group, names or scope, or two CRDs
    /// set a CRD-wide setting differently.
    Mismatch {
        /// Which CRD (0-based).
        index: usize,
        /// The field that differs (`spec.group`, `spec.names`,
        /// `spec.scope`, or a setting two CRDs give different values:
        /// `metadata.labels`, `metadata.annotations`, `spec.conversion`,
        /// `spec.preserveUnknownFields`).
        field: &'static str,
        /// The first CRD's value (JSON).
        expected: String,
        /// This CRD's value (JSON).
        found: String,
    },
    /// Two CRDs define the same version.
    DuplicateVersion(String),
    /// Not exactly one version is the storage version.
    StorageVersions(Vec<String>),
    /// The merged CRD fails validation.
    Invalid(CrdError),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Empty => f.write_str("no CRDs to merge"),
            MergeError::Mismatch {
                index,
                field,
                expected,
                found,
            } => write!(
                f,
                "CRD {index} has {field} {found}, but the first has {expected}: the versions of one CRD share group, names and scope"
            ),
            MergeError::DuplicateVersion(v) => {
                write!(f, "version {v:?} is defined more than once")
            }
            MergeError::StorageVersions(v) if v.is_empty() => f.write_str(
                "no version is the storage version: exactly one must be (`storage = false` on the others)",
            ),
            MergeError::StorageVersions(v) => write!(
                f,
                "versions {} are all storage versions: exactly one must be (`storage = false` on the others)",
                v.join(", ")
            ),
            MergeError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MergeError {}

/// Merges the CRDs of several versions of one kind (each from its own
/// root type, e.g. `v1alpha1::Foo::crd()?` and `v1::Foo::crd()?`) into one
/// CRD with their versions in the order given. The group, names and scope
/// must agree, version names must be distinct and exactly one version must
/// be the storage version; the result is validated as
/// [`CustomResource::crd`] validates.
///
/// # Errors
///
/// A [`MergeError`] naming what disagrees.
pub fn merge_crds(
    crds: &[CustomResourceDefinition],
) -> Result<CustomResourceDefinition, MergeError> {
    merge_crds_with(crds, &Options::default())
}

/// [`merge_crds`] with the result validated as
/// [`CustomResource::crd_with`] validates with the same `options`.
///
/// # Errors
///
/// A [`MergeError`] naming what disagrees.
pub fn merge_crds_with(
    crds: &[CustomResourceDefinition],
    options: &Options,
) -> Result<CustomResourceDefinition, MergeError> {
    let Some(first) = crds.first() else {
        return Err(MergeError::Empty);
    };
    let spec_of = |c: &CustomResourceDefinition| c.spec.clone().unwrap_or_default();
    let first_spec = spec_of(first);
    let json =
        |v: Option<serde_json::Value>| v.map_or_else(|| "null".to_string(), |v| v.to_string());
    let mut versions: Vec<CrdVersion> = Vec::new();
    for (index, crd) in crds.iter().enumerate() {
        let spec = spec_of(crd);
        for (field, a, b) in [
            (
                "spec.group",
                first_spec
                    .group
                    .as_ref()
                    .map(|g| serde_json::Value::from(g.as_str())),
                spec.group
                    .as_ref()
                    .map(|g| serde_json::Value::from(g.as_str())),
            ),
            (
                "spec.names",
                first_spec.names.as_ref().map(Wire::encode),
                spec.names.as_ref().map(Wire::encode),
            ),
            (
                "spec.scope",
                first_spec
                    .scope
                    .as_ref()
                    .map(|s| serde_json::Value::from(s.as_str())),
                spec.scope
                    .as_ref()
                    .map(|s| serde_json::Value::from(s.as_str())),
            ),
        ] {
            if a != b {
                return Err(MergeError::Mismatch {
                    index,
                    field,
                    expected: json(a),
                    found: json(b),
                });
            }
        }
        for v in spec.versions.into_iter().flatten() {
            let name = v.name.clone().unwrap_or_default();
            if versions.iter().any(|o| o.name.as_deref() == Some(&name)) {
                return Err(MergeError::DuplicateVersion(name));
            }
            versions.push(v);
        }
    }
    let storage: Vec<String> = versions
        .iter()
        .filter(|v| v.storage == Some(true))
        .map(|v| v.name.clone().unwrap_or_default())
        .collect();
    if storage.len() != 1 {
        return Err(MergeError::StorageVersions(storage));
    }
    let mut merged = first.clone();
    // The CRD-wide settings one version's type may carry and the others
    // leave out: each comes from the CRDs that set it, which must agree.
    let setting =
        |field: &'static str,
         get: &dyn Fn(&CustomResourceDefinition) -> Option<serde_json::Value>| {
            let mut found: Option<serde_json::Value> = None;
            for (index, crd) in crds.iter().enumerate() {
                let Some(v) = get(crd) else { continue };
                match &found {
                    Some(f) if *f != v => {
                        return Err(MergeError::Mismatch {
                            index,
                            field,
                            expected: f.to_string(),
                            found: v.to_string(),
                        });
                    }
                    _ => found = Some(v),
                }
            }
            Ok(found)
        };
    let meta_key = |key: &'static str| {
        move |c: &CustomResourceDefinition| c.metadata.as_ref().and_then(|m| m.get(key)).cloned()
    };
    let labels = setting("metadata.labels", &meta_key("labels"))?;
    let annotations = setting("metadata.annotations", &meta_key("annotations"))?;
    let conversion = setting("spec.conversion", &|c| {
        c.spec.as_ref()?.conversion.as_ref().map(Wire::encode)
    })?;
    let preserve = setting("spec.preserveUnknownFields", &|c| {
        c.spec
            .as_ref()?
            .preserve_unknown_fields
            .map(serde_json::Value::Bool)
    })?;
    if let Some(serde_json::Value::Object(meta)) = merged.metadata.as_mut() {
        for (key, value) in [("labels", labels), ("annotations", annotations)] {
            if let Some(v) = value {
                meta.insert(key.to_string(), v);
            }
        }
    }
    if let Some(spec) = &mut merged.spec {
        spec.versions = Some(versions);
        if conversion.is_some() {
            spec.conversion = crds
                .iter()
                .find_map(|c| c.spec.as_ref()?.conversion.clone());
        }
        spec.preserve_unknown_fields = preserve.and_then(|v| v.as_bool());
    }
    validate_crd(&merged, options).map_err(MergeError::Invalid)?;
    Ok(merged)
}

/// The CRD as k8s-openapi's `CustomResourceDefinition` (to apply it with
/// kube, say), converted through JSON.
///
/// # Errors
///
/// serde_json's error if k8s-openapi cannot read the document.
#[cfg(feature = "k8s-openapi")]
pub fn to_k8s_crd(
    crd: &CustomResourceDefinition,
) -> Result<
    k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    serde_json::Error,
> {
    serde_json::from_value(crd.encode())
}

#[cfg(feature = "k8s-openapi")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_k8s_resource {
    ($root:ident, $api_version:literal, $group:literal, $kind:literal, $version:literal, $plural:literal, $list_kind:literal, true) => {
        $crate::__impl_k8s_resource!(@impl $root, $api_version, $group, $kind, $version, $plural, $list_kind, NamespaceResourceScope);
    };
    ($root:ident, $api_version:literal, $group:literal, $kind:literal, $version:literal, $plural:literal, $list_kind:literal, false) => {
        $crate::__impl_k8s_resource!(@impl $root, $api_version, $group, $kind, $version, $plural, $list_kind, ClusterResourceScope);
    };
    (@impl $root:ident, $api_version:literal, $group:literal, $kind:literal, $version:literal, $plural:literal, $list_kind:literal, $scope:ident) => {
        #[automatically_derived]
        impl $crate::rust::__private::crd::k8s_openapi::Resource for $root {
            const API_VERSION: &'static str = $api_version;
            const GROUP: &'static str = $group;
            const KIND: &'static str = $kind;
            const VERSION: &'static str = $version;
            const URL_PATH_SEGMENT: &'static str = $plural;
            type Scope = $crate::rust::__private::crd::k8s_openapi::$scope;
        }

        #[automatically_derived]
        impl $crate::rust::__private::crd::k8s_openapi::ListableResource for $root {
            const LIST_KIND: &'static str = $list_kind;
        }

        #[automatically_derived]
        impl $crate::rust::__private::crd::k8s_openapi::Metadata for $root {
            type Ty = $crate::rust::ObjectMeta;

            fn metadata(&self) -> &$crate::rust::ObjectMeta {
                &self.metadata
            }

            fn metadata_mut(&mut self) -> &mut $crate::rust::ObjectMeta {
                &mut self.metadata
            }
        }
    };
}

#[cfg(feature = "kube")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_kube {
    ($root:ident) => {
        #[automatically_derived]
        impl $crate::rust::__private::crd::kube_core::CustomResourceExt for $root {
            fn crd() -> $crate::rust::__private::crd::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
                $crate::rust::__private::crd::kube_crd::<$root>()
            }

            fn crd_name() -> &'static str {
                <$root as $crate::rust::CustomResource>::CRD_NAME
            }

            fn api_resource() -> $crate::rust::__private::crd::kube_core::ApiResource {
                $crate::rust::__private::crd::kube_core::ApiResource::erase::<$root>(&())
            }

            fn shortnames() -> &'static [&'static str] {
                <$root as $crate::rust::CustomResource>::SHORT_NAMES
            }
        }
    };
}

/// Without the `kube` feature there is no kube trait to implement.
#[cfg(not(feature = "kube"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_kube {
    ($($tt:tt)*) => {};
}

/// Without the `k8s-openapi` feature there are no k8s-openapi traits to
/// implement.
#[cfg(not(feature = "k8s-openapi"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_k8s_resource {
    ($($tt:tt)*) => {};
}
