//! What the API server does with a CustomResourceDefinition: reading it,
//! its defaulted internal form, the structural check and CRD validation,
//! and the OpenAPI documents it publishes.

pub mod catalog;
pub mod check;
pub mod diff;
#[cfg(test)]
pub(crate) mod fixtures;
pub(crate) mod internal;
pub mod publish;
pub mod validation;
