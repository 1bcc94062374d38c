use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(required, optional)]
    name: Option<String>,
}

fn main() {}
