use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(default = "three")]
    replicas: i32,
    #[schema(enum = ["a", 1])]
    mode: String,
    #[schema(example = {"a": 1})]
    hosts: Vec<String>,
}

fn main() {}
