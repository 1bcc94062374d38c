//! The keys of `#[schema(...)]`, from the one table of `schema-attrs`:
//! their names, where each may be written, and suggestions for misspelt
//! ones.

pub use schema_attrs::keys::*;
pub use schema_attrs::{ATTRIBUTES, CRD_SETTINGS, Place, allowed, did_you_mean};

/// The places `key` may be written, for messages ("types and fields").
pub fn places_of(key: &str) -> String {
    schema_attrs::attribute(key).map_or_else(String::new, |a| a.places.describe())
}

/// The keys of `crd(...)`, in the table's order.
pub fn crd_keys() -> Vec<&'static str> {
    CRD_SETTINGS.iter().map(|s| s.key).collect()
}
