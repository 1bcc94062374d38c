use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Spec {
    #[schema(pattern = "(abc")]
    a: String,
    // Perl lookahead is not RE2.
    #[schema(items(pattern = "^(?=x)"))]
    b: Vec<String>,
    #[schema(pattern = "a{1001}")]
    c: String,
}

fn main() {}
