//! kube-rs compatibility (the `kube` feature): the derives a kube-rs user
//! imports in place of kube-derive's and schemars', reading the same
//! attributes. See the README's "Coming from kube-derive".
//!
//! - [`CustomResource`]: change `use kube::CustomResource;` to
//!   `use schema_core::kube::CustomResource;` and keep the `#[kube(...)]`
//!   attributes. The derive reads every key kube-derive 5 documents and
//!   generates the root type kube-derive generates (`metadata`, `spec`,
//!   `status`; `new`; kube's `Resource`, `HasSpec`, `HasStatus` and
//!   `CustomResourceExt`), with the CRD built and checked by this crate
//!   (the spec implements [`StructuralSchema`](crate::StructuralSchema)).
//!   Only the derive macro is exported here, not a trait: importing it
//!   beside `kube::CustomResourceExt` leaves `Foo::crd()` unambiguous
//!   (kube's, returning the CRD). This crate's own
//!   [`rust::CustomResource`](crate::rust::CustomResource) trait (`crd()`
//!   returning a `Result`) is implemented too, for who imports it by name.
//! - [`JsonSchema`]: `#[derive(JsonSchema)]` implements
//!   [`StructuralSchema`](crate::StructuralSchema) as
//!   `#[derive(StructuralSchema)]` does, and also reads what schemars
//!   reads: `#[schemars(...)]` (`range`, `length`, `regex`, `contains`,
//!   `email`, `url`, `extend`, `skip`, `with`, `schema_with`, `inner`,
//!   `title`, `description`, `default`, `required`), the constraints
//!   schemars takes from `#[garde(...)]` and `#[validate(...)]`, with
//!   schemars' conventions: an `Option` field is `nullable`, and serde's
//!   default of a field is its schema's `default`.

/// `#[derive(CustomResource)]`: kube-derive's root type and CRD from
/// `#[kube(...)]` (see the module documentation).
#[cfg(feature = "derive")]
pub use schema_derive::CustomResource;

/// `#[derive(JsonSchema)]`: `StructuralSchema` from the attributes
/// schemars reads (see the module documentation).
#[cfg(feature = "derive")]
pub use schema_derive::JsonSchema;
