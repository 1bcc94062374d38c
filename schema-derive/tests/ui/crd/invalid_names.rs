use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(
    group = "example",
    version = "V1",
    kind = "Foo_Bar",
    short_names = ["fb", "Bad"],
    categories = ["all", "my_cat"],
    plural = "foo.bars",
))]
pub struct FooSpec {
    pub a: String,
}

#[derive(StructuralSchema)]
#[schema(crd(group = "Example.com", version = "1v", kind = "My-Kind"))]
pub struct BarSpec {
    pub a: String,
}

fn main() {}
