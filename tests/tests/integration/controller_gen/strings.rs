//! The twin of `fixtures/strings`: lengths, patterns and formats.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Hostname is a lower-case DNS name.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(max_length = 253, pattern = "^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")]
pub struct Hostname(pub String);

/// LabelSpec is the desired state of a Label.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "strings.example.com",
    version = "v1",
    kind = "Label",
    namespaced,
    doc = "Label is the Schema for the labels API.",
))]
pub struct LabelSpec {
    /// Name has both length bounds.
    #[schema(min_length = 1, max_length = 63)]
    pub name: String,
    /// Key must match a pattern.
    #[schema(pattern = "^[A-Z][A-Z0-9_]*$")]
    pub key: Option<String>,
    /// Host is a named string type with its own rules.
    pub host: Option<Hostname>,
    /// Expires is a timestamp.
    #[schema(format = "date-time")]
    pub expires: Option<String>,
    /// Contact is an e-mail address.
    #[schema(format = "email")]
    pub contact: Option<String>,
    /// Checksum is base64.
    #[schema(format = "byte")]
    pub checksum: Option<String>,
    /// Home is a URI.
    #[schema(format = "uri", max_length = 2048)]
    pub home: Option<String>,
    /// ID is a UUID.
    #[serde(rename = "id")]
    #[schema(format = "uuid")]
    pub id: Option<String>,
    /// Data is raw bytes, base64 in JSON.
    #[schema(format = "byte")]
    pub data: Option<String>,
}
