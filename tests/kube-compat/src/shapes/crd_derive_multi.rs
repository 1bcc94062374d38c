// Two versions of one kind, each derived in its own module (the second
// naming the first's status type by path), merged into one CRD with either
// version stored.

use kube::CustomResourceExt;
use kube::core::crd::merge_crds;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The first version.
pub mod v1 {
    use super::*;

    /// A spec the second version can be read from by dropping a field.
    #[derive(CustomResource, Serialize, Deserialize, Default, Debug, Clone, JsonSchema)]
    #[kube(
        group = "shifters.example.com",
        version = "v1",
        kind = "Shifter",
        status = "ShifterStatus",
        namespaced
    )]
    pub struct ShifterSpec {
        /// Its name.
        pub name: String,
        /// A field the second version dropped.
        pub legacy: u32,
    }

    /// The status both versions share.
    #[derive(Serialize, Deserialize, Default, Debug, Clone, JsonSchema)]
    pub struct ShifterStatus {
        /// Whether it is ready.
        pub ready: Option<bool>,
    }
}

/// The second version.
pub mod v2 {
    use super::*;

    /// A spec the first version cannot be read from.
    #[derive(CustomResource, Serialize, Deserialize, Default, Debug, Clone, JsonSchema)]
    #[kube(
        group = "shifters.example.com",
        version = "v2",
        kind = "Shifter",
        namespaced,
        status = "v1::ShifterStatus"
    )]
    pub struct ShifterSpec {
        /// Its name.
        pub name: String,
        /// A field the first version lacks.
        pub extra: Option<String>,
    }
}

/// Each version's CRD, and both merged with either stored.
pub fn crds() -> crate::Crds {
    let both = vec![v1::Shifter::crd(), v2::Shifter::crd()];
    let merged = |stored| merge_crds(both.clone(), stored).unwrap_or_default();
    vec![
        ("shifters v1", v1::Shifter::crd()),
        ("shifters v2", v2::Shifter::crd()),
        ("shifters stored as v1", merged("v1")),
        ("shifters stored as v2", merged("v2")),
    ]
}

/// The program's objects: one of each version while v1 is stored, and a
/// first-version object without its dropped field once v2 is stored.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    let old = v1::Shifter::new(
        "old",
        v1::ShifterSpec {
            name: "i am old".into(),
            legacy: 5,
        },
    );
    let new = v2::Shifter::new(
        "new",
        v2::ShifterSpec {
            name: "i am new".into(),
            extra: Some("hi".into()),
        },
    );
    vec![
        Example::create("v1 object", "shifters stored as v1", "v1", &old),
        Example::create("v2 object", "shifters stored as v1", "v2", &new),
        Example::create("v2 object, v2 stored", "shifters stored as v2", "v2", &new),
        Example::create(
            "v1 object without its field",
            "shifters stored as v2",
            "v1",
            &json!({
                "apiVersion": "shifters.example.com/v1",
                "kind": "Shifter",
                "metadata": { "name": "old" },
                "spec": { "name": "i am old2" }
            }),
        ),
    ]
}

/// The CRD names and both versions' API resources.
pub fn facts() -> Vec<(&'static str, String)> {
    vec![
        ("crd_name", v1::Shifter::crd_name().to_string()),
        (
            "v1 api_resource",
            format!("{:?}", v1::Shifter::api_resource()),
        ),
        (
            "v2 api_resource",
            format!("{:?}", v2::Shifter::api_resource()),
        ),
    ]
}
