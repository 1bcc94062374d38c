// Enum specs kube cannot merge into one object: a unit variant (a string)
// beside variants that are objects, and untagged variants whose shared
// field has two schemas (two types, or two descriptions). kube-derive
// compiles them; their `crd()` panics.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::CustomResourceExt;
use serde::{Deserialize, Serialize};

/// A string variant beside a newtype variant
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "mixed.example.com", version = "v1", kind = "UnitAndNewtype")]
pub enum UnitAndNewtypeSpec {
    /// A string
    A,
    /// An object holding a number
    B(u32),
}

/// A string variant beside a struct variant
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "mixed.example.com", version = "v1", kind = "UnitAndStruct")]
pub enum UnitAndStructSpec {
    /// A string
    A,
    /// An object with one field
    B { inner: u32 },
}

/// Untagged variants whose shared field has two types
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "mixed.example.com", version = "v1", kind = "TwoTypes")]
#[serde(untagged)]
pub enum TwoTypesSpec {
    A { inner: String },
    B { inner: u32 },
}

/// Untagged variants whose shared field has two descriptions
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "mixed.example.com", version = "v1", kind = "TwoDescriptions")]
#[serde(untagged)]
pub enum TwoDescriptionsSpec {
    A {
        /// One description
        inner: u32,
        additional: String,
    },
    B {
        /// Another description
        inner: u32,
    },
}

/// A struct with a field of an enum kube cannot merge
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(
    group = "mixed.example.com",
    version = "v1",
    kind = "HoldsUnitAndNewtype"
)]
pub struct HoldsUnitAndNewtypeSpec {
    foo: UnitAndNewtypeSpec,
}

/// A root's `crd` function.
pub type CrdFunction = fn() -> CustomResourceDefinition;

/// The `crd` function of each root, by the CRD's name.
pub fn crd_functions() -> Vec<(&'static str, CrdFunction)> {
    vec![
        ("unitandnewtypes", UnitAndNewtype::crd),
        ("unitandstructs", UnitAndStruct::crd),
        ("twotypes", TwoTypes::crd),
        ("twodescriptions", TwoDescriptions::crd),
        ("holdsunitandnewtypes", HoldsUnitAndNewtype::crd),
    ]
}
