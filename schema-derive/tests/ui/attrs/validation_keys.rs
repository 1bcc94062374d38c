use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(validation(rule = "self.a > 0", mesage = "a must be positive"))]
#[schema(validation(message = "no rule"))]
struct Spec {
    a: i32,
}

fn main() {}
