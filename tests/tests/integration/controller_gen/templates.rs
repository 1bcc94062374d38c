//! The twins of `fixtures/templates` (controller-gen's default options)
//! and `options/embeddedmeta` (`crd:generateEmbeddedObjectMeta=true`): an
//! `ObjectMeta` embedded below the root, directly and inside k8s-openapi's
//! `PersistentVolumeClaimTemplate`. The two Go packages are the same
//! types in two groups; so are the twins, `crd(generate_embedded_object_meta)`
//! aside.

use k8s_openapi::api::core::v1::PersistentVolumeClaimTemplate;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// The nodes whose schema is a Kubernetes type's (descriptions from
/// k8s-openapi; see `normalize`).
pub const K8S_NODES: &[&str] =
    &["/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/claims/items"];

/// WorkerTemplate is what each worker is created from.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct WorkerTemplate {
    /// Metadata given to every worker.
    pub metadata: Option<ObjectMeta>,
    /// Image the workers run.
    pub image: String,
}

/// PoolSpec is the desired state of a Pool.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(
    group = "templates.example.com",
    version = "v1",
    kind = "Pool",
    namespaced,
    doc = "Pool is the Schema for the pools API.",
))]
pub struct PoolSpec {
    /// Template of each worker.
    pub template: WorkerTemplate,
    /// Claims each worker gets a volume from.
    pub claims: Option<Vec<PersistentVolumeClaimTemplate>>,
}

/// The same types with `generate_embedded_object_meta`.
pub mod expanded {
    use k8s_openapi::api::core::v1::PersistentVolumeClaimTemplate;
    use schema_core::StructuralSchema;
    use serde::{Deserialize, Serialize};

    use super::WorkerTemplate;

    /// PoolSpec is the desired state of a Pool.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[schema(crd(
        group = "embeddedmeta.example.com",
        version = "v1",
        kind = "Pool",
        namespaced,
        doc = "Pool is the Schema for the pools API.",
        generate_embedded_object_meta,
    ))]
    pub struct PoolSpec {
        /// Template of each worker.
        pub template: WorkerTemplate,
        /// Claims each worker gets a volume from.
        pub claims: Option<Vec<PersistentVolumeClaimTemplate>>,
    }
}
