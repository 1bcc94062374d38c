//! The twin of `fixtures/names`: JSON names, skipped fields and embedded
//! structs.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Meta is embedded under its own name.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Meta {
    /// Owner of the tag.
    pub owner: String,
}

/// Extra is embedded inline through a pointer.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Extra {
    /// Color of the tag.
    pub color: Option<String>,
}

/// TagSpec is the desired state of a Tag.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "names.example.com",
    version = "v1",
    kind = "Tag",
    namespaced,
    doc = "Tag is the Schema for the tags API.",
))]
pub struct TagSpec {
    /// Meta is embedded with a name.
    pub meta: Meta,
    #[serde(flatten)]
    pub extra: Option<Extra>,
    /// Skipped is left out.
    #[serde(skip)]
    #[allow(dead_code)]
    pub skipped: String,
    /// Dashed is named with a dash.
    #[serde(rename = "-")]
    pub dashed: String,
    /// snake_case names are kept.
    #[serde(rename = "snake_case")]
    pub snake_case: String,
    /// URLPath has an initialism.
    pub url_path: Option<String>,
}
