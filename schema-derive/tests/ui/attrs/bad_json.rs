use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(default = Always)]
    policy: String,
}

fn main() {}
