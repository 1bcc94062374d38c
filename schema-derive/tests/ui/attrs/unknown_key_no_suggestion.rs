use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(frobnicate)]
struct Spec {
    #[schema(zzz = 1, minimum = 0)]
    replicas: i32,
}

fn main() {}
