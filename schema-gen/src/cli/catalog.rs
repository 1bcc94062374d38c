//! Where `validate` finds the admission of an object: the built-in kind of
//! its `apiVersion` and `kind` (Kubernetes 1.35's, from k8s-openapi), else
//! the CRD of the `--crd` files. A built-in kind wins over a CRD of the
//! same group and kind, as in the API server, whose built-in APIs are
//! served before the CRD handler is asked; `--version` (one CRD, named
//! version) sends every object to that CRD. Each admission is prepared
//! once, when its first object needs it, and shared by all threads; a
//! thread that finds one being prepared by another can go on with other
//! work instead of waiting ([`Wait::No`]).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, TryLockError};

use serde_json::Value;

use schema_core::KubeVersion;
use schema_core::crd::catalog::{CrdCatalog, SelectError};
use schema_core::object::admission::Admission;

/// Why an object of a built-in kind does not decode.
#[cfg(feature = "builtin-kinds")]
pub(super) use schema_core::rust::k8s::DecodeError;

/// Why an object of a built-in kind does not decode (none without the
/// built-in kinds).
#[cfg(not(feature = "builtin-kinds"))]
pub(super) struct DecodeError {
    /// The value that does not decode.
    pub(super) field: schema_core::model::field::Path,
    /// The API server's message.
    pub(super) message: String,
}

/// The CRDs and the built-in kinds.
pub(super) struct Catalog {
    crds: CrdCatalog,
    /// The admission of each CRD version: by CRD name, then version.
    crd_admissions: HashMap<String, Vec<(String, Prepared)>>,
    builtins: Builtins,
    kube: KubeVersion,
}

/// An admission, prepared once, or why it cannot be.
type Prepared = Slot<Result<Admission, String>>;

/// Whether to wait for an admission another thread is preparing.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Wait {
    /// Wait.
    Yes,
    /// Answer [`RouteError::Busy`] instead.
    No,
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
        let _preparing = match (wait, self.preparing.try_lock()) {
            (_, Ok(guard)) => guard,
            (_, Err(TryLockError::Poisoned(p))) => p.into_inner(),
            (Wait::No, Err(TryLockError::WouldBlock)) => return None,
            (Wait::Yes, Err(TryLockError::WouldBlock)) => self
                .preparing
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        };
        Some(self.value.get_or_init(prepare))
    }
}

/// Why an object has no admission.
pub(super) enum RouteError {
    /// No CRD or built-in kind has its group and kind (`missing`), or the
    /// CRD has no such version.
    Select {
        /// What the selection said.
        message: String,
        /// Whether no kind matched at all (`--ignore-missing` skips it).
        missing: bool,
    },
    /// The admission of its CRD version cannot be prepared.
    Admission(String),
    /// Another thread is preparing the admission (with [`Wait::No`]).
    Busy,
}

impl Catalog {
    /// The catalog of `crds` and the built-in kinds, admitting as the API
    /// server of `kube` does.
    pub(super) fn new(crds: CrdCatalog, kube: KubeVersion) -> Self {
        let mut crd_admissions: HashMap<String, Vec<_>> = HashMap::new();
        for crd in crds.crds() {
            let versions = crd.spec.as_ref().and_then(|s| s.versions.as_deref());
            crd_admissions
                .entry(crd.name().unwrap_or("").to_string())
                .or_default()
                .extend(
                    versions
                        .unwrap_or(&[])
                        .iter()
                        .map(|v| (v.name.clone().unwrap_or_default(), Slot::new())),
                );
        }
        Catalog {
            crds,
            crd_admissions,
            builtins: Builtins::new(kube),
            kube,
        }
    }

    /// The group/kinds of CRDs that a built-in kind shadows, with the
    /// CRD's name.
    pub(super) fn shadowed(&self) -> Vec<(String, String)> {
        self.crds
            .crds()
            .filter_map(|crd| {
                let spec = crd.spec.as_ref()?;
                let group = spec.group.as_deref().unwrap_or("");
                let kind = spec.names.as_ref()?.kind.as_deref()?;
                self.builtins.has_group_kind(group, kind).then(|| {
                    (
                        crd.name().unwrap_or("").to_string(),
                        format!("{group}/{kind}"),
                    )
                })
            })
            .collect()
    }

    /// The admission of `object`: its built-in kind's, or that of its CRD
    /// version (`version` overriding the object's).
    pub(super) fn admission(
        &self,
        object: &Value,
        version: Option<&str>,
        wait: Wait,
    ) -> Result<&Admission, RouteError> {
        if version.is_none()
            && let Some(found) = self.builtins.admission(object, wait)
        {
            return match found {
                Some(Ok(a)) => Ok(a),
                Some(Err(e)) => Err(RouteError::Admission(e.clone())),
                None => Err(RouteError::Busy),
            };
        }
        match self.crds.select(object, version) {
            Ok(selection) => {
                let name = selection.crd.name().unwrap_or("");
                let slot = self
                    .crd_admissions
                    .get(name)
                    .and_then(|vs| vs.iter().find(|(v, _)| v == selection.version))
                    .map(|(_, slot)| slot);
                let Some(slot) = slot else {
                    return selection
                        .admission()
                        .map_err(|e| RouteError::Admission(e.to_string()));
                };
                let prepared = slot.get(wait, || {
                    Admission::for_crd_at(selection.crd, selection.version, self.kube)
                        .map_err(|e| e.to_string())
                });
                match prepared {
                    Some(Ok(a)) => Ok(a),
                    Some(Err(e)) => Err(RouteError::Admission(e.clone())),
                    None => Err(RouteError::Busy),
                }
            }
            Err(e) => Err(RouteError::Select {
                missing: matches!(e, SelectError::NoCrd { .. }),
                message: match e {
                    SelectError::NoCrd { api_version, kind } if self.builtins.any() => format!(
                        "no CustomResourceDefinition or built-in kind for apiVersion \
                         {api_version:?}, kind {kind:?}"
                    ),
                    e => e.to_string(),
                },
            }),
        }
    }
}

impl Catalog {
    /// For an object of a built-in kind (`version` not given), the API
    /// server's answer when a value of the wrong JSON type keeps it from
    /// decoding into its Go type ([`GoType::decode_error`]).
    ///
    /// [`GoType::decode_error`]: schema_core::rust::k8s::GoType::decode_error
    pub(super) fn decode_error(
        &self,
        object: &Value,
        version: Option<&str>,
    ) -> Option<DecodeError> {
        if version.is_some() {
            return None;
        }
        self.builtins.decode_error(object)
    }
}

/// The built-in kinds, by `apiVersion` and `kind`.
#[cfg(feature = "builtin-kinds")]
struct Builtins {
    kinds: Vec<Builtin>,
    by_type: HashMap<(&'static str, &'static str), usize>,
    kube: KubeVersion,
}

/// One built-in kind and its admission, once prepared.
#[cfg(feature = "builtin-kinds")]
struct Builtin {
    kind: schema_core::rust::k8s::BuiltinKind,
    admission: Prepared,
    /// Its Go type, to find where an object does not decode.
    go_type: OnceLock<schema_core::rust::k8s::GoType>,
}

#[cfg(feature = "builtin-kinds")]
impl Builtins {
    fn new(kube: KubeVersion) -> Self {
        let kinds: Vec<Builtin> = schema_core::rust::k8s::builtin_kinds()
            .into_iter()
            .map(|kind| Builtin {
                kind,
                admission: Slot::new(),
                go_type: OnceLock::new(),
            })
            .collect();
        let by_type = kinds
            .iter()
            .enumerate()
            .map(|(i, b)| ((b.kind.api_version, b.kind.kind), i))
            .collect();
        Builtins {
            kinds,
            by_type,
            kube,
        }
    }

    fn any(&self) -> bool {
        !self.kinds.is_empty()
    }

    fn has_group_kind(&self, group: &str, kind: &str) -> bool {
        self.kinds
            .iter()
            .any(|b| b.kind.group == group && b.kind.kind == kind)
    }

    /// The built-in kind of `object`.
    fn kind_of(&self, object: &Value) -> Option<&Builtin> {
        let field = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
        let &i = self.by_type.get(&(field("apiVersion"), field("kind")))?;
        Some(&self.kinds[i])
    }

    fn decode_error(&self, object: &Value) -> Option<DecodeError> {
        let builtin = self.kind_of(object)?;
        builtin
            .go_type
            .get_or_init(|| builtin.kind.go_type())
            .decode_error(object)
    }

    /// The admission of the built-in kind of `object` (`Some(None)` while
    /// another thread prepares it and `wait` is [`Wait::No`]), or `None`
    /// when it is of no built-in kind.
    fn admission(&self, object: &Value, wait: Wait) -> Option<Option<Result<&Admission, &String>>> {
        let builtin = self.kind_of(object)?;
        let prepared = builtin.admission.get(wait, || {
            let crd = builtin.kind.crd().map_err(|e| {
                format!(
                    "the schema of the built-in kind {} {} cannot be made: {e}",
                    builtin.kind.api_version, builtin.kind.kind
                )
            })?;
            Admission::for_crd_at(&crd, builtin.kind.version, self.kube).map_err(|e| e.to_string())
        });
        Some(prepared.map(Result::as_ref))
    }
}

/// No built-in kinds: this build leaves them out.
#[cfg(not(feature = "builtin-kinds"))]
struct Builtins;

#[cfg(not(feature = "builtin-kinds"))]
impl Builtins {
    fn new(_kube: KubeVersion) -> Self {
        Builtins
    }

    fn any(&self) -> bool {
        false
    }

    fn has_group_kind(&self, _group: &str, _kind: &str) -> bool {
        false
    }

    fn admission(
        &self,
        _object: &Value,
        _wait: Wait,
    ) -> Option<Option<Result<&Admission, &String>>> {
        None
    }

    fn decode_error(&self, _object: &Value) -> Option<DecodeError> {
        None
    }
}
