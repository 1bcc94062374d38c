use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "type")]
enum Storage {
    Disk { size: String },
    #[serde(untagged)]
    Other(String),
}

fn main() {}
