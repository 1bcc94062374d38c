use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
enum Source {
    Git { url: String },
    Inline(String),
    None,
}

fn main() {}
