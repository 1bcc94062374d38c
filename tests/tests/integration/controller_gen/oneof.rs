//! The twin of `fixtures/oneof`: the one-of groups and immutable fields.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// SecretSource names a secret.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct SecretSource {
    /// Name of the secret.
    pub name: String,
}

/// SourceSpec is the desired state of a Source.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(
    crd(
        group = "oneof.example.com",
        version = "v1",
        kind = "Source",
        namespaced,
        doc = "Source is the Schema for the sources API.",
    ),
    exactly_one_of(secret, config_map),
    at_most_one_of(url, path),
    at_least_one_of(owner, team),
    validation(
        rule = "!has(self.url) || !has(self.secret)",
        message = "a URL needs no secret"
    )
)]
pub struct SourceSpec {
    /// Secret holds the data.
    pub secret: Option<SecretSource>,
    /// ConfigMap holds the data.
    #[schema(max_length = 253)]
    pub config_map: Option<String>,
    /// URL to fetch.
    #[schema(max_length = 2048)]
    pub url: Option<String>,
    /// Path to read.
    #[schema(max_length = 4096)]
    pub path: Option<String>,
    /// Owner of the source.
    #[schema(max_length = 63)]
    pub owner: Option<String>,
    /// Team of the source.
    #[schema(max_length = 63)]
    pub team: Option<String>,
    /// Kind cannot change.
    #[schema(immutable, max_length = 63)]
    pub kind: String,
    /// Region cannot change once set.
    #[schema(immutable, max_length = 63)]
    pub region: Option<String>,
}
