use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Foo",
    status = FooStatus,
    scale(
        spec_replicas_path = ".status.replicas",
        status_replicas_path = "status.replicas",
        label_selector_path = ".metadata.labels"
    ),
    selectable_field = "spec.a",
    selectable_field = ".spec.b",
    selectable_field = ".spec.b",
))]
pub struct FooSpec {
    pub a: String,
    pub b: String,
}

#[derive(StructuralSchema)]
pub struct FooStatus {
    pub replicas: i32,
}

fn main() {}
