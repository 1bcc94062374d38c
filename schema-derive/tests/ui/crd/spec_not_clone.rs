use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

// The root type derives `Clone` and `Debug` (kube's `Api` needs them), so the
// spec must implement them too.
#[derive(Serialize, Deserialize, StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Foo"))]
pub struct FooSpec {
    pub a: String,
}

fn main() {}
