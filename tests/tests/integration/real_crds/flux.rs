//! Flux's `Kustomization` (`kustomize.toolkit.fluxcd.io/v1`), written in
//! Rust from the Go API types' fields and markers: `#[schema(...)]` for the
//! kubebuilder markers, doc comments of our own.
//!
//! The types follow, at the versions the controller's `api/go.mod` pins:
//!
//! - fluxcd/kustomize-controller `api/v1/kustomization_types.go`,
//!   `api/v1/reference_types.go` and `api/v1/inventory_types.go` at
//!   `186fb3b29138ce82ff61ba1a9370b96a3dd598fe` (the corpus commit);
//! - fluxcd/pkg `apis/kustomize/kustomize_types.go` (module
//!   `apis/kustomize` v1.20.0) and `apis/meta/reference_types.go`,
//!   `apis/meta/annotations.go`, `apis/meta/history.go` (module
//!   `apis/meta` v1.31.0), both tags at
//!   `b98e2b0975e0863f32790229ce7c9f097ed67706`.
//!
//! `metav1.Condition` and `metav1.Time` are k8s-openapi's (their schemas
//! are controller-gen's); `metav1.Duration`, which k8s-openapi has no type
//! for, is the stand-in of `k8s.rs`.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

use super::k8s::Duration;

/// What the controller builds with Kustomize from a source, and how it
/// applies the result to the cluster.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "kustomize.toolkit.fluxcd.io",
    version = "v1",
    kind = "Kustomization",
    namespaced,
    status = KustomizationStatus,
    spec_optional,
    short_names = ["ks"],
    categories = ["all", "fluxcd", "fluxcd-appliers"],
    annotations = {"kustomize.toolkit.fluxcd.io/substitute": "disabled"},
    doc = "A Kustomize overlay from a Flux source, built and applied to the cluster on a schedule.",
    printer_column(name = "Age", type = "date", json_path = ".metadata.creationTimestamp"),
    printer_column(name = "Ready", type = "string", json_path = ".status.conditions[?(@.type==\"Ready\")].status"),
    printer_column(name = "Status", type = "string", json_path = ".status.conditions[?(@.type==\"Ready\")].message"),
))]
pub struct KustomizationSpec {
    /// Labels and annotations set on every applied object, replacing
    /// values under the same keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub common_metadata: Option<CommonMetadata>,

    /// Kustomizations that have to be ready before this one is reconciled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<DependencyReference>,

    /// How to decrypt encrypted Secrets before they are applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decryption: Option<Decryption>,

    /// How often to reconcile (roughly: the controller may add jitter).
    #[schema(pattern = r"^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$")]
    pub interval: Duration,

    /// How soon to try again after a failed reconciliation; `interval`
    /// when unset.
    #[schema(pattern = r"^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_interval: Option<Duration>,

    /// Credentials for applying to another cluster than the controller's
    /// own; combined with `serviceAccountName`, the controller
    /// impersonates that account there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kube_config: Option<KubeConfigReference>,

    /// Directory in the source with the `kustomization.yaml` (or plain
    /// manifests); the source's root when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,

    /// Steps run on the built manifests before they are applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post_build: Option<PostBuild>,

    /// Whether objects that leave the build are deleted from the cluster.
    pub prune: bool,

    /// What happens to the applied objects when this Kustomization is
    /// deleted; `MirrorPrune` (follow `prune`) when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion_policy: Option<DeletionPolicy>,

    /// Objects whose health decides whether this Kustomization is ready.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub health_checks: Vec<NamespacedObjectKindReference>,

    /// Prefix added to the name of every applied object.
    #[schema(min_length = 1, max_length = 200)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_prefix: Option<String>,

    /// Suffix added to the name of every applied object.
    #[schema(min_length = 1, max_length = 200)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_suffix: Option<String>,

    /// Strategic-merge or JSON 6902 patches applied to selected objects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patches: Vec<Patch>,

    /// Image name, tag and digest replacements.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<Image>,

    /// Service account the controller impersonates while applying.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,

    /// The Flux source that holds the manifests.
    pub source_ref: CrossNamespaceSourceReference,

    /// Stops further reconciliations (a running one still finishes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,

    /// Namespace set on every namespaced object of the build.
    #[schema(min_length = 1, max_length = 63)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_namespace: Option<String>,

    /// Time limit of validating, applying and health checking;
    /// `interval` when unset.
    #[schema(pattern = r"^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Duration>,

    /// Replace objects whose update fails on an immutable field.
    #[schema(default = false)]
    #[serde(default)]
    pub force: bool,

    /// Wait for every applied object to become healthy (`healthChecks`
    /// is then not used).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait: Option<bool>,

    /// Kustomize build annotations to keep on the applied objects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub build_metadata: Vec<BuildMetadataOption>,

    /// Paths of Kustomize components to include, relative to `path`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<String>,

    /// Drop components the source does not have instead of failing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore_missing_components: Option<bool>,

    /// CEL health checks for custom resources, used with `wait` or
    /// `healthChecks`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub health_check_exprs: Vec<CustomHealthCheck>,

    /// Fields the drift detection and the apply leave alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<IgnoreRule>,
}

/// Kustomize build metadata kept as annotations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub enum BuildMetadataOption {
    /// Where each object was loaded from.
    OriginAnnotations,
    /// Which transformers changed each object.
    TransformerAnnotations,
}

/// Labels and annotations for every applied object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CommonMetadata {
    /// Annotations to set.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,

    /// Labels to set.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}

/// JSON pointers to leave out of drift detection on selected objects.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct IgnoreRule {
    /// RFC 6901 pointers of the ignored fields.
    pub paths: Vec<String>,

    /// The objects the rule is for; every object of the build when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Selector>,
}

/// How encrypted manifests are decrypted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct Decryption {
    /// The decryption tool.
    pub provider: DecryptionProvider,

    /// Service account whose identity authenticates to cloud key services
    /// (static credentials in `secretRef` take precedence).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,

    /// Secret with the decryption keys or cloud credentials.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret_ref: Option<LocalObjectReference>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "lowercase")]
pub enum DecryptionProvider {
    Sops,
}

/// When variables are substituted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum SubstituteStrategy {
    /// Only when at least one variable is defined (the default).
    WithVariables,
    /// Always, so that `${var:=default}` forms apply with no variables.
    Always,
}

/// Steps run on the built manifests.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostBuild {
    /// When to substitute: `WithVariables` (the default) needs at least one
    /// variable, `Always` substitutes regardless.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub substitute_strategy: Option<SubstituteStrategy>,

    /// Variables by name, replacing `${name}` (and the bash-like forms
    /// such as `${name:=default}`) in the manifests.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub substitute: BTreeMap<String, String>,

    /// ConfigMaps and Secrets whose data keys are more variables.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub substitute_from: Vec<SubstituteReference>,
}

/// A ConfigMap or Secret of substitution variables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct SubstituteReference {
    /// Which kind of object.
    pub kind: SubstituteKind,

    /// Its name, in the Kustomization's namespace.
    #[schema(min_length = 1, max_length = 253)]
    pub name: String,

    /// Treat a missing object as one without variables instead of failing.
    #[schema(default = false)]
    #[serde(default)]
    pub optional: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum SubstituteKind {
    Secret,
    ConfigMap,
}

/// What to do with the applied objects when the Kustomization goes away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum DeletionPolicy {
    /// Delete them if `prune` is on, keep them otherwise.
    MirrorPrune,
    /// Delete them.
    Delete,
    /// Delete them and wait until they are gone.
    WaitForTermination,
    /// Keep them.
    Orphan,
}

/// What the controller last observed and did.
// The Go root type defaults its status field with
// `+kubebuilder:default:={"observedGeneration":-1}`; the root type here is
// generated, so the default sits on the status type, the one place it is
// used.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(default = {"observedGeneration": -1})]
pub struct KustomizationStatus {
    #[serde(flatten)]
    pub reconcile_request: ReconcileRequestStatus,

    /// The generation the controller last reconciled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,

    /// Standard conditions (`Ready`, `Reconciling`, `Stalled`, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,

    /// Source revision of the last successful apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_applied_revision: Option<String>,

    /// Origin revision (the artifact's metadata, e.g. an OCI revision
    /// annotation) of the last successful apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_applied_origin_revision: Option<String>,

    /// Source revision of the last attempt, successful or not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_attempted_revision: Option<String>,

    /// The objects applied so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inventory: Option<ResourceInventory>,

    /// The latest reconciliations, newest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: History,
}

/// The reconcile request the controller handled last.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReconcileRequestStatus {
    /// The `reconcile.fluxcd.io/requestedAt` value last acted upon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_handled_reconcile_at: Option<String>,
}

/// The objects a Kustomization applied.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct ResourceInventory {
    /// One entry per object.
    pub entries: Vec<ResourceRef>,
}

/// One applied object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct ResourceRef {
    /// `<namespace>_<name>_<group>_<kind>`.
    pub id: String,

    /// The object's API version.
    #[serde(rename = "v")]
    pub version: String,
}

/// Reconciliation records, newest first.
pub type History = Vec<Snapshot>;

/// One record of reconciling a set of objects.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// `<algorithm>:<hex>` checksum of the objects.
    pub digest: String,

    /// When these objects were first reconciled.
    pub first_reconciled: Time,

    /// When these objects were last reconciled.
    pub last_reconciled: Time,

    /// How long the last reconciliation took.
    pub last_reconciled_duration: Duration,

    /// Outcome of the last reconciliation.
    pub last_reconciled_status: String,

    /// How often these objects were reconciled.
    pub total_reconciliations: i64,

    /// Extra facts about the record.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
}

/// The Flux source to build from, in any namespace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CrossNamespaceSourceReference {
    /// The source's API version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,

    /// The source's kind.
    pub kind: SourceKind,

    /// The source's name.
    pub name: String,

    /// The source's namespace; the Kustomization's own when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum SourceKind {
    #[serde(rename = "OCIRepository")]
    OciRepository,
    GitRepository,
    Bucket,
    ExternalArtifact,
}

// ---------------------------------------------------------------------------
// github.com/fluxcd/pkg/apis/meta
// ---------------------------------------------------------------------------

/// An object in the same namespace, by name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct LocalObjectReference {
    /// The object's name.
    pub name: String,
}

/// Another Kustomization this one waits for.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct DependencyReference {
    /// Its name.
    pub name: String,

    /// Its namespace; this object's own when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,

    /// CEL expression over the dependency that decides whether it is ready
    /// (in place of the built-in check unless the `AdditiveCELDependencyCheck`
    /// feature gate is on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_expr: Option<String>,
}

/// An object of a given kind in any namespace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct NamespacedObjectKindReference {
    /// Its API version; the preferred one when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,

    /// Its kind.
    pub kind: String,

    /// Its name.
    pub name: String,

    /// Its namespace; the referring object's when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

/// A Secret in the same namespace, and optionally one of its keys.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct SecretKeyReference {
    /// The Secret's name.
    pub name: String,

    /// The data key; a default the consumer picks when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// Where the kubeconfig of a remote cluster comes from: a ConfigMap that
/// describes the cluster for a cloud provider's login, or a Secret with a
/// whole kubeconfig (exactly one of them).
// Upstream's two rules share one message, which clippy's
// `duplicated_attributes` takes for a repeated key.
#[allow(clippy::duplicated_attributes)]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(
    validation(
        rule = "has(self.configMapRef) || has(self.secretRef)",
        message = "exactly one of spec.kubeConfig.configMapRef or spec.kubeConfig.secretRef must be specified",
    ),
    validation(
        rule = "!has(self.configMapRef) || !has(self.secretRef)",
        message = "exactly one of spec.kubeConfig.configMapRef or spec.kubeConfig.secretRef must be specified",
    )
)]
pub struct KubeConfigReference {
    /// ConfigMap describing the cluster, with the keys:
    ///
    /// - `provider`: `aws`, `azure`, `gcp` or `generic` (required);
    /// - `cluster`: the cluster's resource name at the provider (not for
    ///   `generic`);
    /// - `address`: the API server's URL (required for `generic`, else it
    ///   picks one of the cluster's addresses);
    /// - `ca.crt`: the API server's CA bundle in PEM (else the cluster's);
    /// - `audiences`: token audiences, one per line;
    /// - `serviceAccountName`: a service account of this namespace whose
    ///   token is used (else the controller's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_map_ref: Option<LocalObjectReference>,

    /// Secret holding a self-contained kubeconfig under `key` (`value` when
    /// unset); `generic` provider only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret_ref: Option<SecretKeyReference>,
}

// ---------------------------------------------------------------------------
// github.com/fluxcd/pkg/apis/kustomize
// ---------------------------------------------------------------------------

/// An image replacement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct Image {
    /// The image name to match, without a tag.
    pub name: String,

    /// The name to put in its place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_name: Option<String>,

    /// The tag to put in its place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_tag: Option<String>,

    /// The digest to put in its place (`newTag` is then not used).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

/// Objects matching every condition given.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct Selector {
    /// API group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,

    /// API version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,

    /// Kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,

    /// Namespace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,

    /// Name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,

    /// A label-selector expression matched against the annotations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotation_selector: Option<String>,

    /// A label-selector expression matched against the labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<String>,
}

/// A patch and the objects it applies to.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct Patch {
    /// A strategic-merge patch, or a JSON 6902 list of operations, as YAML.
    pub patch: String,

    /// The objects to patch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Selector>,
}

/// CEL expressions that tell the health of a custom resource kind.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomHealthCheck {
    /// API version of the checked resources.
    pub api_version: String,

    /// Kind of the checked resources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,

    #[serde(flatten)]
    pub expressions: HealthCheckExpressions,
}

/// The expressions of a custom health check, each over the object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct HealthCheckExpressions {
    /// True once the object reached its desired state.
    pub current: String,

    /// True while it is still on its way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_progress: Option<String>,

    /// True when it failed to get there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
}
