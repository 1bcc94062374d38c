//! The first step: attributes to data, every error with its span in the
//! [`Ctxt`](crate::ctxt::Ctxt). `attrs.rs` reads `#[schema(...)]`
//! (`crd.rs` its `crd(...)`), `schemars.rs` what schemars reads (for
//! `#[derive(JsonSchema)]`), `values.rs` the values they share, `json.rs`
//! JSON written as tokens and `doc.rs` doc comments. serde's own attributes
//! are read by `serde_derive_internals`, never here.

pub mod attrs;
pub mod crd;
pub mod doc;
pub mod json;
pub mod kube;
pub mod schemars;
pub mod values;
