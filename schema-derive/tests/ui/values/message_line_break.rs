use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(validation(rule = "self >= 1", message = "replicas must be\npositive"))]
    replicas: i32,
}

fn main() {}
