//! The twin of `fixtures/scale`: the scale subresource with a label
//! selector.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// PoolSpec is the desired state of a Pool.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "scale.example.com",
    version = "v1",
    kind = "Pool",
    namespaced,
    status = PoolStatus,
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas",
        label_selector_path = ".status.selector"
    ),
    doc = "Pool is the Schema for the pools API.",
))]
pub struct PoolSpec {
    /// Replicas wanted.
    #[schema(minimum = 0)]
    pub replicas: i32,
}

/// PoolStatus is the observed state of a Pool.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct PoolStatus {
    /// Replicas running.
    pub replicas: Option<i32>,
    /// Selector of the pool's pods, as a string.
    pub selector: Option<String>,
}
