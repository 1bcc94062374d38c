//! The CRDs objects are processed with: which CRD and version an object
//! belongs to, the schema that version prunes and defaults it with, and
//! the admission of that version, prepared once and kept.
//!
//! An object belongs to the CRD of its group and kind (from `apiVersion`
//! and `kind`), and to the version its `apiVersion` names. A version asked
//! for explicitly overrides the object's; with a single CRD it also
//! overrides the object's group and kind (the caller said which schema to
//! use). A CRD with a single version takes objects of any version unless a
//! version is asked for.

use std::sync::OnceLock;

use serde_json::Value;

use crate::model::kube_version::KubeVersion;
use crate::model::structural::{NewStructuralError, Structural};
use crate::model::wire::{CrdVersion, CustomResourceDefinition};
use crate::object::admission::{Admission, AdmissionError};
use crate::object::default::{default, prune_non_nullable_nulls_without_defaults};
use crate::object::prune::prune;

/// A set of CRDs, answering which CRD, version and admission an object
/// gets.
pub struct CrdCatalog {
    entries: Vec<Entry>,
    /// The release whose API server admits the objects.
    kube: KubeVersion,
}

/// One CRD of a catalog.
struct Entry {
    crd: CustomResourceDefinition,
    /// The admission of each version, in `spec.versions` order, prepared
    /// when first needed.
    admissions: Vec<OnceLock<Admission>>,
}

/// The CRD and version an object belongs to (see [`CrdCatalog::select`]).
#[derive(Clone, Copy)]
pub struct Selection<'c> {
    /// The CRD.
    pub crd: &'c CustomResourceDefinition,
    /// The name of the version (empty when the version has none).
    pub version: &'c str,
    /// Where the catalog keeps the version's admission.
    admission: &'c OnceLock<Admission>,
    /// The release whose API server admits the objects.
    kube: KubeVersion,
}

/// Why an object has no CRD version in the catalog.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// No CRD has the object's group and kind.
    #[error("no CustomResourceDefinition for apiVersion {api_version:?}, kind {kind:?}")]
    NoCrd {
        /// The object's `apiVersion` (empty when it has none).
        api_version: String,
        /// The object's `kind` (empty when it has none).
        kind: String,
    },
    /// The CRD has no version of the name asked for or the object's.
    #[error("the CustomResourceDefinition {crd:?} has no version {version:?}")]
    NoVersion {
        /// The CRD's name.
        crd: String,
        /// The version looked for.
        version: String,
    },
}

/// The schema of a CRD version is not structural, so objects cannot be
/// pruned or defaulted with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the schema of version {version:?} is not structural: {source}")]
pub struct NotStructuralError {
    /// The version's name.
    pub version: String,
    /// What `NewStructural` rejected.
    pub source: NewStructuralError,
}

impl CrdCatalog {
    /// A catalog of `crds` (v1 CRDs, as read), admitting objects as the
    /// newest release supported does.
    #[must_use]
    pub fn new(crds: Vec<CustomResourceDefinition>) -> Self {
        Self::new_at(crds, KubeVersion::default())
    }

    /// A catalog of `crds` admitting objects as the API server of release
    /// `kube` does.
    #[must_use]
    pub fn new_at(crds: Vec<CustomResourceDefinition>, kube: KubeVersion) -> Self {
        let entries = crds
            .into_iter()
            .map(|crd| Entry {
                admissions: versions(&crd).iter().map(|_| OnceLock::new()).collect(),
                crd,
            })
            .collect();
        CrdCatalog { entries, kube }
    }

    /// The catalog's CRDs, in the order given.
    pub fn crds(&self) -> impl Iterator<Item = &CustomResourceDefinition> {
        self.entries.iter().map(|e| &e.crd)
    }

    /// The CRD and version `object` belongs to: the CRD of its group and
    /// kind (or the only CRD when `version` is given), and `version` or
    /// else the object's version (or the CRD's only version when `version`
    /// is not given).
    ///
    /// # Errors
    ///
    /// [`SelectError::NoCrd`] or [`SelectError::NoVersion`].
    pub fn select(
        &self,
        object: &Value,
        version: Option<&str>,
    ) -> Result<Selection<'_>, SelectError> {
        let field = |name: &str| object.get(name).and_then(Value::as_str).unwrap_or("");
        let (api_version, kind) = (field("apiVersion"), field("kind"));
        let (group, object_version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        let entry = match self.entries.as_slice() {
            [only] if version.is_some() => Some(only),
            entries => entries.iter().find(|e| {
                let spec = e.crd.spec.as_ref();
                spec.and_then(|s| s.group.as_deref()) == Some(group)
                    && spec
                        .and_then(|s| s.names.as_ref())
                        .and_then(|n| n.kind.as_deref())
                        == Some(kind)
            }),
        };
        let Some(Entry { crd, admissions }) = entry else {
            return Err(SelectError::NoCrd {
                api_version: api_version.to_string(),
                kind: kind.to_string(),
            });
        };
        let want = version.unwrap_or(object_version);
        let mut slots = versions(crd).iter().zip(admissions);
        let found = match slots.clone().find(|(v, _)| v.name.as_deref() == Some(want)) {
            Some(found) => Some(found),
            None if version.is_none() && slots.len() == 1 => slots.next(),
            None => None,
        };
        let Some((v, admission)) = found else {
            return Err(SelectError::NoVersion {
                crd: crd.name().unwrap_or("").to_string(),
                version: want.to_string(),
            });
        };
        Ok(Selection {
            crd,
            version: v.name.as_deref().unwrap_or(""),
            admission,
            kube: self.kube,
        })
    }
}

impl<'c> Selection<'c> {
    /// The admission of the selected CRD version, prepared on first use
    /// and kept by the catalog. A version whose admission cannot be
    /// prepared is tried again (and fails again) on every call.
    ///
    /// # Errors
    ///
    /// [`Admission::for_crd_at`]'s.
    pub fn admission(&self) -> Result<&'c Admission, AdmissionError> {
        if let Some(admission) = self.admission.get() {
            return Ok(admission);
        }
        let admission = Admission::for_crd_at(self.crd, self.version, self.kube)?;
        Ok(self.admission.get_or_init(|| admission))
    }

    /// The schema the selected version prunes and defaults objects with.
    ///
    /// # Errors
    ///
    /// [`NotStructuralError`] when the version's schema fails
    /// `NewStructural`.
    pub fn object_schema(&self) -> Result<ObjectSchema, NotStructuralError> {
        let schema = version_named(self.crd, self.version)
            .and_then(|v| v.schema.as_ref())
            .and_then(|s| s.open_api_v3_schema.as_ref());
        let structural = schema
            .map(Structural::from_props)
            .transpose()
            .map_err(|source| NotStructuralError {
                version: self.version.to_string(),
                source,
            })?;
        let spec = self.crd.spec.as_ref();
        Ok(ObjectSchema {
            structural,
            resource_root: true,
            preserve_unknown_fields: spec.and_then(|s| s.preserve_unknown_fields) == Some(true),
        })
    }
}

/// The schema objects are pruned and defaulted with, as the API server
/// decodes them: the schema of a CRD version (objects are resource roots)
/// or a bare schema (they are not).
#[derive(Clone, Debug)]
pub struct ObjectSchema {
    /// The structural schema (`None` for a version without one).
    structural: Option<Structural>,
    /// Objects are resources: their `apiVersion`, `kind` and `metadata`
    /// are kept.
    resource_root: bool,
    /// The CRD sets `preserveUnknownFields`: nothing is pruned.
    preserve_unknown_fields: bool,
}

impl ObjectSchema {
    /// A bare schema: objects are not resource roots.
    #[must_use]
    pub fn bare(structural: Structural) -> Self {
        ObjectSchema {
            structural: Some(structural),
            resource_root: false,
            preserve_unknown_fields: false,
        }
    }

    /// Prunes `object`: unknown fields removed, then the nulls the schema
    /// neither allows nor defaults. Returns the paths of the removed
    /// unknown fields, sorted. Nothing is removed when the CRD preserves
    /// unknown fields.
    pub fn prune(&self, object: &mut Value) -> Vec<String> {
        if self.preserve_unknown_fields {
            return Vec::new();
        }
        let s = self.structural.as_ref();
        let pruned = prune(object, s, self.resource_root, true);
        prune_non_nullable_nulls_without_defaults(object, s);
        pruned
    }

    /// Applies the schema's defaults to `object`.
    pub fn default(&self, object: &mut Value) {
        default(object, self.structural.as_ref());
    }
}

/// The versions of `crd`, as written.
fn versions(crd: &CustomResourceDefinition) -> &[CrdVersion] {
    crd.spec
        .as_ref()
        .and_then(|s| s.versions.as_deref())
        .unwrap_or_default()
}

/// The first version of `crd` named `name`.
fn version_named<'c>(crd: &'c CustomResourceDefinition, name: &str) -> Option<&'c CrdVersion> {
    versions(crd)
        .iter()
        .find(|v| v.name.as_deref() == Some(name))
}

#[cfg(test)]
mod tests;
