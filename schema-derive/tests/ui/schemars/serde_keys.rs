use schema_core::kube::JsonSchema;

#[derive(JsonSchema)]
struct Spec {
    #[schemars(rename = "other")]
    name: String,
    #[schemars(flatten)]
    inner: Inner,
    #[schemars(transform = my_transform)]
    replicas: i32,
}

#[derive(JsonSchema)]
struct Inner {
    a: String,
}

fn main() {}
