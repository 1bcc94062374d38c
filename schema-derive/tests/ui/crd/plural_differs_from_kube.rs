use serde::{Deserialize, Serialize};
use schema_core::StructuralSchema;

// controller-gen's plural of Redis differs from kube-derive's: a warning.
#[derive(StructuralSchema, Clone, Debug, Serialize, Deserialize)]
#[schema(crd(group = "example.com", version = "v1", kind = "Redis"))]
pub struct RedisSpec {
    pub a: String,
}

// Written: no warning.
#[derive(StructuralSchema, Clone, Debug, Serialize, Deserialize)]
#[schema(crd(group = "example.com", version = "v1", kind = "Mongo", plural = "mongos"))]
pub struct MongoSpec {
    pub a: String,
}

// As an error where deprecations are denied.
#[deny(deprecated)]
mod strict {
    use schema_core::StructuralSchema;
    use serde::{Deserialize, Serialize};

    #[derive(StructuralSchema, Clone, Debug, Serialize, Deserialize)]
    #[schema(crd(group = "example.com", version = "v1", kind = "Index"))]
    pub struct IndexSpec {
        pub a: String,
    }
}

fn main() {}
