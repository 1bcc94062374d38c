//! The schema details controller-gen emits for the Kubernetes types that
//! k8s-openapi's schemas leave out: `x-kubernetes-list-type`,
//! `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`, `default`s, the
//! validations of kubebuilder markers and the `required` lists where the
//! Go markers and the OpenAPI document disagree.
//!
//! Taken from controller-gen's output for these types against the
//! Kubernetes 1.35 API, as embedded in the CRDs of KEDA, crossplane,
//! prometheus-operator, flux, cluster-api and argo-workflows (the test
//! `tests/tests/k8s.rs` compares the result with them). A patch whose
//! property does not exist in the selected
//! Kubernetes version is skipped.

use crate::rust::__private::Json;

/// One correction: at `path` inside the schema named `schema` (property
/// names, `[]` for the items of an array, `{}` for the values of a map;
/// empty for the type itself), set each key to its value; `Json::Null`
/// removes the key.
pub(super) struct Patch {
    /// The schemars schema name (`io.k8s.api.core.v1.Container`).
    pub schema: &'static str,
    /// Where inside that schema.
    pub path: &'static [&'static str],
    /// The keys to set (or remove).
    pub set: &'static [(&'static str, Json)],
}

const fn patch(
    schema: &'static str,
    path: &'static [&'static str],
    set: &'static [(&'static str, Json)],
) -> Patch {
    Patch { schema, path, set }
}

/// The patches, sorted by schema name.
pub(super) static PATCHES: &[Patch] = &[
    patch(
        "io.k8s.api.batch.v1.PodFailurePolicy",
        &["rules"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement",
        &["values"],
        &[("x-kubernetes-list-type", Json::Str("set"))],
    ),
    patch(
        "io.k8s.api.batch.v1.PodFailurePolicyRule",
        &["onPodConditions"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.batch.v1.SuccessPolicy",
        &["rules"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.AzureDiskVolumeSource",
        &["fsType"],
        &[("default", Json::Str("ext4"))],
    ),
    patch(
        "io.k8s.api.core.v1.AzureDiskVolumeSource",
        &["readOnly"],
        &[("default", Json::Bool(false))],
    ),
    patch(
        "io.k8s.api.core.v1.Capabilities",
        &["add"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.Capabilities",
        &["drop"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.CephFSVolumeSource",
        &["monitors"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.ConfigMapEnvSource",
        &[],
        &[
            ("required", Json::Null),
            ("x-kubernetes-map-type", Json::Str("atomic")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.ConfigMapEnvSource",
        &["name"],
        &[("default", Json::Str(""))],
    ),
    patch(
        "io.k8s.api.core.v1.ConfigMapKeySelector",
        &[],
        &[
            ("required", Json::Array(&[Json::Str("key")])),
            ("x-kubernetes-map-type", Json::Str("atomic")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.ConfigMapKeySelector",
        &["name"],
        &[("default", Json::Str(""))],
    ),
    patch(
        "io.k8s.api.core.v1.ConfigMapProjection",
        &[],
        &[
            ("required", Json::Null),
            ("x-kubernetes-map-type", Json::Str("atomic")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.ConfigMapProjection",
        &["items"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.ConfigMapProjection",
        &["name"],
        &[("default", Json::Str(""))],
    ),
    patch(
        "io.k8s.api.core.v1.ConfigMapVolumeSource",
        &[],
        &[
            ("required", Json::Null),
            ("x-kubernetes-map-type", Json::Str("atomic")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.ConfigMapVolumeSource",
        &["items"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.ConfigMapVolumeSource",
        &["name"],
        &[("default", Json::Str(""))],
    ),
    patch(
        "io.k8s.api.core.v1.Container",
        &["args"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.Container",
        &["command"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.Container",
        &["env"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("name")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.Container",
        &["envFrom"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.Container",
        &["ports"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("containerPort"), Json::Str("protocol")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.Container",
        &["resizePolicy"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.Container",
        &["restartPolicyRules"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.Container",
        &["volumeDevices"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("devicePath")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.Container",
        &["volumeMounts"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("mountPath")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.ContainerPort",
        &["protocol"],
        &[("default", Json::Str("TCP"))],
    ),
    patch(
        "io.k8s.api.core.v1.ContainerRestartRuleOnExitCodes",
        &["values"],
        &[("x-kubernetes-list-type", Json::Str("set"))],
    ),
    patch(
        "io.k8s.api.core.v1.DownwardAPIProjection",
        &["items"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.DownwardAPIVolumeSource",
        &["items"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.EphemeralContainer",
        &["args"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.EphemeralContainer",
        &["command"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.EphemeralContainer",
        &["env"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("name")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.EphemeralContainer",
        &["envFrom"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.EphemeralContainer",
        &["ports"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("containerPort"), Json::Str("protocol")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.EphemeralContainer",
        &["resizePolicy"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.EphemeralContainer",
        &["restartPolicyRules"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.EphemeralContainer",
        &["volumeDevices"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("devicePath")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.EphemeralContainer",
        &["volumeMounts"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("mountPath")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.ExecAction",
        &["command"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.FCVolumeSource",
        &["targetWWNs"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.FCVolumeSource",
        &["wwids"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.FileKeySelector",
        &[],
        &[("x-kubernetes-map-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.FileKeySelector",
        &["optional"],
        &[("default", Json::Bool(false))],
    ),
    patch(
        "io.k8s.api.core.v1.GRPCAction",
        &["service"],
        &[("default", Json::Str(""))],
    ),
    patch(
        "io.k8s.api.core.v1.HTTPGetAction",
        &["httpHeaders"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.HostAlias",
        &["hostnames"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.ISCSIVolumeSource",
        &["iscsiInterface"],
        &[("default", Json::Str("default"))],
    ),
    patch(
        "io.k8s.api.core.v1.ISCSIVolumeSource",
        &["portals"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.LocalObjectReference",
        &[],
        &[
            ("required", Json::Null),
            ("x-kubernetes-map-type", Json::Str("atomic")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.LocalObjectReference",
        &["name"],
        &[("default", Json::Str(""))],
    ),
    patch(
        "io.k8s.api.core.v1.NodeAffinity",
        &["preferredDuringSchedulingIgnoredDuringExecution"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.NodeSelector",
        &[],
        &[("x-kubernetes-map-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.NodeSelector",
        &["nodeSelectorTerms"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.NodeSelectorRequirement",
        &["values"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.NodeSelectorTerm",
        &[],
        &[("x-kubernetes-map-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.NodeSelectorTerm",
        &["matchExpressions"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.NodeSelectorTerm",
        &["matchFields"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.ObjectFieldSelector",
        &[],
        &[("x-kubernetes-map-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.ObjectReference",
        &[],
        &[("x-kubernetes-map-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PersistentVolumeClaimSpec",
        &["accessModes"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PersistentVolumeClaimStatus",
        &["accessModes"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PersistentVolumeClaimStatus",
        &["allocatedResourceStatuses"],
        &[("x-kubernetes-map-type", Json::Str("granular"))],
    ),
    patch(
        "io.k8s.api.core.v1.PersistentVolumeClaimStatus",
        &["conditions"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("type")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.PodAffinity",
        &["preferredDuringSchedulingIgnoredDuringExecution"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodAffinity",
        &["requiredDuringSchedulingIgnoredDuringExecution"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodAffinityTerm",
        &["matchLabelKeys"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodAffinityTerm",
        &["mismatchLabelKeys"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodAffinityTerm",
        &["namespaces"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodAntiAffinity",
        &["preferredDuringSchedulingIgnoredDuringExecution"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodAntiAffinity",
        &["requiredDuringSchedulingIgnoredDuringExecution"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodDNSConfig",
        &["nameservers"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodDNSConfig",
        &["options"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodDNSConfig",
        &["searches"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodSecurityContext",
        &["supplementalGroups"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodSecurityContext",
        &["sysctls"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["containers"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("name")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["ephemeralContainers"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("name")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["hostAliases"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("ip")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["imagePullSecrets"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("name")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["initContainers"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("name")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["nodeSelector"],
        &[("x-kubernetes-map-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["readinessGates"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["resourceClaims"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("name")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["schedulingGates"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("name")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["tolerations"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["topologySpreadConstraints"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("topologyKey"), Json::Str("whenUnsatisfiable")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.PodSpec",
        &["volumes"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("name")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.ProjectedVolumeSource",
        &["sources"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.RBDVolumeSource",
        &["keyring"],
        &[("default", Json::Str("/etc/ceph/keyring"))],
    ),
    patch(
        "io.k8s.api.core.v1.RBDVolumeSource",
        &["monitors"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.RBDVolumeSource",
        &["pool"],
        &[("default", Json::Str("rbd"))],
    ),
    patch(
        "io.k8s.api.core.v1.RBDVolumeSource",
        &["user"],
        &[("default", Json::Str("admin"))],
    ),
    patch(
        "io.k8s.api.core.v1.ResourceFieldSelector",
        &[],
        &[("x-kubernetes-map-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.ResourceRequirements",
        &["claims"],
        &[
            (
                "x-kubernetes-list-map-keys",
                Json::Array(&[Json::Str("name")]),
            ),
            ("x-kubernetes-list-type", Json::Str("map")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.ScaleIOVolumeSource",
        &["fsType"],
        &[("default", Json::Str("xfs"))],
    ),
    patch(
        "io.k8s.api.core.v1.ScaleIOVolumeSource",
        &["storageMode"],
        &[("default", Json::Str("ThinProvisioned"))],
    ),
    patch(
        "io.k8s.api.core.v1.SecretEnvSource",
        &[],
        &[
            ("required", Json::Null),
            ("x-kubernetes-map-type", Json::Str("atomic")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.SecretEnvSource",
        &["name"],
        &[("default", Json::Str(""))],
    ),
    patch(
        "io.k8s.api.core.v1.SecretKeySelector",
        &[],
        &[
            ("required", Json::Array(&[Json::Str("key")])),
            ("x-kubernetes-map-type", Json::Str("atomic")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.SecretKeySelector",
        &["name"],
        &[("default", Json::Str(""))],
    ),
    patch(
        "io.k8s.api.core.v1.SecretProjection",
        &[],
        &[
            ("required", Json::Null),
            ("x-kubernetes-map-type", Json::Str("atomic")),
        ],
    ),
    patch(
        "io.k8s.api.core.v1.SecretProjection",
        &["items"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.SecretProjection",
        &["name"],
        &[("default", Json::Str(""))],
    ),
    patch(
        "io.k8s.api.core.v1.SecretVolumeSource",
        &["items"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.TopologySpreadConstraint",
        &["matchLabelKeys"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.api.core.v1.TypedLocalObjectReference",
        &[],
        &[("x-kubernetes-map-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.apimachinery.pkg.apis.meta.v1.Condition",
        &["message"],
        &[("maxLength", Json::Int(32768))],
    ),
    patch(
        "io.k8s.apimachinery.pkg.apis.meta.v1.Condition",
        &["observedGeneration"],
        &[("minimum", Json::Int(0))],
    ),
    patch(
        "io.k8s.apimachinery.pkg.apis.meta.v1.Condition",
        &["reason"],
        &[
            ("maxLength", Json::Int(1024)),
            ("minLength", Json::Int(1)),
            (
                "pattern",
                Json::Str("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"),
            ),
        ],
    ),
    patch(
        "io.k8s.apimachinery.pkg.apis.meta.v1.Condition",
        &["status"],
        &[(
            "enum",
            Json::Array(&[Json::Str("True"), Json::Str("False"), Json::Str("Unknown")]),
        )],
    ),
    patch(
        "io.k8s.apimachinery.pkg.apis.meta.v1.Condition",
        &["type"],
        &[
            ("maxLength", Json::Int(316)),
            (
                "pattern",
                Json::Str(
                    "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
                ),
            ),
        ],
    ),
    patch(
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector",
        &[],
        &[("x-kubernetes-map-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector",
        &["matchExpressions"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
    patch(
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",
        &["values"],
        &[("x-kubernetes-list-type", Json::Str("atomic"))],
    ),
];
