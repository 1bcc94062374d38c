use serde::{Deserialize, Serialize};
use schema_core::StructuralSchema;
use schema_core::kube::CustomResource;

#[derive(CustomResource, StructuralSchema, Clone, Debug, Serialize, Deserialize)]
pub struct FooSpec {
    pub a: String,
}

#[derive(CustomResource, StructuralSchema, Clone, Debug, Serialize, Deserialize)]
#[kube(group = "example.com", version = "v1")]
pub struct BarSpec {
    pub a: String,
}

#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[kube(group = "example.com", version = "v1", kind = "Baz")]
pub struct BazSpec(String);

fn main() {}
