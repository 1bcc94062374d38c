//! What `bench-gate` and `bench-validate-scale` share: the corpus CRDs that
//! `schema-gen check` accepts, objects built from their schemas (valid ones,
//! seeded, and deliberately invalid ones), manifests written as YAML, the
//! CRD schemas converted to JSON Schema for kubeconform, and kubeconform
//! itself.
//!
//! - `corpus.rs`: the corpus folder, its accepted CRD files, and the served
//!   versions of a CRD ([`corpus::CrdVersion`]).
//! - `generate.rs`: the seeded generator of values from schema nodes
//!   ([`generate::Gen`]) and the valid object of a CRD version;
//!   `cel_guesses.rs`, the guesses it makes at common CEL rules.
//! - `cases.rs`: the deliberately invalid objects ([`cases::CASES`]).
//! - `yaml.rs`: a JSON value as block-style YAML.
//! - `convert.rs`: a CRD version's schema as kubeconform's documentation
//!   converts it to JSON Schema, written where kubeconform looks it up.
//! - `kubeconform.rs`: kubeconform, `go install`ed into
//!   `target/bench-tools/bin`, and its command line.

pub(crate) mod cases;
mod cel_guesses;
pub(crate) mod convert;
pub(crate) mod corpus;
pub(crate) mod generate;
pub(crate) mod kubeconform;
pub(crate) mod yaml;
