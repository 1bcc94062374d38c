use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(validation(rule = "self.minReplicas <= ", message = "min must not exceed max"))]
struct Spec {
    min_replicas: i32,
    #[schema(validation(rule = "self.all(x, x.startsWith('a')"))]
    names: Vec<String>,
}

fn main() {}
