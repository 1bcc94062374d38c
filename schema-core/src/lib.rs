//! The structural-schema IR of Kubernetes CRDs and the algorithms the API server runs on it.

pub mod field;
pub mod wire;
pub mod validation;
pub mod structural;
pub mod goregex;
pub mod prune;
pub mod check;
pub mod yaml_out;
pub mod objectmeta;
pub mod value;
pub mod default;
pub mod source;
