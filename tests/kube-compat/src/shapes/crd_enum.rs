// An enum as the spec: externally tagged struct variants (one of them
// empty), cluster-scoped.

use kube::CustomResourceExt;
use serde::{Deserialize, Serialize};

/// A mode: one variant at a time.
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "modes.example.com", version = "v1", kind = "Mode")]
#[serde(rename_all = "camelCase")]
pub enum ModeSpec {
    /// A variant with a number
    Counted { count: i32 },
    /// A variant with a string
    Named { name: String },
    /// A variant without fields
    Idle {},
}

/// The CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![("modes", Mode::crd())]
}

/// One object per variant, and one with two variants at once.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    vec![
        Example::create(
            "counted",
            "modes",
            "v1",
            &Mode::new("bar", ModeSpec::Counted { count: 42 }),
        ),
        Example::create(
            "named",
            "modes",
            "v1",
            &Mode::new("bar", ModeSpec::Named { name: "n".into() }),
        ),
        Example::create("idle", "modes", "v1", &Mode::new("bar", ModeSpec::Idle {})),
        Example::create(
            "two variants",
            "modes",
            "v1",
            &serde_json::json!({
                "apiVersion": "modes.example.com/v1",
                "kind": "Mode",
                "metadata": { "name": "bar" },
                "spec": { "counted": { "count": 1 }, "idle": {} }
            }),
        ),
    ]
}

/// The CRD's name.
pub fn facts() -> Vec<(&'static str, String)> {
    vec![("crd_name", Mode::crd_name().to_string())]
}
