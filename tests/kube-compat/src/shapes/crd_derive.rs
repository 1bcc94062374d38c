// A namespaced custom resource using most of `#[kube(...)]`: its own plural
// and root type name, a description, a status whose conditions come from a
// schema function, scale and printer columns, a selectable field, extra
// derives and attributes on the root, a short name.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube::core::object::{HasSpec, HasStatus};
use kube::{CustomResourceExt, Resource};
use serde::{Deserialize, Serialize};

/// What a gadget should be.
///
/// The derive keeps both paragraphs of this comment in the spec's schema.
#[derive(
    CustomResource, Serialize, Deserialize, Default, Debug, PartialEq, Eq, Clone, JsonSchema,
)]
#[kube(
    group = "gadgets.example.com",
    version = "v1",
    kind = "Gadget",
    plural = "gadgetz",
    root = "GadgetCrd",
    namespaced,
    doc = "A gadget as the cluster keeps it",
    status = "GadgetStatus",
    derive = "PartialEq",
    derive = "Default",
    attr = "allow(deprecated)",
    attr = "cfg_attr(test, allow(clippy::redundant_clone))",
    shortname = "gd",
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas"
    ),
    printcolumn(
        name = "Label",
        type_ = "string",
        description = "the gadget's label",
        json_path = ".spec.label",
    ),
    selectable = ".spec.label"
)]
pub struct MyGadget {
    label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// What the controller saw of a gadget.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct GadgetStatus {
    broken: bool,
    /// The gadget's conditions, one per type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(schema_with = "condition_list")]
    pub conditions: Vec<Condition>,
}

/// The schema of a list of conditions keyed by their type.
fn condition_list(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["type"],
        "items": {
            "type": "object",
            "required": ["type", "status", "lastTransitionTime", "reason", "message"],
            "properties": {
                "type": { "type": "string" },
                "status": { "type": "string", "enum": ["True", "False", "Unknown"] },
                "observedGeneration": { "type": "integer", "format": "int64", "minimum": 0 },
                "lastTransitionTime": { "type": "string", "format": "date-time" },
                "reason": { "type": "string" },
                "message": { "type": "string" }
            }
        }
    })
}

/// The CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![("gadgetz", GadgetCrd::crd())]
}

/// A gadget with a status, and the root's `Default`.
pub fn examples() -> Vec<crate::Example> {
    vec![
        crate::Example::create("a gadget with its status", "gadgetz", "v1", &with_status()),
        crate::Example::create("the default gadget", "gadgetz", "v1", &GadgetCrd::default()),
    ]
}

fn with_status() -> GadgetCrd {
    let mut gadget = GadgetCrd::new(
        "hi",
        MyGadget {
            label: "hi".into(),
            note: None,
        },
    );
    gadget.status = Some(GadgetStatus {
        broken: true,
        conditions: vec![],
    });
    gadget
}

/// The names and paths the root reports, its spec and status through
/// `HasSpec` and `HasStatus`, and the equality the extra derive gives.
pub fn facts() -> Vec<(&'static str, String)> {
    let gadget = with_status();
    let copy = gadget.clone();
    vec![
        ("kind", GadgetCrd::kind(&()).into_owned()),
        ("group", GadgetCrd::group(&()).into_owned()),
        ("version", GadgetCrd::version(&()).into_owned()),
        ("api_version", GadgetCrd::api_version(&()).into_owned()),
        ("plural", GadgetCrd::plural(&()).into_owned()),
        ("url_path", GadgetCrd::url_path(&(), Some("myns"))),
        ("crd_name", GadgetCrd::crd_name().to_string()),
        ("shortnames", format!("{:?}", GadgetCrd::shortnames())),
        ("api_resource", format!("{:?}", GadgetCrd::api_resource())),
        ("spec", format!("{:?}", gadget.spec())),
        ("status", format!("{:?}", gadget.status())),
        ("equal to its copy", format!("{}", copy == gadget)),
        ("default", format!("{:?}", GadgetCrd::default())),
    ]
}
