use schema_core::StructuralSchema;

fn raw(_: &mut schema_core::rust::SchemaCx) -> schema_core::model::wire::JsonSchemaProps {
    Default::default()
}

#[derive(StructuralSchema)]
struct Spec {
    #[schema(with = raw, type = "string")]
    a: String,
    #[schema(int_or_string, type = "string")]
    b: String,
}

fn main() {}
