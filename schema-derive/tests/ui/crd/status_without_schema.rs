use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Foo", status = FooStatus))]
pub struct FooSpec {
    pub a: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FooStatus {
    pub ready: bool,
}

fn main() {}
