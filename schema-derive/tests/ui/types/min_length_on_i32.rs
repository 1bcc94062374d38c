use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(min_length = 1)]
    replicas: i32,
}

fn main() {}
