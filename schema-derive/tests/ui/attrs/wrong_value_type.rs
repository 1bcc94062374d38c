use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(minimum = "5")]
    replicas: i32,
    #[schema(max_length = -1, pattern = 5)]
    name: String,
    #[schema(list_map_keys = [1])]
    items: Vec<String>,
}

fn main() {}
