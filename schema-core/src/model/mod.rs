//! The data every layer above works on: the source reader (YAML and JSON
//! with positions), the lossless wire model of CRDs and schemas, the
//! structural IR and the steps between its nodes, field paths and errors,
//! and the YAML writer.

pub(crate) mod correlation;
pub(crate) mod depth;
pub mod field;
pub(crate) mod kube_version;
pub mod locate;
pub mod options;
pub mod schema_step;
pub mod source;
pub mod structural;
#[cfg(test)]
pub(crate) mod test_corpus;
pub mod wire;
pub mod yaml_writer;
