use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    big: i128,
    bigs: Vec<u128>,
}

fn main() {}
