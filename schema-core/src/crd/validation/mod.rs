//! Validation as the API server runs it: structural schemas, CRD schemas
//! and whole CRDs, on create and on update.

pub mod defaults;
pub mod definition;
pub mod schema;
pub mod structural;
pub mod update;
