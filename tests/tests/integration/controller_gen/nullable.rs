//! The twin of `fixtures/nullable`: `nullable` on pointers, lists and
//! maps.

use std::collections::BTreeMap;

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Target of a patch.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Target {
    /// Name of the target.
    pub name: String,
}

/// PatchSpec is the desired state of a Patch.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "nullable.example.com",
    version = "v1",
    kind = "Patch",
    namespaced,
    doc = "Patch is the Schema for the patches API.",
))]
pub struct PatchSpec {
    /// Target may be null.
    #[schema(nullable)]
    pub target: Option<Target>,
    /// Note may be null.
    #[schema(nullable)]
    pub note: Option<String>,
    /// Ops may be null.
    #[schema(nullable)]
    pub ops: Option<Vec<String>>,
    /// Values may be null.
    #[schema(nullable)]
    pub values: Option<BTreeMap<String, String>>,
    /// Count may be null and is required.
    #[schema(nullable, required)]
    pub count: Option<i32>,
}
