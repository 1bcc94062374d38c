use serde::{Deserialize, Serialize};
use schema_core::kube::CustomResource;

#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[kube(group = "example.com", version = "v1", kind = "Foo", schema = "manual", cel)]
pub struct FooSpec {
    pub a: String,
}

#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[kube(group = "example.com", version = "v1", kind = "Bar", schema = "disabled")]
#[kube(validation = "self.spec.a != ''")]
pub struct BarSpec {
    pub a: String,
}

fn main() {}
