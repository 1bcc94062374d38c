use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(minimum = 1)]
    #[schema(minimum = 2)]
    replicas: i32,
    #[schema(nullable, nullable)]
    name: Option<String>,
}

fn main() {}
