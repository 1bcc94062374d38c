//! What the API server does with a CustomResourceDefinition: reading it,
//! the structural check and CRD validation, and the OpenAPI documents it
//! publishes.

pub mod catalog;
pub mod check;
pub mod publish;
pub mod validation;
