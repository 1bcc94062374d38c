use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    pair: (String, i32),
    pairs: Vec<(String, i32)>,
    nothing: (),
}

fn main() {}
