use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Foo",
    shortnames = ["f"],
    printer_column(name = "A", type = "string", jsonpath = ".spec.a"),
    scale(spec_replicas = ".spec.r", status_replicas_path = ".status.r"),
    colour = "blue",
))]
pub struct FooSpec {
    pub a: String,
}

fn main() {}
