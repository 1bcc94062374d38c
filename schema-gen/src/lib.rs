//! `schema-gen`: Kubernetes structural schemas offline. The library behind
//! the `schema-gen` command: checking and formatting CRDs and schemas.

pub mod cli;
