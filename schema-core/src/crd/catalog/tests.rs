use serde_json::json;

use super::*;
use crate::model::field::Path;
use crate::model::options::Options;
use crate::model::wire::codec::{DecodeCx, Wire};

/// A CRD of `group` and `kind` with `versions`, each with `schema`.
fn crd(group: &str, kind: &str, versions: &[&str], schema: &Value) -> CustomResourceDefinition {
    let versions: Vec<Value> = versions
        .iter()
        .map(|v| {
            json!({
                "name": v, "served": true, "storage": false,
                "schema": {"openAPIV3Schema": schema},
            })
        })
        .collect();
    let plural = format!("{}s", kind.to_lowercase());
    let mut cx = DecodeCx::default();
    let crd = CustomResourceDefinition::decode(
        &json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("{plural}.{group}")},
            "spec": {
                "group": group,
                "names": {"kind": kind, "plural": plural},
                "scope": "Namespaced",
                "versions": versions,
            },
        }),
        &Path::root(),
        &mut cx,
    )
    .expect("CRD decodes");
    assert!(cx.errors.is_empty(), "{:?}", cx.errors);
    crd
}

fn spec_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "properties": {
                    "replicas": {"type": "integer", "default": 1},
                    "name": {"type": "string"},
                },
            },
        },
    })
}

/// `widgets.a.example` (v1, v2) and `gadgets.b.example` (v1).
fn catalog() -> Catalog {
    Catalog::new(
        vec![
            crd("a.example", "Widget", &["v1", "v2"], &spec_schema()),
            crd("b.example", "Gadget", &["v1"], &spec_schema()),
        ],
        &Options::default(),
    )
}

fn object(api_version: &str, kind: &str) -> Value {
    json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": "x"}})
}

fn selected(catalog: &Catalog, obj: &Value, version: Option<&str>) -> (String, String) {
    let s = catalog.select(obj, version).expect("selects");
    (
        s.crd.name().unwrap_or("").to_string(),
        s.version.to_string(),
    )
}

fn pair(crd: &str, version: &str) -> (String, String) {
    (crd.to_string(), version.to_string())
}

#[test]
fn objects_select_the_crd_of_their_group_and_kind_and_their_version() {
    let c = catalog();
    let widget = object("a.example/v2", "Widget");
    assert_eq!(selected(&c, &widget, None), pair("widgets.a.example", "v2"));
    let gadget = object("b.example/v1", "Gadget");
    assert_eq!(selected(&c, &gadget, None), pair("gadgets.b.example", "v1"));
}

#[test]
fn the_version_asked_for_overrides_the_objects() {
    let c = catalog();
    let widget = object("a.example/v2", "Widget");
    assert_eq!(
        selected(&c, &widget, Some("v1")),
        pair("widgets.a.example", "v1")
    );
}

#[test]
fn with_one_crd_the_version_asked_for_overrides_group_and_kind() {
    let c = Catalog::new(
        vec![crd("a.example", "Widget", &["v1"], &spec_schema())],
        &Options::default(),
    );
    let other = object("other.example/v9", "Other");
    assert_eq!(
        selected(&c, &other, Some("v1")),
        pair("widgets.a.example", "v1")
    );
    let err = c.select(&other, None).err();
    assert_eq!(
        err.map(|e| e.to_string()),
        Some(
            r#"no CustomResourceDefinition for apiVersion "other.example/v9", kind "Other""#.into()
        )
    );
}

#[test]
fn a_single_version_takes_objects_of_any_version_unless_one_is_asked_for() {
    let c = catalog();
    let gadget = object("b.example/v7", "Gadget");
    assert_eq!(selected(&c, &gadget, None), pair("gadgets.b.example", "v1"));
    let widget = object("a.example/v7", "Widget");
    let err = c.select(&widget, None).err();
    assert_eq!(
        err,
        Some(SelectError::NoVersion {
            crd: "widgets.a.example".into(),
            version: "v7".into()
        })
    );
    let err = c.select(&gadget, Some("v7")).err();
    assert_eq!(
        err.map(|e| e.to_string()),
        Some(r#"the CustomResourceDefinition "gadgets.b.example" has no version "v7""#.into())
    );
}

#[test]
fn objects_without_apiversion_or_kind_select_nothing() {
    let c = catalog();
    assert_eq!(
        c.select(&json!({"spec": {}}), None).err(),
        Some(SelectError::NoCrd {
            api_version: String::new(),
            kind: String::new()
        })
    );
    assert!(c.select(&json!("text"), None).is_err());
}

fn admission<'c>(c: &'c Catalog, obj: &Value) -> &'c Admission {
    let selection = c.select(obj, None).expect("selects");
    selection.admission().expect("admission")
}

#[test]
fn admissions_are_prepared_once_per_version() {
    let c = catalog();
    let v1 = object("a.example/v1", "Widget");
    let v2 = object("a.example/v2", "Widget");
    let first = admission(&c, &v1);
    let again = admission(&c, &v1);
    let other = admission(&c, &v2);
    assert!(std::ptr::eq(first, again));
    assert!(!std::ptr::eq(first, other));
    assert_eq!(first.resource().map(|r| r.version.as_str()), Some("v1"));
    assert_eq!(other.resource().map(|r| r.version.as_str()), Some("v2"));
}

#[test]
fn admission_of_a_non_structural_version_fails_every_time() {
    let bad = json!({"type": "object", "properties": {"a": {"type": "string", "id": "x"}}});
    let c = Catalog::new(
        vec![crd("a.example", "Widget", &["v1"], &bad)],
        &Options::default(),
    );
    let obj = object("a.example/v1", "Widget");
    for _ in 0..2 {
        let selection = c.select(&obj, None).expect("selects");
        assert!(matches!(
            selection.admission(),
            Err(AdmissionError::NotStructural(_))
        ));
    }
    let err = c
        .select(&obj, None)
        .expect("selects")
        .object_schema()
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        err,
        Some(
            r#"the schema of version "v1" is not structural: OpenAPIV3Schema 'id' is not supported"#
                .into()
        )
    );
}

#[test]
fn a_version_schema_prunes_resources_keeping_their_type_and_metadata() {
    let c = catalog();
    let mut obj = json!({
        "apiVersion": "a.example/v1", "kind": "Widget", "metadata": {"name": "x"},
        "spec": {"name": null, "extra": 1}, "status": {},
    });
    let schema = c.select(&obj, None).expect("selects").object_schema();
    let pruned = schema.expect("structural").prune(&mut obj);
    assert_eq!(pruned, ["spec.extra", "status"]);
    assert_eq!(
        obj,
        json!({"apiVersion": "a.example/v1", "kind": "Widget", "metadata": {"name": "x"}, "spec": {}})
    );
}

#[test]
fn a_version_schema_defaults() {
    let c = catalog();
    let mut obj = json!({"apiVersion": "a.example/v1", "kind": "Widget", "spec": {}});
    let schema = c.select(&obj, None).expect("selects").object_schema();
    schema.expect("structural").default(&mut obj);
    assert_eq!(obj["spec"], json!({"replicas": 1}));
}

#[test]
fn a_crd_preserving_unknown_fields_prunes_nothing() {
    let mut preserving = crd("a.example", "Widget", &["v1"], &spec_schema());
    if let Some(spec) = preserving.spec.as_mut() {
        spec.preserve_unknown_fields = Some(true);
    }
    let c = Catalog::new(vec![preserving], &Options::default());
    let mut obj = json!({"apiVersion": "a.example/v1", "kind": "Widget", "spec": {"extra": null}});
    let before = obj.clone();
    let schema = c.select(&obj, None).expect("selects").object_schema();
    assert!(schema.expect("structural").prune(&mut obj).is_empty());
    assert_eq!(obj, before);
}

#[test]
fn a_bare_schema_prunes_objects_that_are_not_resources() {
    let props = crate::model::wire::JsonSchemaProps::decode(
        &spec_schema(),
        &Path::root(),
        &mut DecodeCx::default(),
    )
    .expect("schema decodes");
    let schema = ObjectSchema::bare(Structural::from_props(&props).expect("structural"));
    // `apiVersion` is removed too (not a resource), but as at the server
    // the root's type and metadata fields are not reported.
    let mut obj = json!({"apiVersion": "v1", "spec": {"name": "n"}, "extra": 2});
    assert_eq!(schema.prune(&mut obj), ["extra"]);
    assert_eq!(obj, json!({"spec": {"name": "n"}}));
}
