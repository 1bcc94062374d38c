//! The structural-schema IR of Kubernetes CRDs and the algorithms the API server runs on it.
//!
//! [`StructuralSchema`] (the trait, and with the default `derive` feature the
//! derive macro of the same name, as serde does) turns Rust types into
//! structural schemas; see [`rust`].

// The derive's generated code names `::schema_core`, also inside this crate.
#[allow(unused_extern_crates)]
extern crate self as schema_core;

pub mod cel;
pub mod crd;
pub mod go;
pub use goregex;
pub mod model;
pub mod object;
pub mod rust;

/// The wire model at the path generated code names (`::schema_core::wire`).
pub use model::wire;

pub use rust::StructuralSchema;
#[cfg(feature = "derive")]
pub use schema_derive::StructuralSchema;
