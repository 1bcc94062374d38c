//! The twin of `fixtures/optionalpkg`: a package whose fields are optional
//! unless marked.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// NoteSpec is the desired state of a Note.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "optionalpkg.example.com",
    version = "v1",
    kind = "Note",
    namespaced,
    doc = "Note is the Schema for the notes API.",
))]
pub struct NoteSpec {
    /// Text is optional by the package's marker.
    pub text: Option<String>,
    /// Author is required by its own marker.
    pub author: String,
    /// Pinned is required by the short marker.
    pub pinned: bool,
    /// Tags are optional.
    pub tags: Option<Vec<String>>,
}
