use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Pair(String, i32);

fn main() {}
