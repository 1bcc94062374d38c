//! The structural-schema IR of Kubernetes CRDs and the algorithms the API server runs on it.

pub mod admission;
pub mod cel;
pub mod check;
mod deep;
pub mod default;
pub mod field;
pub mod goregex;
pub mod gotime;
pub mod listtype;
pub mod objectmeta;
pub mod prune;
pub mod publish;
pub mod source;
pub mod structural;
pub mod validation;
pub mod value;
pub mod wire;
pub mod yaml_out;
pub mod ytt;
