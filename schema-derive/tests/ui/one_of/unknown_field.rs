use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(exactly_one_of(secret_ref, config_ref))]
struct Source {
    secret_ref: Option<String>,
    config_map_ref: Option<String>,
}

fn main() {}
