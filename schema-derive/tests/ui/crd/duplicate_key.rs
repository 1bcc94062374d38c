use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Foo", group = "example.org"))]
#[schema(crd(group = "example.com", version = "v2", kind = "Foo"))]
pub struct FooSpec {
    pub a: String,
}

fn main() {}
