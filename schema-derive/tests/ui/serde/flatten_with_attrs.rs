use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Common {
    name: String,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Spec {
    #[serde(flatten)]
    #[schema(description = "lost")]
    common: Common,
}

fn main() {}
