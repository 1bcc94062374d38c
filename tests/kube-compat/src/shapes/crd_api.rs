// A resource managed through the API: `#[kube(...)]` split over several
// attributes, a status and a scale subresource, a printer column naming a
// field the schema lacks, and a length bound given to schemars and to garde
// alike (garde's `Validate` derived beside the schema).

use garde::Validate;
use kube::CustomResourceExt;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A parcel.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, Validate, JsonSchema)]
#[kube(
    group = "parcels.example.com",
    version = "v1",
    kind = "Parcel",
    namespaced
)]
#[kube(status = "ParcelStatus")]
#[kube(scale(
    spec_replicas_path = ".spec.replicas",
    status_replicas_path = ".status.replicas"
))]
#[kube(printcolumn(name = "Team", json_path = ".spec.metadata.team", type_ = "string"))]
pub struct ParcelSpec {
    #[schemars(length(min = 3))]
    #[garde(length(min = 3))]
    name: String,
    #[garde(skip)]
    info: String,
    #[garde(skip)]
    replicas: i32,
}

/// What the controller saw of a parcel.
#[derive(Deserialize, Serialize, Clone, Debug, Default, JsonSchema)]
pub struct ParcelStatus {
    broken: bool,
    replicas: i32,
}

fn parcel(name: &str, info: &str, replicas: i32) -> Parcel {
    Parcel::new(
        name,
        ParcelSpec {
            name: name.into(),
            info: info.into(),
            replicas,
        },
    )
}

/// The CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![("parcels", Parcel::crd())]
}

fn stored(parcel: &Parcel) -> Value {
    let mut object = serde_json::to_value(parcel).unwrap_or_default();
    crate::merge_patch(
        &mut object,
        &json!({ "metadata": { "namespace": "default", "resourceVersion": "1" } }),
    );
    object
}

/// The program's objects: creates, a replacement of the spec, a status
/// with the object, a merge patch of the replicas and of one field, and a
/// name too short for the bound.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    let stored_baz = stored(&parcel("baz", "old baz", 1));
    let stored_qux = stored(&parcel("qux", "unpatched qux", 0));
    vec![
        Example::create("baz", "parcels", "v1", &parcel("baz", "old baz", 1)),
        Example::update(
            "baz replaced",
            "parcels",
            "v1",
            &stored_baz,
            &json!({
                "spec": { "name": "baz", "info": "new baz", "replicas": 1 }
            }),
        ),
        Example::create("qux", "parcels", "v1", &parcel("qux", "unpatched qux", 0)),
        Example::create("qux with status", "parcels", "v1", &{
            let mut q = parcel("qux", "unpatched qux", 0);
            q.status = Some(ParcelStatus {
                broken: true,
                replicas: 0,
            });
            q
        }),
        Example::update(
            "qux scaled",
            "parcels",
            "v1",
            &stored_qux,
            &json!({ "spec": { "replicas": 2 } }),
        ),
        Example::update(
            "qux patched",
            "parcels",
            "v1",
            &stored_qux,
            &json!({ "spec": { "info": "patched qux" } }),
        ),
        Example::create(
            "name too short",
            "parcels",
            "v1",
            &parcel("x", "i will not be created", 1),
        ),
    ]
}

/// garde's verdicts on the same specs.
pub fn facts() -> Vec<(&'static str, String)> {
    vec![
        (
            "garde baz",
            format!("{}", parcel("baz", "", 1).spec.validate().is_ok()),
        ),
        (
            "garde x",
            format!("{}", parcel("x", "", 1).spec.validate().is_ok()),
        ),
    ]
}
