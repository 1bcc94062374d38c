//! The twin of `fixtures/required`: which fields are required.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Loose has one required and one optional field.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Loose {
    /// A is optional by the long marker.
    pub a: Option<String>,
    /// B is required by the long marker.
    pub b: String,
}

/// ClaimSpec is the desired state of a Claim.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "required.example.com",
    version = "v1",
    kind = "Claim",
    namespaced,
    doc = "Claim is the Schema for the claims API.",
))]
pub struct ClaimSpec {
    /// Plain has no marker and no omitempty: required.
    pub plain: String,
    /// Omitted has omitempty: optional.
    #[serde(default)]
    pub omitted: String,
    /// Marked is optional by its marker.
    #[schema(optional)]
    pub marked: String,
    /// Forced is required despite omitempty.
    #[schema(required)]
    pub forced: Option<String>,
    /// Pointer is a pointer with omitempty.
    pub pointer: Option<i32>,
    /// KubebuilderOptional uses the long marker.
    pub kubebuilder_optional: Option<String>,
    /// Loose is a struct of its own.
    pub loose: Loose,
    /// List is required.
    pub list: Vec<String>,
    /// Zero is a required integer.
    pub zero: i32,
}
