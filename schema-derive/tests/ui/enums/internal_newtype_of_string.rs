use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "type")]
enum Secret {
    Literal(String),
    Reference { name: String },
}

fn main() {}
