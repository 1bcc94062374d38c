//! The checks the syntax allows, called while the model is built:
//! attributes against the types known by name and attribute values
//! (`syntax.rs`), CEL syntax (`cel.rs`), the names of a custom resource
//! (`names.rs`) and the values of `crd(...)` (`crd.rs`).

pub mod cel;
pub mod crd;
pub mod names;
pub mod syntax;
