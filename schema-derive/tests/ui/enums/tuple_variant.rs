use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
enum Endpoint {
    HostPort(String, u16),
    Url(String),
}

fn main() {}
