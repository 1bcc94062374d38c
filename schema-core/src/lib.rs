//! The structural-schema IR of Kubernetes CRDs and the algorithms the API server runs on it.
//!
//! [`StructuralSchema`] (the trait, and with the default `derive` feature the
//! derive macro of the same name, as serde does) turns Rust types into
//! structural schemas; see [`rust`].

// The derive's generated code names `::schema_core`, also inside this crate.
#[allow(unused_extern_crates)]
extern crate self as schema_core;

pub mod admission;
pub mod cel;
pub mod check;
pub mod decode;
mod deep;
pub mod default;
pub mod field;
pub use goregex;
pub mod gotime;
pub mod listtype;
mod names;
pub mod objectmeta;
pub mod prune;
pub mod publish;
pub mod rust;
pub mod source;
pub mod structural;
pub mod validation;
pub mod value;
pub mod walk;
pub mod wire;
pub mod yaml_out;
pub mod ytt;

pub use rust::StructuralSchema;
#[cfg(feature = "derive")]
pub use schema_derive::StructuralSchema;
