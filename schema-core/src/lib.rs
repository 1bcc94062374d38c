//! The structural-schema IR of Kubernetes CRDs and the algorithms the API server runs on it.

pub mod admission;
pub mod cel;
pub mod check;
pub mod decode;
pub mod default;
pub mod field;
pub mod goregex;
pub mod listtype;
mod names;
pub mod objectmeta;
pub mod prune;
pub mod publish;
pub mod source;
pub mod structural;
pub mod validation;
pub mod value;
pub mod walk;
pub mod wire;
pub mod yaml_out;
pub mod ytt;
