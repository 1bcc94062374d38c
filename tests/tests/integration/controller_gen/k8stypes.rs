//! The twin of `fixtures/k8stypes`: Kubernetes types that do not embed
//! ObjectMeta, used as fields.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{LocalObjectReference, ResourceRequirements};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// The nodes whose schema is a Kubernetes type's (descriptions from
/// k8s-openapi; see `normalize`).
pub const K8S_NODES: &[&str] = &[
    "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/resources",
    "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/pullSecret",
    "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/selector",
    "/spec/versions/0/schema/openAPIV3Schema/properties/status/properties/conditions/items",
];

/// WorkloadSpec is the desired state of a Workload.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "k8stypes.example.com",
    version = "v1",
    kind = "Workload",
    namespaced,
    status = WorkloadStatus,
    doc = "Workload is the Schema for the workloads API.",
))]
pub struct WorkloadSpec {
    /// Resources of the workload.
    pub resources: Option<ResourceRequirements>,
    /// PullSecret names a secret.
    pub pull_secret: Option<LocalObjectReference>,
    /// Interval between runs.
    pub interval: Option<String>,
    /// MaxUnavailable is a number or a percentage.
    pub max_unavailable: Option<IntOrString>,
    /// Memory is a quantity.
    pub memory: Quantity,
    /// Limits per resource name.
    pub limits: Option<BTreeMap<String, Quantity>>,
    /// Selector of the pods.
    pub selector: Option<LabelSelector>,
    /// StartAfter is a time.
    pub start_after: Option<Time>,
}

/// WorkloadStatus is the observed state of a Workload.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct WorkloadStatus {
    /// Conditions of the workload.
    #[schema(list_type = "map", list_map_keys = ["type"])]
    pub conditions: Option<Vec<Condition>>,
}
