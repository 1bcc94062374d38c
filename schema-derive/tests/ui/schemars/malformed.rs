use schema_core::kube::JsonSchema;

#[derive(JsonSchema)]
struct Spec {
    #[schemars(length = 3)]
    a: String,
    #[schemars(range(min = 1, lowest = 0))]
    b: i32,
    #[schemars(regex(path = RE))]
    c: String,
    #[schemars(length(equal = 2, min = 1))]
    d: Vec<String>,
    #[schemars(with = "not a type")]
    e: String,
    #[schemars(title = "a")]
    #[schema(title = "b")]
    f: String,
    #[schemars(email, url)]
    g: String,
}

fn main() {}
