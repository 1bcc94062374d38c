// Printer columns and scale written twice: as typed `printcolumn(...)` and
// `scale(...)`, and as the raw JSON strings older kube versions took. An
// empty spec; a status with a `usize` and the label selector.

use kube::CustomResourceExt;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
#[kube(
    group = "subresources.example.com",
    version = "v1",
    kind = "Typed",
    status = "Status",
    printcolumn(json_path = ".spec.name", name = "Spec", type_ = "string"),
    printcolumn(
        json_path = ".status.replicas",
        name = "Replicas",
        type_ = "integer",
        format = "int32",
        priority = 1,
        description = "how many there are"
    ),
    crates(
        kube_core = "::kube::core",
        k8s_openapi = "::k8s_openapi",
        schemars = "::schemars",
        serde = "::serde",
        serde_json = "::serde_json",
        std = "::std"
    ),
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas",
        label_selector_path = ".spec.labelSelector"
    )
)]
pub struct TypedSpec {}

#[derive(CustomResource, Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
#[kube(
    group = "subresources.example.com",
    version = "v1",
    kind = "Raw",
    printcolumn = r#"{"jsonPath": ".spec.name", "name": "Spec", "type": "string"}"#,
    printcolumn = r#"{"jsonPath": ".status.replicas", "name": "Replicas", "type": "integer", "format": "int32", "priority": 1, "description": "how many there are"}"#,
    status = "Status",
    scale = r#"{"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".spec.labelSelector"}"#
)]
pub struct RawSpec {}

/// Both kinds' status.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    replicas: usize,
    label_selector: String,
}

/// Each CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![("typeds", Typed::crd()), ("raws", Raw::crd())]
}

/// An object of each, with a status.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    let status = || Status {
        replicas: 3,
        label_selector: "app=x".into(),
    };
    let mut typed = Typed::new("t", TypedSpec {});
    typed.status = Some(status());
    let mut raw = Raw::new("r", RawSpec {});
    raw.status = Some(status());
    vec![
        Example::create("typed", "typeds", "v1", &typed),
        Example::create("raw", "raws", "v1", &raw),
    ]
}

/// The printer columns and scale of both, which must be equal.
pub fn facts() -> Vec<(&'static str, String)> {
    let version = |crd: k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition| {
        crd.spec.versions.into_iter().next().unwrap_or_default()
    };
    let (typed, raw) = (version(Typed::crd()), version(Raw::crd()));
    vec![
        (
            "printer columns equal",
            format!(
                "{}",
                typed.additional_printer_columns == raw.additional_printer_columns
            ),
        ),
        (
            "scale equal",
            format!(
                "{}",
                typed.subresources.as_ref().map(|s| s.scale.clone())
                    == raw.subresources.as_ref().map(|s| s.scale.clone())
            ),
        ),
    ]
}
