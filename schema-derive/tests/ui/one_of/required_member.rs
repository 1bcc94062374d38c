use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(at_most_one_of(a, b), at_least_one_of(a))]
struct Source {
    #[schema(required)]
    a: Option<String>,
    b: Option<String>,
}

fn main() {}
