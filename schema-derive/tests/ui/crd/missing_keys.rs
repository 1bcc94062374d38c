use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(group = "example.com"))]
pub struct FooSpec {
    pub a: String,
}

fn main() {}
