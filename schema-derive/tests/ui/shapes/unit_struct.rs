use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Marker;

fn main() {}
