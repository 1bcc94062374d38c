use schema_core::StructuralSchema;

struct Opaque;

#[derive(StructuralSchema)]
struct Spec {
    timeout: std::time::Duration,
    opaque: Vec<Opaque>,
}

fn main() {}
