use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition as MetaCondition, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

use crate::real_crds::k8s::Duration;

/// What the user wants the cluster to look like.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "cluster.x-k8s.io",
    version = "v1beta1",
    kind = "Cluster",
    namespaced,
    short_names = ["cl"],
    categories = ["cluster-api"],
    status = ClusterStatus,
    spec_optional,
    storage = false,
    deprecated,
    doc = "A Cluster managed by Cluster API (the deprecated v1beta1 shape).",
    printer_column(name = "ClusterClass", type = "string", json_path = ".spec.topology.class", description = "The class the cluster is built from, if any"),
    printer_column(name = "Phase", type = "string", json_path = ".status.phase", description = "Lifecycle phase of the cluster"),
    printer_column(name = "Age", type = "date", json_path = ".metadata.creationTimestamp", description = "How long ago the cluster was created"),
    printer_column(name = "Version", type = "string", json_path = ".spec.topology.version", description = "Kubernetes version of the cluster"),
))]
pub struct ClusterSpec {
    /// Stops the controllers from acting on this cluster and its objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,

    /// Pod and service networking.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_network: Option<ClusterNetwork>,

    /// Where clients reach the API server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane_endpoint: Option<ApiEndpoint>,

    /// The provider object that runs the control plane.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane_ref: Option<ObjectReference>,

    /// The provider object that holds the cluster's infrastructure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infrastructure_ref: Option<ObjectReference>,

    /// A cluster built from a ClusterClass.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology: Option<Topology>,

    /// More conditions the cluster must meet to be available.
    #[schema(list_type = "map", list_map_keys = ["conditionType"], max_items = 32)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub availability_gates: Vec<ClusterAvailabilityGate>,
}

/// Whether a condition is good when true or when false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum ConditionPolarity {
    /// Good when true.
    Positive,
    /// Good when false.
    Negative,
}

/// One condition the cluster's availability also depends on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClusterAvailabilityGate {
    /// The condition's type, looked up in the cluster's conditions.
    #[schema(
        pattern = r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
        min_length = 1,
        max_length = 316
    )]
    pub condition_type: String,

    /// Positive unless said otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polarity: Option<ConditionPolarity>,
}

/// The managed topology: a class, a version and what to vary per cluster.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct Topology {
    /// Name of the ClusterClass.
    #[schema(min_length = 1, max_length = 253)]
    pub class: String,

    /// Namespace of the ClusterClass; the cluster's own by default.
    #[schema(
        min_length = 1,
        max_length = 63,
        pattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
    )]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_namespace: Option<String>,

    /// Kubernetes version of the cluster.
    #[schema(min_length = 1, max_length = 256)]
    pub version: String,

    /// Machines created before this time are rolled out again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollout_after: Option<Time>,

    /// The control plane's settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<ControlPlaneTopology>,

    /// The worker pools.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<WorkersTopology>,

    /// Values of the class's variables.
    #[schema(list_type = "map", list_map_keys = ["name"], max_items = 1000)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<ClusterVariable>,
}

/// The control plane of a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct ControlPlaneTopology {
    /// Labels and annotations for the control plane's objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,

    /// How many control plane machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,

    /// When to roll the control plane out again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollout: Option<ControlPlaneTopologyRolloutSpec>,

    /// Health checking of the control plane machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine_health_check: Option<MachineHealthCheckTopology>,

    /// How long to drain a node at most; no limit when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout: Option<Duration>,

    /// How long to wait for volumes to detach at most.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout: Option<Duration>,

    /// How long to keep trying to delete a node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout: Option<Duration>,

    /// Taints for the control plane's nodes.
    #[schema(list_type = "map", list_map_keys = ["key", "effect"], min_items = 1, max_items = 64)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<MachineTaint>,

    /// Conditions a control plane machine needs to be ready.
    #[schema(list_type = "map", list_map_keys = ["conditionType"], max_items = 32)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub readiness_gates: Vec<MachineReadinessGate>,

    /// Variable values for the control plane only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variables: Option<ControlPlaneVariables>,
}

/// When to roll the control plane out.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[schema(min_properties = 1)]
pub struct ControlPlaneTopologyRolloutSpec {
    /// Machines older than this are replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Time>,
}

/// The worker pools of a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkersTopology {
    /// The MachineDeployments, by name.
    #[schema(list_type = "map", list_map_keys = ["name"], max_items = 2000)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machine_deployments: Vec<MachineDeploymentTopology>,

    /// The MachinePools, by name.
    #[schema(list_type = "map", list_map_keys = ["name"], max_items = 2000)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machine_pools: Vec<MachinePoolTopology>,
}

/// One MachineDeployment of a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct MachineDeploymentTopology {
    /// Labels and annotations for the deployment's objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,

    /// The worker class of the ClusterClass to use.
    #[schema(min_length = 1, max_length = 256)]
    pub class: String,

    /// Unique name of this deployment in the topology.
    #[schema(min_length = 1, max_length = 63)]
    pub name: String,

    /// The failure domain to place the machines in.
    #[schema(min_length = 1, max_length = 256)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_domain: Option<String>,

    /// How many machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,

    /// Health checking of the deployment's machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine_health_check: Option<MachineHealthCheckTopology>,

    /// How long to drain a node at most.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout: Option<Duration>,

    /// How long to wait for volumes to detach at most.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout: Option<Duration>,

    /// How long to keep trying to delete a node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout: Option<Duration>,

    /// Taints for the deployment's nodes.
    #[schema(list_type = "map", list_map_keys = ["key", "effect"], min_items = 1, max_items = 64)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<MachineTaint>,

    /// Seconds a new node must be ready before it counts as available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,

    /// Conditions a machine needs to be ready.
    #[schema(list_type = "map", list_map_keys = ["conditionType"], max_items = 32)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub readiness_gates: Vec<MachineReadinessGate>,

    /// When to roll the deployment out again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollout: Option<MachineDeploymentTopologyRolloutSpec>,

    /// How machines are replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<MachineDeploymentStrategy>,

    /// Variable values for this deployment only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variables: Option<MachineDeploymentVariables>,
}

/// When to roll a MachineDeployment out.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[schema(min_properties = 1)]
pub struct MachineDeploymentTopologyRolloutSpec {
    /// Machines older than this are replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Time>,
}

/// Health checking of a topology's machines: a switch and the checks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct MachineHealthCheckTopology {
    /// Turns the health check on or off; the class decides when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,

    /// The checks themselves.
    #[serde(flatten)]
    pub class: MachineHealthCheckClass,
}

/// When a machine is unhealthy and how it is remediated.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct MachineHealthCheckClass {
    /// Node conditions that, held long enough, make a machine unhealthy.
    #[schema(max_items = 100)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unhealthy_conditions: Vec<UnhealthyCondition>,

    /// Machine conditions that, held long enough, make a machine unhealthy.
    #[schema(list_type = "atomic", min_items = 1, max_items = 100)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unhealthy_machine_conditions: Vec<UnhealthyMachineCondition>,

    /// Remediation stops above this many (or this share of) unhealthy machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unhealthy: Option<IntOrString>,

    /// Remediation only while the unhealthy count is in this range (`[3-5]`).
    #[schema(pattern = r"^\[[0-9]+-[0-9]+\]$", min_length = 1, max_length = 32)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unhealthy_range: Option<String>,

    /// How long a machine may take to get a node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_startup_timeout: Option<Duration>,

    /// A template for external remediation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remediation_template: Option<ObjectReference>,
}

/// A node condition with a status held for a time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct UnhealthyCondition {
    /// The node condition's type.
    #[schema(min_length = 1)]
    #[serde(rename = "type")]
    pub type_: String,

    /// The status that counts as unhealthy.
    #[schema(min_length = 1)]
    pub status: String,

    /// How long the status must hold.
    pub timeout: Duration,
}

/// A condition's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum ConditionStatus {
    /// The condition holds.
    True,
    /// It does not.
    False,
    /// Not known.
    Unknown,
}

/// A machine condition with a status held for a time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct UnhealthyMachineCondition {
    /// The machine condition's type; not one Cluster API sets itself.
    #[schema(
        pattern = r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
        min_length = 1,
        max_length = 316,
        validation(
            rule = "!(self in ['Ready','Available','HealthCheckSucceeded','OwnerRemediated','ExternallyRemediated'])",
            message = "type must not be one of: Ready, Available, HealthCheckSucceeded, OwnerRemediated, ExternallyRemediated"
        )
    )]
    #[serde(rename = "type")]
    pub type_: String,

    /// The status that counts as unhealthy.
    pub status: ConditionStatus,

    /// How long the status must hold.
    pub timeout: Duration,
}

/// How a MachineDeployment replaces machines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum MachineDeploymentStrategyType {
    /// New machines before old ones go, within bounds.
    RollingUpdate,
    /// Old machines go only when deleted by hand.
    OnDelete,
}

/// Which machines go first when scaling down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum DeletePolicy {
    /// Any.
    Random,
    /// The youngest.
    Newest,
    /// The oldest.
    Oldest,
}

/// The replacement strategy of a MachineDeployment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct MachineDeploymentStrategy {
    /// RollingUpdate unless set.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_: Option<MachineDeploymentStrategyType>,

    /// Bounds of a rolling update.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<MachineRollingUpdateDeployment>,

    /// How many machines are remediated at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remediation: Option<RemediationStrategy>,
}

/// Bounds of a rolling update.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct MachineRollingUpdateDeployment {
    /// Machines that may be missing during the update.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,

    /// Machines that may be added above the desired count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,

    /// Which machines go first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delete_policy: Option<DeletePolicy>,
}

/// Limits on remediation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemediationStrategy {
    /// Machines remediated at the same time, as a count or a share.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_in_flight: Option<IntOrString>,
}

/// One MachinePool of a managed topology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct MachinePoolTopology {
    /// Labels and annotations for the pool's objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,

    /// The pool class of the ClusterClass to use.
    #[schema(min_length = 1, max_length = 256)]
    pub class: String,

    /// Unique name of this pool in the topology.
    #[schema(min_length = 1, max_length = 63)]
    pub name: String,

    /// Failure domains to spread the machines over.
    #[schema(max_items = 100, items(min_length = 1, max_length = 256))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failure_domains: Vec<String>,

    /// How long to drain a node at most.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_drain_timeout: Option<Duration>,

    /// How long to wait for volumes to detach at most.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_volume_detach_timeout: Option<Duration>,

    /// How long to keep trying to delete a node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_deletion_timeout: Option<Duration>,

    /// Taints for the pool's nodes.
    #[schema(list_type = "map", list_map_keys = ["key", "effect"], min_items = 1, max_items = 64)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<MachineTaint>,

    /// Seconds a new node must be ready before it counts as available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,

    /// How many machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,

    /// Variable values for this pool only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variables: Option<MachinePoolVariables>,
}

/// A value for one variable of the ClusterClass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClusterVariable {
    /// The variable's name.
    #[schema(min_length = 1, max_length = 256)]
    pub name: String,

    /// Which definition of the variable the value is for, when several patches define it.
    #[schema(max_length = 256)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub definition_from: Option<String>,

    /// The value, of whatever type the variable has.
    pub value: serde_json::Value,
}

/// Variable values for the control plane.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct ControlPlaneVariables {
    /// Values that replace the cluster-wide ones.
    #[schema(list_type = "map", list_map_keys = ["name"], max_items = 1000)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<ClusterVariable>,
}

/// Variable values for one MachineDeployment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct MachineDeploymentVariables {
    /// Values that replace the cluster-wide ones.
    #[schema(list_type = "map", list_map_keys = ["name"], max_items = 1000)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<ClusterVariable>,
}

/// Variable values for one MachinePool.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct MachinePoolVariables {
    /// Values that replace the cluster-wide ones.
    #[schema(list_type = "map", list_map_keys = ["name"], max_items = 1000)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<ClusterVariable>,
}

/// Labels and annotations passed on to generated objects.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct ObjectMeta {
    /// Labels to set.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,

    /// Annotations to set.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// The effect of a taint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum TaintEffect {
    /// No new pods without a toleration.
    NoSchedule,
    /// New pods avoid the node if they can.
    PreferNoSchedule,
    /// Running pods without a toleration are evicted too.
    NoExecute,
}

/// When a taint is applied to a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum MachineTaintPropagation {
    /// Kept on the node all the time.
    Always,
    /// Set when the node joins, then left to others.
    OnInitialization,
}

/// A taint for the nodes of machines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct MachineTaint {
    /// The taint's key.
    #[schema(
        min_length = 1,
        max_length = 317,
        pattern = r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$"
    )]
    pub key: String,

    /// The taint's value.
    #[schema(
        min_length = 1,
        max_length = 63,
        pattern = r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"
    )]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,

    /// What the taint does to pods.
    pub effect: TaintEffect,

    /// When the taint is applied.
    pub propagation: MachineTaintPropagation,
}

/// A condition a machine needs, besides its own, to be ready.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct MachineReadinessGate {
    /// The condition's type, looked up in the machine's conditions.
    #[schema(
        pattern = r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
        min_length = 1,
        max_length = 316
    )]
    pub condition_type: String,

    /// Positive unless said otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polarity: Option<ConditionPolarity>,
}

/// Pod and service networking of a cluster.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClusterNetwork {
    /// The port the API server listens on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_server_port: Option<i32>,

    /// Service address ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub services: Option<NetworkRanges>,

    /// Pod address ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pods: Option<NetworkRanges>,

    /// The DNS domain of services.
    #[schema(min_length = 1, max_length = 253)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_domain: Option<String>,
}

/// A list of CIDR ranges.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct NetworkRanges {
    /// The ranges.
    #[schema(max_items = 100, items(min_length = 1, max_length = 43))]
    pub cidr_blocks: Vec<String>,
}

/// Lifecycle phase of a cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum ClusterPhase {
    /// Just created.
    Pending,
    /// Infrastructure on its way.
    Provisioning,
    /// Infrastructure and control plane up.
    Provisioned,
    /// Being deleted.
    Deleting,
    /// Hit an error it cannot recover from.
    Failed,
    /// Not known.
    Unknown,
}

/// What the controllers observed of the cluster.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClusterStatus {
    /// The failure domains the infrastructure offers, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub failure_domains: BTreeMap<String, FailureDomainSpec>,

    /// A terminal problem, for machines (no longer set).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,

    /// A terminal problem, for people (no longer set).
    #[schema(min_length = 1, max_length = 10240)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_message: Option<String>,

    /// The cluster's phase.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<ClusterPhase>,

    /// Whether the infrastructure is ready.
    #[serde(default)]
    pub infrastructure_ready: bool,

    /// Whether the control plane is ready.
    #[serde(default)]
    pub control_plane_ready: bool,

    /// The cluster's conditions, in Cluster API's old format.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,

    /// The generation the controllers last acted on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,

    /// The fields of the next API version, carried along.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v1beta2: Option<ClusterV1Beta2Status>,
}

/// Status fields in the `v1beta2` format.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClusterV1Beta2Status {
    /// Conditions in the Kubernetes format.
    #[schema(list_type = "map", list_map_keys = ["type"], max_items = 32)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<MetaCondition>,

    /// Counts of the control plane's machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<ClusterControlPlaneStatus>,

    /// Counts of the worker machines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<WorkersStatus>,
}

/// Machine counts of the control plane.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClusterControlPlaneStatus {
    /// Machines wanted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_replicas: Option<i32>,
    /// Machines there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Machines at the wanted spec.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up_to_date_replicas: Option<i32>,
    /// Machines ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// Machines available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_replicas: Option<i32>,
    /// The Kubernetes versions running, with their machine counts.
    #[schema(list_type = "atomic", min_items = 1, max_items = 32)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<StatusVersion>,
    /// The versions still to go through during an upgrade.
    #[schema(list_type = "atomic", min_items = 1, max_items = 32)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrade_plan: Vec<StatusUpgradePlanVersion>,
}

/// Machine counts of the workers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkersStatus {
    /// Machines wanted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_replicas: Option<i32>,
    /// Machines there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Machines at the wanted spec.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up_to_date_replicas: Option<i32>,
    /// Machines ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// Machines available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_replicas: Option<i32>,
    /// The Kubernetes versions running, with their machine counts.
    #[schema(list_type = "atomic", min_items = 1, max_items = 32)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<StatusVersion>,
    /// The versions still to go through during an upgrade.
    #[schema(list_type = "atomic", min_items = 1, max_items = 32)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrade_plan: Vec<StatusUpgradePlanVersion>,
}

/// A Kubernetes version and how many machines run it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct StatusVersion {
    /// The version.
    #[schema(min_length = 1, max_length = 256)]
    pub version: String,
    /// Machines on it.
    #[schema(minimum = 1)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
}

/// One step of an upgrade plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct StatusUpgradePlanVersion {
    /// The version of the step.
    #[schema(min_length = 1, max_length = 256)]
    pub version: String,
}

/// A failure domain as the infrastructure reports it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailureDomainSpec {
    /// Whether control plane machines may go there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control_plane: Option<bool>,

    /// Provider-specific details.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
}

/// Where clients reach the API server.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct ApiEndpoint {
    /// Host name or address.
    #[schema(max_length = 512)]
    #[serde(default)]
    pub host: String,

    /// Port.
    #[serde(default)]
    pub port: i32,
}

/// A condition in Cluster API's own format, with a severity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// What the condition is about.
    #[schema(min_length = 1, max_length = 256)]
    #[serde(rename = "type")]
    pub type_: String,

    /// True, False or Unknown.
    pub status: String,

    /// How bad it is when False.
    #[schema(max_length = 32)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<String>,

    /// When the status last changed.
    pub last_transition_time: Time,

    /// Why, in one word.
    #[schema(min_length = 1, max_length = 256)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,

    /// Why, for people.
    #[schema(min_length = 1, max_length = 10240)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}
