//! The twin of `fixtures/objectroot`: a whole object without spec or
//! status, cluster scoped, with CRD annotations.

use std::collections::BTreeMap;

use schema_core::StructuralSchema;
use schema_core::rust::ObjectMeta;
use serde::{Deserialize, Serialize};

/// Setting is a cluster-wide key-value store.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "objectroot.example.com",
    version = "v1",
    kind = "Setting",
    short_names = ["st"],
    annotations = {"example.com/owner": "platform"},
    object_root,
))]
pub struct Setting {
    /// APIVersion defines the versioned schema of this representation of an object.
    /// Servers should convert recognized schemas to the latest internal value, and
    /// may reject unrecognized values.
    /// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
    pub api_version: Option<String>,
    /// Kind is a string value representing the REST resource this object represents.
    /// Servers may infer this from the endpoint the client submits requests to.
    /// Cannot be updated.
    /// In CamelCase.
    /// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
    pub kind: Option<String>,
    #[serde(default)]
    #[schema(type = "object")]
    pub metadata: ObjectMeta,
    /// Data holds the values.
    pub data: Option<BTreeMap<String, String>>,
    /// Immutable data cannot change.
    pub immutable: Option<bool>,
    /// Version of the data.
    pub version: i64,
}
