use serde::{Deserialize, Serialize};
use schema_core::StructuralSchema;
use schema_core::kube::CustomResource;

// Split attributes are read as one; a key written twice is still an error.
#[derive(CustomResource, StructuralSchema, Clone, Debug, Serialize, Deserialize)]
#[kube(group = "example.com", version = "v1")]
#[kube(kind = "Foo", shortname = "f")]
#[kube(shortname = "fo", version = "v2")]
pub struct FooSpec {
    pub a: String,
}

fn main() {}
