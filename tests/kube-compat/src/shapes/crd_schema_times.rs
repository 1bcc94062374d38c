// A point in time as a field: `jiff::Timestamp` (schemars' `jiff02`
// feature), required and optional; a singular of its own, from which the
// default plural follows.

use kube::CustomResourceExt;
use serde::{Deserialize, Serialize};

/// When something happens.
#[derive(CustomResource, Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
#[kube(
    group = "times.example.com",
    version = "v1",
    kind = "Moment",
    singular = "instant",
    namespaced
)]
#[serde(rename_all = "camelCase")]
pub struct MomentSpec {
    at: jiff::Timestamp,
    /// When it ends, if it does.
    until: Option<jiff::Timestamp>,
}

/// The CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![("instants", Moment::crd())]
}

/// A moment at the epoch, and a time that is not one.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    vec![
        Example::create(
            "epoch",
            "instants",
            "v1",
            &Moment::new(
                "m",
                MomentSpec {
                    at: jiff::Timestamp::UNIX_EPOCH,
                    until: None,
                },
            ),
        ),
        Example::create(
            "not a time",
            "instants",
            "v1",
            &serde_json::json!({
                "apiVersion": "times.example.com/v1",
                "kind": "Moment",
                "metadata": { "name": "m" },
                "spec": { "at": "yesterday" }
            }),
        ),
    ]
}

/// A moment's serialization and its names.
pub fn facts() -> Vec<(&'static str, String)> {
    let moment = Moment::new(
        "m",
        MomentSpec {
            at: jiff::Timestamp::UNIX_EPOCH,
            until: None,
        },
    );
    vec![
        ("new", serde_json::to_string(&moment).unwrap_or_default()),
        ("crd_name", Moment::crd_name().to_string()),
    ]
}
