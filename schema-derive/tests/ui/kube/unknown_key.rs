use serde::{Deserialize, Serialize};
use schema_core::StructuralSchema;
use schema_core::kube::CustomResource;

#[derive(CustomResource, StructuralSchema, Clone, Debug, Serialize, Deserialize)]
#[kube(group = "example.com", version = "v1", kind = "Foo", namespace)]
#[kube(shortnames = "f", printcolumns = "{}", list_kind = "FooItems", frobnicate)]
pub struct FooSpec {
    pub a: String,
}

fn main() {}

#[derive(CustomResource, StructuralSchema, Clone, Debug, Serialize, Deserialize)]
#[kube(group = "example.com", version = "v1", kind = "Bar", no_spec)]
pub struct BarSpec {
    pub a: String,
}
