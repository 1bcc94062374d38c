//! `schema-gen`: Kubernetes structural schemas offline. The library behind
//! the `schema-gen` command: checking and formatting CRDs and schemas, and
//! linting Helm values schemas.

pub mod cli;
pub mod lint;
