use schema_core::kube::JsonSchema;

#[derive(JsonSchema)]
struct Spec {
    #[schemars(lenght(min = 1))]
    name: String,
    #[schemars(minimum = 1)]
    replicas: i32,
    // garde's and validator's keys that schemars does not read are ignored.
    #[garde(ascii, custom(check))]
    #[validate(non_control_character)]
    ignored: String,
}

fn main() {}
