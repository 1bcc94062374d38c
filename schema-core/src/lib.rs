//! The structural-schema IR of Kubernetes CRDs and the algorithms the API server runs on it.
//!
//! The crate is seven layers, each a module tree that only uses the ones
//! before it:
//!
//! - [`go`]: Go's standard library and apimachinery's primitives (time,
//!   `%v`/`%q`, URLs, mail, IPs, base64, the format registry, names);
//! - [`model`]: the data: source documents with positions, the wire model
//!   of CRDs and schemas, the structural IR, field paths and errors;
//! - [`cel`]: CEL as the API server compiles, costs and evaluates it;
//! - [`object`]: what the server does with an object (pruning, defaulting,
//!   metadata, value validation, list types, admission);
//! - [`crd`]: what the server does with a CRD (reading, the structural
//!   check and CRD validation, the published OpenAPI);
//! - [`docs`]: reading CRDs: `kubectl explain` offline and API reference
//!   documents;
//! - [`rust`]: Rust types to schemas and CRDs: [`StructuralSchema`] (the
//!   trait, and with the default `derive` feature the derive macro of the
//!   same name, as serde does).
//!
//! The entry points are re-exported here: read documents with
//! [`parse_documents`] and [`read_input_owned`], check a CRD with
//! [`check`], publish its OpenAPI with [`publish_v2`] / [`publish_v3`],
//! admit objects with [`Admission`] (or [`prune`] and [`default`] alone).
//! Each takes an [`Options`] once: the Kubernetes release whose API server
//! it reproduces ([`KubeVersion`]); `Options::default()` judges as the
//! newest release supported.
//!
//! With the `k8s-openapi` feature, the final crate (binary, test or
//! example) must depend on `k8s-openapi` with exactly one Kubernetes version
//! feature (`v1_34`, ...), as k8s-openapi requires; a library enables one in
//! its dev-dependencies only. Without one, k8s-openapi's build script stops
//! the build and says so.

// The derive's generated code names `::schema_core`, also inside this crate.
#[allow(unused_extern_crates)]
extern crate self as schema_core;

pub mod cel;
pub mod crd;
pub mod docs;
pub mod go;
pub use goregex;
#[cfg(feature = "kube")]
pub mod kube;
pub mod model;
pub mod object;
pub mod rust;

/// The wire model at the path generated code names (`::schema_core::wire`).
pub use model::wire;

pub use crd::check::{CheckReport, check};
pub use crd::publish::{
    PublishError, publish_schema_v2, publish_schema_v3, publish_v2, publish_v3,
};
pub use go::formats::is_supported_format;
pub use model::field::{ErrorList, FieldError, Path};
pub use model::kube_version::{KubeVersion, KubeVersionError};
pub use model::options::Options;
pub use model::source::{Document, Limits, SourceError, parse_documents};
pub use model::structural::Structural;
pub use model::wire::input::{Input, ReadError, Warning, read_input, read_input_owned};
pub use object::admission::{Admission, AdmissionError, Admitted};
pub use object::default::default;
pub use object::prune::prune;

pub use rust::StructuralSchema;
#[cfg(feature = "derive")]
pub use schema_derive::StructuralSchema;
