use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Foo",
    namespaced = "yes",
    short_names = "foo",
    max_description_len = -1,
    printer_column(name = "A", type = "string", json_path = ".spec.a", priority = "high"),
))]
pub struct FooSpec {
    pub a: String,
}

#[derive(StructuralSchema)]
#[schema(crd)]
pub struct BarSpec {
    pub a: String,
}

fn main() {}
