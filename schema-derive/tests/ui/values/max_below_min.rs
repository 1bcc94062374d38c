use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(minimum = 10, maximum = 1)]
    a: i32,
    #[schema(min_length = 5, max_length = 2)]
    b: String,
}

fn main() {}
