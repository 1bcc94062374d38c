use serde::{Deserialize, Serialize};
use schema_core::StructuralSchema;
use schema_core::kube::CustomResource;

fn rule() -> &'static str {
    "self.a != ''"
}

#[derive(CustomResource, StructuralSchema, Clone, Debug, Serialize, Deserialize)]
#[kube(group = "example.com", version = "v1", kind = "Foo", schema = "derive")]
#[kube(attr = "derive(Default)", attr = "serde(rename_all = \"camelCase\")")]
#[kube(validation = rule(), validation = "self.a >")]
#[kube(printcolumn = r#"{"name": "A", "type": "string", "json_path": ".spec.a"}"#)]
#[kube(scale = "not json", annotation("only-a-key"), crates(kube_cor = "::kube::core"))]
pub struct FooSpec {
    pub a: String,
}

fn main() {}
