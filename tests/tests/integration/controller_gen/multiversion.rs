//! The twin of `fixtures/multiversion`: two versions of one kind, the
//! second stored.

use schema_core::model::wire::CustomResourceDefinition;

/// The merged CRD of both versions, in controller-gen's order (sorted by
/// name; `merge_crds` keeps the order it is given).
pub fn crd() -> Result<CustomResourceDefinition, String> {
    super::merged(&[super::one::<v1::Cache>(), super::one::<v1alpha1::Cache>()])
}

pub mod v1alpha1 {
    use schema_core::StructuralSchema;
    use serde::{Deserialize, Serialize};

    /// CacheSpec is the first shape of a Cache.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    #[schema(crd(
        group = "multiversion.example.com",
        version = "v1alpha1",
        kind = "Cache",
        namespaced,
        status = CacheStatus,
        storage = false,
        deprecation_warning = "use v1",
        doc = "Cache is the Schema for the caches API.",
    ))]
    pub struct CacheSpec {
        /// Size in megabytes.
        pub size: i32,
    }

    /// CacheStatus is the observed state of a Cache.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    pub struct CacheStatus {
        /// Used megabytes.
        pub used: Option<i32>,
    }
}

pub mod v1 {
    use schema_core::StructuralSchema;
    use serde::{Deserialize, Serialize};

    /// CacheSpec is the current shape of a Cache.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    #[schema(crd(
        group = "multiversion.example.com",
        version = "v1",
        kind = "Cache",
        namespaced,
        status = CacheStatus,
        printer_column(name = "Size", type = "integer", json_path = ".spec.sizeBytes"),
        doc = "Cache is the Schema for the caches API.",
    ))]
    pub struct CacheSpec {
        /// SizeBytes of the cache.
        #[schema(minimum = 0)]
        pub size_bytes: i64,
        /// Eviction policy.
        #[schema(enum = ["LRU", "LFU"], default = "LRU")]
        pub eviction: Option<String>,
    }

    /// CacheStatus is the observed state of a Cache.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct CacheStatus {
        /// UsedBytes of the cache.
        pub used_bytes: Option<i64>,
    }
}
