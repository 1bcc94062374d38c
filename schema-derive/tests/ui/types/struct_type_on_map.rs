use schema_core::StructuralSchema;
use std::collections::BTreeMap;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(struct_type = "atomic")]
    labels: BTreeMap<String, String>,
    #[schema(map_type = "atomic", list_type = "set")]
    name: String,
}

fn main() {}
