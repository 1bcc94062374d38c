use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "type")]
enum Tagged {
    #[schema(description = "A disk.")]
    Disk { size: String },
    Memory,
}

#[derive(Serialize, Deserialize, StructuralSchema)]
enum External {
    #[schema(required)]
    Disk { size: String },
    #[schema(max_length = 10)]
    Count(u32),
}

fn main() {}
