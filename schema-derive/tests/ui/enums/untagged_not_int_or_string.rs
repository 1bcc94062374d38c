use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(untagged)]
enum Config {
    Path(String),
    Inline { data: String },
}

fn main() {}
