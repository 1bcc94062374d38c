use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(skip, immutable)]
struct Spec {
    #[schema(exactly_one_of(a, b))]
    a: Option<String>,
    #[schema(items(required))]
    b: Option<Vec<String>>,
}

fn main() {}
