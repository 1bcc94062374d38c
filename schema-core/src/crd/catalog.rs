//! The kinds objects are processed with: the CRDs given and the kinds the
//! API server serves itself (built-in kinds), which CRD and version an
//! object belongs to, the schema that version prunes and defaults it
//! with, and the admission of each version, prepared once and kept.
//!
//! An object belongs to the CRD of its group and kind (from `apiVersion`
//! and `kind`), and to the version its `apiVersion` names. A version asked
//! for explicitly overrides the object's; with a single CRD it also
//! overrides the object's group and kind (the caller said which schema to
//! use). A CRD with a single version takes objects of any version unless a
//! version is asked for.
//!
//! A built-in kind wins over a CRD of the same group and kind, as in the
//! API server, whose built-in APIs are served before the CRD handler is
//! asked; a version asked for sends every object to the CRDs. The catalog
//! is shared by threads: each admission is prepared once, by the first
//! thread that needs it, and a thread that finds one being prepared by
//! another can go on with other work instead of waiting ([`Wait::No`]).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError, TryLockError};

use serde_json::Value;

use crate::model::field::Path;
use crate::model::options::Options;
use crate::model::structural::{NewStructuralError, Structural};
use crate::model::wire::{CrdVersion, CustomResourceDefinition};
use crate::object::admission::{Admission, AdmissionError};
use crate::object::default::{default, prune_non_nullable_nulls_without_defaults};
use crate::object::prune::prune;

/// The CRDs and built-in kinds objects are admitted with, answering which
/// CRD, version and admission an object gets.
pub struct Catalog {
    crds: Vec<CrdEntry>,
    builtins: Vec<BuiltinEntry>,
    /// The built-in kinds by `apiVersion`, then `kind`.
    builtin_by_type: HashMap<String, HashMap<String, usize>>,
    /// How objects are admitted.
    options: Options,
}

/// One CRD of a catalog.
struct CrdEntry {
    crd: CustomResourceDefinition,
    /// The admission of each version, in `spec.versions` order.
    admissions: Vec<Prepared>,
}

/// One built-in kind of a catalog.
struct BuiltinEntry {
    kind: Box<dyn BuiltinKindSchema>,
    admission: Slot<Result<Admission, String>>,
}

/// An admission, prepared once, or why it cannot be.
type Prepared = Slot<Result<Admission, AdmissionError>>;

/// A kind the API server serves itself (`apps/v1` `Deployment`), as a
/// [`Catalog`] needs it. The catalog sits below the layer that knows the
/// built-in kinds' Go types, so it takes them as this trait.
pub trait BuiltinKindSchema: Send + Sync {
    /// The kind's `apiVersion` (`apps/v1`; the bare version in the core
    /// group).
    fn api_version(&self) -> &str;
    /// The kind's API group (empty for the core group).
    fn group(&self) -> &str;
    /// The kind's version (`v1`).
    fn version(&self) -> &str;
    /// The kind (`Deployment`).
    fn kind(&self) -> &str;
    /// A CRD standing for the kind: one version, whose schema is the
    /// kind's; or the message saying why its schema cannot be made.
    ///
    /// # Errors
    ///
    /// The message of the schema's errors.
    fn crd(&self) -> Result<CustomResourceDefinition, String>;
    /// The API server's answer when `object` does not decode into the
    /// kind's Go type, which rejects it before any validation.
    fn decode_error(&self, object: &Value) -> Option<DecodeError>;
}

/// Why an object does not decode into its built-in kind's Go type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The value that does not decode (`spec.template.spec.containers[0].ports[0].containerPort`).
    pub field: Path,
    /// The API server's message.
    pub message: String,
}

/// Whether to wait for an admission another thread is preparing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Wait.
    Yes,
    /// Answer [`RouteError::Busy`] instead.
    No,
}

/// Why an object has no admission (see [`Catalog::admission`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RouteError {
    /// No CRD or built-in kind has its group and kind (`missing`), or the
    /// CRD has no such version.
    Select {
        /// What the selection said.
        message: String,
        /// Whether no kind matched at all.
        missing: bool,
    },
    /// The admission of its kind's version cannot be prepared.
    Admission(String),
    /// Another thread is preparing the admission (with [`Wait::No`]).
    Busy,
}

/// The CRD and version an object belongs to (see [`Catalog::select`]).
#[derive(Clone, Copy)]
pub struct Selection<'c> {
    /// The CRD.
    pub crd: &'c CustomResourceDefinition,
    /// The name of the version (empty when the version has none).
    pub version: &'c str,
    /// Where the catalog keeps the version's admission.
    admission: &'c Prepared,
    /// How objects are admitted.
    options: Options,
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

/// A value prepared once, by the first thread that asks for it.
struct Slot<T> {
    value: OnceLock<T>,
    /// Held while the value is prepared.
    preparing: Mutex<()>,
}

impl<T> Slot<T> {
    fn new() -> Self {
        Slot {
            value: OnceLock::new(),
            preparing: Mutex::new(()),
        }
    }

    /// The value, prepared with `prepare` if no thread has; `None` when
    /// another thread is preparing it and `wait` is [`Wait::No`].
    fn get(&self, wait: Wait, prepare: impl FnOnce() -> T) -> Option<&T> {
        if let Some(v) = self.value.get() {
            return Some(v);
        }
        let _preparing = match self.preparing.try_lock() {
            Ok(guard) => guard,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) if wait == Wait::No => return None,
            Err(TryLockError::WouldBlock) => self
                .preparing
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        };
        Some(self.value.get_or_init(prepare))
    }

    /// The value, prepared with `prepare` if no thread has, waiting for a
    /// thread that is preparing it.
    fn wait_for(&self, prepare: impl FnOnce() -> T) -> &T {
        if let Some(v) = self.value.get() {
            return v;
        }
        let _preparing = self
            .preparing
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        self.value.get_or_init(prepare)
    }
}

impl Catalog {
    /// A catalog of `crds` (v1 CRDs, as read) and no built-in kinds,
    /// admitting objects as the API server of `options.kube_version`
    /// does.
    #[must_use]
    pub fn new(crds: Vec<CustomResourceDefinition>, options: &Options) -> Self {
        let crds = crds
            .into_iter()
            .map(|crd| CrdEntry {
                admissions: versions(&crd).iter().map(|_| Slot::new()).collect(),
                crd,
            })
            .collect();
        Catalog {
            crds,
            builtins: Vec::new(),
            builtin_by_type: HashMap::new(),
            options: *options,
        }
    }

    /// This catalog with `kinds` served as built-in kinds: each wins over
    /// a CRD of its group and kind.
    #[must_use]
    pub fn with_builtin_kinds(mut self, kinds: Vec<Box<dyn BuiltinKindSchema>>) -> Self {
        self.builtin_by_type = HashMap::new();
        for (i, k) in kinds.iter().enumerate() {
            self.builtin_by_type
                .entry(k.api_version().to_string())
                .or_default()
                .insert(k.kind().to_string(), i);
        }
        self.builtins = kinds
            .into_iter()
            .map(|kind| BuiltinEntry {
                kind,
                admission: Slot::new(),
            })
            .collect();
        self
    }

    /// The catalog's CRDs, in the order given.
    pub fn crds(&self) -> impl Iterator<Item = &CustomResourceDefinition> {
        self.crds.iter().map(|e| &e.crd)
    }

    /// The CRDs a built-in kind of the same group and kind shadows: each
    /// CRD's name and its `group/kind`.
    #[must_use]
    pub fn shadowed(&self) -> Vec<(String, String)> {
        self.crds()
            .filter_map(|crd| {
                let spec = crd.spec.as_ref()?;
                let group = spec.group.as_deref().unwrap_or("");
                let kind = spec.names.as_ref()?.kind.as_deref()?;
                self.builtins
                    .iter()
                    .any(|b| b.kind.group() == group && b.kind.kind() == kind)
                    .then(|| {
                        (
                            crd.name().unwrap_or("").to_string(),
                            format!("{group}/{kind}"),
                        )
                    })
            })
            .collect()
    }

    /// The CRD and version `object` belongs to: the CRD of its group and
    /// kind (or the only CRD when `version` is given), and `version` or
    /// else the object's version (or the CRD's only version when `version`
    /// is not given). Built-in kinds are not looked at.
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
        let entry = match self.crds.as_slice() {
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
        let Some(CrdEntry { crd, admissions }) = entry else {
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
            options: self.options,
        })
    }

    /// The admission of `object`: that of its built-in kind (unless
    /// `version` is given), else that of its CRD version (`version`
    /// overriding the object's, see [`Catalog::select`]).
    ///
    /// # Errors
    ///
    /// [`RouteError::Select`] when no kind or version matches,
    /// [`RouteError::Admission`] when the admission cannot be prepared,
    /// [`RouteError::Busy`] when another thread is preparing it and `wait`
    /// is [`Wait::No`].
    pub fn admission(
        &self,
        object: &Value,
        version: Option<&str>,
        wait: Wait,
    ) -> Result<&Admission, RouteError> {
        if version.is_none()
            && let Some(builtin) = self.builtin_of(object)
        {
            let prepared = builtin.admission.get(wait, || {
                let kind = &builtin.kind;
                let crd = kind.crd().map_err(|e| {
                    format!(
                        "the schema of the built-in kind {} {} cannot be made: {e}",
                        kind.api_version(),
                        kind.kind()
                    )
                })?;
                Admission::for_crd(&crd, kind.version(), &self.options).map_err(|e| e.to_string())
            });
            return match prepared {
                Some(Ok(a)) => Ok(a),
                Some(Err(e)) => Err(RouteError::Admission(e.clone())),
                None => Err(RouteError::Busy),
            };
        }
        match self.select(object, version) {
            Ok(selection) => match selection.prepared(wait) {
                Some(Ok(a)) => Ok(a),
                Some(Err(e)) => Err(RouteError::Admission(e.to_string())),
                None => Err(RouteError::Busy),
            },
            Err(e) => Err(RouteError::Select {
                missing: matches!(e, SelectError::NoCrd { .. }),
                message: match e {
                    SelectError::NoCrd { api_version, kind } if !self.builtins.is_empty() => {
                        format!(
                            "no CustomResourceDefinition or built-in kind for apiVersion \
                             {api_version:?}, kind {kind:?}"
                        )
                    }
                    e => e.to_string(),
                },
            }),
        }
    }

    /// For an object of a built-in kind (`version` not given), the API
    /// server's answer when a value of the wrong JSON type keeps it from
    /// decoding into its Go type.
    #[must_use]
    pub fn decode_error(&self, object: &Value, version: Option<&str>) -> Option<DecodeError> {
        if version.is_some() {
            return None;
        }
        self.builtin_of(object)?.kind.decode_error(object)
    }

    /// The built-in kind of `object`.
    fn builtin_of(&self, object: &Value) -> Option<&BuiltinEntry> {
        let field = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
        let by_kind = self.builtin_by_type.get(field("apiVersion"))?;
        self.builtins.get(*by_kind.get(field("kind"))?)
    }
}

impl<'c> Selection<'c> {
    /// The admission of the selected CRD version, prepared on first use
    /// and kept by the catalog (as is the error of a version whose
    /// admission cannot be prepared).
    ///
    /// # Errors
    ///
    /// [`Admission::for_crd`]'s.
    pub fn admission(&self) -> Result<&'c Admission, AdmissionError> {
        self.admission
            .wait_for(|| self.prepare())
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The admission of the selected CRD version, or `None` when another
    /// thread is preparing it and `wait` is [`Wait::No`].
    fn prepared(&self, wait: Wait) -> Option<&'c Result<Admission, AdmissionError>> {
        self.admission.get(wait, || self.prepare())
    }

    /// Prepares the admission of the selected CRD version.
    fn prepare(&self) -> Result<Admission, AdmissionError> {
        Admission::for_crd(self.crd, self.version, &self.options)
    }
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

impl Selection<'_> {
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
