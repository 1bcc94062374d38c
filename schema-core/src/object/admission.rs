//! Admission of objects offline: what the API server does to a custom
//! resource on create, in its order.
//!
//! 1. Decoding: pruning of unknown fields (unless the CRD sets
//!    `preserveUnknownFields`), removal of non-nullable `null`s, coercion of
//!    `metadata` (root and embedded resources), then defaulting.
//! 2. The handler's namespace check: a cluster-scoped resource is addressed
//!    without a namespace, so the one an object names is dropped (with a
//!    warning); `PrepareForCreate`: `status` is dropped when the status
//!    subresource is enabled.
//! 3. Validation (`customResourceStrategy.Validate`): `kind` and
//!    `apiVersion` (nothing else is checked when they are wrong), the root
//!    `metadata`, the schema's value validations, the scale subresource's
//!    replica and selector paths, embedded resources' metadata, and list
//!    sets and maps.
//!
//! 4. `x-kubernetes-validations` rules (the CEL validator), with the
//!    runtime cost budget of one object, unless an earlier error is
//!    blocking (a type, required, enum, too long or too many error), when
//!    the server reports instead that some rules were not checked.
//!
//! [`Admission::update`] runs the update path: the old object is decoded as
//! a stored object is, the update is addressed to the stored object's
//! namespace (a new object naming another is rejected before validation,
//! [`Admitted::rejected`]), `PrepareForUpdate` keeps the old `status` when
//! the status subresource is enabled, value validation errors of unchanged
//! nodes are ratcheted into warnings (with the server's correlation of old
//! and new, `model::correlation`), list sets and maps are
//! checked only when the old object passed them, and the rules see
//! `oldSelf` (transition rules) with ratcheting.
//!
//! A bare schema (no CRD) gets the same steps without the resource-root
//! parts.

use serde_json::Value;

use crate::cel::functions::CompatibilityVersion;
use crate::cel::validator::{CelOptions, CelValidator, RUNTIME_CEL_COST_BUDGET};
use crate::go::json::{go_type, go_v};
use crate::go::names::name_is_dns_subdomain;
use crate::model::correlation::Correlated;
pub use crate::model::depth::MAX_VALUE_NESTING;
use crate::model::field::{ErrorList, ErrorType, FieldError, Path};
use crate::model::options::Options;
use crate::model::structural::{NewStructuralError, Structural};
use crate::model::wire::{CustomResourceDefinition, JsonSchemaProps, ScaleSubresource};
use crate::object::list_types::validate_list_sets_and_maps_view;
use crate::object::metadata::walk::validate_meta_view;
use crate::object::metadata::{
    before_create, decode_object_meta, unknown_object_meta_fields, validate_object_meta,
    validate_object_meta_update, validate_object_meta_with,
};
use crate::object::prune::prune_drop_nulls_and_default;
use crate::object::prune_default_walk::{
    Plan, checkable, decode_resource, decode_resource_checked,
};
use crate::object::schema_view::IndexedSchema;
use crate::object::value_validation::SchemaValidator;

/// The resource an object is admitted as (the parts of a CRD version the
/// API server's custom resource handler uses).
#[derive(Clone, Debug, Default)]
pub struct ResourceKind {
    /// `spec.group`.
    pub group: String,
    /// The version's name.
    pub version: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// `spec.scope: Namespaced`.
    pub namespaced: bool,
    /// `spec.preserveUnknownFields` (v1beta1 CRDs): no pruning.
    pub preserve_unknown_fields: bool,
    /// The status subresource is enabled.
    pub status_subresource: bool,
    /// The scale subresource, when enabled.
    pub scale: Option<ScaleSubresource>,
}

/// What admission did to one object.
#[derive(Clone, Debug, Default)]
pub struct Admitted {
    /// The object as the server would store it.
    pub object: Value,
    /// The paths of the pruned unknown fields, in the server's order.
    pub pruned: Vec<String>,
    /// Every error, in the server's order and words.
    pub errors: ErrorList,
    /// On update, the errors of values the update left unchanged, which do
    /// not fail it (CRD validation ratcheting): the server returns them as
    /// warnings.
    pub ratcheted: ErrorList,
    /// Notes on what admission changed or could not do.
    pub warnings: Vec<String>,
    /// Why the server rejects the request before validating it (a
    /// `BadRequest`, in its words); the errors are then empty.
    pub rejected: Option<String>,
}

/// A prepared admission: the schema in its three forms (wire, structural,
/// value validator) and, for a CRD, the resource it belongs to.
pub struct Admission {
    structural: Option<IndexedSchema>,
    validator: Option<SchemaValidator>,
    resource: Option<ResourceKind>,
    cel: Option<CelValidator>,
    /// Decoding and value validation in one walk, for resources.
    plan: Option<Plan>,
}

/// Why an admission could not be prepared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdmissionError {
    /// The CRD has no version of that name.
    #[error("the CustomResourceDefinition {crd:?} has no version {version:?}")]
    NoSuchVersion {
        /// The CRD's name.
        crd: String,
        /// The version asked for.
        version: String,
    },
    /// The schema fails `NewStructural`.
    #[error("the schema is not structural: {0}")]
    NotStructural(#[from] NewStructuralError),
}

impl Admission {
    /// Admission against a bare schema, as the API server of
    /// `options.kube_version` admits: objects are not resource roots.
    ///
    /// # Errors
    ///
    /// [`AdmissionError::NotStructural`].
    pub fn for_schema(schema: &JsonSchemaProps, options: &Options) -> Result<Self, AdmissionError> {
        let kube = options.kube_version;
        let structural = Structural::from_props(schema)?;
        let cel_version = CompatibilityVersion::stored_expressions(kube);
        Ok(Admission {
            cel: Some(CelValidator::at(&structural, false, cel_version))
                .filter(CelValidator::has_rules),
            structural: Some(IndexedSchema::new(structural)),
            validator: Some(SchemaValidator::new(schema)),
            resource: None,
            plan: None,
        })
    }

    /// Admission as the given version of a CRD, as the API server of
    /// `options.kube_version` admits: the rules compiled in its environment
    /// for stored rules.
    ///
    /// # Errors
    ///
    /// [`AdmissionError::NoSuchVersion`] or
    /// [`AdmissionError::NotStructural`].
    pub fn for_crd(
        crd: &CustomResourceDefinition,
        version: &str,
        options: &Options,
    ) -> Result<Self, AdmissionError> {
        let kube = options.kube_version;
        let spec = crd.spec.as_ref();
        let versions = spec.and_then(|s| s.versions.as_deref()).unwrap_or(&[]);
        let Some(v) = versions.iter().find(|v| v.name.as_deref() == Some(version)) else {
            return Err(AdmissionError::NoSuchVersion {
                crd: crd.name().unwrap_or("").to_string(),
                version: version.to_string(),
            });
        };
        let schema = v
            .schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref());
        let subresources = v.subresources.as_ref();
        let resource = ResourceKind {
            group: spec.and_then(|s| s.group.clone()).unwrap_or_default(),
            version: version.to_string(),
            kind: spec
                .and_then(|s| s.names.as_ref())
                .and_then(|n| n.kind.clone())
                .unwrap_or_default(),
            namespaced: spec.and_then(|s| s.scope.as_deref()) != Some("Cluster"),
            preserve_unknown_fields: spec.and_then(|s| s.preserve_unknown_fields) == Some(true),
            status_subresource: subresources.is_some_and(|s| s.status.is_some()),
            scale: subresources.and_then(|s| s.scale.clone()),
        };
        let structural = schema.map(Structural::from_props).transpose()?;
        let validator = schema.map(SchemaValidator::new);
        let cel = structural.as_ref().and_then(|s| {
            CelValidator::with_rules(s, true, CompatibilityVersion::stored_expressions(kube))
        });
        let structural = structural.map(IndexedSchema::new);
        // The one walk serves resources that are pruned and hold no
        // embedded resource below the root (`checkable`).
        let plan = structural
            .as_ref()
            .zip(validator.as_ref())
            .filter(|(ix, _)| !resource.preserve_unknown_fields && !ix.view().may_embed_below())
            .map(|(ix, v)| Plan::for_resource(ix.structural(), v.root()));
        Ok(Admission {
            cel,
            structural,
            validator,
            resource: Some(resource),
            plan,
        })
    }

    /// The resource objects are admitted as (`None` for a bare schema).
    pub fn resource(&self) -> Option<&ResourceKind> {
        self.resource.as_ref()
    }

    /// Runs create admission on `obj`.
    ///
    /// Objects nested deeper than [`MAX_VALUE_NESTING`] levels are rejected,
    /// as the server's JSON decoder rejects them, before any step runs. The steps
    /// recurse on the object's nesting: the deepest objects accepted need a
    /// few MiB of stack in release builds (the `schema-gen` command runs on
    /// a 256 MiB stack).
    pub fn create(&self, obj: Value) -> Admitted {
        self.admit(obj, None)
    }

    /// Runs update admission of `new` over the stored object `old`: the
    /// create steps with the update differences (see the module
    /// documentation). Transition rules (`oldSelf`) run here only.
    pub fn update(&self, new: Value, old: Value) -> Admitted {
        if crate::model::depth::deeper_than(&old, MAX_VALUE_NESTING) {
            let mut out = Admitted::default();
            out.errors.push(FieldError::invalid(
                &Path::root(),
                "",
                format!("the old object is nested more than {MAX_VALUE_NESTING} levels deep, the API server's decoding limit"),
            ));
            crate::model::depth::drop_deep(old);
            crate::model::depth::drop_deep(new);
            return out;
        }
        let old = self.decode_stored(old);
        self.admit(new, Some(old))
    }

    /// The old object of an update as the server reads it from storage:
    /// decoded (pruned, metadata coerced, defaulted) without validation.
    fn decode_stored(&self, mut old: Value) -> Value {
        let s = self.structural.as_ref().map(IndexedSchema::view);
        match &self.resource {
            None => {
                prune_drop_nulls_and_default(&mut old, s, false);
            }
            Some(r) if old.is_object() => {
                let _ = decode_resource(&mut old, s, !r.preserve_unknown_fields);
            }
            Some(_) => {}
        }
        old
    }

    fn admit(&self, mut obj: Value, mut old: Option<Value>) -> Admitted {
        let s = self.structural.as_ref().map(IndexedSchema::view);
        let mut out = Admitted::default();
        // The handler reads the metadata strictly before anything else
        // (`GetObjectMetaWithOptions`): its unknown fields come first.
        let meta_unknown = match (&self.resource, obj.get("metadata")) {
            (Some(_), Some(m)) => unknown_object_meta_fields(m),
            _ => Vec::new(),
        };
        let had_status = obj.get("status").is_some();
        // Decoding of a common resource, with the depth limit and the
        // value validations, in one walk.
        let one_walk = self
            .plan
            .as_ref()
            .zip(s)
            .filter(|(_, s)| checkable(&obj, *s))
            .map(|(plan, s)| (plan, decode_resource_checked(&mut obj, s, plan)));
        let too_deep = match &one_walk {
            Some((_, checked)) => checked.too_deep,
            None => crate::model::depth::deeper_than(&obj, MAX_VALUE_NESTING),
        };
        if too_deep {
            out.errors.push(FieldError::invalid(
                &Path::root(),
                "",
                format!("the object is nested more than {MAX_VALUE_NESTING} levels deep, the API server's decoding limit"),
            ));
            crate::model::depth::drop_deep(obj);
            return out;
        }
        let Some(r) = &self.resource else {
            // Pruning, the removal of non-nullable nulls and defaulting in
            // one walk.
            out.pruned = prune_drop_nulls_and_default(&mut obj, s, true);
            self.validate_values(&obj, old.as_ref(), &mut out);
            validate_meta_view(&Path::root(), &obj, s, false, &mut out.errors);
            self.validate_lists(&obj, old.as_ref(), &mut out.errors);
            self.validate_rules(&obj, old.as_ref(), &mut out);
            out.object = obj;
            return out;
        };
        if !obj.is_object() {
            out.errors.push(FieldError::invalid(
                &Path::root(),
                obj.clone(),
                "must be an object",
            ));
            out.object = obj;
            return out;
        }
        // Decoding.
        // Pruning and the removal of non-nullable nulls (unless unknown
        // fields are preserved), metadata coercion, then defaulting, fused
        // into as few walks as give the same result.
        let (decoded, mut proven) = match one_walk {
            Some((plan, checked)) => (checked.decoded, Some(plan).filter(|_| checked.valid)),
            None => (
                decode_resource(&mut obj, s, !r.preserve_unknown_fields),
                None,
            ),
        };
        out.pruned = meta_unknown;
        out.pruned.extend(decoded.pruned);
        if let Some(e) = decoded.error {
            out.errors.push(e);
            out.object = obj;
            return out;
        }
        // The handler: the request goes to the namespace of the object
        // (of the stored object, on update), or to none for a
        // cluster-scoped resource.
        if let Err(rejected) = ensure_request_namespace(r, &mut obj, old.as_ref(), &mut out) {
            out.rejected = Some(rejected);
            out.object = obj;
            return out;
        }
        // PrepareForUpdate: with the status subresource, the old status
        // stays.
        if let Some(old) = &old {
            if r.status_subresource
                && let Some(m) = obj.as_object_mut()
            {
                match old.get("status") {
                    Some(st) => {
                        if m.get("status") != Some(st) {
                            proven = None;
                            out.warnings.push(
                                "status is kept: the status subresource is enabled, and update ignores status changes"
                                    .to_string(),
                            );
                        }
                        m.insert("status".to_string(), st.clone());
                    }
                    None => {
                        if let Some(dropped) = m.shift_remove("status") {
                            proven = None;
                            crate::model::depth::drop_deep(dropped);
                            out.warnings.push(
                                "status is dropped: the status subresource is enabled, and update ignores status changes"
                                    .to_string(),
                            );
                        }
                    }
                }
            }
        }
        // PrepareForCreate.
        else if r.status_subresource
            && let Some(m) = obj.as_object_mut()
            && m.shift_remove("status")
                .map(crate::model::depth::drop_deep)
                .is_some()
            && had_status
        {
            out.warnings.push(
                "status is dropped: the status subresource is enabled, and create ignores status"
                    .to_string(),
            );
        }
        // PrepareForCreate sets the generation to 1. On update the old
        // object's generation carries over (a stored object without one
        // reads as generation 1), and PrepareForUpdate moves it one on
        // when anything but metadata changed.
        match &mut old {
            None => set_generation(&mut obj, 1),
            Some(old) => {
                let old_generation = old
                    .pointer("/metadata/generation")
                    .and_then(Value::as_i64)
                    .filter(|g| *g != 0)
                    .unwrap_or(1);
                // The stored object's decoding repairs a missing generation.
                set_generation(old, old_generation);
                let changed = without_metadata(&obj) != without_metadata(old);
                set_generation(&mut obj, old_generation.saturating_add(i64::from(changed)));
            }
        }
        if let Some(old) = &old {
            before_update(r, &mut obj, old);
        }
        // Validation. An update first gets the registry's common checks of
        // the metadata (`validateCommonFields`), then the strategy's, which
        // repeat the update checks: the server reports those twice.
        let common = match &old {
            Some(old) => validate_meta_update(r, &obj, old, true),
            None => ErrorList::new(),
        };
        let type_errs = validate_type_meta(r, &obj);
        if !type_errs.is_empty() {
            out.errors = common;
            out.errors.extend(type_errs);
            out.object = obj;
            return out;
        }
        out.errors.extend(common);
        match &old {
            None => out.errors.extend(validate_root_meta(r, &obj)),
            Some(old) => out.errors.extend(validate_meta_update(r, &obj, old, false)),
        }
        // The one walk proved every value below the root valid: the
        // root's own checks remain.
        if !proven.is_some_and(|plan| plan.root_passes(&obj)) {
            self.validate_values(&obj, old.as_ref(), &mut out);
        }
        if let Some(scale) = &r.scale {
            out.errors.extend(validate_scale(scale, &obj));
        }
        validate_meta_view(&Path::root(), &obj, s, false, &mut out.errors);
        self.validate_lists(&obj, old.as_ref(), &mut out.errors);
        self.validate_rules(&obj, old.as_ref(), &mut out);
        out.object = obj;
        out
    }

    /// The schema's value validations; on update, the errors of values
    /// equal to their old values are ratcheted into warnings.
    fn validate_values(&self, obj: &Value, old: Option<&Value>, out: &mut Admitted) {
        let Some(v) = &self.validator else { return };
        let structural = self.structural.as_ref().map(IndexedSchema::structural);
        match (old, structural) {
            (Some(old), Some(s)) => {
                let res = v.validate_update(obj, &Path::root(), Correlated::root(obj, old, s));
                out.errors.extend(res.errors);
                out.ratcheted.extend(res.ratcheted);
            }
            _ => out.errors.extend(v.validate(obj, &Path::root())),
        }
    }

    /// List sets and maps; on update only when the old object passes them.
    fn validate_lists(&self, obj: &Value, old: Option<&Value>, errs: &mut ErrorList) {
        let s = self.structural.as_ref().map(IndexedSchema::view);
        if let Some(old) = old
            && !validate_list_sets_and_maps_view(&Path::root(), s, old).is_empty()
        {
            return;
        }
        errs.extend(validate_list_sets_and_maps_view(&Path::root(), s, obj));
    }

    /// `x-kubernetes-validations`, after `hasBlockingErr`.
    fn validate_rules(&self, obj: &Value, old: Option<&Value>, out: &mut Admitted) {
        let Some(cel) = &self.cel else { return };
        let blocking = out.errors.iter().any(|e| {
            matches!(
                e.error_type,
                ErrorType::NotSupported
                    | ErrorType::Required
                    | ErrorType::TooLong
                    | ErrorType::TooMany
                    | ErrorType::TypeInvalid
            )
        });
        if blocking {
            out.errors.push(FieldError::invalid(
                &Path::root(),
                "null",
                "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
            ));
            return;
        }
        let opts = CelOptions::default();
        let res = cel.validate(&Path::root(), obj, old, opts, RUNTIME_CEL_COST_BUDGET);
        out.errors.extend(res.errors);
        out.ratcheted.extend(res.ratcheted);
    }
}

/// `ValidateTypeMeta`: `kind` and `apiVersion` must be the resource's.
fn validate_type_meta(r: &ResourceKind, obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
    if kind != r.kind {
        errs.push(FieldError::invalid(
            &Path::root().child("kind"),
            kind,
            format!("must be {}", r.kind),
        ));
    }
    // `GroupVersion.String()`: the version alone in the core group.
    let want = if r.group.is_empty() {
        r.version.clone()
    } else {
        format!("{}/{}", r.group, r.version)
    };
    let api_version = obj.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    if api_version != want {
        errs.push(FieldError::invalid(
            &Path::root().child("apiVersion"),
            api_version,
            format!("must be {want}"),
        ));
    }
    errs
}

/// `ValidateObjectMetaAccessor(obj, namespaceScoped, NameIsDNSSubdomain,
/// "metadata")`, after [`before_create`]; a namespaced object without a
/// namespace gets the request's, so it is not required here.
fn validate_root_meta(r: &ResourceKind, obj: &Value) -> ErrorList {
    let path = Path::root().child("metadata");
    let meta = match obj.get("metadata") {
        None => Ok(Default::default()),
        Some(m) => decode_object_meta(m, false),
    };
    let mut meta = match meta {
        Ok(m) => m,
        Err(e) => {
            let v = obj.get("metadata").cloned().unwrap_or(Value::Null);
            return vec![FieldError::invalid(&path, v, e)];
        }
    };
    before_create(&mut meta, r.namespaced);
    let requires_namespace = r.namespaced && !meta.namespace.is_empty();
    validate_object_meta_with(&meta, requires_namespace, &name_is_dns_subdomain, &path)
}

/// `EnsureObjectNamespaceMatchesRequestNamespace`, with the request's
/// namespace as a client sends it: an update addresses the stored object,
/// so its namespace is the stored object's (the new object's when the old
/// names none); a cluster-scoped resource is addressed without one, and
/// the namespace an object names is dropped, with a warning. An update
/// naming another namespace than the stored object's is rejected.
fn ensure_request_namespace(
    r: &ResourceKind,
    obj: &mut Value,
    old: Option<&Value>,
    out: &mut Admitted,
) -> Result<(), String> {
    let namespace = |v: &Value| {
        v.pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .filter(|ns| !ns.is_empty())
            .map(str::to_string)
    };
    let Some(ns) = namespace(obj) else {
        return Ok(());
    };
    if !r.namespaced {
        if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.shift_remove("namespace");
        }
        out.warnings.push(format!(
            "metadata.namespace {ns:?} is dropped: the resource is cluster-scoped"
        ));
        return Ok(());
    }
    match old.and_then(namespace) {
        Some(stored) if stored != ns => Err(
            "the namespace of the provided object does not match the namespace sent on the request"
                .to_string(),
        ),
        _ => Ok(()),
    }
}

/// What `rest.BeforeUpdate` carries over from the stored object into the
/// new one before validation: the namespace when the new object names none
/// (the request's, which is the stored object's), the `uid` when the new
/// object has none, the creation timestamp, the deletion timestamp and the
/// deletion grace period (when the new object has none).
fn before_update(r: &ResourceKind, obj: &mut Value, old: &Value) {
    let Some(old_meta) = old.get("metadata").and_then(Value::as_object) else {
        return;
    };
    let Some(m) = obj.as_object_mut() else {
        return;
    };
    let meta = m
        .entry("metadata")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    let Some(meta) = meta.as_object_mut() else {
        return;
    };
    let empty = |v: Option<&Value>| v.is_none_or(|v| v.is_null() || v.as_str() == Some(""));
    if r.namespaced
        && empty(meta.get("namespace"))
        && let Some(ns) = old_meta.get("namespace").filter(|v| !empty(Some(v)))
    {
        meta.insert("namespace".to_string(), ns.clone());
    }
    if empty(meta.get("uid"))
        && let Some(uid) = old_meta.get("uid").filter(|v| !empty(Some(v)))
    {
        meta.insert("uid".to_string(), uid.clone());
    }
    for key in ["creationTimestamp", "deletionTimestamp"] {
        if let Some(t) = old_meta.get(key).filter(|v| !empty(Some(v))) {
            meta.insert(key.to_string(), t.clone());
        }
    }
    if meta
        .get("deletionGracePeriodSeconds")
        .is_none_or(Value::is_null)
        && let Some(g) = old_meta
            .get("deletionGracePeriodSeconds")
            .filter(|v| !v.is_null())
    {
        meta.insert("deletionGracePeriodSeconds".to_string(), g.clone());
    }
}

/// The metadata checks of an update: with `common`, the registry's
/// `validateCommonFields` (`ValidateObjectMetaAccessor` with path-segment
/// names, then `ValidateObjectMetaAccessorUpdate`); without, the
/// strategy's `ValidateObjectMetaUpdate`.
fn validate_meta_update(r: &ResourceKind, obj: &Value, old: &Value, common: bool) -> ErrorList {
    let path = Path::root().child("metadata");
    let decode = |v: &Value| match v.get("metadata") {
        None => Ok(Default::default()),
        Some(m) => {
            decode_object_meta(m, false).map_err(|e| vec![FieldError::invalid(&path, m.clone(), e)])
        }
    };
    let (new_meta, old_meta) = match (decode(obj), decode(old)) {
        (Ok(n), Ok(o)) => (n, o),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let mut errs = ErrorList::new();
    if common {
        // As on create, an object without a namespace gets the request's
        // (kubectl's context), which is not known here.
        let requires_namespace = r.namespaced && !new_meta.namespace.is_empty();
        errs.extend(validate_object_meta(&new_meta, requires_namespace, &path));
    }
    errs.extend(validate_object_meta_update(&new_meta, &old_meta, &path));
    errs
}

/// `ValidateScaleSpec` and `ValidateScaleStatus`.
fn validate_scale(scale: &ScaleSubresource, obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    for p in [&scale.spec_replicas_path, &scale.status_replicas_path]
        .into_iter()
        .flatten()
    {
        match nested(obj, p) {
            Ok(None) => {}
            Ok(Some(Value::Number(n))) if n.as_i64().is_some() => {
                let n = n.as_i64().unwrap_or_default();
                let field = Path::root().child(p.as_str());
                if n < 0 {
                    errs.push(FieldError::invalid(
                        &field,
                        n,
                        "should be a non-negative integer",
                    ));
                } else if n > i64::from(i32::MAX) {
                    errs.push(FieldError::invalid(
                        &field,
                        n,
                        format!("should be less than or equal to {}", i32::MAX),
                    ));
                }
            }
            Ok(Some(v)) => errs.push(FieldError::invalid(
                &Path::root().child(p.as_str()),
                0,
                format!(
                    "{} accessor error: {} is of the type {}, expected int64",
                    dotted(p),
                    go_v(v),
                    go_type(v)
                ),
            )),
            Err(msg) => errs.push(FieldError::invalid(&Path::root().child(p.as_str()), 0, msg)),
        }
    }
    if let Some(p) = &scale.label_selector_path {
        let field = Path::root().child(p.as_str());
        match nested(obj, p) {
            Ok(None | Some(Value::String(_))) => {}
            Ok(Some(v)) => errs.push(FieldError::invalid(
                &field,
                "",
                format!(
                    "{} accessor error: {} is of the type {}, expected string",
                    dotted(p),
                    go_v(v),
                    go_type(v)
                ),
            )),
            Err(msg) => errs.push(FieldError::invalid(&field, "", msg)),
        }
    }
    errs
}

/// `.a.b` for the path `a.b` (or `.a.b`), as `jsonPath(fields)` prints.
fn dotted(p: &str) -> String {
    format!(".{}", p.trim_start_matches('.'))
}

/// `unstructured.NestedFieldNoCopy` on a dotted path (a leading `.` is
/// ignored): `Ok(None)` when absent, an accessor error when a non-object
/// sits on the way.
fn nested<'v>(obj: &'v Value, path: &str) -> Result<Option<&'v Value>, String> {
    let fields: Vec<&str> = path.trim_start_matches('.').split('.').collect();
    let mut cur = obj;
    for (i, f) in fields.iter().enumerate() {
        match cur {
            Value::Object(m) => match m.get(*f) {
                Some(v) => cur = v,
                None => return Ok(None),
            },
            other => {
                let so_far = format!(".{}", fields.get(..i).unwrap_or_default().join("."));
                return Err(format!(
                    "{so_far} accessor error: {} is of the type {}, expected map[string]interface{{}}",
                    go_v(other),
                    go_type(other)
                ));
            }
        }
    }
    Ok(Some(cur))
}

#[cfg(test)]
mod tests;

/// Sets `metadata.generation` (creating `metadata` when absent), as
/// `SetGeneration` on an unstructured object does.
fn set_generation(obj: &mut Value, generation: i64) {
    let Some(m) = obj.as_object_mut() else {
        return;
    };
    let meta = m
        .entry("metadata")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    if let Some(meta) = meta.as_object_mut() {
        meta.insert("generation".to_string(), Value::from(generation));
    }
}

/// The top-level fields of an object other than `metadata`, for
/// `PrepareForUpdate`'s comparison.
fn without_metadata(obj: &Value) -> Vec<(&String, &Value)> {
    let mut fields: Vec<(&String, &Value)> = obj
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| k.as_str() != "metadata")
        .collect();
    fields.sort_by(|a, b| a.0.cmp(b.0));
    fields
}
