use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, StructuralSchema)]
enum Retention {
    Days(Option<u32>),
    Forever {},
}

fn main() {}
