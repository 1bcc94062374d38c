use schema_core::StructuralSchema;

#[derive(StructuralSchema)]
struct Tree {
    name: String,
    children: Vec<Tree>,
    parent: Option<Box<Self>>,
}

fn main() {}
