use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Foo"))]
pub struct Foo {
    pub a: String,
}

#[derive(StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Bar", root = "BarSpec"))]
pub struct BarSpec {
    pub a: String,
}

fn main() {}
