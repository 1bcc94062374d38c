// `#[kube(no_spec)]`: the struct's fields sit at the root of the object
// (and of the schema) instead of under `spec`; the status stays beside
// them; a root rule reads one of them.

use kube::CustomResourceExt;
use kube::core::object::HasSpec;
use serde::{Deserialize, Serialize};

/// A bucket whose fields are the object's own.
#[derive(CustomResource, Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
#[kube(
    group = "buckets.example.com",
    version = "v1",
    kind = "Bucket",
    namespaced,
    no_spec,
    status = "BucketStatus",
    derive = "PartialEq",
    validation = "self.name.size() > 2"
)]
pub struct BucketFields {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    region: Option<String>,
}

/// What the controller saw of a bucket.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, Default, JsonSchema)]
pub struct BucketStatus {
    shipped: bool,
}

fn bucket(name: &str, region: Option<&str>) -> Bucket {
    Bucket::new(
        name,
        BucketFields {
            name: name.into(),
            region: region.map(Into::into),
        },
    )
}

/// The CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![("buckets", Bucket::crd())]
}

/// Buckets with and without a region and a status, and a name the root
/// rule refuses.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    let mut shipped = bucket("blobs", None);
    shipped.status = Some(BucketStatus { shipped: true });
    vec![
        Example::create(
            "with a region",
            "buckets",
            "v1",
            &bucket("blobs", Some("eu-west-1")),
        ),
        Example::create("with a status", "buckets", "v1", &shipped),
        Example::create("name too short", "buckets", "v1", &bucket("ab", None)),
    ]
}

/// The serialized object, its round trip and the spec through `HasSpec`.
pub fn facts() -> Vec<(&'static str, String)> {
    let b = bucket("blobs", Some("eu-west-1"));
    let text = serde_json::to_string(&b).unwrap_or_default();
    let back: Option<Bucket> = serde_json::from_str(&text).ok();
    vec![
        ("serialized", text),
        ("round trip", format!("{}", back.as_ref() == Some(&b))),
        ("spec", format!("{:?}", b.spec())),
    ]
}
