//! `schema-gen`: Kubernetes structural schemas offline. The library behind
//! the `schema-gen` command: checking and formatting CRDs and schemas, and
//! linting Helm values schemas, and generating Rust types from CRDs
//! ([`Config`], for build scripts too).

pub mod cli;
pub mod lint;
pub mod rustgen;
pub mod ytt;

pub use rustgen::{Config, GenError, Generated, InputFile, compile_crds};
