//! Validation as the API server runs it: structural schemas, CRD schemas
//! and whole CRDs.

pub mod crd;
pub mod defaults;
pub mod schema;
pub mod structural;
