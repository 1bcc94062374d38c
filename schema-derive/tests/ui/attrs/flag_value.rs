use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(nullable = 3)]
    name: Option<String>,
    #[schema(immutable = "yes")]
    id: String,
}

fn main() {}
