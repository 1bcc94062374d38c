//! The twin of `fixtures/preserve`: unknown fields kept, embedded
//! resources and free-form JSON.

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Extra keeps fields it does not know.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(preserve_unknown_fields)]
pub struct Extra {
    /// Known is the one field with a schema.
    pub known: Option<String>,
}

/// BlobSpec is the desired state of a Blob.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "preserve.example.com",
    version = "v1",
    kind = "Blob",
    namespaced,
    doc = "Blob is the Schema for the blobs API.",
))]
pub struct BlobSpec {
    /// Raw is any object.
    #[schema(preserve_unknown_fields)]
    pub raw: Option<RawExtension>,
    /// Template is a whole Kubernetes object.
    #[schema(embedded_resource, preserve_unknown_fields)]
    pub template: Option<RawExtension>,
    /// Value is any JSON value.
    pub value: Option<JSON>,
    /// Extra keeps unknown fields.
    pub extra: Option<Extra>,
    /// Objects is a list of embedded objects.
    #[schema(items(embedded_resource))]
    pub objects: Option<Vec<RawExtension>>,
    /// Settings is a free-form map.
    #[schema(schemaless, type = "object", preserve_unknown_fields)]
    pub settings: Option<BTreeMap<String, serde_json::Value>>,
}
