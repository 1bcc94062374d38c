use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "kind")]
enum Mode {
    Auto,
    Manual,
}

fn main() {}
