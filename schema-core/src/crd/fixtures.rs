//! CRDs for the tests of the `crd` modules, in the shape of upstream's
//! test fixtures.

use serde_json::{Value, json};

use crate::model::field::Path;
use crate::model::wire::CustomResourceDefinition;
use crate::model::wire::codec::{DecodeCx, Wire};

/// Decodes a v1 CRD, which must decode without errors.
pub(crate) fn decode(v: &Value) -> CustomResourceDefinition {
    let mut cx = DecodeCx::default();
    let crd = CustomResourceDefinition::decode(v, &Path::root(), &mut cx).expect("decodes");
    assert!(cx.errors.is_empty(), "{:?}", cx.errors);
    crd
}

/// A valid v1 CRD, in the shape of upstream's test fixtures.
pub(crate) fn base() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "plural.group.com"},
        "spec": {
            "group": "group.com",
            "scope": "Cluster",
            "names": {"plural": "plural", "singular": "singular", "kind": "Plural", "listKind": "PluralList"},
            "versions": [
                {"name": "version", "served": true, "storage": true,
                 "schema": {"openAPIV3Schema": {"type": "object"}}}
            ]
        }
    })
}

/// `base()` with a second, non-storage version `version2`.
pub(crate) fn base2() -> Value {
    let mut v = base();
    v["spec"]["versions"] = json!([
        {"name": "version", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}},
        {"name": "version2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}}
    ]);
    v
}
