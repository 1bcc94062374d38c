use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Mode"))]
pub enum ModeSpec {
    Fast,
    Slow,
}

#[derive(StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Pair"))]
pub struct PairSpec(String, String);

#[derive(StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Name"))]
pub struct NameSpec(String);

fn main() {}
