// Enum specs whose variants kube merges into one object: newtype variants
// only, newtype and struct variants, and untagged struct variants whose
// shared field has one schema.

use kube::CustomResourceExt;
use serde::{Deserialize, Serialize};

/// Every variant is an object: takes a string or a number
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "mixed.example.com", version = "v1", kind = "Newtypes")]
pub enum NewtypesSpec {
    /// Takes a [`String`]
    A(String),
    /// Takes a [`u32`]
    B(u32),
}

// Deliberately without descriptions.
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "mixed.example.com", version = "v1", kind = "NewtypeAndStruct")]
pub enum NewtypeAndStructSpec {
    A(String),
    B { inner: u32 },
}

/// Untagged variants sharing a field with one schema
#[derive(CustomResource, Serialize, Deserialize, Debug, Clone, JsonSchema)]
#[kube(group = "mixed.example.com", version = "v1", kind = "SharedField")]
#[serde(untagged)]
pub enum SharedFieldSpec {
    A {
        /// The shared field, described alike in both variants
        inner: u32,
        /// A field of this variant alone
        additional: String,
    },
    B {
        /// The shared field, described alike in both variants
        inner: u32,
    },
}

/// Each CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![
        ("newtypes", Newtypes::crd()),
        ("newtypeandstructs", NewtypeAndStruct::crd()),
        ("sharedfields", SharedField::crd()),
    ]
}

/// An object of each variant.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    vec![
        Example::create(
            "newtype a",
            "newtypes",
            "v1",
            &Newtypes::new("m", NewtypesSpec::A("a".into())),
        ),
        Example::create(
            "newtype b",
            "newtypes",
            "v1",
            &Newtypes::new("m", NewtypesSpec::B(7)),
        ),
        Example::create(
            "struct b",
            "newtypeandstructs",
            "v1",
            &NewtypeAndStruct::new("m", NewtypeAndStructSpec::B { inner: 7 }),
        ),
        Example::create(
            "shared a",
            "sharedfields",
            "v1",
            &SharedField::new(
                "m",
                SharedFieldSpec::A {
                    inner: 1,
                    additional: "x".into(),
                },
            ),
        ),
        Example::create(
            "shared b",
            "sharedfields",
            "v1",
            &SharedField::new("m", SharedFieldSpec::B { inner: 1 }),
        ),
    ]
}

/// Nothing beyond the CRDs.
pub fn facts() -> Vec<(&'static str, String)> {
    Vec::new()
}
