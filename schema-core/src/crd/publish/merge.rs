//! The OpenAPI of several CRDs as one set of documents: the CRDs limited
//! to the versions asked for ([`with_versions`]), then their published
//! documents merged, one Swagger 2.0 document ([`merge_v2`]) or one
//! OpenAPI 3.0 document per group-version ([`merge_v3`]).
//!
//! Merging keeps the first document of each kind whole and adds, from
//! every later one, only the models (v2 `definitions`, v3
//! `components.schemas`) not there yet: the apimachinery definitions every
//! CRD's document holds come once, and of two CRDs publishing a model of
//! the same name the first wins. Added models follow the ones present, in
//! the order of their document.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::wire::CustomResourceDefinition;

/// Where a Swagger 2.0 document keeps its models.
const DEFINITIONS_V2: &str = "/definitions";
/// Where an OpenAPI 3.0 document keeps its models.
const DEFINITIONS_V3: &str = "/components/schemas";

/// `crd` with only its versions named in `names` (all of them when `names`
/// is empty), to publish those versions only.
#[must_use]
pub fn with_versions(crd: &CustomResourceDefinition, names: &[String]) -> CustomResourceDefinition {
    let mut crd = crd.clone();
    if !names.is_empty()
        && let Some(versions) = crd.spec.as_mut().and_then(|s| s.versions.as_mut())
    {
        versions.retain(|v| v.name.as_ref().is_some_and(|n| names.contains(n)));
    }
    crd
}

/// Adds one CRD's Swagger 2.0 document (see
/// [`publish_v2`](super::publish_v2)) to `merged`, which is `Value::Null`
/// before the first: the first document is taken whole, later ones give
/// the definitions `merged` lacks.
pub fn merge_v2(merged: &mut Value, doc: Value) {
    merge_models(merged, doc, DEFINITIONS_V2);
}

/// Adds one CRD's OpenAPI 3.0 documents, keyed by group-version (see
/// [`publish_v3`](super::publish_v3)), to `merged`: a group-version's first
/// document is taken whole, later ones give the `components.schemas`
/// it lacks.
pub fn merge_v3(merged: &mut BTreeMap<String, Value>, docs: BTreeMap<String, Value>) {
    for (group_version, doc) in docs {
        merge_models(
            merged.entry(group_version).or_default(),
            doc,
            DEFINITIONS_V3,
        );
    }
}

/// Merges the models at `pointer` of `doc` into `merged` (or makes `doc`
/// the merged document when there is none yet).
fn merge_models(merged: &mut Value, mut doc: Value, pointer: &str) {
    if merged.is_null() {
        *merged = doc;
        return;
    }
    let incoming = doc.pointer_mut(pointer).map(Value::take);
    let models = merged.pointer_mut(pointer).and_then(Value::as_object_mut);
    if let (Some(Value::Object(incoming)), Some(models)) = (incoming, models) {
        for (name, model) in incoming {
            models.entry(name).or_insert(model);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::field::Path;
    use crate::model::wire::codec::{DecodeCx, Wire};

    fn crd(versions: &[&str]) -> CustomResourceDefinition {
        let versions: Vec<Value> = versions
            .iter()
            .map(|v| json!({"name": v, "served": true, "storage": false}))
            .collect();
        let mut cx = DecodeCx::default();
        let crd = CustomResourceDefinition::decode(
            &json!({
                "apiVersion": "apiextensions.k8s.io/v1",
                "kind": "CustomResourceDefinition",
                "metadata": {"name": "foos.example.com"},
                "spec": {"group": "example.com", "versions": versions},
            }),
            &Path::root(),
            &mut cx,
        )
        .expect("CRD decodes");
        assert!(cx.errors.is_empty(), "{:?}", cx.errors);
        crd
    }

    fn version_names(crd: &CustomResourceDefinition) -> Vec<&str> {
        crd.spec
            .as_ref()
            .and_then(|s| s.versions.as_deref())
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v.name.as_deref())
            .collect()
    }

    #[test]
    fn with_versions_keeps_the_named_versions_in_their_order() {
        let c = crd(&["v1", "v2", "v3"]);
        let names = ["v3".to_string(), "v1".to_string(), "v9".to_string()];
        assert_eq!(version_names(&with_versions(&c, &names)), ["v1", "v3"]);
        assert_eq!(version_names(&with_versions(&c, &[])), ["v1", "v2", "v3"]);
    }

    #[test]
    fn the_first_v2_document_is_taken_whole() {
        let mut merged = Value::Null;
        let doc = json!({"swagger": "2.0", "definitions": {"b": 1, "a": 2}, "paths": {}});
        merge_v2(&mut merged, doc.clone());
        assert_eq!(merged, doc);
    }

    #[test]
    fn later_v2_documents_add_missing_definitions_after_the_others() {
        let mut merged = Value::Null;
        merge_v2(
            &mut merged,
            json!({"info": 1, "definitions": {"b": 1, "m": 1}}),
        );
        merge_v2(
            &mut merged,
            json!({"info": 2, "definitions": {"a": 2, "m": 2}}),
        );
        assert_eq!(
            merged,
            json!({"info": 1, "definitions": {"b": 1, "m": 1, "a": 2}})
        );
        let names: Vec<&String> = merged["definitions"]
            .as_object()
            .expect("definitions")
            .keys()
            .collect();
        assert_eq!(names, ["b", "m", "a"]);
    }

    #[test]
    fn a_merged_document_without_definitions_takes_none() {
        let mut merged = json!({"info": 1});
        merge_v2(&mut merged, json!({"definitions": {"a": 1}}));
        assert_eq!(merged, json!({"info": 1}));
    }

    #[test]
    fn v3_documents_merge_per_group_version() {
        let doc = |models: Value| json!({"openapi": "3.0.0", "components": {"schemas": models}});
        let mut merged = BTreeMap::new();
        merge_v3(
            &mut merged,
            BTreeMap::from([("apis/g/v1".to_string(), doc(json!({"Foo": 1, "Meta": 1})))]),
        );
        merge_v3(
            &mut merged,
            BTreeMap::from([
                ("apis/g/v1".to_string(), doc(json!({"Bar": 2, "Meta": 2}))),
                ("apis/h/v1".to_string(), doc(json!({"Baz": 2}))),
            ]),
        );
        assert_eq!(
            merged,
            BTreeMap::from([
                (
                    "apis/g/v1".to_string(),
                    doc(json!({"Foo": 1, "Meta": 1, "Bar": 2}))
                ),
                ("apis/h/v1".to_string(), doc(json!({"Baz": 2}))),
            ])
        );
    }
}
