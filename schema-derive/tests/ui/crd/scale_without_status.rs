use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Foo",
    scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"),
    status_subresource = false
))]
pub struct FooSpec {
    pub replicas: i32,
}

fn main() {}
