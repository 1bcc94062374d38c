use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(validation(rule = "true", reason = "FieldValueBad"))]
struct Spec {
    #[schema(list_type = "list")]
    a: Vec<String>,
    #[schema(map_type = "partial")]
    b: std::collections::BTreeMap<String, String>,
    #[schema(type = "str")]
    c: String,
    #[schema(validation(rule = " "))]
    d: String,
}

fn main() {}
