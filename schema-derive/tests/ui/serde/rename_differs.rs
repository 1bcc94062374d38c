use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Spec {
    #[serde(rename(serialize = "outName", deserialize = "inName"))]
    name: String,
}

fn main() {}
