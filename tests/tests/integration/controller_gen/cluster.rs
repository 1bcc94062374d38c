//! The twin of `fixtures/cluster`: a cluster-scoped kind with an optional
//! spec and no status.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// RegionSpec is the desired state of a Region.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "cluster.example.com",
    version = "v1",
    kind = "Region",
    spec_optional,
    doc = "Region is the Schema for the regions API.",
))]
pub struct RegionSpec {
    /// Zones of the region.
    pub zones: Option<Vec<String>>,
}
