use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Foo",
    preserve_unknown_fields = true,
    conversion = "Webhook",
    labels = {"team": 1},
))]
pub struct FooSpec {
    pub a: String,
}

fn main() {}
