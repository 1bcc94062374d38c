// `schema = "manual"`: the derive makes the root type but not its schema;
// the program implements `JsonSchema` for the root by hand.

use std::borrow::Cow;

use kube::{CustomResourceExt, Resource};
use serde::{Deserialize, Serialize};

/// A tally whose root schema is written by hand.
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone)]
#[kube(
    group = "tallies.example.com",
    version = "v1",
    kind = "Tally",
    namespaced,
    schema = "manual"
)]
pub struct MyTally {
    count: u32,
}

impl JsonSchema for Tally {
    fn schema_name() -> Cow<'static, str> {
        "Tally".into()
    }

    fn json_schema(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "title": "Tally",
            "type": "object",
            "required": ["spec"],
            "properties": {
                "spec": {
                    "type": "object",
                    "required": ["count"],
                    "properties": {
                        "count": { "type": "integer", "minimum": 0 }
                    }
                }
            }
        })
    }
}

/// The CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![("tallies", Tally::crd())]
}

/// One tally.
pub fn examples() -> Vec<crate::Example> {
    vec![crate::Example::create(
        "five",
        "tallies",
        "v1",
        &Tally::new("five", MyTally { count: 5 }),
    )]
}

/// The kind and the spec of a new tally.
pub fn facts() -> Vec<(&'static str, String)> {
    vec![
        ("kind", Tally::kind(&()).into_owned()),
        (
            "spec",
            format!("{:?}", Tally::new("five", MyTally { count: 5 }).spec),
        ),
    ]
}
