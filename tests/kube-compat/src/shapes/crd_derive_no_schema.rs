// `schema = "disabled"`: no schema is derived (and no `JsonSchema` is
// needed); the program puts a schema of its own into the CRD.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceDefinition, CustomResourceValidation, JSONSchemaProps,
};
use kube::Resource;
use serde::{Deserialize, Serialize};

/// A plain resource without a derived schema.
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone)]
#[kube(
    group = "plain.example.com",
    version = "v1",
    kind = "Plain",
    namespaced,
    schema = "disabled"
)]
pub struct MyPlain {
    count: u32,
}

impl Plain {
    /// The derived CRD with the program's own schema in every version.
    fn crd_with_own_schema() -> CustomResourceDefinition {
        use kube::CustomResourceExt;
        let schema: Option<JSONSchemaProps> = serde_json::from_value(serde_json::json!({
            "type": "object",
            "properties": {
                "spec": {
                    "type": "object",
                    "required": ["count"],
                    "properties": { "count": { "type": "integer" } }
                }
            }
        }))
        .ok();
        let mut crd = <Self as CustomResourceExt>::crd();
        for version in &mut crd.spec.versions {
            version.schema = Some(CustomResourceValidation {
                open_api_v3_schema: schema.clone(),
            });
        }
        crd
    }
}

/// The derived CRD, and the one with the program's schema it submits.
pub fn crds() -> crate::Crds {
    use kube::CustomResourceExt;
    vec![
        ("plains (derived)", Plain::crd()),
        ("plains", Plain::crd_with_own_schema()),
    ]
}

/// One object.
pub fn examples() -> Vec<crate::Example> {
    vec![crate::Example::create(
        "five",
        "plains",
        "v1",
        &Plain::new("five", MyPlain { count: 5 }),
    )]
}

/// The kind.
pub fn facts() -> Vec<(&'static str, String)> {
    vec![("kind", Plain::kind(&()).into_owned())]
}
