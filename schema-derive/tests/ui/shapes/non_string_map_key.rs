use schema_core::StructuralSchema;
use std::collections::{BTreeMap, HashMap};

#[derive(StructuralSchema)]
struct Spec {
    by_port: BTreeMap<u16, String>,
    by_flag: HashMap<bool, String>,
}

fn main() {}
