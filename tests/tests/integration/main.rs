//! The integration tests of the toolchain, one binary: one module per
//! area, each with its own description. Suites over shared data (the
//! conformance cases, the corpus, the oracle) write their summary lines
//! with [`tests::report!`], which the harness does not capture, so every
//! run shows them; a failing case fails its test.
//!
//! One area: `cargo test -p tests --test integration MODULE::`.

mod common;

mod admission;
mod cel_corpus;
mod cel_hostile;
mod conformance;
mod controller_gen;
mod corpus;
mod derive;
mod derive_crd;
mod diff_corpus;
mod docs_corpus;
mod explain;
mod hostile;
mod k8s;
mod kube_derive_compat;
mod kube_version;
mod openapi_valid;
mod oracle;
mod real_crds;
mod schemars_compat;
mod walk_equivalence;
