//! The twin of `fixtures/embedded`: inline embedded structs, nested
//! structs and pointers to structs.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Common fields shared by several specs.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(validation(rule = "self.owner != 'root'", message = "root cannot own"))]
pub struct Common {
    /// Owner of the object.
    pub owner: String,
    /// Team of the owner.
    pub team: Option<String>,
}

/// Retry policy.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Retry {
    /// Attempts before giving up.
    #[schema(minimum = 1)]
    pub attempts: i32,
    /// Backoff between attempts.
    pub backoff: Option<Backoff>,
}

/// Backoff between attempts.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Backoff {
    /// Initial delay in seconds.
    pub initial: i32,
    /// Factor of growth.
    pub factor: Option<i32>,
}

/// Labels are embedded inline too.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(validation(
    rule = "!has(self.tier) || self.tier.size() <= 10",
    message = "tier too long"
))]
pub struct Labels {
    /// Tier of the object.
    #[schema(max_length = 64)]
    pub tier: Option<String>,
}

/// CompositeSpec is the desired state of a Composite.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(
    crd(
        group = "embedded.example.com",
        version = "v1",
        kind = "Composite",
        namespaced,
        doc = "Composite is the Schema for the composites API.",
    ),
    validation(rule = "self.name != self.owner", message = "name and owner differ")
)]
pub struct CompositeSpec {
    #[serde(flatten)]
    pub common: Common,
    #[serde(flatten)]
    pub labels: Labels,
    /// Name of the composite.
    pub name: String,
    /// Retry policy.
    pub retry: Option<Retry>,
    /// Steps to run.
    pub steps: Option<Vec<Step>>,
}

/// Step of a composite.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Step {
    #[serde(flatten)]
    pub common: Common,
    /// Command to run.
    pub command: Vec<String>,
}
