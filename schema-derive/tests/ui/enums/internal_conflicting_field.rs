use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, StructuralSchema)]
#[serde(tag = "protocol")]
enum Probe {
    Tcp { port: u16 },
    Http { path: String, port: String },
}

fn main() {}
