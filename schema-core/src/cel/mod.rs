//! CEL (`x-kubernetes-validations`): rules compiled as the API server
//! compiles them (`compile`: the `cel` crate's parser with the macros and
//! limits of cel-go, then the checker and the cost estimator), and
//! evaluated as the server evaluates them (`eval`, `validator`).

mod ast;
pub mod compile;
pub(crate) mod cost;
pub(crate) mod decl;
pub(crate) mod error;
pub(crate) mod escape;
pub(crate) mod eval;
pub(crate) mod field_path;
pub mod functions;
pub(crate) mod library;
#[cfg(test)]
mod library_costs;
pub(crate) mod limits;
mod strformat;
pub(crate) mod type_check;
pub(crate) mod types;
pub mod validator;
pub(crate) mod value;
