use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(minimum = 0.5, multiple_of = 2.5)]
    replicas: u32,
}

fn main() {}
