//! The twin of `fixtures/defaults`: defaults on scalars, structs, lists
//! and maps.

use std::collections::BTreeMap;

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Probe is how health is checked.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Probe {
    /// Path to request.
    #[schema(default = "/healthz")]
    pub path: Option<String>,
    /// Period between checks, in seconds.
    #[schema(default = 10)]
    pub period: Option<i32>,
}

/// PresetSpec is the desired state of a Preset.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "defaults.example.com",
    version = "v1",
    kind = "Preset",
    namespaced,
    doc = "Preset is the Schema for the presets API.",
))]
pub struct PresetSpec {
    /// Replicas defaults to one.
    #[schema(default = 1)]
    pub replicas: Option<i32>,
    /// Mode defaults to a string.
    #[schema(default = "Fast")]
    pub mode: Option<String>,
    /// Enabled defaults to true.
    #[schema(default = true)]
    pub enabled: Option<bool>,
    /// Probe defaults to an empty object, so that its own defaults apply.
    #[schema(default = {})]
    pub probe: Option<Probe>,
    /// Zones default to a list.
    #[schema(default = ["a", "b"])]
    pub zones: Option<Vec<String>>,
    /// Annotations default to a map.
    #[schema(default = {"team": "core"})]
    pub annotations: Option<BTreeMap<String, String>>,
    /// Timeout defaults to a duration string.
    #[schema(default = "30s")]
    pub timeout: Option<String>,
    /// Level uses the Kubernetes default marker.
    #[schema(default = 3)]
    pub level: Option<i32>,
    /// Region has an example.
    #[schema(example = "eu-west-1")]
    pub region: Option<String>,
    /// Ratio defaults to a negative number.
    #[schema(default = -5)]
    pub ratio: Option<i64>,
}
