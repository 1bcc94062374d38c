// Enums as fields: unit variants with and without descriptions, an
// externally tagged enum of a newtype variant and a struct variant
// (required and optional), and an untagged enum of struct variants behind
// `#[serde(flatten)]`.

use kube::CustomResourceExt;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A flavor, as a string
#[derive(Serialize, Deserialize, Debug, Clone, JsonSchema)]
pub enum Flavor {
    /// The first flavor
    Sweet,
    /// The second flavor
    Sour,

    // These two have no description.
    Bitter,
    Salty,
}

#[derive(Serialize, Deserialize, Debug, Clone, JsonSchema)]
pub enum Shade {
    Light,
    Dark,
    Pale,
    Deep,
}

/// A recipe: a newtype variant or a struct variant
#[derive(Serialize, Deserialize, Debug, Clone, JsonSchema)]
pub enum Recipe {
    /// This describes the variant, not the flavor
    Simple(Flavor),

    /// A recipe with details
    Detailed {
        dish: String,
        flavor: Flavor,
        plain_shade: Shade,
    },
}

/// A portion, told apart by its fields
#[derive(Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum Portion {
    /// When `small` is there
    ///
    /// A variant's description has no place once the variants merge.
    A { small: String },
    /// When `medium` is there
    B { medium: Flavor, large: String },
    /// When nothing is there
    C {},
}

/// A [`Portion`] flattened into a struct
#[derive(Serialize, Deserialize, Debug, Clone, JsonSchema)]
pub struct FlatPortion {
    #[serde(flatten)]
    inner: Portion,
}

#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "enums.example.com", version = "v1", kind = "FlavorTest")]
pub struct FlavorTestSpec {
    foo: Flavor,
}

#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(
    group = "enums.example.com",
    version = "v1",
    kind = "OptionalFlavorTest"
)]
pub struct OptionalFlavorTestSpec {
    foo: Option<Flavor>,
}

#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "enums.example.com", version = "v1", kind = "ShadeTest")]
pub struct ShadeTestSpec {
    foo: Shade,
}

#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "enums.example.com", version = "v1", kind = "RecipeTest")]
pub struct RecipeTestSpec {
    foo: Recipe,
}

#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(
    group = "enums.example.com",
    version = "v1",
    kind = "OptionalRecipeTest"
)]
pub struct OptionalRecipeTestSpec {
    /// An optional recipe
    foo: Option<Recipe>,
}

#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "enums.example.com", version = "v1", kind = "FlatPortionTest")]
pub struct FlatPortionTestSpec {
    foo: FlatPortion,
}

/// Each CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![
        ("flavortests", FlavorTest::crd()),
        ("optionalflavortests", OptionalFlavorTest::crd()),
        ("shadetests", ShadeTest::crd()),
        ("recipetests", RecipeTest::crd()),
        ("optionalrecipetests", OptionalRecipeTest::crd()),
        ("flatportiontests", FlatPortionTest::crd()),
    ]
}

/// Objects of each resource, valid and not.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    let raw = |kind: &str, spec| {
        json!({
            "apiVersion": "enums.example.com/v1",
            "kind": kind,
            "metadata": { "name": "e" },
            "spec": spec
        })
    };
    vec![
        Example::create(
            "a flavor",
            "flavortests",
            "v1",
            &FlavorTest::new("e", FlavorTestSpec { foo: Flavor::Salty }),
        ),
        Example::create(
            "not a flavor",
            "flavortests",
            "v1",
            &raw("FlavorTest", json!({ "foo": "Umami" })),
        ),
        Example::create(
            "no flavor",
            "optionalflavortests",
            "v1",
            &OptionalFlavorTest::new("e", OptionalFlavorTestSpec { foo: None }),
        ),
        Example::create(
            "a shade",
            "shadetests",
            "v1",
            &ShadeTest::new("e", ShadeTestSpec { foo: Shade::Deep }),
        ),
        Example::create(
            "a simple recipe",
            "recipetests",
            "v1",
            &RecipeTest::new(
                "e",
                RecipeTestSpec {
                    foo: Recipe::Simple(Flavor::Sweet),
                },
            ),
        ),
        Example::create(
            "a detailed recipe",
            "recipetests",
            "v1",
            &RecipeTest::new(
                "e",
                RecipeTestSpec {
                    foo: Recipe::Detailed {
                        dish: "soup".into(),
                        flavor: Flavor::Sour,
                        plain_shade: Shade::Pale,
                    },
                },
            ),
        ),
        Example::create(
            "two recipes at once",
            "recipetests",
            "v1",
            &raw(
                "RecipeTest",
                json!({
                    "foo": { "Simple": "Sweet", "Detailed": { "dish": "d", "flavor": "Sour", "plain_shade": "Pale" } }
                }),
            ),
        ),
        Example::create(
            "no recipe",
            "optionalrecipetests",
            "v1",
            &OptionalRecipeTest::new("e", OptionalRecipeTestSpec { foo: None }),
        ),
        Example::create(
            "portion b",
            "flatportiontests",
            "v1",
            &FlatPortionTest::new(
                "e",
                FlatPortionTestSpec {
                    foo: FlatPortion {
                        inner: Portion::B {
                            medium: Flavor::Bitter,
                            large: "l".into(),
                        },
                    },
                },
            ),
        ),
        Example::create(
            "portion c",
            "flatportiontests",
            "v1",
            &FlatPortionTest::new(
                "e",
                FlatPortionTestSpec {
                    foo: FlatPortion {
                        inner: Portion::C {},
                    },
                },
            ),
        ),
        Example::create(
            "portion with half of b",
            "flatportiontests",
            "v1",
            &raw(
                "FlatPortionTest",
                json!({
                    "foo": { "medium": "Bitter" }
                }),
            ),
        ),
    ]
}

/// Nothing beyond the CRDs.
pub fn facts() -> Vec<(&'static str, String)> {
    Vec::new()
}
