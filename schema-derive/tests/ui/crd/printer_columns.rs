use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Foo",
    printer_column(name = "Size", type = "float", json_path = ".spec.size"),
    printer_column(name = "Id", type = "string", format = "uuid", json_path = ".spec.id"),
    printer_column(name = "Age", type = "date", json_path = ".metadata.creationTimestamp"),
    printer_column(name = "Age", type = "date", json_path = "metadata.creationTimestamp"),
    printer_column(name = "Missing"),
))]
pub struct FooSpec {
    pub size: f64,
    pub id: String,
}

fn main() {}
