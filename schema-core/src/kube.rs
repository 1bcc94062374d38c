//! kube-rs compatibility (the `kube` feature): the derives a kube-rs user
//! imports in place of kube-derive's and schemars', reading the same
//! attributes.
//!
//! - [`JsonSchema`]: `#[derive(JsonSchema)]` implements
//!   [`StructuralSchema`](crate::StructuralSchema) as
//!   `#[derive(StructuralSchema)]` does, and also reads what schemars
//!   reads: `#[schemars(...)]` (`range`, `length`, `regex`, `contains`,
//!   `email`, `url`, `extend`, `skip`, `with`, `schema_with`, `inner`,
//!   `title`, `description`, `default`, `required`), the constraints
//!   schemars takes from `#[garde(...)]` and `#[validate(...)]`, with
//!   schemars' conventions: an `Option` field is `nullable`, and serde's
//!   default of a field is its schema's `default`. See the README's
//!   "Coming from kube-derive".

/// `#[derive(JsonSchema)]`: `StructuralSchema` from the attributes
/// schemars reads (see the module documentation).
#[cfg(feature = "derive")]
pub use schema_derive::JsonSchema;
