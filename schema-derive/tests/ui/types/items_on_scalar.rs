use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(items(max_length = 3))]
    name: String,
    #[schema(items(minimum = 0))]
    names: Vec<String>,
}

fn main() {}
