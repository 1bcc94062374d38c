use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(validation(
        rule = "self >= 1",
        message_expression = "'got ' + string(self"
    ))]
    replicas: i32,
}

fn main() {}
