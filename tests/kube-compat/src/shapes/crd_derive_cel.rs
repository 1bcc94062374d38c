// CEL rules checked by the program itself (`#[kube(cel)]` generates
// `validate_cel` and `validate_cel_update` on the root) besides the server:
// a root rule over the spec, a rule on the spec and rules on its fields (a
// transition rule among them).

use kube::CustomResourceExt;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// An autoscaler's bounds.
#[derive(CustomResource, JsonSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "scalers.example.com",
    version = "v1",
    kind = "Scaler",
    namespaced,
    cel,
    validation = "self.spec.minReplicas <= self.spec.maxReplicas"
)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("x-kubernetes-validations" = [{ "rule": "self.minReplicas <= self.maxReplicas" }]))]
pub struct ScalerSpec {
    #[schemars(extend("x-kubernetes-validations" = [{ "rule": "self >= 0" }]))]
    min_replicas: i32,
    max_replicas: i32,
    #[schemars(extend("x-kubernetes-validations" = [{ "rule": "self == oldSelf" }]))]
    tier: String,
}

fn scaler(min_replicas: i32, max_replicas: i32, tier: &str) -> Scaler {
    Scaler::new(
        "web",
        ScalerSpec {
            min_replicas,
            max_replicas,
            tier: tier.into(),
        },
    )
}

/// The CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![("scalers", Scaler::crd())]
}

/// A valid scaler, bounds the wrong way round, a negative minimum, and a
/// changed tier.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    let mut stored = serde_json::to_value(scaler(1, 5, "standard")).unwrap_or_default();
    crate::merge_patch(
        &mut stored,
        &json!({ "metadata": { "namespace": "default", "resourceVersion": "1" } }),
    );
    vec![
        Example::create("valid", "scalers", "v1", &scaler(1, 5, "standard")),
        Example::create("min above max", "scalers", "v1", &scaler(9, 5, "standard")),
        Example::create("negative min", "scalers", "v1", &scaler(-1, 5, "standard")),
        Example::update(
            "tier changed",
            "scalers",
            "v1",
            &stored,
            &json!({ "spec": { "tier": "premium" } }),
        ),
        Example::update(
            "max raised",
            "scalers",
            "v1",
            &stored,
            &json!({ "spec": { "maxReplicas": 7 } }),
        ),
    ]
}

/// What `validate_cel` and `validate_cel_update` say of the same objects.
pub fn facts() -> Vec<(&'static str, String)> {
    let valid = scaler(1, 5, "standard");
    let verdict = |r: bool| if r { "accepted" } else { "rejected" }.to_string();
    vec![
        ("validate_cel valid", verdict(valid.validate_cel().is_ok())),
        (
            "validate_cel min above max",
            verdict(scaler(9, 5, "standard").validate_cel().is_ok()),
        ),
        (
            "validate_cel negative min",
            verdict(scaler(-1, 5, "standard").validate_cel().is_ok()),
        ),
        (
            "validate_cel_update tier changed",
            verdict(scaler(1, 5, "premium").validate_cel_update(&valid).is_ok()),
        ),
        (
            "validate_cel_update max raised",
            verdict(scaler(1, 7, "standard").validate_cel_update(&valid).is_ok()),
        ),
    ]
}
