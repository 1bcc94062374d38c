use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Spec {
    pub a: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Status {
    pub b: String,
}

// No `metadata` field.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "NoMeta", object_root))]
pub struct NoMeta {
    pub spec: Spec,
}

// Keys that belong to the generated root.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Misplaced",
    object_root,
    status = Status,
    spec_optional,
    doc = "A doc.",
    root = "Other"
))]
pub struct Misplaced {
    pub metadata: schema_core::rust::ObjectMeta,
    pub spec: Spec,
}

// `metadata` under another Rust name.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Renamed", object_root))]
pub struct Renamed {
    #[serde(rename = "metadata")]
    pub meta: schema_core::rust::ObjectMeta,
}

fn main() {}
