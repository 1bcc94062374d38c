//! What the `generated` test knows of the Rust types the build script
//! generates (`build.rs`, with schema-gen's `Config::compile`): for each
//! input file, its `crds()` and its root types, each with a serde round
//! trip. The generated index (`OUT_DIR/generated.rs`) is written in terms
//! of these items.

use schema_core::model::wire::CustomResourceDefinition;
use schema_core::rust::MergeError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// One generated root type.
pub struct Root {
    /// The name of the CRD it is a version of.
    pub crd: &'static str,
    /// The version's name.
    pub version: &'static str,
    /// A JSON value read into the type and written back.
    pub round_trip: fn(&Value) -> Result<Value, String>,
}

/// What was generated for one input file.
pub struct Generated {
    /// The generated file's `crds()`.
    pub crds: fn() -> Result<Vec<CustomResourceDefinition>, MergeError>,
    /// The root types of the file, one per CRD version.
    pub roots: &'static [Root],
}

/// The input files of one set, each with what was generated for it or why
/// nothing was.
pub type Table = [(&'static str, Result<Generated, &'static str>)];

/// `v` read into `T` and written back.
///
/// # Errors
/// Why `v` could not be read into `T` or written from it.
pub fn round_trip<T: Serialize + DeserializeOwned>(v: &Value) -> Result<Value, String> {
    let t: T = serde_json::from_value(v.clone()).map_err(|e| format!("deserialize: {e}"))?;
    serde_json::to_value(&t).map_err(|e| format!("serialize: {e}"))
}
