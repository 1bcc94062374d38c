use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(minimun = 1)]
    replicas: i32,
    #[schema(max_lenght = 10)]
    name: String,
}

fn main() {}
