use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "kind", content = "value")]
enum Limit {
    Count(u32),
    Size(String),
    Unlimited,
}

fn main() {}
