use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
#[schema(not = [{"required": ["a"]}], any_of = {"required": ["a"]})]
struct Spec {
    a: Option<String>,
    #[schema(one_of = [], all_of = ["x"])]
    b: Option<String>,
}

fn main() {}
