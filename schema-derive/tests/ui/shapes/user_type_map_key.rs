use schema_core::StructuralSchema;
use std::collections::BTreeMap;

#[derive(StructuralSchema, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    name: String,
}

#[derive(StructuralSchema)]
struct Spec {
    by_key: BTreeMap<Key, String>,
}

fn main() {}
