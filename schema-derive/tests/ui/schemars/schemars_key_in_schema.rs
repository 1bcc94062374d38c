use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(length(min = 1))]
    name: String,
    #[schema(range(max = 3))]
    replicas: i32,
    #[schema(email)]
    email: String,
}

fn main() {}
