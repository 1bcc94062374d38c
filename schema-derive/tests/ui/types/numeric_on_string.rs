use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(minimum = 1, exclusive_maximum)]
    name: String,
    #[schema(pattern = "^a$", min_items = 1)]
    enabled: Option<bool>,
    #[schema(min_properties = 1)]
    hosts: Vec<String>,
}

fn main() {}
