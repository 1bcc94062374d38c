//! Reading CRDs: what a person looks up about a resource and its fields.
//!
//! - [`explain`]: `kubectl explain`'s plaintext output, computed offline from
//!   the OpenAPI v3 document the API server publishes for a group-version
//!   (`crd::publish`), plus the lines kubectl leaves out (defaults, bounds,
//!   list semantics, CEL rules, ...).
//!
//! This layer reads the published documents and the wire model; nothing
//! below it knows about it.

pub mod explain;
