use schema_core::kube::JsonSchema;

// Merged as kube merges them: objects only; a unit variant is written as
// `null` and a tuple variant as an array.
#[derive(JsonSchema, serde::Deserialize)]
#[serde(untagged)]
enum Owner {
    Named { name: String },
    Nobody,
    Pair(String, i32),
}

fn main() {}
